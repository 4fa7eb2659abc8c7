"""The floor application: sectors and tables, and every command of the floor."""

from __future__ import annotations

from uuid import UUID, uuid4

from floor.application.balancing import BalancingCommands
from floor.application.banked import BankedCommands
from floor.application.separation import SeparationCommands
from floor.application.staffing import StaffingCommands
from floor.domain.balance_group import BalanceGroup
from floor.domain.player import Player
from floor.domain.sector import Sector
from floor.domain.table import Table
from floor.domain.table_spec import TableSpec
from floor.domain.waiting_list import WaitingList
from floor.kernel.errors import conflict
from floor.kernel.registry import command, current_command
from floor.kernel.roles import JEFE, Actor, Role
from floor.kernel.service import Decision, Outcome
from ledger.application.cage import CageCommands
from ledger.domain.account import Account
from ledger.domain.cage import Cage


class FloorApplication(
    BankedCommands, StaffingCommands, BalancingCommands, SeparationCommands, CageCommands
):
    """The floor's commands: sectors and tables here; players and lists in
    floor.application.players; seats, draws, rests and hands in
    floor.application.seating; banked hands in floor.application.banked;
    balancing in floor.application.balancing, who may not sit where in
    floor.application.separation;
    deadlines firing in floor.application.clocks;
    the cage and the books in ledger.application (one event store, so a hand
    and the money it moves are saved together)."""

    snapshotting_intervals = {
        Sector: 50,
        Table: 50,
        Player: 50,
        WaitingList: 50,
        BalanceGroup: 50,
        Account: 100,
        Cage: 50,
    }

    @command(roles=(Role.DIRECTOR,))
    def open_sector(self, actor: Actor, command_id: str, *, name: str) -> Outcome:
        """The director opens a sector of the room (GA art. 4, 11)."""

        def decide() -> Decision:
            sector = Sector.open(name)
            if self.find(Sector, sector.id) is not None:
                raise conflict("sector_exists", sector=sector.name)
            return [sector], {"sector_id": str(sector.id), "name": sector.name}

        return self.execute(current_command(), actor, command_id, {"name": name}, decide)

    @command(roles=JEFE, scope="sector")
    def open_table(
        self,
        actor: Actor,
        command_id: str,
        *,
        sector_id: UUID | str,
        variant: str,
        limit: str,
        minimum_cents: int,
        maximum_cents: int,
        seats: int,
        second_variant: str | None = None,
        ante_cents: int = 0,
        **rake: object,
    ) -> Outcome:
        """The jefe de sector opens a table; a sector holds four (GA art. 19). A
        mixed table names a second variant where the profile allows it [PT 23];
        ``rake`` takes the announced house benefit (rake_model, rake_percent,
        rake_cap_cents, rake_step_cents, session_percent, session_base), within
        the profile [GA art. 18.3; PT 7; CM "Beneficio"]."""
        payload = {
            "second_variant": second_variant,
            "ante_cents": ante_cents,
            **{k: str(v) for k, v in rake.items() if v is not None},
            "sector_id": str(sector_id),
            "variant": variant,
            "limit": limit,
            "minimum_cents": minimum_cents,
            "maximum_cents": maximum_cents,
            "seats": seats,
        }

        def decide() -> Decision:
            sector = self.load(Sector, sector_id, "sector")
            spec = TableSpec.check(
                variant=variant,
                limit=limit,
                minimum_cents=minimum_cents,
                maximum_cents=maximum_cents,
                seats=seats,
                profile=self.profile,
                second_variant=second_variant,
                ante_cents=ante_cents,
                rake=rake,
            )
            table_id = uuid4()
            number = sector.add_table(table_id, self.profile.max_tables_per_sector, self.now())
            table = Table.open(table_id=table_id, sector_id=sector.id, number=number, spec=spec)
            group = self.join_group(table)
            return [sector, table, group], {
                "table_id": str(table.id),
                "sector_id": str(sector.id),
                "number": number,
            }

        return self.execute(current_command(), actor, command_id, payload, decide)
