"""Banked settlement: sin descarte, its jackpot, Trijoker and Pai Gow."""

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.banked import (
    GA_PAYTABLE,
    GA_PROGRESSIVE,
    PT_SD_PAYTABLE,
    TRIJOKER_PAYTABLE,
    JackpotPrize,
    JackpotTable,
    Outcome,
    PaiGowBox,
    SettlementError,
    SinDescarteBox,
    SinDescarteTable,
    TrijokerBox,
    bank_qualifies,
    settle_jackpot,
    settle_pai_gow,
    settle_sin_descarte,
    settle_trijoker,
)
from games.banked.jackpot import check_seed
from games.banked.sin_descarte import GA_INSURANCE
from games.cards import cards
from games.errors import RuleViolation
from games.hands import Category as C

MIN, MAX = 10_00, 250_00  # a 10 EUR table, maximum 25 times [GA art. 6.3]

GA_TABLE = SinDescarteTable(
    paytable=GA_PAYTABLE,
    minimum_cents=MIN,
    maximum_cents=MAX,
    insurance=GA_INSURANCE,
    extra_card=True,
    jackpot=GA_PROGRESSIVE,
)

# PT-SD 9: the jackpot prizes are the concessionaire's; an example table with a
# fixed 1 EUR stake [PT-SD 8] and a seed of 10,000 stakes [PT-SD 10].
PT_SD_JACKPOT = JackpotTable(
    prizes=(
        JackpotPrize(C.ROYAL_FLUSH, takes_rest=True),
        JackpotPrize(C.STRAIGHT_FLUSH, share=Fraction(10, 100)),
        JackpotPrize(C.FOUR_OF_A_KIND, multiple_of_stake=500),
        JackpotPrize(C.FULL_HOUSE, multiple_of_stake=100),
    ),
    fixed_stake_cents=1_00,
    min_seed_stakes=10_000,
    source="PT-SD 8-12",
)
PT_SD_TABLE = SinDescarteTable(
    paytable=PT_SD_PAYTABLE,
    minimum_cents=MIN,
    maximum_cents=MAX,
    jackpot=PT_SD_JACKPOT,
    source="PT-SD 13-14",
)


def box(n=1, ante=MIN, call=None, category=C.PAIR, outcome=Outcome.PLAYER, **side):
    return SinDescarteBox(
        box=n,
        ante_cents=ante,
        call_cents=2 * ante if call is None else call,
        category=category,
        outcome=outcome,
        **side,
    )


def settle(table, *boxes, plays=True, fund=0):
    return settle_sin_descarte(table, boxes, bank_plays=plays, jackpot_fund_cents=fund)


# --- sin descarte: the main game -------------------------------------------------


def test_paytables_are_the_regulations():
    """GA art. 6.1a-j and PT-SD 6a-j differ only on the straight flush (25 / 50)."""
    assert [GA_PAYTABLE[c] for c in (C.ROYAL_FLUSH, C.STRAIGHT_FLUSH, C.FOUR_OF_A_KIND)] == [
        100,
        25,
        20,
    ]
    assert [GA_PAYTABLE[c] for c in (C.FULL_HOUSE, C.FLUSH, C.STRAIGHT, C.THREE_OF_A_KIND)] == [
        7,
        5,
        4,
        3,
    ]
    assert [GA_PAYTABLE[c] for c in (C.TWO_PAIR, C.PAIR, C.HIGH_CARD)] == [2, 1, 1]
    assert PT_SD_PAYTABLE[C.STRAIGHT_FLUSH] == 50
    assert {c: v for c, v in PT_SD_PAYTABLE.items() if c is not C.STRAIGHT_FLUSH} == {
        c: v for c, v in GA_PAYTABLE.items() if c is not C.STRAIGHT_FLUSH
    }


def test_the_bank_plays_with_ace_king_or_better():
    """GA art. 7; PT-SD 18."""
    assert bank_qualifies(C.HIGH_CARD, cards("As Kd 7c 4h 2s"))
    assert not bank_qualifies(C.HIGH_CARD, cards("As Qd 7c 4h 2s"))
    assert bank_qualifies(C.PAIR, cards("2s 2d 7c 4h 3s"))


def test_a_fold_loses_the_ante():
    """GA art. 7; PT-SD 17."""
    hand = settle(GA_TABLE, box(call=0), plays=True)
    assert hand.boxes[0].net_cents == -MIN
    assert hand.bank_cents == MIN


def test_a_bank_that_does_not_play_pays_the_ante_even_money():
    """GA art. 7; PT-SD 18: the ante is paid 1:1, the call comes back."""
    hand = settle(GA_TABLE, box(outcome=Outcome.BANK), plays=False)
    assert hand.boxes[0].net_cents == MIN


def test_a_higher_hand_is_paid_ante_even_and_call_by_the_paytable():
    """GA art. 7: 1:1 on the ante, art. 6.1e: a flush pays 5 times the call."""
    hand = settle(GA_TABLE, box(category=C.FLUSH))
    assert hand.boxes[0].net_cents == MIN + 5 * 2 * MIN


def test_the_straight_flush_pays_25_in_galicia_and_50_in_portugal():
    """GA art. 6.1b; PT-SD 6b."""
    ga = settle(GA_TABLE, box(category=C.STRAIGHT_FLUSH))
    pt = settle(PT_SD_TABLE, box(category=C.STRAIGHT_FLUSH))
    assert ga.boxes[0].net_cents == MIN + 25 * 2 * MIN
    assert pt.boxes[0].net_cents == MIN + 50 * 2 * MIN


def test_ace_king_beating_the_bank_pays_once():
    """GA art. 6.1j; PT-SD 6j "cartas maiores"."""
    hand = settle(GA_TABLE, box(category=C.HIGH_CARD))
    assert hand.boxes[0].net_cents == MIN + 2 * MIN


def test_a_tie_keeps_the_bets_and_a_lower_hand_loses_both():
    """GA art. 6.1 (last paragraph); PT-SD 6, 18."""
    hand = settle(
        GA_TABLE,
        box(1, outcome=Outcome.TIE),
        box(2, outcome=Outcome.BANK, category=C.FULL_HOUSE),
    )
    assert [r.net_cents for r in hand.boxes] == [0, -3 * MIN]
    assert hand.bank_cents == 3 * MIN


@pytest.mark.parametrize(
    ("bad", "code"),
    [
        ({"call": 3 * MIN}, "call_not_twice_ante"),  # GA art. 7; PT-SD 17
        ({"ante": MIN - 1}, "bet_out_of_limits"),  # GA art. 6.2
        ({"ante": MAX + 2, "call": 2 * MAX + 4}, "bet_out_of_limits"),
        ({"insurance_cents": MIN // 2 + 1}, "insurance_over_half_minimum"),  # GA art. 8a
        ({"jackpot_stake_cents": MIN // 2 + 1}, "jackpot_stake_over_half_minimum"),  # GA 8b
        ({"extra_card_cents": MIN + 1}, "extra_card_not_ante"),  # GA art. 8c
        ({"category": C.FIGURAS}, "category_not_in_game"),
        ({"ante": 10.5}, "bad_ante"),
        ({"insurance_cents": -1}, "bad_insurance"),
    ],
)
def test_bad_bets_are_refused(bad, code):
    with pytest.raises(SettlementError) as refused:
        settle(GA_TABLE, box(**bad))
    assert refused.value.code == code
    assert isinstance(refused.value, RuleViolation)


def test_side_bets_the_table_does_not_offer_are_refused():
    for side, code in (
        ({"insurance_cents": 1_00}, "insurance_not_offered"),
        ({"extra_card_cents": MIN}, "extra_card_not_offered"),
    ):
        with pytest.raises(SettlementError) as refused:
            settle(PT_SD_TABLE, box(**side))
        assert refused.value.code == code


def test_boxes_are_one_to_seven_and_once_each():
    """GA art. 5; PT-SD 5."""
    with pytest.raises(SettlementError) as refused:
        settle(GA_TABLE, box(8))
    assert refused.value.code == "box_out_of_range"
    with pytest.raises(SettlementError) as refused:
        settle(GA_TABLE, box(1), box(1))
    assert refused.value.code == "duplicate_box"


# --- side bets -----------------------------------------------------------------


def test_insurance_pays_whatever_the_bank_holds():
    """GA art. 8a: full 100, four 300, straight flush 1,000, royal 2,000 times."""
    assert dict(GA_INSURANCE) == {
        C.FULL_HOUSE: 100,
        C.FOUR_OF_A_KIND: 300,
        C.STRAIGHT_FLUSH: 1000,
        C.ROYAL_FLUSH: 2000,
    }
    stake = MIN // 2
    lost_to_bank = settle(
        GA_TABLE, box(category=C.FULL_HOUSE, outcome=Outcome.BANK, insurance_cents=stake)
    )
    assert lost_to_bank.boxes[0].side_cents == 100 * stake
    assert lost_to_bank.boxes[0].main_cents == -3 * MIN
    bank_out = settle(GA_TABLE, box(category=C.FOUR_OF_A_KIND, insurance_cents=stake), plays=False)
    assert bank_out.boxes[0].side_cents == 300 * stake
    no_prize = settle(GA_TABLE, box(category=C.TWO_PAIR, insurance_cents=stake))
    assert no_prize.boxes[0].side_cents == -stake


def test_a_bought_card_costs_the_ante():
    """GA art. 8c."""
    hand = settle(GA_TABLE, box(category=C.PAIR, extra_card_cents=MIN))
    assert hand.boxes[0].side_cents == -MIN
    assert hand.boxes[0].net_cents == MIN + 2 * MIN - MIN


def test_a_folded_box_loses_its_side_bets():
    hand = settle(
        GA_TABLE,
        box(call=0, category=C.FULL_HOUSE, insurance_cents=5_00, jackpot_stake_cents=1_00),
        fund=1_000_000,
    )
    result = hand.boxes[0]
    assert result.side_cents == -5_00
    assert result.jackpot_won_cents == 0
    assert result.net_cents == -MIN - 5_00 - 1_00


# --- jackpot -----------------------------------------------------------------


def test_ga_royal_takes_the_jackpot_and_straight_flush_ten_percent():
    """GA art. 8b; the straight flush is paid first [PT-SD 12a]."""
    hand = settle(
        GA_TABLE,
        box(1, category=C.ROYAL_FLUSH, jackpot_stake_cents=1_00),
        box(2, category=C.STRAIGHT_FLUSH, jackpot_stake_cents=1_00),
        box(3, category=C.FOUR_OF_A_KIND, jackpot_stake_cents=1_00),
        fund=1_000_000,
    )
    won = {r.box: r.jackpot_won_cents for r in hand.boxes}
    assert won == {1: 900_000, 2: 100_000, 3: 0}
    assert hand.jackpot.fund_after_cents == 0


def test_the_jackpot_is_paid_even_when_the_bank_does_not_play():
    """GA art. 8b; PT-SD 9."""
    hand = settle(
        GA_TABLE, box(category=C.STRAIGHT_FLUSH, jackpot_stake_cents=2_00), plays=False, fund=50_001
    )
    assert hand.boxes[0].jackpot_won_cents == 5_000
    assert hand.jackpot.fund_after_cents == 45_001


def test_equal_prizes_are_split_and_top_winners_share_the_rest():
    """PT-SD 12b-c; odd cents stay in the fund."""
    result = settle_jackpot(
        GA_PROGRESSIVE,
        100_001,
        [(1, C.STRAIGHT_FLUSH, 1_00), (2, C.STRAIGHT_FLUSH, 1_00)],
    )
    assert result.won_cents == {1: 5_000, 2: 5_000}
    both_royal = settle_jackpot(
        GA_PROGRESSIVE, 100_001, [(1, C.ROYAL_FLUSH, 1_00), (2, C.ROYAL_FLUSH, 1_00)]
    )
    assert both_royal.won_cents == {1: 50_000, 2: 50_000}
    assert both_royal.fund_after_cents == 1


def test_pt_sd_pays_the_smallest_prize_first():
    """PT-SD 12a: smallest to largest, the top prize takes the rest."""
    result = settle_jackpot(
        PT_SD_JACKPOT,
        1_000_000,
        [
            (1, C.ROYAL_FLUSH, 1_00),
            (2, C.FOUR_OF_A_KIND, 1_00),  # 500 stakes: 50,000
            (3, C.FULL_HOUSE, 1_00),  # 100 stakes, split with box 4
            (4, C.FULL_HOUSE, 1_00),
            (5, C.STRAIGHT_FLUSH, 1_00),  # 10 %: 100,000
        ],
    )
    assert result.won_cents == {1: 840_000, 2: 50_000, 3: 5_000, 4: 5_000, 5: 100_000}
    # A fund too small for every prize runs out on the larger ones.
    short = settle_jackpot(
        PT_SD_JACKPOT, 20_000, [(1, C.FOUR_OF_A_KIND, 1_00), (2, C.FULL_HOUSE, 1_00)]
    )
    assert short.won_cents == {1: 10_000, 2: 10_000}
    assert short.fund_after_cents == 0


def test_pt_sd_stake_is_fixed_and_the_seed_at_least_ten_thousand_stakes():
    """PT-SD 8, 10."""
    with pytest.raises(SettlementError) as refused:
        settle(PT_SD_TABLE, box(jackpot_stake_cents=2_00), fund=1_000_000)
    assert refused.value.code == "jackpot_stake_not_fixed_amount"
    check_seed(PT_SD_JACKPOT, 10_000 * 1_00)
    with pytest.raises(SettlementError) as refused:
        check_seed(PT_SD_JACKPOT, 10_000 * 1_00 - 1)
    assert refused.value.code == "jackpot_seed_too_small"


def test_a_prize_is_one_of_share_multiple_or_rest():
    with pytest.raises(SettlementError) as refused:
        JackpotPrize(C.FLUSH, share=Fraction(1, 10), takes_rest=True)
    assert refused.value.code == "bad_jackpot_prize"


# --- sin descarte properties ----------------------------------------------------

categories = st.sampled_from(sorted(GA_PAYTABLE))
outcomes = st.sampled_from(list(Outcome))


@st.composite
def sd_boxes(draw, with_side=True):
    n = draw(st.integers(min_value=1, max_value=7))
    numbers = draw(st.permutations(range(1, 8)))[:n]
    result = []
    for number in numbers:
        ante = draw(st.integers(min_value=MIN, max_value=MAX))
        called = draw(st.booleans())
        side = {}
        if with_side:
            side = {
                "insurance_cents": draw(st.integers(min_value=0, max_value=MIN // 2)),
                "extra_card_cents": draw(st.sampled_from([0, ante])),
                "jackpot_stake_cents": draw(st.integers(min_value=0, max_value=MIN // 2)),
            }
            if side["extra_card_cents"]:
                side["first_five_category"] = draw(categories)
        result.append(
            box(
                number,
                ante=ante,
                call=2 * ante if called else 0,
                category=draw(categories),
                outcome=draw(outcomes),
                **side,
            )
        )
    return result


@given(boxes=sd_boxes(with_side=False), plays=st.booleans())
def test_without_jackpot_the_bank_pays_what_the_boxes_win(boxes, plays):
    hand = settle(GA_TABLE, *boxes, plays=plays)
    assert hand.jackpot is None

    def expected(b) -> int:
        """GA art. 6.1 and 7 read directly: fold loses the ante; a bank without
        ace-king pays the ante and returns the call; otherwise a higher hand
        wins the ante and the call times the paytable, a tie moves nothing."""
        if not b.call_cents:
            return -b.ante_cents
        if not plays:
            return b.ante_cents
        return {
            Outcome.PLAYER: b.ante_cents + b.call_cents * GA_PAYTABLE[b.category],
            Outcome.BANK: -(b.ante_cents + b.call_cents),
            Outcome.TIE: 0,
        }[b.outcome]

    by_box = {b.box: b for b in boxes}
    assert [r.net_cents for r in hand.boxes] == [expected(by_box[r.box]) for r in hand.boxes]
    assert hand.bank_cents == -sum(expected(b) for b in boxes)


@given(boxes=sd_boxes(), plays=st.booleans(), fund=st.integers(0, 10**9))
def test_money_is_conserved_between_boxes_bank_and_fund(boxes, plays, fund):
    hand = settle(GA_TABLE, *boxes, plays=plays, fund=fund)
    stakes = sum(b.jackpot_stake_cents for b in boxes)
    fund_after = hand.jackpot.fund_after_cents if hand.jackpot else fund
    assert sum(r.net_cents for r in hand.boxes) + hand.bank_cents + stakes + fund_after == fund
    assert 0 <= fund_after <= fund


@given(boxes=sd_boxes(with_side=False))
def test_a_tie_never_moves_money(boxes):
    ties = [box(b.box, ante=b.ante_cents, category=b.category, outcome=Outcome.TIE) for b in boxes]
    hand = settle(PT_SD_TABLE, *ties, plays=True)
    assert all(r.net_cents == 0 for r in hand.boxes)
    assert hand.bank_cents == 0


@given(boxes=sd_boxes(with_side=False))
def test_a_box_never_loses_more_than_it_bet(boxes):
    for plays in (True, False):
        for b, r in zip(boxes, settle(GA_TABLE, *boxes, plays=plays).boxes, strict=True):
            assert r.net_cents >= -(b.ante_cents + b.call_cents)


# --- Trijoker --------------------------------------------------------------------


def tri(n=1, bet=MIN, w1=False, w2=False, category=C.PAIR, pair_rank=11):
    return TrijokerBox(n, (bet, bet, bet), w1, w2, category, pair_rank)


def settle_tri(*boxes):
    return settle_trijoker(boxes, minimum_cents=MIN, maximum_cents=MAX)


def test_trijoker_paytable_is_ga_article_13():
    assert dict(TRIJOKER_PAYTABLE) == {
        C.PAIR: 1,  # jacks or better
        C.TWO_PAIR: 2,
        C.THREE_OF_A_KIND: 3,
        C.STRAIGHT: 5,
        C.FLUSH: 8,
        C.FULL_HOUSE: 11,
        C.FOUR_OF_A_KIND: 50,
        C.STRAIGHT_FLUSH: 200,
        C.ROYAL_FLUSH: 500,
    }


def test_trijoker_pays_each_bet_left_in_play():
    """GA art. 13, 15.2-3: three bets in play win three times."""
    assert settle_tri(tri(category=C.FLUSH))[0].net_cents == 3 * 8 * MIN
    assert settle_tri(tri(category=C.ROYAL_FLUSH, w1=True))[0].net_cents == 2 * 500 * MIN
    assert settle_tri(tri(category=C.FULL_HOUSE, w1=True, w2=True))[0].net_cents == 11 * MIN


def test_trijoker_pairs_below_jacks_lose():
    """GA art. 9, 13i: the least paying hand is a pair of jacks."""
    assert settle_tri(tri(pair_rank=11))[0].net_cents == 3 * MIN
    assert settle_tri(tri(pair_rank=10, w2=True))[0].net_cents == -2 * MIN
    assert settle_tri(tri(category=C.HIGH_CARD, pair_rank=None))[0].net_cents == -3 * MIN


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (
            lambda: TrijokerBox(1, (MIN, MIN, 2 * MIN), False, False, C.FLUSH),
            "trijoker_bets_not_equal",
        ),
        (lambda: tri(bet=MIN - 1), "bet_out_of_limits"),  # GA art. 14.1
        (lambda: tri(pair_rank=None), "pair_rank_required"),
        (lambda: tri(category=C.FIVE_ACES), "category_not_in_game"),
        (lambda: tri(n=8), "box_out_of_range"),  # GA art. 12
    ],
)
def test_trijoker_refuses_bad_bets(make, code):
    with pytest.raises(SettlementError) as refused:
        settle_tri(make())
    assert refused.value.code == code


@given(
    bet=st.integers(MIN, MAX),
    w1=st.booleans(),
    w2=st.booleans(),
    category=st.sampled_from(sorted(TRIJOKER_PAYTABLE)),
    rank=st.integers(2, 14),
)
def test_trijoker_bets_taken_back_never_move_money(bet, w1, w2, category, rank):
    live = 3 - w1 - w2
    net = settle_tri(tri(bet=bet, w1=w1, w2=w2, category=category, pair_rank=rank))[0].net_cents
    pays = TRIJOKER_PAYTABLE[category] if category is not C.PAIR or rank >= 11 else -1
    assert net == live * bet * pays


# --- Pai Gow ---------------------------------------------------------------------

P, B, T = Outcome.PLAYER, Outcome.BANK, Outcome.TIE
FIVE_PERCENT = Fraction(5, 100)  # an example: the excerpt does not give the figure


def settle_pg(*boxes, commission=FIVE_PERCENT):
    return settle_pai_gow(boxes, commission=commission, minimum_cents=MIN, maximum_cents=MAX)


def test_pai_gow_both_hands_must_win():
    """PG I: both hands higher win even money less commission; the bank wins copies;
    one won and one lost is a push."""
    results = settle_pg(
        PaiGowBox(1, 100_00, P, P),
        PaiGowBox(2, 100_00, P, B),
        PaiGowBox(3, 100_00, P, T),
        PaiGowBox(4, 100_00, T, T),
        PaiGowBox(5, 100_00, B, B),
        PaiGowBox(6, 100_01, P, P),
    )
    assert [r.net_cents for r in results] == [95_00, 0, 0, -100_00, -100_00, 95_01]
    assert results[0].commission_cents == 5_00
    assert results[5].commission_cents == 5_00  # rounded down to the cent


@pytest.mark.parametrize(
    ("make", "kwargs", "code"),
    [
        (lambda: PaiGowBox(7, MIN, P, P), {}, "box_out_of_range"),  # PG III.3: six
        (lambda: PaiGowBox(1, MIN - 1, P, P), {}, "bet_out_of_limits"),
        (lambda: PaiGowBox(1, MIN, "win", P), {}, "bad_outcome"),
        (lambda: PaiGowBox(1, MIN, P, P), {"commission": Fraction(1)}, "bad_commission"),
    ],
)
def test_pai_gow_refuses_bad_bets(make, kwargs, code):
    with pytest.raises(SettlementError) as refused:
        settle_pg(make(), **kwargs)
    assert refused.value.code == code


@given(
    bet=st.integers(MIN, MAX),
    high=st.sampled_from(list(Outcome)),
    low=st.sampled_from(list(Outcome)),
    rate=st.fractions(min_value=0, max_value=Fraction(1, 5), max_denominator=1000),
)
def test_pai_gow_push_never_moves_money_and_the_fee_stays_within_the_rate(bet, high, low, rate):
    result = settle_pg(PaiGowBox(1, bet, high, low), commission=rate)[0]
    wins = (high is P) + (low is P)
    if wins == 1:
        assert result.net_cents == 0
    elif wins == 0:
        assert result.net_cents == -bet
    else:
        assert result.net_cents + result.commission_cents == bet
        assert 0 <= result.commission_cents <= rate * bet


def test_review_fixes_categories_as_text_and_bought_cards():
    """Categories read back as text settle like the enum; a bought card does not
    reach the jackpot [GA art. 8b]; generators are refused, not settled to nothing."""
    from games.banked import (
        GA_PAYTABLE,
        GA_PROGRESSIVE,
        Outcome,
        SinDescarteBox,
        SinDescarteTable,
        TrijokerBox,
        settle_sin_descarte,
        settle_trijoker,
    )
    from games.banked.common import SettlementError
    from games.banked.sin_descarte import bank_qualifies
    from games.cards import cards
    from games.hands import Category

    low_pair = dict(withdrew_1=False, withdrew_2=False, pair_rank=2)
    limits = {"minimum_cents": 1000, "maximum_cents": 30000}
    as_text = settle_trijoker([TrijokerBox(1, (1000,) * 3, category="pair", **low_pair)], **limits)
    as_enum = settle_trijoker(
        [TrijokerBox(1, (1000,) * 3, category=Category.PAIR, **low_pair)], **limits
    )
    assert as_text[0].net_cents == as_enum[0].net_cents == -3000
    assert not bank_qualifies("high_card", cards("9s 7d 5c 3h 2s"))

    table = SinDescarteTable(
        GA_PAYTABLE,
        minimum_cents=1000,
        maximum_cents=25000,
        extra_card=True,
        jackpot=GA_PROGRESSIVE,
    )
    bought = SinDescarteBox(
        1,
        1000,
        2000,
        Category.ROYAL_FLUSH,
        Outcome.PLAYER,
        extra_card_cents=1000,
        jackpot_stake_cents=500,
        first_five_category=Category.FLUSH,
    )
    hand = settle_sin_descarte(table, [bought], bank_plays=True, jackpot_fund_cents=1_000_000)
    assert hand.boxes[0].jackpot_won_cents == 0
    with pytest.raises(SettlementError) as refused:
        settle_sin_descarte(
            table,
            [replace(bought, first_five_category=None)],
            bank_plays=True,
            jackpot_fund_cents=1_000_000,
        )
    assert refused.value.code == "first_five_category_required"
    with pytest.raises(SettlementError) as refused:
        settle_trijoker(
            (
                TrijokerBox(
                    1, (1000,) * 3, category=Category.FLUSH, withdrew_1=False, withdrew_2=False
                )
                for _ in range(1)
            ),
            **limits,
        )
    assert refused.value.code == "bad_boxes"
