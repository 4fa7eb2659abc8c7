"""What a hand is worth: its category and a comparable value.

A ``HandValue`` compares by ``key`` (higher is better) and only makes sense
against values of the same variant: in short decks a flush outranks a full house
[GA art. 22.1], and "figuras" exist only in closed poker [GA art. 22.1h].
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from games.cards import Card


class Category(StrEnum):
    """Hand categories [GA art. 22.2; PT 17-18; CM], plus Pai Gow's five aces [PG]."""

    FIVE_ACES = "five_aces"  # Pai Gow, with the joker
    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    FIGURAS = "figuras"  # closed (draw) poker: five cards all A/K/Q/J
    TWO_PAIR = "two_pair"
    PAIR = "pair"
    HIGH_CARD = "high_card"


class HandValue:
    """A hand's worth: ``key`` orders hands of one variant; ``cards`` are the
    cards that make it (five, or fewer for short hands such as Pai Gow's two).

    ``cards`` may be given, or worked out on first use by ``pick``: a showdown
    compares thousands of keys and names the cards of one hand.
    """

    __slots__ = ("_cards", "_pick", "category", "key")

    def __init__(
        self,
        key: int,
        category: Category,
        cards: tuple[Card, ...] | None = None,
        pick: Callable[[], tuple[Card, ...]] | None = None,
    ) -> None:
        if cards is None and pick is None:
            raise TypeError("a HandValue needs its cards or a way to pick them")
        self.key = key
        self.category = category
        self._cards = cards
        self._pick = pick

    @property
    def cards(self) -> tuple[Card, ...]:
        if self._cards is None:
            self._cards = self._pick()
            self._pick = None
        return self._cards

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.key == other.key and self.category == other.category

    def __hash__(self) -> int:
        return hash((self.key, self.category))

    def __lt__(self, other: HandValue) -> bool:
        return self.key < other.key

    def __le__(self, other: HandValue) -> bool:
        return self.key <= other.key

    def __gt__(self, other: HandValue) -> bool:
        return self.key > other.key

    def __ge__(self, other: HandValue) -> bool:
        return self.key >= other.key

    def __repr__(self) -> str:
        shown = " ".join(map(str, self.cards))
        return f"HandValue({self.category}, {shown!r}, key={self.key})"
