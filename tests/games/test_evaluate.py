"""games.evaluate: hand values per variant, with the articles that decide them."""

from __future__ import annotations

import pytest

from games.cards import CardError, cards
from games.errors import RuleViolation
from games.evaluate import evaluate, holdem_key
from games.hands import Category as C


def cat(variant, hole, board=()):
    return evaluate(variant, hole, board).category


def test_royal_flush_is_its_own_category():
    value = evaluate("holdem", "As Ks", "Qs Js Ts 2c 3d")
    assert value.category is C.ROYAL_FLUSH
    assert [str(c) for c in value.cards] == ["As", "Ks", "Qs", "Js", "Ts"]


def test_wheel_is_the_lowest_straight_in_52_cards():
    wheel = evaluate("holdem", "Ah 2d", "3c 4s 5h 9d Kc")
    six = evaluate("holdem", "6h 2d", "3c 4s 5h 9d Kc")
    assert wheel.category is C.STRAIGHT and six > wheel


def test_ties_have_equal_keys():
    a = evaluate("holdem", "2c 3d", "As Ks Qs Js 9h")
    b = evaluate("holdem", "2h 4d", "As Ks Qs Js 9h")
    assert a.key == b.key


def test_omaha_uses_exactly_two_hole_cards():
    # Four spades in hand and one on board: no flush in Omaha [GA art. 32-33].
    assert cat("omaha", "As Ks Qs Js", "2s 7h 8d 9c 3h") is C.HIGH_CARD
    assert cat("holdem", "As Ks", "Qs Js 2s 7h 8d") is C.FLUSH


def test_sintetico_ace_below_the_eight_and_two_plus_three():
    low = evaluate("sintetico", "Ah 8d", "9c Ts Jh Kd Kc")
    assert low.category is C.STRAIGHT  # A-8-9-T-J [GA art. 40]
    assert evaluate("sintetico", "Qh 8d", "9c Ts Jh Kd Kc") > low
    # Flush beats full house with fewer than 52 cards [GA art. 22.1].
    flush = evaluate("sintetico", "Ah Kh", "Qh 9h 8h 8s 8d")
    full = evaluate("sintetico", "8c 9c", "Qh 9h 8h 8s Td")
    assert flush.category is C.FLUSH and full.category is C.FULL_HOUSE and flush > full


def test_no_wheel_in_the_32_card_deck():
    assert cat("stud5", "Ah 7d 8c 9s Th") is C.HIGH_CARD  # GA art. 37: no low ace


def test_figuras_between_trips_and_two_pair_in_closed_poker_only():
    figuras = evaluate("draw5", "Kh Ks Qd Qc Jh")
    assert figuras.category is C.FIGURAS
    assert evaluate("draw5", "2h 2s 2d 5c 9h") > figuras > evaluate("draw5", "Th Ts 9d 9c Ah")
    assert cat("stud5", "Kh Ks Qd Qc Jh") is C.TWO_PAIR
    assert cat("draw5_32", "Ah Jh 9h 8h 7h") is C.FLUSH
    assert evaluate("draw5_32", "Ah Jh 9h 8h 7h") > evaluate("draw5_32", "Ah As Ad Kc Kh")


def test_figuras_ties_by_highest_pair_then_highest_card():
    # GA art. 22.2f, read literally: the highest pair, then the highest card.
    assert evaluate("draw5", "Ah As Kd Qc Jh") > evaluate("draw5", "Kh Ks Qd Qc Ah")


def test_paigow_joker_rules():
    assert cat("paigow", "As Ad Ah Ac Jk") is C.FIVE_ACES
    wheel = evaluate("paigow", "Jk 2d 3c 4s 5h")
    assert wheel.category is C.STRAIGHT
    assert evaluate("paigow", "Ad Kc Qs Jh Td") > wheel > evaluate("paigow", "Kd Qc Js Th 9d")
    assert cat("paigow", "Jk Ks Qs Js Ts") is C.ROYAL_FLUSH
    assert cat("paigow", "Jk 9s 7s 4s 2s") is C.FLUSH
    # Otherwise the joker is only an ace.
    assert evaluate("paigow", "Jk Kd 9s 4c 2h").cards[0].is_joker
    assert cat("paigow", "Jk Kd Kc 4c 2h") is C.PAIR
    assert cat("paigow", "Jk Ad Kc 4c 2h") is C.PAIR


def test_paigow_two_card_hand():
    assert evaluate("paigow", "2c 2d") > evaluate("paigow", "Ac Kd")
    assert evaluate("paigow", "Jk Ad").category is C.PAIR
    assert evaluate("paigow", "Jk Kd").key == evaluate("paigow", "Ah Kd").key


def test_trijoker_and_sin_descarte_and_stud7():
    assert cat("trijoker", "As Kd Qc", "Jh Tc") is C.STRAIGHT
    assert cat("sin_descarte", "As Ad Kc Kd 2h") is C.TWO_PAIR
    assert cat("stud7", "As Ad Ac Kc Kd Kh 2h") is C.FULL_HOUSE


def test_fast_path_matches_evaluate():
    seven = cards("As Ad Ac Kc Kd Kh 2h")
    assert holdem_key(seven) == evaluate("holdem", seven[:2], seven[2:]).key


@pytest.mark.parametrize(
    ("variant", "hole", "board", "code"),
    [
        ("holdem", "As", "Ks Qs Js Ts", "wrong_card_count"),
        ("omaha", "As Ks", "Qs Js Ts", "wrong_card_count"),
        ("sintetico", "2s Ks", "Qs Js Ts", "card_not_in_deck"),
        ("stud5", "6s Ks Qs Js Ts", "", "card_not_in_deck"),
        ("holdem", "Jk Ks", "Qs Js Ts", "card_not_in_deck"),
        ("holdem", "As Ks", "As Js Ts", "duplicate_card"),
        ("holdem", "As Xs", "Qs Js Ts", "bad_card"),
        ("baccarat", "As Ks", "Qs Js Ts", "unknown_variant"),
    ],
)
def test_bad_input_is_refused_with_a_code(variant, hole, board, code):
    with pytest.raises(RuleViolation) as caught:
        evaluate(variant, hole, board)
    assert caught.value.code == code


def test_duplicates_across_hole_and_board_as_tuples():
    with pytest.raises(CardError):
        evaluate("holdem", cards("As Ks"), cards("As Qs Js"))


def test_a_plain_int_is_not_taken_for_a_card():
    # Cards are ints underneath; an int with the same code must still be refused.
    hole = cards("As Ks")
    with pytest.raises(CardError) as caught:
        evaluate("holdem", (int(hole[0]), int(hole[1])), cards("Qs Js Ts"))
    assert caught.value.code == "bad_card"


def test_a_list_of_cards_and_a_tuple_give_the_same_value():
    hole, board = cards("Ah 7h"), cards("2h 9h Kh Kd Ks")
    from_tuple = evaluate("holdem", hole, board)
    from_list = evaluate("holdem", list(hole), list(board))
    assert from_tuple == from_list and from_tuple.category == "flush"
    assert sorted(from_tuple.cards) == sorted(cards("Ah Kh 9h 7h 2h"))


def test_the_floor_variant_enum_is_accepted():
    from games.variants import Variant

    by_enum = evaluate(Variant.TEXAS_HOLDEM, "As Ad", "Ks Kd 2c")
    assert by_enum == evaluate("holdem", "As Ad", "Ks Kd 2c")


@pytest.mark.parametrize("hole", [None, 7, object()])
def test_no_cards_at_all_is_a_bad_card_not_a_crash(hole):
    with pytest.raises(CardError) as caught:
        evaluate("holdem", hole, "Qs Js Ts")
    assert caught.value.code == "bad_card"
