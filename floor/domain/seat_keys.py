"""Reports keyed by seat: each seat named once, in one spelling.

A hand report maps seats to amounts, cards or boxes. JSON keys are text, so
``"2"`` and ``"02"`` (or ``" 2"``, ``"2_0"``, which Python's ``int`` reads as
2 and 20) would name the same seat twice and one report would silently
replace the other: a misreport taken as the truth. A seat is a plain number.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from floor.kernel.errors import invalid


def seat_of(key: object) -> int:
    """The seat a report's key names: an integer, or its plain decimal text."""
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if isinstance(key, str) and key.isascii() and key.isdigit() and str(int(key)) == key:
        return int(key)
    raise invalid("seat_out_of_range", seat=str(key)[:10])


def by_seat(report: Mapping, what: str) -> Iterator[tuple[int, object]]:
    """``(seat, value)`` for each entry of ``report``; a seat given twice is refused."""
    seen: set[int] = set()
    for key, value in report.items():
        seat = seat_of(key)
        if seat in seen:
            raise invalid("seat_given_twice", seat=seat, what=what)
        seen.add(seat)
        yield seat, value
