"""Bet and raise bounds, raise counts, forced bets and banked bands.

GA art. 6.3, 14.2, 22.3, 23.2, 30; PT 20-21, 47, 81-88; PT-SD 14; CM.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.betting import (
    CM_RAISES,
    GA_RAISES,
    GA_SIN_DESCARTE_BAND,
    GA_STUD7_RAISES,
    GA_TRIJOKER_BAND,
    PT_RAISES,
    PT_SD_BAND,
    blinds_for,
    cap_increment,
    check_ante,
    check_banked_stakes,
    check_may_raise,
    check_raise,
    check_table_limits,
    max_ante,
    may_raise,
    raise_bounds,
    stud_pot_limited_cap,
    stud_round_limit,
)
from games.errors import RuleViolation
from games.limits import BettingLimit, TableStakes

RULES = [GA_RAISES, GA_STUD7_RAISES, PT_RAISES, CM_RAISES]


def test_pot_limit_caps_the_raise_at_the_pot_after_the_call():
    """GA art. 22.3a.2; PT 21b: at most the pot. Pot 1,000 with 200 to call: a raise
    of up to 1,200 on top of the call."""
    assert cap_increment(BettingLimit.POT_LIMIT, pot=1_000, to_call=200, stack=10_000) == 1_200


def test_split_limit_caps_the_bet_at_half_the_pot():
    """GA art. 22.3a.1; PT 21a: at most half the pot."""
    assert cap_increment(BettingLimit.SPLIT_LIMIT, pot=1_000, to_call=0, stack=10_000) == 500


def test_no_limit_caps_at_the_stack():
    """GA art. 22.3a.3; PT 21c: the player's stack is the limit."""
    assert cap_increment(BettingLimit.NO_LIMIT, pot=100, to_call=200, stack=5_000) == 4_800


@settings(max_examples=300, deadline=None)
@given(
    limit=st.sampled_from(list(BettingLimit)),
    pot=st.integers(0, 100_000),
    to_call=st.integers(0, 10_000),
    stack=st.integers(0, 100_000),
)
def test_the_cap_never_exceeds_the_chips_behind_and_orders_the_limits(limit, pot, to_call, stack):
    caps = {lim: cap_increment(lim, pot=pot, to_call=to_call, stack=stack) for lim in BettingLimit}
    assert 0 <= caps[limit] <= max(stack - to_call, 0)
    no, pl, sl = (
        caps[BettingLimit.NO_LIMIT],
        caps[BettingLimit.POT_LIMIT],
        caps[BettingLimit.SPLIT_LIMIT],
    )
    assert sl <= pl <= no


def test_pt_raise_is_at_least_the_table_minimum():
    """PT 86: a raise at least equal to the table minimum."""
    bounds = raise_bounds(
        BettingLimit.POT_LIMIT,
        PT_RAISES,
        table_minimum=200,
        pot=1_500,
        current_bet=600,
        player_bet=0,
        stack=20_000,
    )
    assert bounds.minimum_to == 800
    assert bounds.maximum_to == 600 + 1_500 + 600


def test_cm_raise_doubles_the_previous_bet():
    """CM: "la subida mínima será siempre por el doble de la apuesta anterior"."""
    bounds = raise_bounds(
        BettingLimit.NO_LIMIT,
        CM_RAISES,
        table_minimum=200,
        pot=1_500,
        current_bet=600,
        player_bet=200,
        stack=20_000,
    )
    assert bounds.minimum_to == 1_200
    assert bounds.maximum_to == 20_200


def test_cm_all_in_may_raise_by_less():
    """CM: the double-the-bet minimum excepts "los jugadores restados"."""
    kwargs = dict(table_minimum=200, pot=1_500, current_bet=600, player_bet=0)
    check_raise(BettingLimit.NO_LIMIT, CM_RAISES, raise_to=900, stack=900, **kwargs)
    with pytest.raises(RuleViolation) as refused:
        check_raise(BettingLimit.NO_LIMIT, CM_RAISES, raise_to=900, stack=5_000, **kwargs)
    assert refused.value.code == "raise_below_minimum"


@pytest.mark.parametrize(
    ("limit", "raise_to", "stack", "code"),
    [
        (BettingLimit.POT_LIMIT, 5_000, 20_000, "raise_above_maximum"),
        (BettingLimit.SPLIT_LIMIT, 2_000, 20_000, "raise_above_maximum"),
        (BettingLimit.NO_LIMIT, 30_000, 20_000, "raise_over_stack"),
        (BettingLimit.NO_LIMIT, 700, 20_000, "raise_below_minimum"),
        (BettingLimit.NO_LIMIT, -1, 20_000, "amount_invalid"),
    ],
)
def test_bad_raises_are_refused_with_a_code(limit, raise_to, stack, code):
    with pytest.raises(RuleViolation) as refused:
        check_raise(
            limit,
            PT_RAISES,
            raise_to=raise_to,
            table_minimum=200,
            pot=1_500,
            current_bet=600,
            player_bet=0,
            stack=stack,
        )
    assert refused.value.code == code


def test_bet_in_front_above_the_round_bet_is_refused():
    with pytest.raises(RuleViolation) as refused:
        raise_bounds(
            BettingLimit.NO_LIMIT,
            PT_RAISES,
            table_minimum=200,
            pot=0,
            current_bet=100,
            player_bet=300,
            stack=100,
        )
    assert refused.value.code == "bet_above_current"


@settings(max_examples=300, deadline=None)
@given(
    limit=st.sampled_from(list(BettingLimit)),
    rule=st.sampled_from(RULES),
    minimum=st.integers(1, 1_000),
    pot=st.integers(0, 50_000),
    current=st.integers(0, 10_000),
    player=st.integers(0, 10_000),
    stack=st.integers(0, 50_000),
)
def test_every_total_inside_the_bounds_is_accepted(
    limit, rule, minimum, pot, current, player, stack
):
    player = min(player, current)
    kwargs = dict(table_minimum=minimum, pot=pot, current_bet=current, player_bet=player)
    bounds = raise_bounds(limit, rule, stack=stack, **kwargs)
    assert bounds.maximum_to <= bounds.all_in_to
    if bounds.minimum_to <= bounds.maximum_to:
        for total in {bounds.minimum_to, bounds.maximum_to}:
            check_raise(limit, rule, raise_to=total, stack=stack, **kwargs)
    if bounds.maximum_to < bounds.all_in_to:
        with pytest.raises(RuleViolation):
            check_raise(limit, rule, raise_to=bounds.maximum_to + 1, stack=stack, **kwargs)


def test_three_raises_a_round_unlimited_heads_up():
    """PT 87-88; GA art. 23.2."""
    assert may_raise(PT_RAISES, raises_this_round=2, players_in_hand=5)
    assert not may_raise(PT_RAISES, raises_this_round=3, players_in_hand=5)
    assert may_raise(PT_RAISES, raises_this_round=9, players_in_hand=2)
    with pytest.raises(RuleViolation) as refused:
        check_may_raise(PT_RAISES, raises_this_round=3, players_in_hand=3)
    assert refused.value.code == "raise_count_exceeded"


def test_stud_counts_each_players_raises():
    """GA art. 30.1: each player may raise at most three times a round."""
    assert may_raise(GA_STUD7_RAISES, raises_this_round=5, players_in_hand=4, player_raises=2)
    assert not may_raise(GA_STUD7_RAISES, raises_this_round=3, players_in_hand=4, player_raises=3)


def test_cm_names_no_raise_count():
    assert may_raise(CM_RAISES, raises_this_round=20, players_in_hand=6)


@pytest.mark.parametrize(
    ("round_number", "pair", "expected"),
    [(1, False, 200), (2, False, 200), (3, False, 400), (5, False, 400), (1, True, 400)],
)
def test_stud_low_then_high_limit(round_number, pair, expected):
    """GA art. 30.1.1: low for two rounds, high for three, high at once on an open pair."""
    assert stud_round_limit(round_number=round_number, low=200, high=400, open_pair_shown=pair) == (
        expected
    )


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"round_number": 0, "low": 200, "high": 400}, "stud_round_invalid"),
        ({"round_number": 6, "low": 200, "high": 400}, "stud_round_invalid"),
        ({"round_number": 1, "low": 400, "high": 200}, "stud_limits_invalid"),
        ({"round_number": 1, "low": 0, "high": 200}, "stud_limits_invalid"),
    ],
)
def test_bad_stud_limits_are_refused(kwargs, code):
    with pytest.raises(RuleViolation) as refused:
        stud_round_limit(open_pair_shown=False, **kwargs)
    assert refused.value.code == code


def test_blinds_from_the_table_minimum():
    """PT 82-83; CM: small blind half the minimum, big blind the minimum."""
    blinds = blinds_for(400)
    assert (blinds.small, blinds.big) == (200, 400)


@pytest.mark.parametrize(
    ("minimum", "code"), [(0, "stakes_minimum_not_positive"), (301, "stakes_minimum_odd")]
)
def test_bad_blinds_are_refused(minimum, code):
    with pytest.raises(RuleViolation) as refused:
        blinds_for(minimum)
    assert refused.value.code == code


def test_ante_at_most_half_the_minimum():
    """GA art. 22.3a: "o ante ... será como máximo un 50% do mínimo"."""
    assert max_ante(500) == 250
    check_ante(250, 500)
    with pytest.raises(RuleViolation) as refused:
        check_ante(251, 500)
    assert refused.value.code == "ante_above_half_minimum"


@pytest.mark.parametrize("multiple", [10, 20, 25])
def test_sin_descarte_band_multiples(multiple):
    """GA art. 6.3: the maximum is 10, 20 or 25 times the minimum."""
    check_banked_stakes(GA_SIN_DESCARTE_BAND, minimum=500, maximum=500 * multiple)


@pytest.mark.parametrize(
    ("band", "minimum", "maximum", "code"),
    [
        (GA_SIN_DESCARTE_BAND, 500, 500 * 30, "banked_band_not_authorised"),
        (GA_SIN_DESCARTE_BAND, 500, 500 * 15, "banked_band_not_authorised"),
        (GA_TRIJOKER_BAND, 500, 500 * 25, "banked_band_not_authorised"),
        (PT_SD_BAND, 500, 500 * 25 + 1, "banked_band_too_wide"),
        (PT_SD_BAND, 0, 100, "stakes_minimum_not_positive"),
        (PT_SD_BAND, 500, 100, "stakes_maximum_below_minimum"),
    ],
)
def test_bad_banked_stakes_are_refused(band, minimum, maximum, code):
    """GA art. 6.3, 14.2; PT-SD 14."""
    with pytest.raises(RuleViolation) as refused:
        check_banked_stakes(band, minimum=minimum, maximum=maximum)
    assert refused.value.code == code


def test_trijoker_and_pt_sd_bands_accept_their_multiples():
    check_banked_stakes(GA_TRIJOKER_BAND, minimum=500, maximum=15_000)  # 30x, GA art. 14.2
    check_banked_stakes(PT_SD_BAND, minimum=500, maximum=7_000)  # 14x <= 25x, PT-SD 14


def test_pot_limited_stud_caps_the_last_two_rounds():
    """GA art. 30.1.2: half the pot at the sixth card, the pot at the seventh."""
    assert stud_pot_limited_cap(round_number=4, pot_at_deal=3_001) == 1_500
    assert stud_pot_limited_cap(round_number=5, pot_at_deal=3_001) == 3_001
    assert stud_pot_limited_cap(round_number=2, pot_at_deal=3_001) is None
    with pytest.raises(RuleViolation) as refused:
        stud_pot_limited_cap(round_number=6, pot_at_deal=0)
    assert refused.value.code == "stud_round_invalid"


BAND = (Fraction(20, 100), Fraction(40, 100))


@pytest.mark.parametrize(
    ("minimum", "maximum", "ante", "code"),
    [
        (400, 1_000, 201, "ante_above_half_minimum"),
        (100, 1_000, 0, "stakes_out_of_band"),
        (201, 1_000, 0, "stakes_minimum_odd"),
    ],
)
def test_table_limits_are_checked_against_the_profile(minimum, maximum, ante, code):
    """GA art. 22.3a; PT 20: minimum 20-40 % of the maximum, ante at most half of it."""
    stakes = TableStakes(BettingLimit.POT_LIMIT, minimum, maximum)
    check_table_limits(TableStakes(BettingLimit.POT_LIMIT, 400, 1_000), BAND, ante=200)
    with pytest.raises(RuleViolation) as refused:
        check_table_limits(stakes, BAND, ante=ante)
    assert refused.value.code == code


def test_a_missing_amount_is_refused_with_a_code_not_a_crash():
    with pytest.raises(RuleViolation) as refused:
        raise_bounds(
            BettingLimit.NO_LIMIT,
            PT_RAISES,
            table_minimum=200,
            pot=700,
            current_bet=None,
            player_bet=0,
            stack=1000,
        )
    assert refused.value.code == "amount_invalid"
