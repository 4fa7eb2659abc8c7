"""Side pots and split pots [PT 38, 49-50, 66-67; GA art. 23.2-23.3; CM "restados"]."""

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.errors import RuleViolation
from games.pots import (
    CM_SPLIT,
    GA_SPLIT,
    PT_SPLIT,
    Pot,
    PotSplitRule,
    SplitBasis,
    award_pots,
    build_pots,
    seats_from,
    split_amount,
)
from games.rake import CM_HAND_RAKE, PT_HAND_RAKE, HandRake, rake_pots


@st.composite
def hands(draw):
    """A finished hand: contributions, folded seats (at least one live), hand values."""
    seats = draw(st.lists(st.integers(1, 10), min_size=1, max_size=10, unique=True))
    contributions = {
        s: draw(st.integers(0, 5_000)) * draw(st.sampled_from([1, 5, 100])) for s in seats
    }
    folded = set(draw(st.lists(st.sampled_from(seats), unique=True, max_size=len(seats) - 1)))
    values = {s: draw(st.integers(0, 3)) for s in seats if s not in folded}
    return contributions, folded, values


def _settle(contributions, folded, values, rule=PT_SPLIT, hand_seat=1, minimum=100):
    build = build_pots(contributions, folded)
    payouts = award_pots(build.pots, values, rule=rule, hand_seat=hand_seat, table_minimum=minimum)
    return build, payouts


@settings(max_examples=300, deadline=None)
@given(hands())
def test_pots_and_returns_conserve_every_cent(hand):
    contributions, folded, _ = hand
    build = build_pots(contributions, folded)
    assert build.total + sum(build.returned.values()) == sum(contributions.values())
    assert all(p.amount >= 0 for p in build.pots)


@settings(max_examples=300, deadline=None)
@given(hands(), st.sampled_from([PT_SPLIT, GA_SPLIT, CM_SPLIT]), st.integers(1, 10))
def test_payouts_conserve_the_pot_and_folders_win_nothing(hand, rule, hand_seat):
    contributions, folded, values = hand
    build, payouts = _settle(contributions, folded, values, rule, hand_seat)
    assert sum(payouts.values()) == build.total
    assert not set(payouts) & folded
    assert all(v >= 0 for v in payouts.values())


@settings(max_examples=300, deadline=None)
@given(hands())
def test_nobody_wins_more_than_the_pots_they_may_win(hand):
    contributions, folded, values = hand
    build, payouts = _settle(contributions, folded, values)
    for seat, won in payouts.items():
        assert won <= sum(p.amount for p in build.pots if seat in p.eligible)
        # an all-in wins from each other player at most what they matched [PT 49-50],
        # unless every player who put in more has folded (their chips are dead money)
        top_live = max(contributions[s] for s in contributions if s not in folded)
        if all(contributions[s] <= top_live for s in folded):
            matched = sum(min(c, contributions[seat]) for c in contributions.values())
            assert won <= matched


@settings(max_examples=300, deadline=None)
@given(hands())
def test_eligibility_is_monotone_in_contribution_and_pots_nest(hand):
    contributions, folded, _ = hand
    build = build_pots(contributions, folded)
    live = [s for s in contributions if s not in folded]
    for pot in build.pots:
        for a in pot.eligible:
            for b in live:
                if contributions[b] - build.returned.get(b, 0) >= contributions[
                    a
                ] - build.returned.get(a, 0):
                    assert b in pot.eligible
        assert not pot.eligible & folded
    for outer, inner in pairwise(build.pots):
        assert inner.eligible <= outer.eligible


@settings(max_examples=200, deadline=None)
@given(hands(), st.integers(0, 5), st.sampled_from([None, 1000]))
def test_rake_plus_payouts_equal_the_contributions(hand, percent, cap):
    contributions, folded, values = hand
    build = build_pots(contributions, folded)
    for rule in (PT_HAND_RAKE,):
        left, rake = rake_pots(rule, HandRake(Fraction(percent, 100), cap=cap), build.pots)
        payouts = award_pots(left, values, rule=PT_SPLIT, hand_seat=1, table_minimum=100)
        assert sum(payouts.values()) + rake + sum(build.returned.values()) == sum(
            contributions.values()
        )
        assert rake <= percent * build.total // 100


def test_all_in_player_wins_only_what_they_matched():
    """PT 38, 49-50: seat 1 is all-in for 100; seats 2 and 3 bet 300. Seat 1 holds the
    best hand: it wins the main pot 300; the side pot 400 goes to the better of 2, 3."""
    build = build_pots({1: 100, 2: 300, 3: 300})
    assert build.pots == (Pot(300, frozenset({1, 2, 3})), Pot(400, frozenset({2, 3})))
    payouts = award_pots(build.pots, {1: 9, 2: 5, 3: 7}, rule=CM_SPLIT, hand_seat=1)
    assert payouts == {1: 300, 3: 400}


def test_folded_chips_stay_in_but_win_nothing():
    """PT 39a; GA art. 23.2a: a folder gives up every bet made."""
    build = build_pots({1: 500, 2: 200, 3: 800, 4: 800}, folded={1})
    assert build.pots == (Pot(800, frozenset({2, 3, 4})), Pot(1500, frozenset({3, 4})))
    assert build.returned == {}


def test_uncalled_bet_goes_back():
    """CM counts as pot only bets "vistas por otro jugador"; PT 51."""
    build = build_pots({1: 1000, 2: 400}, folded={2})
    assert build.pots == (Pot(800, frozenset({1})),)
    assert build.returned == {1: 600}


def test_several_all_ins_make_a_side_pot_each():
    """PT 38: a side pot for each all-in player with a different amount."""
    build = build_pots({1: 50, 2: 120, 3: 300, 4: 300, 5: 30}, folded={5})
    assert [p.amount for p in build.pots] == [230, 210, 360]
    assert [sorted(p.eligible) for p in build.pots] == [[1, 2, 3, 4], [2, 3, 4], [3, 4]]


def test_pt67_shares_are_whole_minimums_and_the_hand_takes_the_odd_one():
    """PT 67: each share in chips no smaller than the table minimum; the larger share
    to the player with the hand, the rest to the following players."""
    shares = split_amount(700, seats_from(5, [2, 5, 8]), unit=100)
    assert shares == {5: 300, 8: 200, 2: 200}


def test_odd_chip_order_follows_the_hand_in_either_direction():
    assert seats_from(5, [2, 5, 8]) == [5, 8, 2]
    assert seats_from(5, [2, 8], ascending=False) == [2, 8]
    assert seats_from(6, [2, 8, 5], ascending=False) == [5, 2, 8]


def test_part_of_a_unit_goes_to_the_hand():
    """A pot that is not a whole number of units: the hand takes the loose cents."""
    assert split_amount(250, [3, 4], unit=100) == {3: 150, 4: 100}


def test_proportional_split_follows_the_weights():
    """PT 66 / GA art. 23.3: shares in proportion to the bets (or stacks)."""
    assert split_amount(900, [1, 2], weights={1: 100, 2: 200}) == {1: 300, 2: 600}
    assert split_amount(1000, [1, 2], unit=100, weights={1: 1, 2: 2}) == {1: 400, 2: 600}


def test_tie_splits_each_pot_among_its_own_winners():
    build = build_pots({1: 100, 2: 300, 3: 300})
    payouts = award_pots(
        build.pots, {1: 9, 2: 9, 3: 1}, rule=PT_SPLIT, hand_seat=3, table_minimum=100
    )
    # main pot 300 = 3 units split 1/2 → the first from the hand (seat 3 → 1 → 2) gets 2
    assert payouts == {1: 200, 2: 100 + 400}


@pytest.mark.parametrize(
    ("contributions", "folded", "code"),
    [
        ({1: -5, 2: 10}, set(), "contribution_invalid"),
        ({1: 10, 2: 10}, {1, 2}, "pots_no_live_player"),
        ({1: 10}, {3}, "folded_seat_unknown"),
    ],
)
def test_bad_contributions_are_refused(contributions, folded, code):
    with pytest.raises(RuleViolation) as refused:
        build_pots(contributions, folded)
    assert refused.value.code == code


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"amount": 100, "order": []}, "split_winners_invalid"),
        ({"amount": 100, "order": [1, 1]}, "split_winners_invalid"),
        ({"amount": 100, "order": [1], "unit": 0}, "split_unit_invalid"),
        ({"amount": 100, "order": [1, 2], "weights": {1: 0, 2: 0}}, "split_weights_invalid"),
    ],
)
def test_bad_splits_are_refused(kwargs, code):
    with pytest.raises(RuleViolation) as refused:
        split_amount(**kwargs)
    assert refused.value.code == code


def test_a_contested_pot_needs_every_hand():
    with pytest.raises(RuleViolation) as refused:
        award_pots(
            [Pot(200, frozenset({1, 2}))],
            {1: 3},
            rule=PotSplitRule(SplitBasis.EQUAL, False),
            hand_seat=1,
        )
    assert refused.value.code == "showdown_hand_missing"


def test_cm_per_hand_rake_comes_out_of_the_pots_in_proportion():
    build = build_pots({1: 2_000, 2: 6_000, 3: 6_000})
    left, rake = rake_pots(
        CM_HAND_RAKE, HandRake(Fraction(5, 100), cap=1000, step=2_000), build.pots
    )
    assert rake == 700  # 5 % of the 140 EUR called pot, seven whole 20 EUR steps [CM]
    assert [p.amount for p in left] == [6_000 - 300, 8_000 - 400]


@settings(max_examples=300, deadline=None)
@given(
    amount=st.integers(0, 1_000_000),
    winners=st.lists(st.integers(1, 10), min_size=1, max_size=10, unique=True),
    unit=st.sampled_from([1, 5, 100, 200]),
)
def test_equal_split_shares_whole_units_the_hand_first(amount, winners, unit):
    """PT 67: shares in whole units; the largest to the hand, then the following."""
    shares = split_amount(amount, winners, unit=unit)
    assert sum(shares.values()) == amount
    hand, *rest = winners
    assert all(shares[s] % unit == 0 for s in rest)
    assert all(shares[hand] >= shares[s] for s in rest)
    assert max(shares.values()) - min(shares.values()) < 2 * unit
    values = [shares[s] for s in winners]
    assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("weights", [{1: 501, 3: 500}, {1: 5, 2: 0, 3: 5}, {1: 1.5, 2: 1, 3: 1}])
def test_a_split_refuses_a_winner_without_a_positive_whole_weight(weights):
    with pytest.raises(RuleViolation) as refused:
        split_amount(1001, [1, 2, 3], weights=weights)
    assert refused.value.code == "split_weights_invalid"
