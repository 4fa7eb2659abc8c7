"""What a hand-end report must hold and what it changes at the table (RULES.md
sections 5, 8, 9 and 10): what each seat put in and won, the pots and their
rake, the stacks after, and the flags raised for the next hands (idle hands,
rebuys, big blinds owed). ``decide_end`` checks the report and returns what the
HandEnded event records; the settlement's arithmetic is floor.domain.settlement.
The start of a hand is floor.domain.hand_rules'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from floor.domain import positions, settlement
from floor.domain.dealing_table import DealingTable, seat_amounts
from floor.kernel.errors import conflict, invalid
from games.profiles import RuleProfile
from games.rake import HandRake, hand_rake


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
        raise invalid("hand_report_invalid")
    out = []
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise invalid("seat_out_of_range")
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
        raise conflict("no_hand_in_progress")
    put_in = seat_amounts(table, contributions, "contributions")
    typed = winnings is not None
    computed = [
        name for name, v in (("pot_winners", pot_winners), ("shown", shown)) if v is not None
    ]
    pots_only = pots_only and not typed and not computed
    if typed + len(computed) != 1 and not pots_only:
        raise invalid("hand_result_required" if not typed and not computed else "hand_result_twice")
    won = seat_amounts(table, winnings, "winnings") if typed else {}
    if rake_cents is not None and (
        isinstance(rake_cents, bool) or not isinstance(rake_cents, int) or rake_cents < 0
    ):
        raise invalid("amount_invalid")
    said_folded = _seat_list(table, folded or [], "folded")
    dealt_in = set(table.hand["dealt_in"])
    outsiders = sorted((set(put_in) | set(won) | set(said_folded)) - dealt_in)
    if outsiders:
        raise invalid("seat_not_in_hand", seat=outsiders[0])
    dead = sorted(set(won) & set(table.hand.get("dead", [])))
    if dead:
        raise conflict("seat_hand_dead", seat=dead[0])
    for seat in sorted(dealt_in):
        stack = table.seat_at(seat).stack
        if put_in.get(seat, 0) > stack:
            raise invalid("contribution_over_stack", seat=seat, stack_cents=stack)
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
        if rake_cents is not None and rake_cents > settled.rake:
            # The most the rules allow on the called pots, said so the dealer
            # knows what to type [GA art. 18.3a; PT 7a; CM "Beneficio"].
            raise invalid(
                "rake_above_maximum",
                maximum_cents=settled.rake,
                rake_cents=rake_cents,
                pot_cents=built.called,
            )
        if rake_cents is not None and rake_cents < settled.rake:
            # The rake is a maximum: the dealer may take less (issue 22).
            settled = settlement.settle(facts, built, winners, rake=rake_cents)
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
