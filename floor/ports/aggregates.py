"""The floor's aggregates as the ledger's domain reads them.

The books turn a table's money events into transactions (ledger.domain.
floor_money) and a banked hand's jackpot in play into the jackpot's
(JackpotInPlay): the ledger's domain reads the floor's aggregates and their
events, nothing more. This port imports the floor's domain only, so importing
the ledger's domain loads none of the floor's handlers or read side
(pyproject.toml: "the ledger's domain sees the floor's aggregates only").
"""

from __future__ import annotations

from floor.domain.banked_hand import JackpotInPlay
from floor.domain.player import Player
from floor.domain.table import Table

__all__ = ["JackpotInPlay", "Player", "Table"]
