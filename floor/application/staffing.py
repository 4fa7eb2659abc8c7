"""Who runs which part of the floor: the jefes of a sector, the dealer of a table.

The director names a sector's jefes and the jefe (or the director) names a
table's dealer [GA art. 19.1]. Every command then runs only in its actor's
scope: a jefe acts on the tables of a sector they run (any sector whose jefes
were never named), a dealer only on the table they deal. The scope is checked
here, once for every command: before it, from the table or sector it names, and
after its decision, on every table it changed (a draw names its tables as a
list, a move a proposal, a cancelled fill a request); the rules themselves are
the aggregates' (Sector.check_run_by, Table.check_dealt_by).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from floor.domain.sector import Sector
from floor.domain.table import Table
from floor.kernel.errors import DomainError
from floor.kernel.registry import COMMANDS, command, current_command
from floor.kernel.roles import JEFE_OR_DIRECTOR, Actor, Role
from floor.kernel.service import CommandService, Decision, Outcome
from ledger.domain.tray_request import TrayRequest

SCOPED_ROLES = (Role.JEFE_SECTOR, Role.CRUPIER)


class StaffingCommands(CommandService):
    # Who runs what [GA art. 19.1]: the director names a sector's jefes; the jefe
    # (or the director) names a table's dealer.
    @command(roles=(Role.DIRECTOR,), scope="sector")
    def assign_jefes(
        self, actor: Actor, command_id: str, *, sector_id: UUID | str, jefes: list[str]
    ) -> Outcome:
        """The director names the jefes who run a sector (none: any jefe)."""

        def decide() -> Decision:
            sector = self.load(Sector, sector_id, "sector")
            named = sector.assign_jefes(jefes)
            return [sector], {"sector_id": str(sector.id), "jefes": named}

        payload = {"sector_id": str(sector_id), "jefes": sorted(jefes)}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE_OR_DIRECTOR, scope="table")
    def assign_dealer(
        self, actor: Actor, command_id: str, *, table_id: UUID | str, dealer: str | None
    ) -> Outcome:
        """The jefe names the crupier dealing at a table (None: nobody)."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            named = table.assign_dealer(dealer)
            return [table], {"table_id": str(table.id), "dealer": named}

        payload = {"table_id": str(table_id), "dealer": dealer}
        return self.execute(current_command(), actor, command_id, payload, decide)

    # --- the scope of every command -----------------------------------------------

    def role_in_scope(self, actor: Actor, command: str, payload: dict[str, Any]) -> Role:
        """The first role the actor may issue ``command`` under, here: a role
        outside its scope is passed over, and if none is left the first refusal
        (not your sector, not your table) is the answer."""
        first = COMMANDS.role_for(actor, command)  # refuses a role that may never
        refusal: DomainError | None = None
        for role in (r for r in COMMANDS[command].roles if r in actor.roles):
            try:
                self.check_scope(actor.username, role, payload)
            except DomainError as error:
                refusal = refusal or error
                continue
            return role
        raise refusal if refusal is not None else AssertionError(first)

    def check_scope(self, username: str, role: Role, payload: dict[str, Any]) -> None:
        if role not in SCOPED_ROLES:
            return
        table = self._named(Table, payload.get("table_id"))
        if role is Role.CRUPIER:
            if table is not None:
                table.check_dealt_by(username)
            return
        sector_id = table.sector_id if table is not None else payload.get("sector_id")
        sector = self._named(Sector, sector_id)
        if sector is not None:
            sector.check_run_by(username)

    def check_changed_in_scope(
        self, actor: Actor, command: str, role: Role, changed: Sequence[Aggregate]
    ) -> None:
        """The tables a decision changed (a draw's, a move's two, the table of a
        fill or credit request) must all be the actor's: the payload may name
        them only indirectly (``table_ids``, a proposal, a request)."""
        if role not in SCOPED_ROLES or any(
            r not in SCOPED_ROLES for r in COMMANDS[command].roles if r in actor.roles
        ):
            return  # an unscoped role of the actor's (the director) may do it anyway
        for aggregate in changed:
            if isinstance(aggregate, Table):
                table = aggregate
            elif isinstance(aggregate, TrayRequest):
                table = self._named(Table, aggregate.table_id)
            else:
                continue
            if table is None:
                continue
            if role is Role.CRUPIER:
                table.check_dealt_by(actor.username)
            else:
                self._named(Sector, table.sector_id).check_run_by(actor.username)

    def _named(self, cls: type, aggregate_id: object) -> Any:
        """The aggregate a command names, or None when it names none (or a bad
        id: the command itself answers that)."""
        if aggregate_id is None:
            return None
        try:
            return self.find(cls, UUID(str(aggregate_id)))
        except ValueError:
            return None
