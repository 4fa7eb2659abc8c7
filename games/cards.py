"""Cards and decks: 52 cards, the short decks of 32 (7..A) and 28 (8..A), and
52 plus a joker (Pai Gow).

Cards read and print as rank then suit, ``As Kd Th 9c 2s``; the joker is ``Jk``.
Suits: s (spades), h (hearts), d (diamonds), c (clubs), in that order of rank
where a draw breaks ties by suit (CM button draw: spades > hearts > diamonds >
clubs).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from games.errors import RuleViolation

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "shdc"  # strongest first
JOKER_TEXT = "Jk"


class CardError(RuleViolation):
    """A card string that names no card, or a card given twice."""


@dataclass(frozen=True, order=True)
class Card:
    """A card. ``rank`` is 2..14 (ace high), ``suit`` one of "shdc"; the joker
    has rank 0 and suit "" and is the only card that is ``is_joker``."""

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    def __str__(self) -> str:
        if self.is_joker:
            return JOKER_TEXT
        return f"{RANK_CHARS[self.rank - 2]}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


JOKER = Card(0, "")


def card(text: str) -> Card:
    """One card from its text: ``"As"``, ``"td"``, ``"Jk"``."""
    if not isinstance(text, str):
        raise CardError("bad_card", f"A card is written like 'As' or 'Jk', not {text!r}.")
    cleaned = text.strip()
    if cleaned.lower() == JOKER_TEXT.lower():
        return JOKER
    if (
        len(cleaned) != 2
        or cleaned[0].upper() not in RANK_CHARS
        or cleaned[1].lower() not in SUIT_CHARS
    ):
        raise CardError(
            "bad_card",
            f"{text!r} is not a card: write rank then suit, like 'As', 'Td', '9c', or 'Jk'.",
            card=text,
        )
    return Card(RANK_CHARS.index(cleaned[0].upper()) + 2, cleaned[1].lower())


def cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Several distinct cards: ``"As Kd Th"`` or an iterable of texts or cards."""
    items = text.split() if isinstance(text, str) else list(text)
    parsed = tuple(item if isinstance(item, Card) else card(item) for item in items)
    seen: set[Card] = set()
    for one in parsed:
        if one in seen:
            raise CardError("duplicate_card", f"{one} is given twice.", card=str(one))
        seen.add(one)
    return parsed


def show(hand: Iterable[Card]) -> str:
    """Cards as text, ``"As Kd Th"``."""
    return " ".join(str(c) for c in hand)


class DeckKind(StrEnum):
    FULL_52 = "52"
    SHORT_32 = "32"  # 7..A [GA art. 36; five stud, closed poker]
    SHORT_28 = "28"  # 8..A [PT 6; GA art. 39: sintético]
    WITH_JOKER_53 = "53"  # 52 + joker [PG]


LOWEST_RANK = {DeckKind.FULL_52: 2, DeckKind.SHORT_32: 7, DeckKind.SHORT_28: 8}


def deck(kind: DeckKind | str = DeckKind.FULL_52) -> tuple[Card, ...]:
    """The cards of a deck, in a fixed order (shuffle a copy to deal)."""
    kind = DeckKind(kind)
    low = LOWEST_RANK.get(kind, 2)
    standard = tuple(Card(rank, suit) for rank in range(14, low - 1, -1) for suit in SUIT_CHARS)
    return (*standard, JOKER) if kind is DeckKind.WITH_JOKER_53 else standard
