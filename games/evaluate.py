"""Hand values for every regulated variant: ``evaluate(variant, hole, board)``.

The result is a ``HandValue``: ``key`` orders hands of the same variant (higher
wins, equal keys tie), ``category`` names the combination and ``cards`` are the
five (or, in Pai Gow's small hand, two) cards that make it.

Which cards a player may use [RULES.md section 2]:

- ``holdem``: the best five of two hole and up to five board cards [GA art. 34-35].
- ``omaha``: exactly two of the four hole cards and three board cards [GA art. 32-33].
- ``sintetico``: 28 cards (8..A); exactly the two hole cards and three of the five
  board cards ("dúas repartidas ... e tres das cinco cartas comúns") [GA art. 39];
  the ace is also the card under the 8, so A-8-9-T-J is a straight [GA art. 40].
- ``stud7``: the best five of seven [GA art. 29-31].
- ``stud5``: five cards from 32 (7..A) [GA art. 36-37].
- ``draw5`` / ``draw5_32``: closed poker with 52 or 32 cards, with "figuras"
  [GA art. 22.1h, 26-28].
- ``sin_descarte``: five cards from 52 [GA art. 2-8; PT-SD].
- ``trijoker``: three own cards and the two common cards [GA art. 9-16].
- ``paigow``: the five-card or the two-card hand; the joker counts only as an ace
  or to complete a straight, flush or straight flush; five aces top; A-2-3-4-5 is
  the second-highest straight [PG].

With fewer than 52 cards a flush beats a full house [GA art. 22.1].
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations

from games._eval_tables import PAIGOW, TABLES, Tables, pack
from games.cards import JOKER, SUIT_BY_ORDER, Card, CardError, DeckKind, cards, deck
from games.hands import Category, HandValue

__all__ = ["VARIANTS", "evaluate", "holdem_key"]

RANK_BITS = (1 << 39) - 1  # the rank-count part of a code sum
SUIT_SHIFT = 40  # suit counts live in four nibbles from bit 40


def _code(rank: int, suit: int) -> int:
    """A card's code: its rank count and its suit count, so that the sum over a
    hand carries both (see games._eval_tables)."""
    return 1 << 3 * (rank - 2) | 1 << (SUIT_SHIFT + 4 * suit)


# Indexed by the card itself (a Card is the int ``rank << 2 | suit order``):
# its code, and its rank bit for the suit masks. The joker (0) adds nothing.
CODES = [0] * 60
RANK_BIT = [0] * 60
for _card in deck(DeckKind.FULL_52):
    CODES[_card] = _code(_card.rank, _card & 3)
    RANK_BIT[_card] = 1 << (_card.rank - 2)


def _flush_suit(total: int) -> int:
    """The suit (its order, 0..3) holding five or more cards, or -1. Adding 3 to each suit count
    sets its nibble's top bit exactly when the count is 5, 6 or 7."""
    hits = ((total >> SUIT_SHIFT) + 0x3333) & 0x8888
    return (hits.bit_length() - 4) >> 2 if hits else -1


@dataclass(frozen=True)
class Spec:
    """What a variant deals and how a hand is formed from it."""

    deck: DeckKind
    hole: tuple[int, ...]
    board: tuple[int, ...]
    mode: str  # "best": any five; "split": exactly two hole and three board
    table: str
    source: str
    # Derived once, read on every call: the deck's cards and the lookup tables.
    cards: frozenset[Card] = field(init=False, repr=False, compare=False)
    tables: Tables = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", frozenset(deck(self.deck)))
        object.__setattr__(self, "tables", TABLES[self.table])


VARIANTS: dict[str, Spec] = {
    "holdem": Spec(DeckKind.FULL_52, (2,), (3, 4, 5), "best", "standard", "GA art. 34-35"),
    "omaha": Spec(DeckKind.FULL_52, (4,), (3, 4, 5), "split", "standard", "GA art. 32-33"),
    "sintetico": Spec(DeckKind.SHORT_28, (2,), (3, 4, 5), "split", "short28", "GA art. 39-40"),
    "stud7": Spec(DeckKind.FULL_52, (5, 6, 7), (0,), "best", "standard", "GA art. 29-31"),
    "stud5": Spec(DeckKind.SHORT_32, (5,), (0,), "best", "short32", "GA art. 36-37"),
    "draw5": Spec(DeckKind.FULL_52, (5,), (0,), "best", "draw52", "GA art. 22.1h, 26-28"),
    "draw5_32": Spec(DeckKind.SHORT_32, (5,), (0,), "best", "draw32", "GA art. 22.1h, 26-28"),
    "sin_descarte": Spec(DeckKind.FULL_52, (5,), (0,), "best", "standard", "GA art. 2-8"),
    "trijoker": Spec(DeckKind.FULL_52, (3,), (2,), "best", "standard", "GA art. 9-16"),
    "paigow": Spec(DeckKind.WITH_JOKER_53, (5, 2), (0,), "paigow", "paigow", "PG"),
}

LOWEST = {DeckKind.FULL_52: 2, DeckKind.SHORT_32: 7, DeckKind.SHORT_28: 8}

# The floor's variant names (games.variants.Variant) for the same games.
VARIANT_ALIASES = {
    "texas_holdem": "holdem",
    "seven_stud": "stud7",
    "five_stud": "stud5",
    "five_card_draw": "draw5",
    "sen_descarte": "sin_descarte",
    "pai_gow": "paigow",
}

_ONLY_CARDS = frozenset({Card})

# Every name evaluate() accepts, canonical or floor alias, to its Spec.
_BY_NAME = {**VARIANTS, **{alias: VARIANTS[name] for alias, name in VARIANT_ALIASES.items()}}


def _as_cards(given: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from text or an iterable; tuples of Card pass through untouched."""
    if isinstance(given, tuple) and all(type(c) is Card for c in given):
        return given
    return cards(given)


def _spec(variant: str) -> Spec:
    try:
        return VARIANTS[variant]
    except (KeyError, TypeError):
        raise CardError(
            "unknown_variant",
            f"{variant!r} is not a variant; use one of {', '.join(VARIANTS)}.",
            variant=str(variant),
        ) from None


def _check(spec: Spec, variant: str, hole: tuple[Card, ...], board: tuple[Card, ...]) -> None:
    """Card counts, deck membership and duplicates, each with its own code."""
    if len(hole) not in spec.hole or len(board) not in spec.board:
        raise CardError(
            "wrong_card_count",
            f"{variant} takes {' or '.join(map(str, spec.hole))} hole cards and "
            f"{' or '.join(map(str, spec.board))} board cards, "
            f"not {len(hole)} and {len(board)} [{spec.source}].",
            variant=variant,
            hole=len(hole),
            board=len(board),
        )
    low = LOWEST.get(spec.deck, 2)
    seen: set[Card] = set()
    for one in (*hole, *board):
        if not isinstance(one, Card):
            raise CardError("bad_card", f"{one!r} is not a card.", card=repr(one))
        ok = spec.deck is DeckKind.WITH_JOKER_53 if one.is_joker else low <= one.rank <= 14
        if not ok:
            raise CardError(
                "card_not_in_deck",
                f"{one} is not in the {spec.deck.value}-card deck of {variant} [{spec.source}].",
                card=str(one),
                variant=variant,
            )
        if one in seen:
            raise CardError("duplicate_card", f"{one} is given twice.", card=str(one))
        seen.add(one)


def _pick(hand: Iterable[Card], ranks: Iterable[int], suit: str | None = None) -> tuple[Card, ...]:
    """The cards that make a value: one card per listed rank (of ``suit`` when it
    is a flush). A joker stands in for a rank no real card supplies (Pai Gow)."""
    pool = [c for c in hand if suit is None or c.suit == suit or c.is_joker]
    out = []
    for rank in ranks:
        for i, one in enumerate(pool):
            if one.rank == rank:
                out.append(pool.pop(i))
                break
        else:
            out.append(pool.pop(next(i for i, c in enumerate(pool) if c.is_joker)))
    return tuple(out)


def _suited_mask(hand: Iterable[Card], suit: int) -> int:
    """Bit ``rank - 2`` for each card of one suit (by its order, 0..3)."""
    mask = 0
    for one in hand:
        if one & 3 == suit:
            mask |= RANK_BIT[one]
    return mask


def _best_key(tables: Tables, hand: tuple[Card, ...]) -> tuple[int, int]:
    """Best five of 5-7 cards without trying the 21 subsets: one rank-count
    lookup, plus one suit-mask lookup when a suit holds five or more cards.
    Returns (value key, flush suit or -1)."""
    total = 0
    for one in hand:
        total += CODES[one]
    value = tables.by_ranks[total & RANK_BITS]
    suit = _flush_suit(total)
    if suit >= 0:
        flush = tables.by_suit[_suited_mask(hand, suit)]
        if flush > value:
            return flush, suit
    return value, -1


def holdem_key(seven: tuple[Card, ...]) -> int:
    """The fast path: the value key of a Hold'em hand (hole + board, 5-7 valid,
    distinct cards, not checked). Use ``evaluate`` unless you need raw speed."""
    total = 0
    for one in seven:
        total += CODES[one]
    value = _STANDARD.by_ranks[total & RANK_BITS]
    hits = ((total >> SUIT_SHIFT) + 0x3333) & 0x8888
    if hits:
        suit = (hits.bit_length() - 4) >> 2
        mask = 0
        for one in seven:
            if one & 3 == suit:
                mask |= RANK_BIT[one]
        flush = _STANDARD.by_suit[mask]
        if flush > value:
            return flush
    return value


_STANDARD = TABLES["standard"]


def _value(tables: Tables, key: int, hand: tuple[Card, ...], suit: int) -> HandValue:
    """A HandValue from a key; the cards that make it are named when asked for."""
    category, ranks, _ = tables.info[key]
    flush_suit = SUIT_BY_ORDER[suit] if suit >= 0 else None
    return HandValue(key, category, pick=partial(_pick, hand, ranks, flush_suit))


def _split_best(tables: Tables, hole: tuple[Card, ...], board: tuple[Card, ...]) -> HandValue:
    """Exactly two hole cards and three board cards (Omaha, sintético): the best
    of the C(hole, 2) x C(board, 3) five-card hands."""
    best = (-1, -1, ())
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            five = two + three
            key, suit = _best_key(tables, five)
            if key > best[0]:
                best = (key, suit, five)
    return _value(tables, best[0], best[2], best[1])


ACE_CODE = 1 << 3 * (14 - 2)
ANY_SUIT = frozenset({Category.STRAIGHT, Category.FLUSH})
JOKER_MAY_COMPLETE = frozenset(
    {Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH}
)


def _paigow_five(tables: Tables, hand: tuple[Card, ...]) -> HandValue:
    """Pai Gow's five-card hand. The joker is an ace (so four aces and the joker
    are five aces) or any missing card that completes a straight, flush or
    straight flush [PG]; the best reading counts."""
    if JOKER not in hand:
        key, suit = _best_key(tables, hand)
        return _value(tables, key, hand, suit)
    real = tuple(c for c in hand if not c.is_joker)
    total = ACE_CODE
    for one in real:
        total += CODES[one]
    best_key, best_hand, best_suit = tables.by_ranks[total & RANK_BITS], hand, -1
    for rank in range(2, 15):
        for suit in SUIT_BY_ORDER:
            stand_in = Card(rank, suit)
            if stand_in in real:
                continue
            key, flush_suit = _best_key(tables, (*real, stand_in))
            if tables.info[key][0] in JOKER_MAY_COMPLETE and key > best_key:
                best_key, best_hand, best_suit = key, (*real, stand_in), flush_suit
    value = _value(tables, best_key, best_hand, best_suit)
    used = tuple(c if c in real else JOKER for c in value.cards)
    if JOKER not in used:  # joker read as an ace of no suit
        used = _pick(hand, tables.info[best_key][1])
    return HandValue(value.key, value.category, used)


def _paigow_two(hand: tuple[Card, ...]) -> HandValue:
    """Pai Gow's two-card hand: a pair beats two odd cards; the joker is an ace
    [PG]. Keys are ``order << 20 | ranks`` like five-card keys."""
    first, second = sorted((14 if c.is_joker else c.rank for c in hand), reverse=True)
    ordered = tuple(sorted(hand, key=lambda c: 14 if c.is_joker else c.rank, reverse=True))
    if first == second:
        return HandValue(1 << 20 | pack([first]), Category.PAIR, ordered)
    return HandValue(pack([first, second]), Category.HIGH_CARD, ordered)


def evaluate(
    variant: str,
    hole: str | Iterable[str | Card],
    board: str | Iterable[str | Card] = (),
) -> HandValue:
    """The value of a player's hand in ``variant`` (see the module docstring).

    ``hole`` and ``board`` are Cards or text (``"As Kd"``). Raises ``CardError``
    (a ``RuleViolation``) with code ``unknown_variant``, ``wrong_card_count``,
    ``card_not_in_deck``, ``duplicate_card`` or ``bad_card``.
    """
    spec = _BY_NAME.get(variant) if isinstance(variant, str) else None
    if spec is None:
        spec = _spec(variant)
    hole_cards = hole if type(hole) is tuple else _as_cards(hole)
    board_cards = board if type(board) is tuple else _as_cards(board)
    hand = hole_cards + board_cards
    # The common case checked in C: the right counts, only Cards (an int equal
    # to a card's code is not one), each of this deck and none twice. Anything
    # else goes through _check, which names the fault.
    if (
        len(hole_cards) not in spec.hole
        or len(board_cards) not in spec.board
        or not _ONLY_CARDS.issuperset(map(type, hand))
        or len(spec.cards.intersection(hand)) != len(hand)
    ):
        hole_cards, board_cards = _as_cards(hole_cards), _as_cards(board_cards)
        _check(spec, variant, hole_cards, board_cards)
        hand = hole_cards + board_cards
    tables = spec.tables
    if spec.mode == "best":  # _best_key and _value inlined: the hot path
        total = 0
        for one in hand:
            total += CODES[one]
        key = tables.by_ranks[total & RANK_BITS]
        flush_suit = None
        hits = ((total >> SUIT_SHIFT) + 0x3333) & 0x8888  # as in _flush_suit
        if hits:
            suit = (hits.bit_length() - 4) >> 2
            flush = tables.by_suit[_suited_mask(hand, suit)]
            if flush > key:
                key, flush_suit = flush, SUIT_BY_ORDER[suit]
        category, ranks, _ = tables.info[key]
        return HandValue(key, category, None, partial(_pick, hand, ranks, flush_suit))
    if spec.mode == "split":
        return _split_best(tables, hole_cards, board_cards)
    if len(hole_cards) == 2:  # Pai Gow's small hand
        return _paigow_two(hole_cards)
    return _paigow_five(tables, hole_cards)


assert TABLES["paigow"].ranking is PAIGOW
