"""A must-move table: a second table of a busy game that feeds its main table
(issue 24, item 5). The group aggregate (floor.domain.balance_group) records
which table feeds which; these functions decide who moves and whether.

What a room means by it, and how the rules bound it here:

- When a seat opens at the main table, the players of the must-move table move
  there in the order they arrived at the must-move table. A seated player who
  moves comes before the waiting list, as every vacancy goes first to seated
  players who asked for it [PT 12; CM-5, CM-11]; the must-move player asked by
  sitting at a table announced as one.
- The tables are of the same game and stakes, so the balance rule still binds
  them: a move may not leave them more than the profile's tolerance apart, or
  widen a spread already past it [CM-10]. When it would, the seat goes to the
  list instead and the console says why; with the tolerance of one, the main
  table is kept full from the must-move table whenever that one is at least as
  full, which is when a room needs it.
- PT lets a player change table only once their stack is lost [PT 26]: a table
  whose players must move with their chips cannot be run there, so the profile
  refuses it (``must_move_refusal``). GA has no balance rule: the moves are
  free.
- The player who moves sits at the freed seat as a newcomer to that game: they
  may not take the button for their first hand [PT 80], and post the big blind
  or wait for it [CM-17]. They carry their stack [CM-12].

Arrival order is the order of the seat's ``arrival`` (floor.domain.seat): the
table's event number when the player sat down there, a seat change keeping it.
Seats taken before it was recorded have none and come first, by seat number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from floor.kernel.errors import DomainError, conflict
from games.profiles import RuleProfile


@dataclass(frozen=True)
class FeederSeat:
    """A must-move table's seat as the choice of who moves reads it."""

    seat: int
    player_id: str  # hex
    arrival: int | None
    away: bool  # on the absence clock: moves once back [CM-18]


def must_move_refusal(profile: RuleProfile) -> DomainError | None:
    """Why the profile runs no must-move table, or None: under PT a player
    changes table only once their stack is lost [PT 26]."""
    if profile.table_moves.change_only_after_losing_stack:
        return conflict("must_move_not_allowed")
    return None


def arrival_order(seats: Iterable[FeederSeat]) -> list[FeederSeat]:
    """The must-move table's players in the order they arrived there; seats
    taken before arrivals were recorded first, by seat number."""
    return sorted(seats, key=lambda s: (s.arrival is not None, s.arrival or 0, s.seat))


def next_to_move(seats: Iterable[FeederSeat], kept_apart: set[str]) -> FeederSeat | None:
    """The first player in arrival order who may move now: not away on the
    absence clock [CM-18], nor kept apart from a player of the main table
    [CM-14] (``kept_apart``: the players who may not sit there)."""
    for seat in arrival_order(seats):
        if not seat.away and seat.player_id not in kept_apart:
            return seat
    return None


def feeder_seats(occupants: Mapping[str, Mapping]) -> list[FeederSeat]:
    """A table's stored seats (``Table.occupants``) as ``FeederSeat`` values."""
    return [
        FeederSeat(
            seat=int(number),
            player_id=state["player_id"],
            arrival=state.get("arrival"),
            away=bool(state.get("away")),
        )
        for number, state in occupants.items()
    ]
