"""What the hand rules read of a table (floor.domain.hand_rules,
floor.domain.hand_end), and the check of a report's seat amounts both use.

The rules read the table through the ``DealingTable`` protocol instead of
importing floor.domain.table, which records what they decide (through
floor.domain.hands): so no module of the hand rules imports the table, and
there is no import cycle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from floor.domain.seat import Seat
from floor.domain.seat_keys import by_seat
from floor.kernel.errors import invalid


class DealingTable(Protocol):
    """What the hand rules read of a table (floor.domain.table.Table)."""

    number: int
    variant: str
    second_variant: str | None
    seats: int
    minimum_cents: int
    banked: bool
    rake: dict | None
    status: str
    button: int | None
    last_button: int | None
    hand: dict | None
    hands_played: int
    session: dict | None
    last_hands: dict | None

    @property
    def label(self) -> str: ...

    def occupied(self) -> list[int]: ...

    def seat_at(self, seat: int | str) -> Seat | None: ...

    def check_not_closed(self) -> None: ...

    def check_no_hand(self) -> None: ...

    def check_seat_number(self, seat: object) -> int: ...


def seat_amounts(table: DealingTable, amounts: object, what: str) -> dict[int, int]:
    """``{seat: cents}`` with each seat at the table and each amount whole cents."""
    if not isinstance(amounts, Mapping):
        raise invalid("hand_report_invalid")
    out: dict[int, int] = {}
    for seat, value in by_seat(amounts, what):
        table.check_seat_number(seat)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise invalid("amount_invalid", seat=seat)
        out[seat] = value
    return out
