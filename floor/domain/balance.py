"""Keeping the tables of one game fair and full (RULES.md section 7).

Tables of the same variant and stakes form a balance group, across sectors. No
move may leave them more than one player apart [CM-10; PT 26]. These functions
decide; the group aggregate (floor.domain.balance_group) records.

The tolerance is an invariant of what the service performs or accepts: a
placement, a table change or a move is accepted when it leaves the group within
tolerance, or, for a group already out of it (players left), when it does not
widen the spread. Leaving cannot be refused; it is what makes the service
propose a move.

The fair policy for a move, explained in every proposal:
- from the table with the most players to the one with the fewest (the lowest
  table number among equals, sectors in order);
- the player who moves is the one due to pay the big blind next, so nobody
  skips or pays blinds twice for moving; a player already moved today moves
  only when everyone else at that table has been moved too;
- the seat is the free seat nearest the big blind's position of the next hand
  at the new table, never the small blind's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from floor.domain import positions
from floor.kernel.errors import DomainError, conflict
from games.profiles import RuleProfile


def tolerance(profile: RuleProfile) -> int | None:
    """The most players the tables of a game may differ by [CM-10]; PT 26 asks
    that tables not be unbalanced, read as one player. None: no such rule (GA)."""
    moves = profile.table_moves
    if moves.max_player_difference is not None:
        return moves.max_player_difference
    return 1 if moves.moves_may_not_unbalance else None


def spread(counts: Mapping[str, int]) -> int:
    """How many players apart the fullest and the emptiest table are."""
    return max(counts.values()) - min(counts.values()) if counts else 0


def check_balance(
    before: Mapping[str, int], after: Mapping[str, int], limit: int | None, labels: Mapping
) -> None:
    """Refuses an operation that leaves the group out of tolerance, unless the
    group was out already and the operation does not widen the spread."""
    if limit is None or len(after) < 2:
        return
    wide = spread(after)
    if wide <= limit or (wide <= spread(before) and spread(before) > limit):
        return
    fullest = max(after, key=after.get)
    emptiest = min(after, key=after.get)
    raise conflict(
        "tables_unbalanced", fullest=labels[fullest], emptiest=labels[emptiest], limit=limit
    )


def moved(counts: Mapping[str, int], source: str | None, target: str | None) -> dict[str, int]:
    """The counts after one player leaves ``source`` and sits at ``target``."""
    after = dict(counts)
    if source is not None and source in after:
        after[source] -= 1
    if target is not None and target in after:
        after[target] += 1
    return after


def table_change_request_refusal(stack: int, profile: RuleProfile) -> DomainError | None:
    """Why a seated player may not ask to move to another table of the game,
    or None: under PT only once their stack is lost [PT 26]. The one check
    ``request_table_change`` and the card's "Asks for another table" ask."""
    if profile.table_moves.change_only_after_losing_stack and stack > 0:
        return conflict("table_change_needs_stack_lost")
    return None


def table_change_to(
    requests: Sequence[Mapping[str, Any]],
    target: str,
    counts: Mapping[str, int],
    profile: RuleProfile,
) -> Mapping[str, Any] | None:
    """The first request of a player of another table of the game to change
    table that a free seat at ``target`` may take, or None [CM-11]: the
    source table plays (``counts``: the group's playing tables, hex id ->
    players), the move keeps the group within tolerance [CM-10], and under PT
    26 leaves the source with enough players. The one check ``call_next`` (by
    ``offer_seat``) and the console's table card ask, so "Call the list" is
    offered exactly when someone would be called."""
    limit = tolerance(profile)
    for request in requests:
        source = UUID(str(request["table_id"])).hex
        if source == target or source not in counts:
            continue
        if (
            profile.table_moves.change_only_after_losing_stack
            and counts[source] - 1 < profile.min_players
        ):
            continue  # PT 26
        try:
            check_balance(counts, moved(counts, source, target), limit, {k: k for k in counts})
        except DomainError:
            continue
        return request
    return None


@dataclass(frozen=True)
class SeatingView:
    """What the policy needs of a table: its seats, who sits where, the button."""

    table_id: str
    seats: int
    occupied: dict[int, str]  # seat -> player id (hex)
    last_button: int | None
    button: int | None


def next_hand_blinds(table: SeatingView, direction: int) -> tuple[int | None, int | None, int]:
    """The small- and big-blind seats of the next hand, and its button."""
    seated = sorted(table.occupied)
    previous = table.last_button if table.last_button is not None else table.button
    if previous is None:
        previous = seated[0] if seated else 1
    button = positions.next_seat(previous, table.seats, direction, seated) or previous
    small, big = positions.blind_seats(button, table.seats, direction, seated)
    return small, big, button


def mover(
    table: SeatingView, direction: int, moved_today: set[str], pinned: set[str]
) -> tuple[str, int, str] | None:
    """The player to move from ``table``: the one due to pay the big blind next,
    then the following seats in play order; those moved today after the others;
    ``pinned`` players (in a hand, away, kept apart from the target) never.
    Returns the player, their seat and why."""
    _small, big, _button = next_hand_blinds(table, direction)
    if big is None:
        order = sorted(table.occupied)
    else:
        order = [big, *positions.following(big, table.seats, direction)]
    order = [s for s in order if s in table.occupied and table.occupied[s] not in pinned]
    fresh = [s for s in order if table.occupied[s] not in moved_today]
    pool = fresh or order
    if not pool:
        return None
    seat = pool[0]
    why = "due to pay the big blind next" if seat == big else "next in turn for the big blind"
    if not fresh:
        why += "; every player here was moved today already"
    return table.occupied[seat], seat, why


def target_seat(table: SeatingView, direction: int, free: list[int]) -> tuple[int, str] | None:
    """The free seat for a player moved to ``table``: the one that pays the big
    blind next hand once taken, else the first after the big blind in play
    order (the soonest to pay it), the button's last; never the small blind's.
    None when only the small blind's is free: the next hand moves the blinds."""
    seated = sorted(table.occupied)
    previous = table.last_button if table.last_button is not None else table.button
    _small, big, _button = next_hand_blinds(table, direction)
    start = big if big is not None else (previous or 1)
    order = [start, *positions.following(start, table.seats, direction)]
    plain, on_button = [], []
    for seat in (s for s in order if s in free):
        taken = [*seated, seat]
        origin = previous if previous is not None else seat
        button = positions.next_seat(origin, table.seats, direction, taken) or origin
        small_then, big_then = positions.blind_seats(button, table.seats, direction, taken)
        if seat == big_then:
            return seat, "the big blind's seat of the next hand"
        if seat == button:
            on_button.append(seat)
        elif seat != small_then:
            plain.append(seat)
    if plain:
        return plain[0], "the free seat soonest to pay the big blind, not a blind"
    if on_button:
        return on_button[0], "the only free seat that is not the small blind's: the button's"
    return None


def opening_proposal(waiting: int, free_seats: int, min_players: int) -> dict | None:
    """Whether the list can start another table of the game [CM-7, CM-8;
    PT 25]: the open tables are completed first in list order, and what is
    left must be enough to start a game."""
    left = waiting - free_seats
    if left < min_players:
        return None
    return {
        "waiting": waiting,
        "free_seats": free_seats,
        "why": f"{waiting} players wait and the open tables have {free_seats} free seats: "
        f"once those are filled in list order (CM-8), {left} remain, enough to start a "
        f"table of at least {min_players} (CM-7).",
    }
