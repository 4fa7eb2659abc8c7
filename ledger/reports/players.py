"""The books' part of the players' rating (issue 26): what the cage paid each
player for their chips each gaming day, voided cash-outs left out, so the
floor's rating by day (floor.reports.players) shows the money that left as
the books have it. Declared through floor.reports.parts."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from floor.ports.report_reads import REPORT_PARTS
from ledger import selectors as books


def cash_outs(player_ids: Sequence[str], days: Sequence[str]) -> dict[tuple[str, str], int]:
    """(player as hex, gaming day) -> cents the cage paid for their chips."""
    return books.cash_outs_of([UUID(p) for p in player_ids if p], [d for d in days if d])


def declare() -> None:
    REPORT_PARTS.count_cash_outs_by(cash_outs)
