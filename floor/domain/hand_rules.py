"""What a hand report must hold and what it changes at the table (RULES.md
sections 4, 5, 8, 9 and 10).

The dealer (or the jefe) reports a hand started (the button, who is dealt in,
the blinds posted) and ended (what each seat put in, what each won, the rake).
These functions check a report against the table and the profile and return
what the table's event records: the rests counted, the blinds missed, the
flags raised for the next hands. They decide; the table's events apply.

They read the table through ``DealingTable``, what they need of it, so that
this module does not import floor.domain.table (which records what they
decide, through floor.domain.hands): no import cycle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Protocol

from floor.domain import positions, settlement
from floor.domain.errors import conflict, invalid
from floor.domain.seat import Seat
from floor.domain.seat_keys import by_seat
from games.profiles import RuleProfile
from games.rake import HandRake, hand_rake


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


def _seat_amounts(table: DealingTable, amounts: object, what: str) -> dict[int, int]:
    """``{seat: cents}`` with each seat at the table and each amount whole cents."""
    if not isinstance(amounts, Mapping):
        raise invalid("hand_report_invalid", f"{what} maps seats to amounts in cents.")
    out: dict[int, int] = {}
    for seat, value in by_seat(amounts, what):
        table.check_seat_number(seat)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise invalid(
                "amount_invalid", f"{what}: amounts are whole, non-negative cents.", seat=seat
            )
        out[seat] = value
    return out


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
    table.check_not_closed()
    if table.banked:
        # The bank plays each box: its hands are settled box by box, not
        # dealt and ended as a circle game's [GA art. 6-16; PT-SD; PG].
        raise conflict(
            "table_is_banked",
            f"{table.label} is a banked table: its hands are settled box by box.",
            table=table.number,
        )
    if table.status != "running":
        raise conflict(
            "table_not_running",
            f"{table.label} is {table.status}: hands are dealt only while it runs.",
            status=table.status,
        )
    table.check_no_hand()
    if table.last_hands is not None and table.last_hands["left"] <= 0:
        raise conflict(
            "last_hands_played",
            f"{table.label} has dealt the last hands of the night (CM-24).",
        )


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
            raise invalid(
                "variant_required",
                "On a mixed table the player with the hand names the variant (PT 23).",
                variants=variants,
            )
        variant = table.variant
    if variant not in variants:
        raise invalid("variant_not_at_table", f"{table.label} plays {' or '.join(variants)}.")
    if not isinstance(dealt_in, Sequence) or isinstance(dealt_in, str):
        raise invalid("hand_report_invalid", "dealt_in lists the seats dealt in.")
    seats_in = sorted({table.check_seat_number(s) for s in dealt_in})
    if len(seats_in) != len(dealt_in):
        raise invalid("hand_report_invalid", "A seat is dealt in once.")
    if len(seats_in) < 2:
        raise conflict("too_few_players_dealt_in", "A hand needs at least two players.")
    posted = _seat_amounts(table, blinds, "blinds")
    direction = positions.step(profile)
    expected, skipped = expected_button(table, direction)
    if button is None:
        button = expected
    if button is None:
        raise invalid(
            "button_required",
            "Say which seat holds the button: the dealer marks the first one (GA art. 23.1).",
        )
    table.check_seat_number(button)
    if table.seat_at(button) is None:
        raise conflict("button_seat_empty", f"Seat {button} is empty.", seat=button)
    if expected is not None and button != expected:
        raise conflict(
            "button_out_of_turn",
            f"The button goes to seat {expected} this hand.",
            expected=expected,
        )
    for seat in seats_in:
        state = table.seat_at(seat)
        if state is None:
            raise conflict("seat_empty", f"Seat {seat} is empty.", seat=seat)
        if state.resting:
            raise conflict("player_resting", f"The player in seat {seat} is resting.", seat=seat)
        if state.away:
            raise conflict("player_away", f"The player in seat {seat} is away (CM-18).", seat=seat)
        if state.time_due and table.session is not None:
            raise conflict(
                "time_charge_due",
                f"The player in seat {seat} owes this session's time charge: they buy "
                "chips to pay it first (GA art. 18.3b; PT 7b).",
                seat=seat,
            )
        if state.stack <= 0 or state.must_rebuy:
            raise conflict(
                "rebuy_required",
                f"The player in seat {seat} has no stack to play with: they buy chips first "
                "(CM-16, PT 79).",
                seat=seat,
            )
        if state.must_leave:
            raise conflict(
                "player_must_leave",
                f"The player in seat {seat} must leave the table (PT 13).",
                seat=seat,
            )
        if seat == skipped:
            raise conflict(
                "newcomer_on_button_seat",
                f"Seat {seat} joined on the button's seat: they play from the next hand (PT 80).",
                seat=seat,
            )
    posted_for_away, big = away_blinds(table, profile, button, direction, seats_in)
    for seat, amount in posted.items():
        if seat not in seats_in:
            raise invalid("hand_report_invalid", f"Seat {seat} posts a blind but is not dealt in.")
        if amount > table.seat_at(seat).stack:
            raise conflict("blind_over_stack", f"Seat {seat} cannot post more than its stack.")
    big_blind = table.minimum_cents
    for seat in seats_in:
        state = table.seat_at(seat)
        owes_big = state.must_post_big_blind or (
            state.newcomer and profile.blinds.newcomer_posts_big_blind_or_waits
        )
        if owes_big and seat != big and posted.get(seat, 0) < big_blind:
            owed = state.must_post_big_blind
            raise conflict(
                "big_blind_owed" if owed else "newcomer_waits_for_big_blind",
                f"The player in seat {seat} posts a big blind to play this hand "
                "(CM-17, PT 89), or waits for theirs.",
                seat=seat,
                big_blind_cents=big_blind,
            )
    dead = {str(s): table.seat_at(s).owes_cents for s in seats_in}
    dead = {s: v for s, v in dead.items() if v}
    for seat, owed in dead.items():
        if owed + posted.get(int(seat), 0) > table.seat_at(seat).stack:
            raise conflict(
                "rebuy_required",
                f"The player in seat {seat} owes {owed} cents of missed blinds (PT 90) and "
                "has not the chips to post them: they buy chips first.",
                seat=int(seat),
            )
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


def most_rake(table: DealingTable, profile: RuleProfile, pot: int) -> int:
    """The most a hand's pot may be raked: the table's announced per-hand rake,
    its percentage counted in whole steps and capped [GA art. 18.3a; PT 7a; CM
    "Beneficio"]; nothing per hand at a table charging per session or banked."""
    announced = table.rake
    if announced is None:
        if table.banked or profile.rake.per_hand is None:
            return 0
        rule = profile.rake.per_hand  # a table opened before rakes were announced
        most = int(Fraction(rule.max_percent) * pot)
        return most if rule.max_cap is None else min(most, rule.max_cap)
    if announced["model"] != "per_hand":
        return 0
    setting = HandRake(
        Fraction(announced["share"]), announced["cap_cents"], announced["step_cents"]
    )
    return hand_rake(setting, pot)


def hand_facts(table: DealingTable, profile: RuleProfile) -> settlement.HandFacts:
    """What the table knows of the hand in play, for its settlement."""
    hand = table.hand
    dealt_in = hand["dealt_in"]
    return settlement.HandFacts(
        stacks={s: table.seat_at(s).stack for s in dealt_in},
        blinds={int(s): a for s, a in hand["blinds"].items() if a},
        dead_blinds={int(s): a for s, a in hand.get("dead_blinds", {}).items() if a},
        away_blinds={int(s): a for s, a in hand.get("away_blinds", {}).items() if a},
        dead_hands=frozenset(hand.get("dead", [])),
        variant=hand["variant"],
        button=hand["button"],
        ascending=positions.step(profile) > 0,
        table_minimum=table.minimum_cents,
        split=profile.split,
        rake=settlement.rake_setting(table.rake, profile.rake.per_hand, table.banked),
    )


def _seat_list(table: DealingTable, seats: object, what: str) -> list[int]:
    if not isinstance(seats, Sequence) or isinstance(seats, str):
        raise invalid("hand_report_invalid", f"{what} lists seats.")
    out = []
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise invalid("seat_out_of_range", f"{seat!r} is not a seat.")
        out.append(table.check_seat_number(seat))
    return out


def decide_end(
    table: DealingTable,
    profile: RuleProfile,
    *,
    contributions: Mapping,
    winnings: Mapping | None = None,
    rake_cents: int | None = None,
    pot_winners: Sequence | None = None,
    shown: Mapping | None = None,
    board: str | None = None,
    folded: Sequence | None = None,
    pots_only: bool = False,
) -> dict:
    """Checks a hand-end report and returns the HandEnded event's data.

    The service builds the pots (floor.domain.settlement): the blinds posted
    are in the contributions [PT 89, 90; CM-17], uncalled chips go back to
    their owner, each seat wins only from the pots it reached [PT 38, 49-50;
    CM "restados"], a folded seat wins nothing, and the rake is within the
    limit on the called pots [GA art. 18.3a; PT 7a, 65; CM "Beneficio"].
    The report gives either the dealer's ``winnings`` (checked), or who won
    each pot (``pot_winners``) or the hands shown (``shown`` and ``board``),
    from which the service computes the payments [PT 66-67; GA art. 23.3].
    """
    if table.hand is None:
        raise conflict("no_hand_in_progress", f"No hand is being played at {table.label}.")
    put_in = _seat_amounts(table, contributions, "contributions")
    typed = winnings is not None
    computed = [
        name for name, v in (("pot_winners", pot_winners), ("shown", shown)) if v is not None
    ]
    pots_only = pots_only and not typed and not computed
    if typed + len(computed) != 1 and not pots_only:
        raise invalid(
            "hand_result_required" if not typed and not computed else "hand_result_twice",
            "Give either the winnings or who won (pot_winners or the hands shown), once.",
        )
    won = _seat_amounts(table, winnings, "winnings") if typed else {}
    if rake_cents is not None and (
        isinstance(rake_cents, bool) or not isinstance(rake_cents, int) or rake_cents < 0
    ):
        raise invalid("amount_invalid", "The rake is whole, non-negative cents.")
    said_folded = _seat_list(table, folded or [], "folded")
    dealt_in = set(table.hand["dealt_in"])
    outsiders = sorted((set(put_in) | set(won) | set(said_folded)) - dealt_in)
    if outsiders:
        raise invalid(
            "seat_not_in_hand",
            f"Seat {outsiders[0]} was not dealt in this hand.",
            seat=outsiders[0],
        )
    dead = sorted(set(won) & set(table.hand.get("dead", [])))
    if dead:
        raise conflict(
            "seat_hand_dead",
            f"Seat {dead[0]}'s hand is dead (the action clock ran out, CM-22): it wins nothing.",
            seat=dead[0],
        )
    for seat in sorted(dealt_in):
        stack = table.seat_at(seat).stack
        if put_in.get(seat, 0) > stack:
            raise invalid(
                "contribution_over_stack",
                f"Seat {seat} put in more than its stack.",
                seat=seat,
                stack_cents=stack,
            )
    facts = hand_facts(table, profile)
    settlement.check_blinds(facts, put_in)
    # Blinds posted for players away past their clock are in the pot [CM-18].
    posted_for_away = dict(facts.away_blinds)
    total = sum(put_in.values()) + sum(posted_for_away.values())
    built = settlement.build(facts, put_in, said_folded)
    if pots_only:
        # The preview asked before anyone is named the winner: the pots, their
        # rake limit, the chips returned; nothing paid yet.
        _left, takes = settlement.rake_limit(facts, built)
        pots = [
            {**pot, "rake_cents": take}
            for pot, take in zip(settlement.typed_pots(built), takes, strict=True)
        ]
        return {
            "number": table.hand["number"],
            "pot_cents": built.called,
            "rake_cents": sum(takes),
            "pots": pots,
            "returned": {str(s): a for s, a in sorted(built.returned.items())},
            "folded": sorted(built.folded),
            "winnings": {str(s): a for s, a in sorted(built.returned.items())},
            "stacks": None,
        }
    if typed:
        rake = 0 if rake_cents is None else rake_cents
        if sum(won.values()) + rake != total:
            raise invalid(
                "hand_does_not_balance",
                "The winnings plus the rake must equal what was put in the pot.",
                pot_cents=total,
                won_cents=sum(won.values()),
                rake_cents=rake,
            )
        settlement.check_typed(facts, built, won, rake)
        pots = settlement.typed_pots(built)
    else:
        if pot_winners is not None:
            winners = settlement.winners_from_list(built, pot_winners)
        else:
            winners = settlement.winners_from_shown(facts, built, shown, board)
        settled = settlement.settle(facts, built, winners)
        if rake_cents is not None and rake_cents != settled.rake:
            raise invalid(
                "rake_not_as_announced",
                "The service computes the rake the table announced on the called pots.",
                rake_cents=rake_cents,
                expected_cents=settled.rake,
            )
        rake, won, pots = settled.rake, settled.winnings, settled.pots
    stacks, idle, must_rebuy, post_big, must_leave = {}, {}, [], [], {}
    blinds = table.hand["blinds"]
    for seat in sorted(dealt_in):
        state = table.seat_at(seat)
        stack = state.stack - put_in.get(seat, 0) + won.get(seat, 0)
        stacks[str(seat)] = stack
        # A bet of the player's own: more than the blinds they were made to post.
        forced = blinds.get(str(seat), 0) + facts.dead_blinds.get(seat, 0)
        voluntary = put_in.get(seat, 0) > forced
        idle[str(seat)] = 0 if voluntary else state.idle_hands + 1
        if stack < table.minimum_cents:  # below the big blind [CM-16; PT 79]
            must_rebuy.append(seat)
        bb_after = profile.rest.idle_hands_post_big_blind
        if bb_after is not None and idle[str(seat)] >= bb_after:
            post_big.append(seat)
    for seat, posted in posted_for_away.items():
        stack = table.seat_at(seat).stack - posted
        stacks[str(seat)] = stack
        if stack < table.minimum_cents:
            must_rebuy.append(seat)
    return {
        "number": table.hand["number"],
        # The called pots: everything put in but the uncalled chips returned.
        "pot_cents": built.called,
        "rake_cents": rake,
        "contributions": {str(s): a for s, a in put_in.items()},
        # What each seat takes back: its pot winnings and its returned chips.
        "winnings": {str(s): a for s, a in sorted(won.items()) if a or typed},
        "stacks": stacks,
        "idle_hands": idle,
        "must_rebuy": must_rebuy,
        "must_post_big_blind": post_big,
        "must_leave": must_leave,
        # Whose stacks these are, and the blinds posted for players away: what
        # the ledger books for the hand (ledger.domain.floor_money).
        "players": {seat: table.seat_at(seat).player_id for seat in stacks},
        "away_posted": {str(s): a for s, a in posted_for_away.items()},
        "pots": pots,
        "returned": {str(s): a for s, a in sorted(built.returned.items())},
        "folded": sorted(built.folded),
    }
