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
