"""Who runs which part of the floor: the jefes of a sector, the dealer of a table.

The director names a sector's jefes and the jefe (or the director) names a
table's dealer [GA art. 19.1]. Every command then runs only in its actor's
scope: a jefe acts on the tables of a sector they run (any sector whose jefes
were never named), a dealer only on the table they deal. The scope is checked
here, once for every command, by the policy ``StaffScope`` (declared to the
room as "staff_scope", floor.kernel.composition): before it, from the table or
sector it names, and after its decision, on every table it changed (a draw
names its tables as a list, a move a proposal, a cancelled fill a request);
the rules themselves are the aggregates' (Sector.check_run_by,
Table.check_dealt_by).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from floor.application.dealers import table_games
from floor.domain.dealer_roster import DealerRoster
from floor.domain.sector import Sector
from floor.domain.table import Table
from floor.kernel.composition import ROOM, CommandPolicy
from floor.kernel.errors import DomainError
from floor.kernel.registry import CommandSpec, command
from floor.kernel.roles import JEFE_OR_DIRECTOR, Actor, Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork

# The roles whose reach is part of the floor: a jefe's sectors, a dealer's table.
SCOPED_ROLES = (Role.JEFE_SECTOR, Role.CRUPIER)


# Who runs what [GA art. 19.1]: the director names a sector's jefes; the jefe
# (or the director) names a table's dealer.
def _jefes_payload(*, sector_id: object, jefes: list[str]) -> dict:
    """The jefes named are fingerprinted in order, whatever order they came in."""
    return {"sector_id": str(sector_id), "jefes": sorted(jefes)}


@command(roles=(Role.DIRECTOR,), scope="sector", payload=_jefes_payload)
def assign_jefes(work: UnitOfWork, *, sector_id: UUID | str, jefes: list[str]) -> Decision:
    """The director names the jefes who run a sector (none: any jefe)."""
    sector = work.load(Sector, sector_id, "sector")
    named = sector.assign_jefes(jefes)
    return [sector], {"sector_id": str(sector.id), "jefes": named}


@command(roles=JEFE_OR_DIRECTOR, scope="table")
def assign_dealer(work: UnitOfWork, *, table_id: UUID | str, dealer: str | None) -> Decision:
    """The jefe names the crupier dealing at a table (None: nobody) [GA art.
    19.1], and the dealer box follows: the dealer named deals the table from
    now in the roster too, the one relieved goes back to the box.

    A dealer not clocked in is clocked in at the table's sector on the way
    rather than refused: the jefe names the dealer standing at the table, and
    a table must have its dealer at all times [GA art. 19] ("cada mesa de
    xogo terá permanentemente ao seu servizo un crupier"), so a supervisor
    expects the naming to hold and the box to show it, not a refusal sending
    them to clock the dealer in first. The table's games are added to the
    dealer's (the jefe vouches they deal it); one dealing another table is
    moved here, that table keeping the dealer it names until the jefe names
    another (the plan then offers a push there). Both aggregates are saved by
    the one command, so the box never contradicts the table card."""
    table = work.load(Table, table_id, "table")
    relieved = table.dealer
    named = table.assign_dealer(dealer)
    changed: list = [table]
    box = work.find(DealerRoster, DealerRoster.create_id())
    if named is not None or box is not None:
        box = box or DealerRoster()
        moved = box.name_at_table(
            table_id=table.id,
            sector_id=table.sector_id,
            games=table_games(table),
            dealer=named,
            relieved=relieved,
            now=work.now(),
            break_length=work.profile.dealer_rotation.break_length,
        )
        if moved:
            changed.append(box)
    return changed, {"table_id": str(table.id), "dealer": named}


# --- the scope of every command -----------------------------------------------------


def named(work: UnitOfWork, cls: type, aggregate_id: object) -> Any:
    """The aggregate a command names, or None when it names none (or a bad
    id: the command itself answers that)."""
    if aggregate_id is None:
        return None
    try:
        return work.find(cls, UUID(str(aggregate_id)))
    except ValueError:
        return None


def check_table_in_reach(work: UnitOfWork, username: str, role: Role, table_id: object) -> None:
    """Refuses the table ``table_id`` to ``username`` acting as ``role`` when it
    lies outside their reach: a dealer's is the table they deal, a jefe's the
    tables of a sector they run. An unscoped role, or no such table: no
    refusal here."""
    if role not in SCOPED_ROLES:
        return
    table = named(work, Table, table_id)
    if table is not None:
        _check_reach(work, username, role, table)


def _check_reach(work: UnitOfWork, username: str, role: Role, table: Table) -> None:
    """The dealer's own table, or a table of a sector the jefe runs."""
    if role is Role.CRUPIER:
        table.check_dealt_by(username)
    else:
        named(work, Sector, table.sector_id).check_run_by(username)


def dealer_sector(work: UnitOfWork, dealer: object) -> str | None:
    """The sector (hex) a command naming only a dealer acts in: the one they
    are clocked in at (their games, ``set_dealer_games``), so a jefe changes
    only his sectors' dealers, like every other dealer command [GA art.
    19.1]. A dealer off shift belongs to no sector: any jefe sets their games."""
    name = str(dealer or "").strip()
    box = work.find(DealerRoster, DealerRoster.create_id()) if name else None
    entry = box.entry(name) if box is not None else None
    if entry is None or entry["state"] == "off":
        return None
    return entry["sector_id"]


def check_scope(work: UnitOfWork, username: str, role: Role, payload: dict[str, Any]) -> None:
    """Refuses ``role`` for a command naming a table or sector outside its reach."""
    if role not in SCOPED_ROLES:
        return
    table = named(work, Table, payload.get("table_id"))
    if role is Role.CRUPIER:
        if table is not None:
            table.check_dealt_by(username)
        return
    sector_id = table.sector_id if table is not None else payload.get("sector_id")
    if sector_id is None and table is None:
        sector_id = dealer_sector(work, payload.get("dealer"))
    sector = named(work, Sector, sector_id)
    if sector is not None:
        sector.check_run_by(username)


class StaffScope(CommandPolicy):
    """Every command runs in its actor's scope: checked on what it names, then
    on the tables its decision changed."""

    def choose_role(
        self, work: UnitOfWork, actor: Actor, spec: CommandSpec, payload: dict[str, Any]
    ) -> Role:
        """The first role the actor may issue the command under, here: a role
        outside its scope is passed over, and if none is left the first refusal
        (not your sector, not your table) is the answer."""
        first = spec.role_for(actor)  # refuses a role that may never
        refusal: DomainError | None = None
        for role in (r for r in spec.roles if r in actor.roles):
            try:
                check_scope(work, actor.username, role, payload)
            except DomainError as error:
                refusal = refusal or error
                continue
            return role
        raise refusal if refusal is not None else AssertionError(first)

    def check_changed(
        self,
        work: UnitOfWork,
        actor: Actor,
        spec: CommandSpec,
        role: Role,
        changed: Sequence[Aggregate],
    ) -> None:
        """The tables a decision changed (a draw's, a move's two, the table of
        a fill or credit request) must all be the actor's: the payload may
        name them only indirectly (``table_ids``, a proposal, a request). An
        aggregate of another context names its table by ``table_id``."""
        if role not in SCOPED_ROLES or any(
            r not in SCOPED_ROLES for r in spec.roles if r in actor.roles
        ):
            return  # an unscoped role of the actor's (the director) may do it anyway
        for aggregate in changed:
            if isinstance(aggregate, Table):
                table = aggregate
            elif getattr(aggregate, "table_id", None) is not None:
                table = named(work, Table, aggregate.table_id)
            else:
                continue
            if table is not None:
                _check_reach(work, actor.username, role, table)


ROOM.add_policy("staff_scope", StaffScope())
