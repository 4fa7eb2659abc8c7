"""The floor's tables and players, as the ledger's commands use them.

A buy-in at the cage puts chips on a seat, a fill or credit moves a table's
tray, a hand's stack changes are booked (ledger.domain.floor_money): the ledger
loads the table through here, within the command's unit of work.
"""

from __future__ import annotations

from floor.domain.player import Player
from floor.domain.table import Table
from floor.kernel.unit_of_work import UnitOfWork

__all__ = ["Player", "Table", "table"]


def table(work: UnitOfWork, table_id: object) -> Table:
    """The table of that id, or the table's not-found refusal."""
    return work.load(Table, table_id, "table")
