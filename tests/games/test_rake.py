"""The house's benefit per hand and per session [GA art. 18.3; PT 7, 65; CM]."""

from datetime import timedelta
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.errors import RuleViolation
from games.pots import Pot
from games.rake import (
    CM_HAND_RAKE,
    GA_HAND_RAKE,
    GA_SESSION_CHARGE,
    PT_HAND_RAKE,
    PT_SESSION_CHARGE,
    HandRake,
    check_hand_rake,
    hand_rake,
    hands_after_hour,
    pays_on_joining,
    rake_due_now,
    rake_pots,
    session_charge,
    session_hands_left,
    session_over,
)

FIVE = Fraction(5, 100)


def test_five_percent_of_the_pot_rounded_down():
    """GA art. 18.3a; PT 7a: up to 5 % of the money in the pot."""
    assert hand_rake(HandRake(FIVE), 12_345) == 617


def test_cm_caps_at_ten_euros_and_counts_whole_steps():
    """CM: up to 5 %, at most 10 EUR a hand, in steps of 20/50/100 EUR of called pot."""
    setting = HandRake(FIVE, cap=1_000, step=2_000)
    check_hand_rake(CM_HAND_RAKE, setting)
    assert hand_rake(setting, 3_999) == 100  # one whole 20 EUR step
    assert hand_rake(setting, 4_000) == 200
    assert hand_rake(setting, 100_000) == 1_000  # capped
    assert hand_rake(HandRake(FIVE, cap=1_000, step=10_000), 19_999) == 500


def test_cm_rake_is_taken_as_rounds_start_and_adds_up_to_the_hands_rake():
    """CM: the dealer takes the rake when a betting round starts."""
    setting = HandRake(FIVE, cap=1_000, step=5_000)
    taken = 0
    for called in (3_000, 12_000, 40_000, 90_000):
        taken += rake_due_now(setting, called, taken)
    assert taken == hand_rake(setting, 90_000) == 1_000


def test_pt_rakes_each_payment_and_the_cap_binds_the_hand():
    """PT 65: with side pots the rake is taken from each payment; PT 7a: casino cap."""
    pots = [Pot(10_000, frozenset({1, 2, 3})), Pot(8_000, frozenset({2, 3}))]
    left, rake = rake_pots(PT_HAND_RAKE, HandRake(FIVE), pots)
    assert [p.amount for p in left] == [9_500, 7_600] and rake == 900
    left, rake = rake_pots(PT_HAND_RAKE, HandRake(FIVE, cap=700), pots)
    assert [p.amount for p in left] == [9_500, 7_800] and rake == 700


@settings(max_examples=300, deadline=None)
@given(
    amounts=st.lists(st.integers(0, 200_000), min_size=1, max_size=6),
    percent=st.integers(0, 5),
    cap=st.one_of(st.none(), st.integers(0, 5_000)),
    per_pot=st.booleans(),
)
def test_rake_conserves_chips_and_never_exceeds_five_percent(amounts, percent, cap, per_pot):
    rule = PT_HAND_RAKE if per_pot else GA_HAND_RAKE
    pots = [Pot(a, frozenset({1})) for a in amounts]
    left, rake = rake_pots(rule, HandRake(Fraction(percent, 100), cap=cap), pots)
    assert sum(p.amount for p in left) + rake == sum(amounts)
    assert all(p.amount >= 0 for p in left)
    assert rake * 100 <= percent * sum(amounts)
    assert cap is None or rake <= cap


@pytest.mark.parametrize(
    ("rule", "setting", "code"),
    [
        (GA_HAND_RAKE, HandRake(Fraction(6, 100)), "rake_percent_out_of_range"),
        (PT_HAND_RAKE, HandRake(Fraction(-1, 100)), "rake_percent_out_of_range"),
        (CM_HAND_RAKE, HandRake(FIVE, cap=1_500, step=2_000), "rake_cap_out_of_range"),
        (CM_HAND_RAKE, HandRake(FIVE, step=2_000), "rake_cap_required"),
        (CM_HAND_RAKE, HandRake(FIVE, cap=1_000, step=3_000), "rake_step_not_allowed"),
        (CM_HAND_RAKE, HandRake(FIVE, cap=1_000), "rake_step_required"),
        (GA_HAND_RAKE, HandRake(FIVE, step=2_000), "rake_step_not_allowed"),
        (PT_HAND_RAKE, HandRake(FIVE, cap=-1), "rake_cap_out_of_range"),
    ],
)
def test_bad_rake_settings_are_refused(rule, setting, code):
    with pytest.raises(RuleViolation) as refused:
        check_hand_rake(rule, setting)
    assert refused.value.code == code


def test_ga_session_charge_is_10_to_20_percent_of_the_maximum_or_stack():
    """GA art. 18.3b."""
    assert session_charge(GA_SESSION_CHARGE, Fraction(15, 100), 100_000) == 15_000
    for bad in (Fraction(5, 100), Fraction(21, 100)):
        with pytest.raises(RuleViolation) as refused:
            session_charge(GA_SESSION_CHARGE, bad, 100_000)
        assert refused.value.code == "session_percent_out_of_range"


def test_pt_session_charge_may_be_as_low_as_5_percent():
    """PT 7b: between 5 % and 20 %."""
    assert session_charge(PT_SESSION_CHARGE, Fraction(5, 100), 33_333) == 1_666


def test_ga_session_is_an_hour_plus_the_last_two_hands():
    """GA art. 18.3b: "unha hora de xogo máis as dúas últimas mans"."""
    hour = timedelta(hours=1)
    over = dict(played=hour, hand_in_progress=False)
    assert not session_over(GA_SESSION_CHARGE, hands_finished_since_hour=1, **over)
    assert session_over(GA_SESSION_CHARGE, hands_finished_since_hour=2, **over)
    assert not session_over(
        GA_SESSION_CHARGE,
        played=timedelta(minutes=59),
        hands_finished_since_hour=5,
        hand_in_progress=False,
    )


def test_pt_session_ends_when_the_hand_in_progress_is_over():
    """PT 7b: one hour plus the play needed to finish the hand in progress."""
    hour = timedelta(minutes=61)
    assert not session_over(
        PT_SESSION_CHARGE, played=hour, hands_finished_since_hour=0, hand_in_progress=True
    )
    assert session_over(
        PT_SESSION_CHARGE, played=hour, hands_finished_since_hour=0, hand_in_progress=False
    )


@pytest.mark.parametrize("in_progress", [True, False])
def test_the_hands_left_agree_with_the_end_of_the_session(in_progress):
    """What the table's read shows (hands left) and what ends the session
    (``session_over``) are one rule [GA art. 18.3b; PT 7b]."""
    assert hands_after_hour(GA_SESSION_CHARGE) == 2
    assert hands_after_hour(PT_SESSION_CHARGE) is None
    for rule in (GA_SESSION_CHARGE, PT_SESSION_CHARGE):
        assert (
            session_hands_left(
                rule, struck=False, hands_finished_since_hour=0, hand_in_progress=in_progress
            )
            is None
        )
        for finished in range(4):
            left = session_hands_left(
                rule, struck=True, hands_finished_since_hour=finished, hand_in_progress=in_progress
            )
            over = session_over(
                rule,
                played=timedelta(hours=1),
                hands_finished_since_hour=finished,
                hand_in_progress=in_progress,
            )
            assert (left == 0) is over, (rule.end, finished)
    left = session_hands_left(
        GA_SESSION_CHARGE, struck=True, hands_finished_since_hour=0, hand_in_progress=in_progress
    )
    assert left == 2  # the hand in progress at the hour is the first of the two
    left = session_hands_left(
        PT_SESSION_CHARGE, struck=True, hands_finished_since_hour=0, hand_in_progress=in_progress
    )
    assert left == (1 if in_progress else 0)


def test_pt_charges_players_sitting_down_within_thirty_minutes():
    """PT 7b: also charged to players who sit down up to thirty minutes in."""
    assert pays_on_joining(PT_SESSION_CHARGE, timedelta(minutes=30))
    assert not pays_on_joining(PT_SESSION_CHARGE, timedelta(minutes=31))
    assert not pays_on_joining(GA_SESSION_CHARGE, timedelta(minutes=10))
    assert pays_on_joining(GA_SESSION_CHARGE, timedelta(0))
    with pytest.raises(RuleViolation) as refused:
        pays_on_joining(PT_SESSION_CHARGE, timedelta(minutes=-1))
    assert refused.value.code == "join_time_invalid"
