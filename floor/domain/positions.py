"""Where the button and the blinds fall, by the profile's rotation.

Seat 1 is at the dealer's left (PT, CM) or right (GA). Numbered from the left,
seat numbers grow clockwise; from the right, counter-clockwise. So the button
moves to the next higher-numbered seat when the profile turns clockwise from
the left [PT 29-30; CM] or counter-clockwise from the right [GA art. 18.2,
23.1]: in all three profiles, upward.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.profile_rules import Rotation
from games.profiles import RuleProfile, SeatNumbering


def step(profile: RuleProfile) -> int:
    """+1 when the play turns toward higher seat numbers, else -1."""
    from_left = profile.seat_numbering is SeatNumbering.FROM_DEALER_LEFT
    clockwise = profile.button.rotation is Rotation.CLOCKWISE
    return 1 if from_left == clockwise else -1


def following(seat: int, seats: int, direction: int) -> list[int]:
    """Every other seat of a table of ``seats``, in the order play reaches them."""
    return [(seat - 1 + direction * k) % seats + 1 for k in range(1, seats)]


def next_seat(seat: int, seats: int, direction: int, among: Iterable[int]) -> int | None:
    """The first seat after ``seat`` in play order that is in ``among``."""
    wanted = set(among)
    return next((s for s in following(seat, seats, direction) if s in wanted), None)


def blind_seats(
    button: int, seats: int, direction: int, occupied: Iterable[int]
) -> tuple[int | None, int | None]:
    """The small- and big-blind seats: the next two occupied seats after the
    button. Heads-up the button posts the small blind and the other the big."""
    taken = sorted(set(occupied))
    if len(taken) == 2 and button in taken:
        other = next(s for s in taken if s != button)
        return button, other
    small = next_seat(button, seats, direction, taken)
    big = next_seat(small, seats, direction, taken) if small is not None else None
    return small, big
