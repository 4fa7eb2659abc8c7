"""The floor's read models as the ledger's consoles and papers show them.

The cage's console finds a player by card and says where they sit, lists the
open tables a buy-in may go to, and names the tables and players its fills,
credits, transactions and receipts concern. Those are the floor's read models,
read by the floor's selectors (floor.selectors); the ledger asks for them here
and imports nothing else of the floor's reads (pyproject.toml,
[tool.importlinter]). What is answered is the read model itself, for the page
to show.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from floor.selectors import players, tables

if TYPE_CHECKING:  # the read models as types, for the ledger's annotations
    from django.db.models import QuerySet

    from floor.models import PlayerView, SeatView, TableView


def player_by_card(card: str) -> PlayerView | None:
    """The player holding ``card`` (exact first, then ignoring case), or None."""
    return players.player_by_card(card)


def seat_of(player_id: Any) -> SeatView | None:
    """Where a player sits (the seat, its table and sector), or None."""
    return players.seat_of(player_id)


def players_by_id(player_ids: Iterable[Any]) -> dict[Any, PlayerView]:
    """The players of ``player_ids`` that exist, by id, to name them."""
    return players.players_by_id(player_ids)


def tables_by_id(table_ids: Iterable[Any]) -> dict[UUID, TableView]:
    """The tables of ``table_ids`` that exist, by id, with their sectors, to name them."""
    return tables.tables_by_id(table_ids)


def open_tables() -> QuerySet[TableView]:
    """The tables still on the floor, with their sectors (where a buy-in may go)."""
    return tables.open_tables()
