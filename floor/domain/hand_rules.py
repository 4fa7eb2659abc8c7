"""What a hand report must hold and what it changes at the table (RULES.md
sections 4, 5, 8, 9 and 10).

The dealer (or the jefe) reports a hand started (the button, who is dealt in,
the blinds posted) and ended (what each seat put in, what each won, the rake).
These functions check a report against the table and the profile and return
what the table's event records: the rests counted, the blinds missed, the
flags raised for the next hands. They decide; the table's events apply.

This module decides a hand's start; its end is floor.domain.hand_end's
(``decide_end``, ``hand_facts`` and ``most_rake`` are named here too). Both
read the table through ``DealingTable`` (floor.domain.dealing_table), so
neither imports floor.domain.table: no import cycle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from floor.domain import positions
from floor.domain.dealing_table import DealingTable, seat_amounts
from floor.domain.hand_end import decide_end, hand_facts, most_rake
from floor.kernel.errors import DomainError, conflict, invalid
from games.profiles import RuleProfile

__all__ = [
    "DealingTable",
    "away_blinds",
    "check_may_deal",
    "decide_end",
    "decide_start",
    "expected_button",
    "hand_facts",
    "most_rake",
]


def expected_button(table: DealingTable, direction: int) -> tuple[int | None, int | None]:
    """The seat the button goes to this hand and the newcomer it skipped.

    It moves to the next occupied seat in play order; a newcomer may not take
    it for their first hand: it passes to the next occupied seat, and the
    newcomer plays from the following hand [PT 80].
    """
    occupied = table.occupied()
    if not occupied:
        return None, None
    if table.last_button is None:
        start = table.button
        if start is None:
            return None, None
        if table.seat_at(start) is not None:
            return start, None
        previous = start
    else:
        previous = table.last_button
    natural = positions.next_seat(previous, table.seats, direction, occupied)
    if natural is None:
        natural = previous if table.seat_at(previous) else None
    if natural is None:
        return None, None
    if table.seat_at(natural).newcomer:
        regulars = [s for s in occupied if not table.seat_at(s).newcomer]
        after = positions.next_seat(natural, table.seats, direction, regulars)
        return after, natural
    return natural, None


def check_may_deal(table: DealingTable) -> None:
    """A hand is dealt only at a running table, between hands, and not past
    the last hand of the night [CM-24]."""
    refusal = deal_refusal(
        table.number,
        status=table.status,
        banked=table.banked,
        hand_in_play=table.hand is not None,
        last_hands_left=table.last_hands["left"] if table.last_hands is not None else None,
    )
    if refusal is not None:
        raise refusal


def deal_refusal(
    table: int, *, status: str, banked: bool, hand_in_play: bool, last_hands_left: int | None
) -> DomainError | None:
    """Why no hand may be dealt at the table now, or None: an open, running
    table (not suspended [CM-9]), between hands, not past the last hand of the
    night [CM-24]; a banked table's hands are settled box by box instead [GA
    art. 6-16; PT-SD; PG]. The one check ``start_hand`` and the card ask."""
    if status == "closed":
        return conflict("table_closed", table=table)
    if banked:
        return conflict("table_is_banked", table=table)
    if status != "running":
        return conflict("table_not_running", status=status)
    if hand_in_play:
        return conflict("hand_in_progress", table=table)
    if last_hands_left is not None and last_hands_left <= 0:
        return conflict("last_hands_played")
    return None


def owes_big_blind(state: Any, profile: RuleProfile) -> bool:
    """Whether the player must post the big blind to be dealt in (or wait for
    it): owed after idle hands [PT 89], or a newcomer where the rules say so
    [CM-17]. ``state`` is the domain's ``Seat`` or the read model's row."""
    return bool(
        state.must_post_big_blind
        or (state.newcomer and profile.blinds.newcomer_posts_big_blind_or_waits)
    )


def dealt_without_blinds(
    seats: int,
    button: int,
    direction: int,
    dealable: Sequence[int],
    owing: set[int],
    posting: Sequence[int],
) -> list[int]:
    """The seats a hand reported without blinds may deal in (the console's
    "Deal a hand"): of ``dealable``, those owing the big blind only where
    the big blind falls (``start_hand`` refuses them elsewhere [CM-17; PT
    89]); ``posting``: the seats away whose blinds are posted [CM-18]."""
    seats_in = list(dealable)
    while True:
        _small, big = positions.blind_seats(button, seats, direction, [*seats_in, *posting])
        kept = [s for s in seats_in if s not in owing or s == big]
        if kept == seats_in:
            return kept
        seats_in = kept


def seat_deal_refusal(
    seat: int, state: Any, *, stack: int, session_running: bool
) -> DomainError | None:
    """Why the player in ``seat`` may not be dealt in, or None: not resting
    [GA art. 20; PT 13], not away [CM-18], the session's time paid [GA art.
    18.3b; PT 7b], chips to play [CM-16; PT 79], not made to leave [PT 13].
    ``state`` is the domain's ``Seat`` or the read model's row (None: free).
    Shared by ``start_hand`` and the card's "Dealt in" boxes."""
    if state is None:
        return conflict("seat_empty", seat=seat)
    if state.resting:
        return conflict("player_resting", seat=seat)
    if state.away:
        return conflict("player_away", seat=seat)
    if state.time_due and session_running:
        return conflict("time_charge_due", seat=seat)
    if stack <= 0 or state.must_rebuy:
        return conflict("rebuy_required", seat=seat)
    if state.must_leave:
        return conflict("player_must_leave", seat=seat)
    return None


def away_blinds(
    table: DealingTable, profile: RuleProfile, button: int, direction: int, seats_in: list[int]
) -> tuple[dict[str, int], int | None]:
    """The blinds posted for players away past their absence clock [CM-18],
    and the big blind's seat counting them in."""
    posting = [s for s in table.occupied() if table.seat_at(s).on_clock_posting_blinds]
    small, big = positions.blind_seats(button, table.seats, direction, [*seats_in, *posting])
    small_blind = int(table.minimum_cents * profile.blinds.small_share_of_minimum)
    posted: dict[str, int] = {}
    for seat, amount in ((small, small_blind), (big, table.minimum_cents)):
        if seat in posting:
            posted[str(seat)] = min(amount, table.seat_at(seat).stack)
    return {s: a for s, a in posted.items() if a}, big


def decide_start(
    table: DealingTable,
    profile: RuleProfile,
    *,
    variant: str | None,
    button: int | None,
    dealt_in: Sequence[int],
    blinds: Mapping,
) -> dict:
    """Checks a hand-start report and returns the HandStarted event's data."""
    check_may_deal(table)
    variants = [table.variant] + ([table.second_variant] if table.second_variant else [])
    if variant is None:
        if len(variants) > 1:
            raise invalid("variant_required", variants=variants)
        variant = table.variant
    if variant not in variants:
        raise invalid("variant_not_at_table")
    if not isinstance(dealt_in, Sequence) or isinstance(dealt_in, str):
        raise invalid("hand_report_invalid")
    seats_in = sorted({table.check_seat_number(s) for s in dealt_in})
    if len(seats_in) != len(dealt_in):
        raise invalid("hand_report_invalid")
    if len(seats_in) < 2:
        raise conflict("too_few_players_dealt_in")
    posted = seat_amounts(table, blinds, "blinds")
    direction = positions.step(profile)
    expected, skipped = expected_button(table, direction)
    if button is None:
        button = expected
    if button is None:
        raise invalid("button_required")
    table.check_seat_number(button)
    if table.seat_at(button) is None:
        raise conflict("button_seat_empty", seat=button)
    if expected is not None and button != expected:
        raise conflict("button_out_of_turn", expected=expected)
    for seat in seats_in:
        state = table.seat_at(seat)
        refusal = seat_deal_refusal(
            seat,
            state,
            stack=state.stack if state is not None else 0,
            session_running=table.session is not None,
        )
        if refusal is not None:
            raise refusal
        if seat == skipped:
            raise conflict("newcomer_on_button_seat", seat=seat)
    posted_for_away, big = away_blinds(table, profile, button, direction, seats_in)
    for seat, amount in posted.items():
        if seat not in seats_in:
            raise invalid("hand_report_invalid")
        if amount > table.seat_at(seat).stack:
            raise conflict("blind_over_stack")
    big_blind = table.minimum_cents
    for seat in seats_in:
        state = table.seat_at(seat)
        owes_big = owes_big_blind(state, profile)
        if owes_big and seat != big and posted.get(seat, 0) < big_blind:
            owed = state.must_post_big_blind
            raise conflict(
                "big_blind_owed" if owed else "newcomer_waits_for_big_blind",
                seat=seat,
                big_blind_cents=big_blind,
            )
    dead = {str(s): table.seat_at(s).owes_cents for s in seats_in}
    dead = {s: v for s, v in dead.items() if v}
    for seat, owed in dead.items():
        if owed + posted.get(int(seat), 0) > table.seat_at(seat).stack:
            raise conflict("rebuy_required", seat=int(seat))
    # Blinds that fall on a resting seat are missed, and owed on return [PT 90].
    missed: dict[str, int] = {}
    resting = [s for s in table.occupied() if table.seat_at(s).resting]
    if profile.rest.missed_blinds_posted_dead and resting:
        all_small, all_big = positions.blind_seats(
            button, table.seats, direction, [*seats_in, *resting]
        )
        small_blind = table.minimum_cents * profile.blinds.small_share_of_minimum
        for seat, amount in ((all_small, int(small_blind)), (all_big, big_blind)):
            if seat in resting:
                missed[str(seat)] = missed.get(str(seat), 0) + amount
    rest_exceeded, must_leave = [], {}
    for seat in resting:
        state = table.seat_at(seat)
        if state.rested_hands + 1 > profile.rest.rest_hands:
            rest_exceeded.append(seat)
            limit = profile.rest.idle_hands_must_leave
            if limit is not None and state.rested_hands + 1 >= limit:
                must_leave[str(seat)] = "rest_exceeded"
    return {
        "number": table.hands_played + 1,
        "variant": variant,
        "button": button,
        "dealt_in": seats_in,
        "blinds": {str(s): a for s, a in posted.items()},
        "dead_blinds": dead,
        "missed": missed,
        "resting": resting,
        "rest_exceeded": rest_exceeded,
        "must_leave": must_leave,
        "away_blinds": posted_for_away,
    }
