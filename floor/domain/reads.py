"""Who may read what, and how much of it: the one rule every read obeys.

Each role keeps to its place on the floor [GA art. 19.1; CM "Personal"]: the
director and the regulator's inspector read everything; a jefe de sector reads
the sectors the director named him to (a sector with no jefe named is any
jefe's, as for his commands: floor.kernel.roles.runs_sector), their tables and
trays; a crupier reads the table the jefe named him dealer of; the cage (cajero)
reads its money and finds a player by card. A command is refused the same way
(floor.kernel.registry), so what one may not change one may not read either,
unless it is one's job to watch it (the inspector).

Every read endpoint and console page names the resource it reads (``reads``
on its view); its readers and their scope are declared here once, so the
role matrix test can walk every URL against this table.
"""

from __future__ import annotations

from enum import StrEnum

from floor.kernel.errors import forbidden
from floor.kernel.roles import Actor, Role


class Scope(StrEnum):
    """How far a role reads a resource."""

    ALL = "all"  # all of it
    SECTORS = "sectors"  # the jefe's sectors and their tables (runs_sector)
    TABLE = "table"  # the tables the crupier was named dealer of
    TRAYS = "trays"  # the fills and credits of the jefe's sectors' tables
    CARD = "card"  # one player at a time, found by card number (the cage)


J, C, K = Role.JEFE_SECTOR, Role.CRUPIER, Role.CAJERO
_MANAGEMENT = {Role.DIRECTOR: Scope.ALL, Role.INSPECTOR: Scope.ALL}
_EVERYONE = {**_MANAGEMENT, J: Scope.ALL, C: Scope.ALL, K: Scope.ALL}
# The jefe's floor: his sectors; the dealer's: his table.
_FLOOR = {**_MANAGEMENT, J: Scope.SECTORS}
_TABLE = {**_FLOOR, C: Scope.TABLE}
_CAGE = {**_MANAGEMENT, K: Scope.ALL}

READS: dict[str, dict[Role, Scope]] = {
    # Anyone, logged in or not: the room's board shows no names.
    "public": {},
    # Who one is, and the landing page (narrowed to what one reads).
    "me": _EVERYONE,
    # One's own API tokens (prefix, created, expiry; never the secret).
    "own_tokens": _EVERYONE,
    # Who is locked out after wrong passwords: the director, who lifts it.
    "lockouts": {Role.DIRECTOR: Scope.ALL},
    # The staff's accounts, their roles and passwords (Django's admin, /admin/):
    # the director's (a superuser enters too: floor.admin.manages_staff).
    "staff": {Role.DIRECTOR: Scope.ALL},
    "home": _EVERYONE,
    # Sectors and what the jefe runs in them: the console, its tables, seats, lists.
    "sectors": _FLOOR,
    # A table as the list names it (game, stakes, dealer, no players): the cage
    # names tables in its buy-ins, fills and credits.
    "tables": {**_TABLE, K: Scope.ALL},
    # A table's seats, players, stacks and hands: the dealer's tablet.
    "table_floor": _TABLE,
    # Players: the jefe registers and bars them (any sector's lists); the cage
    # registers them and finds them by card.
    "players": {**_MANAGEMENT, J: Scope.ALL, K: Scope.CARD},
    # A patron's identity (issue 25, item 1): the cage, the director and the
    # inspector see the document; the jefe at the door whether the patron is
    # identified and with which kind of document (floor.compliance.identity).
    "identity": {**_MANAGEMENT, J: Scope.ALL, K: Scope.ALL},
    # A patron's personal data, exported whole (issue 25, item 4): the director's.
    "personal_data": {Role.DIRECTOR: Scope.ALL},
    # The waiting lists are the room's, one per game, kept by any jefe [CM-6].
    "waiting_lists": {**_MANAGEMENT, J: Scope.ALL},
    # Balancing spans a game's tables across sectors: the groups touching his.
    "balance_groups": _FLOOR,
    # Jackpots are staked and paid at the tables and funded by the cage.
    "jackpots": _EVERYONE,
    # The cage's books: its position, its days, every account and transaction.
    "cage": _CAGE,
    # Balances: the jefe reads his tables' accounts (trays, boxes, stacks).
    "accounts": {**_CAGE, J: Scope.SECTORS},
    # Transactions and their receipts: the jefe, his tables' fills and credits.
    "transactions": {**_CAGE, J: Scope.TRAYS},
    # Fills and credits, asked by the jefe and confirmed by the cage.
    "tray_requests": {**_CAGE, J: Scope.SECTORS},
    # The reports: management, and the jefe for his sectors; the cage its rake.
    "reports": _FLOOR,
    "report_waiting_lists": {**_MANAGEMENT, J: Scope.ALL},
    "report_rake": {**_FLOOR, K: Scope.ALL},
    "report_cage": _CAGE,
    # The cage's identification threshold (issue 25): the compliance officer's,
    # management's; the cashier meets the threshold at the cage, not the report.
    "report_aml": _MANAGEMENT,
    # The attempts the exclusion lists refused at the doors (issue 25, item 2):
    # the compliance officer's, management's; the jefe and the cage saw each
    # refusal at the desk, and read no register of them.
    "report_exclusion_refusals": _MANAGEMENT,
    # The compliance console (issue 25, item 2): the lists held, the possible
    # matches waiting, the refused attempts; the director acts there, the
    # inspector reads it. The jefe and the cage take a self-exclusion at their
    # own consoles, where they find the patron.
    "compliance": _MANAGEMENT,
    # The journal (histories) is the audit trail: not the dealer's.
    "history": {**_FLOOR, K: Scope.ALL},
    # The service's own figures (GET /metrics: commands, timers, processes; no
    # player, no money): the casino's staff, as /healthz's details (floor.monitoring).
    "metrics": _EVERYONE,
}


def read_scopes(actor: Actor, resource: str) -> frozenset[Scope]:
    """The scopes under which ``actor`` reads ``resource``, or a 403
    ``role_not_allowed`` when no role of theirs reads it."""
    readers = READS.get(resource)
    if readers is None:
        raise LookupError(f"no read rule is declared for {resource!r}")
    scopes = frozenset(readers[role] for role in actor.roles if role in readers)
    if not scopes:
        raise forbidden("role_not_allowed", roles=sorted(str(r) for r in readers))
    return scopes


def readers_of(resource: str) -> frozenset[Role]:
    return frozenset(READS[resource])
