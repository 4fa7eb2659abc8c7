"""Rule profiles: the numbers of each source and what a table may change."""

from dataclasses import fields, is_dataclass
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.betting import (
    CM_RAISES,
    GA_RAISES,
    GA_SIN_DESCARTE_BAND,
    GA_TRIJOKER_BAND,
    PT_RAISES,
    PT_SD_BAND,
    MinimumRaise,
)
from games.errors import RuleViolation
from games.limits import BettingLimit
from games.pots import CM_SPLIT, GA_SPLIT, PT_SPLIT, SplitBasis
from games.profile_rules import AbsenceExpiry, FirstButton, Rotation
from games.profiles import (
    CM,
    GA,
    PROFILES,
    PT,
    TEST,
    TEST_GA,
    TEST_PT,
    TWINS,
    RuleProfile,
    SeatNumbering,
    accelerated,
    get_profile,
)
from games.rake import (
    CM_HAND_RAKE,
    GA_HAND_RAKE,
    GA_SESSION_CHARGE,
    PT_HAND_RAKE,
    PT_SESSION_CHARGE,
    SessionBase,
    SessionEnd,
)
from games.variants import Variant


def _durations(value, path="profile"):
    if isinstance(value, timedelta):
        yield path, value
    elif is_dataclass(value):
        for f in fields(value):
            yield from _durations(getattr(value, f.name), f"{path}.{f.name}")


def test_existing_fields_keep_their_values():
    """The floor reads these; they must not move [GA art. 18.2, 19, 23; PT 6, 24]."""
    assert GA.seat_numbering is SeatNumbering.FROM_DEALER_RIGHT
    assert PT.seat_numbering is CM.seat_numbering is SeatNumbering.FROM_DEALER_LEFT
    assert GA.suspension_closes_after is None
    assert PT.suspension_closes_after == CM.suspension_closes_after == timedelta(minutes=15)
    assert TEST.suspension_closes_after == timedelta(seconds=3)
    for profile in PROFILES.values():
        assert profile.max_tables_per_sector == 4
        assert profile.min_players == 4
        assert profile.minimum_share_band == (Fraction(1, 5), Fraction(2, 5))


def test_profiles_are_frozen():
    with pytest.raises(AttributeError):
        GA.min_players = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        CM.rake.per_hand.max_cap = 0  # type: ignore[misc]


def test_seats_per_variant():
    """PT 6: Hold'em and Omaha 10 seats (right seat may be disabled), sintético 11;
    PT-SD 5 and GA art. 5, 12: seven banked boxes; PG III.3: six."""
    assert PT.seats.range_for(Variant.TEXAS_HOLDEM).max_seats == 10
    assert PT.seats.range_for(Variant.SINTETICO).min_seats == 11
    assert PT.seats.right_seat_may_be_disabled
    assert PT.seats.range_for(Variant.PAI_GOW) is None
    assert PT.seats.range_for(Variant.SEN_DESCARTE).max_seats == 7
    assert GA.seats.range_for(Variant.TRIJOKER).max_seats == 7
    assert GA.seats.range_for(Variant.PAI_GOW).max_seats == 6
    assert CM.seats.range_for(Variant.OMAHA).max_seats == 10  # CM "Mesa de juego"
    assert GA.seats.range_for(Variant.OMAHA).min_seats == 4  # GA art. 23


def test_rest_and_absence():
    """GA art. 20; PT 13, 89, 90; PT-SD 22; CM-18, CM-19."""
    assert GA.rest.rest_hands == PT.rest.rest_hands == CM.rest.rest_hands == 2
    assert GA.rest.idle_hands_must_leave is None
    assert PT.rest.idle_hands_must_leave == 3
    assert PT.rest.idle_hands_post_big_blind == 5
    assert PT.rest.missed_blinds_posted_dead
    assert PT.rest.banked_idle_hands_may_lose_seat == 3
    assert GA.absence is None and PT.absence is None
    absence = CM.absence
    assert absence.allowance == timedelta(minutes=20)
    assert absence.courtesy == timedelta(minutes=5)
    assert absence.uses_per_day == 1
    assert absence.max_players_per_table == 2
    assert absence.requires_hand_played and absence.requires_chips_at_table
    assert absence.expiry_with_waiting_list is AbsenceExpiry.REMOVE_CHIPS
    assert absence.expiry_without_waiting_list is AbsenceExpiry.POST_BLINDS


def test_action_clock():
    """CM-21: 2 min with a pot up to 200 EUR, 4 above; CM-22: +1 min, last 10 s.
    GA art. 24.3a and PT 71a only warn."""
    clock = CM.action_clock
    assert clock.enforced
    assert clock.first_period(200_00) == timedelta(minutes=2)
    assert clock.first_period(200_01) == timedelta(minutes=4)
    assert clock.extra == timedelta(minutes=1)
    assert clock.countdown == timedelta(seconds=10)
    assert not GA.action_clock.enforced and not PT.action_clock.enforced


def test_waiting_list_moves_and_balance():
    """CM-6: 5 minutes, then last or removed; CM-10, CM-13; PT 26."""
    assert CM.waiting_list.call_window == timedelta(minutes=5)
    assert CM.waiting_list.relist_goes_last and CM.waiting_list.absent_when_called_removed
    assert GA.waiting_list.call_window is None and PT.waiting_list.call_window is None
    assert CM.table_moves.reseat_cooldown == timedelta(minutes=15)
    assert CM.table_moves.max_player_difference == 1
    assert PT.table_moves.change_only_after_losing_stack
    assert PT.table_moves.moves_may_not_unbalance
    assert GA.table_moves.max_player_difference is None


def test_limits_blinds_and_raises():
    """GA art. 6.3, 14.2, 22.3a; PT-SD 14; PT 82-83, 86-88; CM doubling."""
    for profile in (GA, PT, CM):
        assert profile.limits.ante_max_share_of_minimum == Fraction(1, 2)
        assert profile.blinds.small_share_of_minimum == Fraction(1, 2)
        assert profile.blinds.big_share_of_minimum == 1
        assert profile.raises.unlimited_heads_up
    assert PT.raises.max_raises == 3  # PT 87
    assert GA.raises.max_raises is None  # GA art. 23.2: only a variant's rules count
    assert GA.raises_for("seven_stud").max_raises == 3  # GA art. 30.1, per player
    assert GA.raises_for("seven_stud").counted_per_player
    assert GA.raises_for("texas_holdem") is GA.raises and PT.raises_for("seven_stud") is PT.raises
    # GA art. 23.2 leaves the count to the variant's rules; the CM manual names none.
    assert CM.raises.max_raises is None
    ga_band = GA.limits.band_for(Variant.SEN_DESCARTE)
    assert ga_band.allows(Fraction(20)) and not ga_band.allows(Fraction(15))
    assert GA.limits.band_for(Variant.TRIJOKER).multiples == (10, 20, 30)
    pt_band = PT.limits.band_for(Variant.SEN_DESCARTE)
    assert pt_band.allows(Fraction(15)) and not pt_band.allows(Fraction(26))
    assert PT.raises.minimum_raise is MinimumRaise.TABLE_MINIMUM
    assert CM.raises.minimum_raise is MinimumRaise.DOUBLE_PREVIOUS_BET


def test_rake_and_sessions():
    """GA art. 18.3; PT 7; CM "Beneficio"."""
    for profile in (GA, PT, CM):
        assert profile.rake.per_hand.max_percent == Fraction(5, 100)
    assert CM.rake.per_hand.max_cap == 10_00
    assert CM.rake.per_hand.steps == (20_00, 50_00, 100_00)
    # PT 7a lets the casino cap the rake; GA art. 18.3a only bounds the share, and
    # a cap only lowers the take, so a GA casino may cap it too.
    assert PT.rake.per_hand.cap_allowed and GA.rake.per_hand.cap_allowed
    assert PT.rake.per_hand.max_cap is None and GA.rake.per_hand.max_cap is None
    ga, pt = GA.rake.per_session, PT.rake.per_session
    assert ga.percent_band == (Fraction(10, 100), Fraction(20, 100))
    assert pt.percent_band == (Fraction(5, 100), Fraction(20, 100))
    assert ga.session_length == pt.session_length == timedelta(hours=1)
    assert ga.end is SessionEnd.TWO_MORE_HANDS and ga.late_join_window is None
    assert pt.end is SessionEnd.FINISH_HAND_IN_PROGRESS
    assert pt.late_join_window == timedelta(minutes=30)
    assert set(ga.bases) == set(pt.bases) == {SessionBase.TABLE_MAXIMUM, SessionBase.STACK}
    assert CM.rake.per_session is None


def test_split_and_button():
    """PT 66-67 vs GA art. 23.3 vs CM; GA art. 23.1; PT 29-30; CM draw S>H>D>C."""
    assert PT.split.basis is SplitBasis.BETS
    assert GA.split.basis is SplitBasis.STACKS
    assert CM.split.basis is SplitBasis.EQUAL  # CM "split pot"
    assert PT.split.share_in_table_minimums  # PT 67
    assert GA.button.rotation is Rotation.COUNTER_CLOCKWISE
    assert PT.button.first is FirstButton.FIRST_SEAT_LEFT_OF_DEALER
    assert PT.button.rotation is Rotation.CLOCKWISE
    assert CM.button.first is FirstButton.CARD_DRAW
    assert CM.button.draw_suit_order == "shdc"


def test_profiles_point_at_the_engines_rules():
    """Each rule is defined once: the profile holds the engine modules' instances."""
    assert (GA.raises, PT.raises, CM.raises) == (GA_RAISES, PT_RAISES, CM_RAISES)
    assert all(p.raises is r for p, r in ((GA, GA_RAISES), (PT, PT_RAISES), (CM, CM_RAISES)))
    assert GA.split is GA_SPLIT and PT.split is PT_SPLIT and CM.split is CM_SPLIT
    assert GA.rake.per_hand is GA_HAND_RAKE and GA.rake.per_session is GA_SESSION_CHARGE
    assert PT.rake.per_hand is PT_HAND_RAKE and PT.rake.per_session is PT_SESSION_CHARGE
    assert CM.rake.per_hand is CM_HAND_RAKE
    assert GA.limits.band_for(Variant.SEN_DESCARTE) is GA_SIN_DESCARTE_BAND
    assert GA.limits.band_for(Variant.TRIJOKER) is GA_TRIJOKER_BAND
    assert PT.limits.band_for(Variant.SEN_DESCARTE) is PT_SD_BAND


def test_cm_is_ga_with_the_house_rules_on_top():
    assert CM.rest == GA.rest and CM.limits == GA.limits and CM.seats == GA.seats


def test_test_profile_is_cm_with_minutes_read_as_seconds():
    cm, test = dict(_durations(CM)), dict(_durations(TEST))
    assert cm.keys() == test.keys()
    for path, value in cm.items():
        if path in ("profile.suspension_closes_after", "profile.waiting_list.remote_check_in_time"):
            continue
        assert test[path] == value / 60, path
    assert TEST.absence.allowance == timedelta(seconds=20)
    assert TEST.action_clock.small_pot == timedelta(seconds=2)
    assert TEST.waiting_list.call_window == timedelta(seconds=5)
    assert TEST.waiting_list.remote_check_in_time == timedelta(seconds=9)
    assert TEST.table_moves.reseat_cooldown == timedelta(seconds=15)
    # Every floor clock within 20 seconds; the dealers' rotation (an hour's
    # dealing before a break, a minute here) is planned, never waited on.
    assert all(v <= timedelta(seconds=20) for p, v in test.items() if "dealer_rotation" not in p)
    assert TEST.dealer_rotation.break_after == timedelta(seconds=60)
    assert TEST.rake == CM.rake and TEST.button == CM.button


# The durations each twin cuts further than minutes read as seconds.
CUT = {
    "profile.suspension_closes_after": timedelta(seconds=3),  # PT 24: 15 min
    "profile.rake.per_session.session_length": timedelta(seconds=6),  # GA 18.3b, PT 7b: 1 h
    "profile.rake.per_session.late_join_window": timedelta(seconds=3),  # PT 7b: 30 min
    "profile.waiting_list.remote_check_in_time": timedelta(seconds=9),  # issue 24: 90 min
}


@pytest.mark.parametrize(("source", "code"), [(CM, "TEST"), (GA, "TEST_GA"), (PT, "TEST_PT")])
def test_each_profile_has_an_accelerated_twin_registered_by_its_code(source, code):
    twin = get_profile(code)
    assert twin is TWINS[source.code] and twin.code == code
    assert get_profile(code.lower()) is twin  # as FLOOR_RULE_PROFILE is read
    assert accelerated(source, code=code, name=twin.name) == twin  # one builder for all
    assert twin.name == f"Test profile ({source.code} with short durations)"
    original, short = dict(_durations(source)), dict(_durations(twin))
    assert original.keys() == short.keys()
    for path, value in original.items():
        assert short[path] == CUT.get(path, value / 60), path
    # Only the durations differ: every other rule is the source's.
    changes = {"code", "name", "suspension_closes_after", "absence", "action_clock"}
    changes |= {"waiting_list", "table_moves", "closing", "rake", "dealer_rotation"}
    for f in fields(source):
        if f.name not in changes:
            assert getattr(twin, f.name) == getattr(source, f.name), f.name
    assert twin.rake.per_hand == source.rake.per_hand
    assert (twin.suspension_closes_after is None) is (source.suspension_closes_after is None)


def test_the_twins_keep_each_rule_that_ends_a_session():
    """GA art. 18.3b and PT 7b keep their ends; PT's window is half the hour."""
    assert TEST_GA.rake.per_session.end is GA.rake.per_session.end
    assert TEST_PT.rake.per_session.end is PT.rake.per_session.end
    assert TEST_GA.rake.per_session.late_join_window is None
    pt = TEST_PT.rake.per_session
    assert pt.late_join_window * 2 == pt.session_length
    assert TEST_GA.suspension_closes_after is None  # GA art. 23: never closes
    assert TEST.rake.per_session is None  # CM: no time rake


# --- what a table may change ---------------------------------------------------


def test_table_defaults_to_the_profile():
    rules = CM.for_table(Variant.TEXAS_HOLDEM)
    assert rules.seats == 10
    assert rules.rake_model == "per_hand"
    assert rules.rake_share == Fraction(5, 100)
    assert rules.rake_cap_cents == 10_00
    assert rules.action_clock_on
    assert not GA.for_table("omaha").action_clock_on


def test_table_may_choose_within_the_profile():
    rules = CM.for_table(
        "texas_holdem",
        seats=9,
        betting_limit="no_limit",
        rake_percent=3,
        rake_cap_cents=5_00,
        rake_step_cents=50_00,
        action_clock=False,
    )
    assert rules.seats == 9
    assert rules.betting_limit is BettingLimit.NO_LIMIT
    assert rules.rake_share == Fraction(3, 100)
    assert (rules.rake_cap_cents, rules.rake_step_cents) == (5_00, 50_00)
    assert not rules.action_clock_on
    session = PT.for_table(
        "omaha", rake_model="per_session", session_percent="7.5", session_base="stack"
    )
    assert session.session_share == Fraction(75, 1000)
    assert session.session_base is SessionBase.STACK
    assert session.rake_share is None


@pytest.mark.parametrize(
    ("profile", "variant", "overrides", "code"),
    [
        (CM, "texas_holdem", {"min_players": 2}, "table_override_not_allowed"),
        (CM, "texas_holdem", {"seats": 11}, "table_seats_out_of_range"),  # CM: up to 10
        (PT, "sintetico", {"seats": 10}, "table_seats_out_of_range"),  # PT 6: 11
        (PT, "pai_gow", {}, "variant_not_in_profile"),
        (CM, "no_such_game", {}, "unknown_variant"),
        (CM, "omaha", {"rake_percent": 6}, "rake_percent_out_of_band"),  # GA art. 18.3a
        (CM, "omaha", {"rake_percent": -1}, "rake_percent_out_of_band"),
        (CM, "omaha", {"rake_cap_cents": 10_01}, "rake_cap_above_profile"),  # CM 10 EUR
        (CM, "omaha", {"rake_step_cents": 30_00}, "rake_step_not_in_profile"),
        (GA, "omaha", {"rake_step_cents": 20_00}, "rake_step_not_in_profile"),
        (CM, "omaha", {"rake_model": "per_session"}, "rake_model_not_in_profile"),
        (
            GA,
            "omaha",
            {"rake_model": "per_session", "session_percent": 5},
            "session_percent_out_of_band",
        ),
        (
            PT,
            "omaha",
            {"rake_model": "per_session", "session_percent": 21},
            "session_percent_out_of_band",
        ),
        (
            PT,
            "omaha",
            {"rake_model": "per_session", "session_base": "pot"},
            "session_base_not_in_profile",
        ),
        (PT, "omaha", {"session_percent": 10}, "override_not_for_rake_model"),
        (GA, "omaha", {"action_clock": True}, "action_clock_not_in_profile"),  # GA art. 24.3a
        (PT, "omaha", {"action_clock": True}, "action_clock_not_in_profile"),  # PT 71a
        (GA, "trijoker", {"betting_limit": "pot_limit"}, "betting_limit_not_for_banked"),
        (GA, "omaha", {"betting_limit": "table_stakes"}, "bad_override_value"),
        (GA, "omaha", {"seats": "ten"}, "bad_override_value"),
        (GA, "omaha", {"rake_cap_cents": 1.5}, "bad_override_value"),
        (GA, "omaha", {"action_clock": "yes"}, "bad_override_value"),
    ],
)
def test_table_refuses_what_the_profile_does_not_allow(profile, variant, overrides, code):
    with pytest.raises(RuleViolation) as refused:
        profile.for_table(variant, **overrides)
    assert refused.value.code == code


@given(
    profile=st.sampled_from([GA, PT, CM]),
    percent=st.fractions(min_value=-10, max_value=10, max_denominator=1000),
)
def test_rake_percent_is_accepted_exactly_inside_the_band(profile: RuleProfile, percent):
    """GA art. 18.3a; PT 7a: up to 5 % of the pot."""
    inside = 0 <= percent <= 5
    try:
        rules = profile.for_table("omaha", rake_percent=percent)
    except RuleViolation as refused:
        assert not inside
        assert refused.code == "rake_percent_out_of_band"
    else:
        assert inside
        assert rules.rake_share == percent / 100


def test_banked_tables_have_no_rake_and_refuse_one():
    from games.errors import RuleViolation
    from games.profiles import GA

    for variant in ("sen_descarte", "trijoker", "pai_gow"):
        rules = GA.for_table(variant)
        assert rules.rake_model is None and rules.rake_share is None
    with pytest.raises(RuleViolation) as refused:
        GA.for_table("trijoker", rake_percent=5)
    assert refused.value.code == "rake_not_for_banked"


def test_a_cm_table_without_a_step_counts_the_rake_in_the_smallest_and_can_rake():
    from fractions import Fraction

    from games.pots import Pot
    from games.profiles import CM
    from games.rake import CM_HAND_RAKE, HandRake, rake_pots

    rules = CM.for_table("texas_holdem")
    assert rules.rake_step_cents == 2000
    setting = HandRake(Fraction(rules.rake_share), rules.rake_cap_cents, rules.rake_step_cents)
    _left, rake = rake_pots(CM_HAND_RAKE, setting, [Pot(10_000, frozenset({1, 2}))])
    assert rake == 500


@pytest.mark.parametrize("percent", ["1e-99999999", Decimal("Infinity"), "nan", float("inf"), "5%"])
def test_a_percentage_is_a_plain_number(percent):
    from games.errors import RuleViolation
    from games.profiles import PT

    with pytest.raises(RuleViolation) as refused:
        PT.for_table("omaha", rake_percent=percent)
    assert refused.value.code == "bad_override_value"
