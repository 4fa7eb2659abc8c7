"""Cards and decks: 52 cards, the short decks of 32 (7..A) and 28 (8..A), and
52 plus a joker (Pai Gow).

Cards read and print as rank then suit, ``As Kd Th 9c 2s``; the joker is ``Jk``.
Suits: s (spades), h (hearts), d (diamonds), c (clubs), in that order of rank
where a draw breaks ties by suit (CM button draw: spades > hearts > diamonds >
clubs).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from games.errors import RuleViolation

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "shdc"  # strongest first
JOKER_TEXT = "Jk"
SUIT_BY_ORDER = "cdhs"  # a card's low two bits
SUIT_ORDER = {suit: i for i, suit in enumerate(SUIT_BY_ORDER)}


class CardError(RuleViolation):
    """A card string that names no card, or a card given twice."""


class Card(int):
    """A card. ``rank`` is 2..14 (ace high), ``suit`` one of "shdc"; the joker
    has rank 0 and suit "" and is the only card that is ``is_joker``.

    A card is an int, ``rank << 2 | suit order`` (clubs 0 .. spades 3), so that
    hashing, equality and set checks run in C: the evaluator checks every hand
    for duplicates and deck membership. Cards order by rank, then suit, spades
    highest (the CM button draw). Compare cards with cards, not with ints.
    """

    __slots__ = ()

    def __new__(cls, rank: int, suit: str) -> Card:
        if rank == 0 and suit == "":
            return super().__new__(cls, 0)
        if type(rank) is not int or not 2 <= rank <= 14 or suit not in SUIT_ORDER:
            raise CardError("bad_card", f"No card has rank {rank!r} and suit {suit!r}.")
        return super().__new__(cls, rank << 2 | SUIT_ORDER[suit])

    def __getnewargs__(self) -> tuple[int, str]:
        return (self.rank, self.suit)

    @property
    def rank(self) -> int:
        return int(self) >> 2

    @property
    def suit(self) -> str:
        return "" if self == 0 else SUIT_BY_ORDER[int(self) & 3]

    @property
    def is_joker(self) -> bool:
        return int(self) == 0

    def __str__(self) -> str:
        if self.is_joker:
            return JOKER_TEXT
        return f"{RANK_CHARS[self.rank - 2]}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    __format__ = object.__format__


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
    if isinstance(text, str):
        items = text.split()
    else:
        try:
            items = list(text)
        except TypeError:
            raise CardError(
                "bad_card", f"Cards are written like 'As Kd', not {text!r}."[:120]
            ) from None
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
