"""The floor's tables and players, as the ledger's commands use them.

A buy-in at the cage puts chips on a seat, a fill or credit moves a table's
tray, a hand's stack changes are booked (ledger.domain.floor_money), a banked
hand's last one closes its table (a jackpot in play settled with it,
JackpotInPlay): the ledger loads the table and the player
through here, within the command's unit of work.
"""

from __future__ import annotations

from uuid import UUID

from floor.domain.banked_hand import JackpotInPlay
from floor.domain.player import Player
from floor.domain.table import Table
from floor.kernel.errors import not_found
from floor.kernel.unit_of_work import UnitOfWork

__all__ = ["JackpotInPlay", "Player", "Table", "close_players_out", "player", "table"]


def table(work: UnitOfWork, table_id: object) -> Table:
    """The table of that id, or the table's not-found refusal."""
    return work.load(Table, table_id, "table")


def player(work: UnitOfWork, ref: object) -> Player:
    """A player by id or by card number, or the player's not-found refusal."""
    try:
        player_id = UUID(str(ref))
    except ValueError:
        player_id = Player.create_id(str(ref))
    found = work.find(Player, player_id)
    if found is None:
        raise not_found("player_not_found", player=str(ref)[:40])
    return found


def close_players_out(work: UnitOfWork, table: Table, reason: str) -> list:
    """Closes ``table`` as the floor closes one (its players leave with their
    stacks, its groups and lists follow); returns what changed."""
    return work.close_players_out(table, reason)
