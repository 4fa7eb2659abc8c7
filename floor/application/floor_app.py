"""The floor application: the one command service every command of the floor
(and, for now, of the cage) runs on.

The floor's commands are functions of a unit of work, declared where they live
(floor.application.sectors, players, seating, clocks, house_clocks, balancing,
separation, staffing): importing them here declares them all, and the staff's
scope (floor.application.staffing) as a policy every command passes. The cage
and the books are in ledger.application (one event store, so a hand and the
money it moves are saved together).
"""

from __future__ import annotations

from floor.application import (  # noqa: F401  (their commands declare themselves)
    balancing,
    clocks,
    house_clocks,
    players,
    seating,
    sectors,
    separation,
    staffing,
)
from floor.application.banked import BankedCommands
from floor.application.seat_support import SYSTEM_RANDOM, close_players_out
from floor.domain.balance_group import BalanceGroup
from floor.domain.player import Player
from floor.domain.sector import Sector
from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList
from floor.kernel.composition import ROOM
from floor.kernel.service import CommandService
from ledger.application.cage import CageCommands
from ledger.domain.account import Account
from ledger.domain.cage import Cage

# The floor's long-lived aggregates, snapshotted as they grow.
for _aggregate in (Sector, Table, Player, WaitingList, BalanceGroup):
    ROOM.snapshot_every(_aggregate, 50)


class FloorApplication(BankedCommands, CageCommands, CommandService):
    """The floor's commands, run through the command service's pipeline."""

    # The draws' random source (floor.application.seat_support); a test sets a
    # seeded one on its application.
    random = SYSTEM_RANDOM

    snapshotting_intervals = {
        Account: 100,
        Cage: 50,
    }

    # The ledger's handlers still written as methods of the application
    # (ledger.application.cage, floor.application.banked) call these; as
    # functions of a unit of work they use floor.ports.tables instead.
    def player(self, ref: object) -> Player:
        """A player by id or by card number."""
        return players.player(self._work(), ref)

    def close_players_out(self, table: Table, reason: str) -> list:
        """Closes ``table`` with its players out (floor.application.seat_support)."""
        return close_players_out(self._work(), table, reason)
