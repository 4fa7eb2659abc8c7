from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.errors import RuleViolation
from games.limits import BettingLimit, TableStakes, check_stakes
from games.profiles import CM, GA, PROFILES, PT, get_profile

BAND = (Fraction(20, 100), Fraction(40, 100))


@given(
    minimum=st.integers(min_value=1, max_value=50_000).map(lambda n: n * 2),
    maximum=st.integers(min_value=1, max_value=500_000),
)
def test_minimum_is_accepted_exactly_between_20_and_40_percent_of_maximum(minimum, maximum):
    """GA art. 22.3a; PT 20: the table minimum lies between 20 % and 40 % of the maximum."""
    stakes = TableStakes(BettingLimit.NO_LIMIT, minimum, maximum)
    inside = maximum >= minimum and 5 * minimum >= maximum and 5 * minimum <= 2 * maximum
    if inside:
        check_stakes(stakes, BAND)
    else:
        with pytest.raises(RuleViolation) as refused:
            check_stakes(stakes, BAND)
        assert refused.value.code in {"stakes_out_of_band", "stakes_maximum_below_minimum"}


@pytest.mark.parametrize(
    ("minimum", "maximum", "code"),
    [
        (0, 1000, "stakes_minimum_not_positive"),
        (-200, 1000, "stakes_minimum_not_positive"),
        (201, 1000, "stakes_minimum_odd"),  # no whole-cent small blind
        (1000, 200, "stakes_maximum_below_minimum"),
        (100, 1000, "stakes_out_of_band"),
        (500, 1000, "stakes_out_of_band"),
    ],
)
def test_bad_stakes_are_refused_with_a_code(minimum, maximum, code):
    with pytest.raises(RuleViolation) as refused:
        check_stakes(TableStakes(BettingLimit.POT_LIMIT, minimum, maximum), BAND)
    assert refused.value.code == code


def test_blinds_derive_from_the_table_minimum():
    stakes = TableStakes(BettingLimit.NO_LIMIT, 400, 1000)
    assert (stakes.small_blind_cents, stakes.big_blind_cents) == (200, 400)


def test_profiles_keep_the_regulated_numbers():
    for profile in (GA, PT, CM):
        assert profile.max_tables_per_sector == 4  # GA art. 19
        assert profile.min_players == 4  # GA art. 23; PT 24
    assert GA.suspension_closes_after is None  # GA art. 23: no closing deadline
    assert PT.suspension_closes_after.total_seconds() == 15 * 60  # PT 24


def test_profiles_are_found_by_code_and_unknown_codes_refused():
    assert get_profile("pt") is PT
    assert set(PROFILES) >= {"GA", "PT", "CM", "TEST"}
    with pytest.raises(RuleViolation) as refused:
        get_profile("XX")
    assert refused.value.code == "unknown_rule_profile"
