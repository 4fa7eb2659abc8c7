"""The floor's tables and players, as the ledger's commands use them.

A buy-in at the cage puts chips on a seat, a fill or credit moves a table's
tray, a banked hand's last one closes its table (a jackpot in play settled with
it), a buy-in paid at the cage voided takes its chips back off the seat
(``buy_in_void_refusal`` says when it may, for the cage's console too): the
ledger's handlers load the table and the player through here, within
the command's unit of work, and close a table as the floor closes one. The
staff's reach over what they change is checked for every command by the
floor's own policy (floor.application.staffing), the ledger's included.
"""

from __future__ import annotations

from floor.application.players import player
from floor.application.seat_support import close_players_out
from floor.domain.corrections import buy_in_void_refusal
from floor.kernel.unit_of_work import UnitOfWork
from floor.ports.aggregates import JackpotInPlay, Player, Table

__all__ = [
    "JackpotInPlay",
    "Player",
    "Table",
    "buy_in_void_refusal",
    "close_players_out",
    "player",
    "table",
]


def table(work: UnitOfWork, table_id: object) -> Table:
    """The table of that id, or the table's not-found refusal."""
    return work.load(Table, table_id, "table")
