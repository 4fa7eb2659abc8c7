"""The floor application: sectors and tables, and every command of the floor."""

from __future__ import annotations

from floor.application import sectors  # noqa: F401  (its commands declare themselves)
from floor.application.balancing import BalancingCommands
from floor.application.separation import SeparationCommands
from floor.application.staffing import StaffingCommands
from floor.domain.balance_group import BalanceGroup
from floor.domain.player import Player
from floor.domain.sector import Sector
from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList


class FloorApplication(StaffingCommands, BalancingCommands, SeparationCommands):
    """The floor's commands: sectors and tables here; players and lists in
    floor.application.players; seats, draws, rests and hands in
    floor.application.seating; balancing in floor.application.balancing, who may not sit where in
    floor.application.separation;
    deadlines firing in floor.application.clocks;
    banked hands, the cage and the books in ledger.application, plugged in
    by the ledger (ledger.apps; one event store, so a hand and the money it
    moves are saved together)."""

    snapshotting_intervals = {
        Sector: 50,
        Table: 50,
        Player: 50,
        WaitingList: 50,
        BalanceGroup: 50,
    }
