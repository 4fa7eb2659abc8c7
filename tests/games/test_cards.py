import pytest

from games.cards import JOKER, Card, CardError, DeckKind, card, cards, deck, show


def test_cards_read_and_print_rank_then_suit():
    assert show(cards("As Kd Th 9c 2s")) == "As Kd Th 9c 2s"
    assert card("as") == Card(14, "s") and card("tD") == Card(10, "d")
    assert card("Jk") is JOKER and str(JOKER) == "Jk" and JOKER.is_joker


@pytest.mark.parametrize("text", ["", "A", "1s", "Ax", "10s", "Asd", "Jx"])
def test_bad_card_strings_are_refused_clearly(text):
    with pytest.raises(CardError) as refused:
        card(text)
    assert refused.value.code == "bad_card"


def test_duplicate_cards_are_refused():
    with pytest.raises(CardError) as refused:
        cards("As Kd as")
    assert refused.value.code == "duplicate_card"
    assert "As" in refused.value.message


@pytest.mark.parametrize(
    ("kind", "size", "lowest"),
    [(DeckKind.FULL_52, 52, 2), (DeckKind.SHORT_32, 32, 7), (DeckKind.SHORT_28, 28, 8)],
)
def test_decks_have_their_cards(kind, size, lowest):
    cards_of = deck(kind)
    assert len(cards_of) == len(set(cards_of)) == size
    assert min(c.rank for c in cards_of) == lowest
    assert {c.suit for c in cards_of} == set("shdc")


def test_the_pai_gow_deck_has_a_joker():
    cards_of = deck(DeckKind.WITH_JOKER_53)
    assert len(set(cards_of)) == 53 and cards_of.count(JOKER) == 1


def test_cards_order_by_rank_then_suit_spades_highest():
    # The CM button draw: high card, then spades > hearts > diamonds > clubs.
    assert sorted(cards("2s Ac Ah 2c As Ad")) == list(cards("2c 2s Ac Ad Ah As"))
    assert max(cards("Kd Kc Kh")) == card("Kh") and card("2c") > JOKER


def test_a_card_survives_pickling_and_formats_as_text():
    import pickle

    for one in (card("Td"), JOKER):
        assert pickle.loads(pickle.dumps(one)) == one
        assert type(pickle.loads(pickle.dumps(one))) is Card
    assert f"{card('Td')}" == "Td" and repr(card("9c")) == "Card('9c')"


@pytest.mark.parametrize(("rank", "suit"), [(1, "s"), (15, "s"), (10, "x"), (0, "s"), ("A", "s")])
def test_no_card_is_made_from_a_bad_rank_or_suit(rank, suit):
    with pytest.raises(CardError) as refused:
        Card(rank, suit)
    assert refused.value.code == "bad_card"
