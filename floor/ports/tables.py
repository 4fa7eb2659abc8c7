"""The floor's tables and players, as the ledger's commands use them.

A buy-in at the cage puts chips on a seat, a fill or credit moves a table's
tray, a hand's stack changes are booked (ledger.domain.floor_money), a banked
hand's last one closes its table (a jackpot in play settled with it,
JackpotInPlay): the ledger loads the table and the player through here, within
the command's unit of work, and checks a table lies in its actor's reach as the
floor's staff scope does (floor.application.staffing).
"""

from __future__ import annotations

from floor.application.players import player
from floor.application.seat_support import close_players_out
from floor.application.staffing import SCOPED_ROLES, check_table_in_reach
from floor.domain.banked_hand import JackpotInPlay
from floor.domain.player import Player
from floor.domain.table import Table
from floor.kernel.unit_of_work import UnitOfWork

__all__ = [
    "SCOPED_ROLES",
    "JackpotInPlay",
    "Player",
    "Table",
    "check_table_in_reach",
    "close_players_out",
    "player",
    "table",
]


def table(work: UnitOfWork, table_id: object) -> Table:
    """The table of that id, or the table's not-found refusal."""
    return work.load(Table, table_id, "table")
