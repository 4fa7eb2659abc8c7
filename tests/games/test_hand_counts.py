"""Exact category counts by full enumeration, cross-checked by a simple reference.

Every hand of each deck is enumerated with ``itertools.combinations``. To stay in
budget the fast side groups hands by the sum of their card codes (rank counts plus
suit counts), which fully decides a five-card hand; seven-card hands with five or
more cards of one suit are enumerated one by one (suited ranks x the rest). Pai
Gow hands with the joker are grouped by (rank counts, four cards suited?), which
decides the joker's best reading. ``counts`` in docs/hand_counts.md come from
``category_counts``; regenerate with ``python -m tests.games.test_hand_counts``.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations
from typing import NamedTuple

import pytest

from games._eval_tables import TABLES
from games.cards import JOKER, Card, deck
from games.evaluate import CODES, RANK_BITS, _flush_suit, evaluate
from games.hands import Category as C

KNOWN_52 = {
    C.ROYAL_FLUSH: 4,
    C.STRAIGHT_FLUSH: 36,
    C.FOUR_OF_A_KIND: 624,
    C.FULL_HOUSE: 3744,
    C.FLUSH: 5108,
    C.STRAIGHT: 10200,
    C.THREE_OF_A_KIND: 54912,
    C.TWO_PAIR: 123552,
    C.PAIR: 1098240,
    C.HIGH_CARD: 1302540,
}

# (name, deck kind, hand size, variant used for its ranking)
CASES = [
    ("52 cards, 5", "52", 5, "sin_descarte"),
    ("52 cards, 5, closed poker", "52", 5, "draw5"),
    ("32 cards, 5", "32", 5, "stud5"),
    ("32 cards, 5, closed poker", "32", 5, "draw5_32"),
    ("28 cards, 5", "28", 5, "sintetico"),
    ("53 cards, 5 (Pai Gow)", "53", 5, "paigow"),
    ("28 cards, best 5 of 7", "28", 7, "sintetico"),
    ("32 cards, best 5 of 7", "32", 7, "stud5"),
]
TABLE_OF = {
    "sin_descarte": "standard",
    "draw5": "draw52",
    "stud5": "short32",
    "draw5_32": "draw32",
    "sintetico": "short28",
    "paigow": "paigow",
}


def _code(card: Card) -> int:
    return CODES[card]


def _category(tables, key: int) -> C:
    return tables.info[key][0]


def _rank_mask(rank_key: int) -> int:
    return sum(1 << r for r in range(13) if rank_key >> (3 * r) & 7)


def _five_counts(tables, real: list[Card]) -> Counter:
    """Every five-card hand of ``real`` cards, grouped by code sum."""
    counts: Counter = Counter()
    for total, n in Counter(map(sum, combinations(map(_code, real), 5))).items():
        key = tables.by_ranks[total & RANK_BITS]
        if _flush_suit(total) >= 0:
            key = max(key, tables.by_suit[_rank_mask(total & RANK_BITS)])
        counts[_category(tables, key)] += n
    return counts


def _joker_counts(real: list[Card]) -> Counter:
    """Every Pai Gow hand with the joker: four real cards, grouped by rank counts
    and whether all four share a suit; one evaluation per group."""
    groups: Counter = Counter()
    sample: dict = {}
    for four in combinations(real, 4):
        group = (sum(map(_code, four)) & RANK_BITS, len({c.suit for c in four}) == 1)
        groups[group] += 1
        sample.setdefault(group, four)
    counts: Counter = Counter()
    for group, n in groups.items():
        counts[evaluate("paigow", (*sample[group], JOKER)).category] += n
    return counts


def _seven_counts(tables, real: list[Card]) -> Counter:
    """Every seven-card hand: hands with no five of a suit grouped by code sum;
    the others enumerated one by one as suited ranks plus off-suit cards."""
    counts: Counter = Counter()
    for total, n in Counter(map(sum, combinations(map(_code, real), 7))).items():
        if _flush_suit(total) < 0:
            counts[_category(tables, tables.by_ranks[total & RANK_BITS])] += n
    for suit in "shdc":
        suited = [c for c in real if c.suit == suit]
        others = [c for c in real if c.suit != suit]
        for k in (5, 6, 7):
            for own in combinations(suited, k):
                own_total = sum(map(_code, own))
                mask = sum(1 << (c.rank - 2) for c in own)
                flush = tables.by_suit[mask]
                for rest in combinations(others, 7 - k):
                    total = own_total + sum(map(_code, rest))
                    key = max(flush, tables.by_ranks[total & RANK_BITS])
                    counts[_category(tables, key)] += 1
    return counts


@cache
def category_counts(kind: str, size: int, variant: str) -> dict[C, int]:
    """Exact counts per category of every ``size``-card hand of deck ``kind``."""
    tables = TABLES[TABLE_OF[variant]]
    real = [c for c in deck(kind) if not c.is_joker]
    if size == 7:
        return dict(_seven_counts(tables, real))
    counts = _five_counts(tables, real)
    if kind == "53":
        counts += _joker_counts(real)
    return dict(counts)


# --- an independent, deliberately simple reference evaluator ----------------

LOW = {"52": 2, "32": 7, "28": 8, "53": 2}


def _ref_straight(ranks: set[int], kind: str, variant: str) -> int:
    """Top card of a straight in ``ranks`` (0 if none), by the rules as written."""
    low = LOW[kind]
    for top in range(14, low + 3, -1):
        if all(r in ranks for r in range(top - 4, top + 1)):
            return 15 if (variant == "paigow" and top == 14) else top
    if kind != "32" and {14, *range(low, low + 4)} <= ranks:  # GA art. 40; PG
        return 14 if variant == "paigow" else low + 3
    return 0


class _Plain(NamedTuple):
    """A rank/suit pair for the reference; the joker read as an ace has no suit."""

    rank: int
    suit: str
    is_joker: bool = False


SUITLESS_ACE = _Plain(14, "x")


def reference(kind: str, variant: str, five) -> tuple:
    """(category rank, tiebreak) of exactly five cards, as rank/suit pairs."""
    cards = list(five)
    if any(c.is_joker for c in cards):
        real = [c for c in cards if not c.is_joker]
        options = [reference(kind, variant, [*real, SUITLESS_ACE])]
        for rank in range(2, 15):
            for suit in "shdc":
                if Card(rank, suit) not in real:
                    value = reference(kind, variant, [*real, Card(rank, suit)])
                    if value[2] in (C.STRAIGHT, C.FLUSH, C.STRAIGHT_FLUSH, C.ROYAL_FLUSH):
                        options.append(value)
        return max(options)
    counts = Counter(c.rank for c in cards)
    shape = sorted(counts.values(), reverse=True)
    ordered = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    top = _ref_straight(set(counts), kind, variant) if len(counts) == 5 else 0
    short = kind in ("32", "28")
    if shape[0] == 5:
        cat, tb = C.FIVE_ACES, [14]
    elif flush and top:
        cat, tb = (
            (C.ROYAL_FLUSH if set(counts) == {10, 11, 12, 13, 14} else C.STRAIGHT_FLUSH),
            [top],
        )
    elif shape[0] == 4:
        cat, tb = C.FOUR_OF_A_KIND, ordered
    elif shape[:2] == [3, 2]:
        cat, tb = C.FULL_HOUSE, ordered
    elif flush:
        cat, tb = C.FLUSH, ordered
    elif top:
        cat, tb = C.STRAIGHT, [top]
    elif shape[0] == 3:
        cat, tb = C.THREE_OF_A_KIND, ordered
    elif variant.startswith("draw5") and set(counts) <= {11, 12, 13, 14}:
        pair = max(r for r in counts if counts[r] == 2)
        rest = sorted((c.rank for c in cards), reverse=True)
        rest.remove(pair)
        rest.remove(pair)
        cat, tb = C.FIGURAS, [pair, *rest]
    elif shape[:2] == [2, 2]:
        cat, tb = C.TWO_PAIR, ordered
    elif shape[0] == 2:
        cat, tb = C.PAIR, ordered
    else:
        cat, tb = C.HIGH_CARD, ordered
    order = [
        C.HIGH_CARD, C.PAIR, C.TWO_PAIR, C.FIGURAS, C.THREE_OF_A_KIND, C.STRAIGHT,
        C.FULL_HOUSE if short else C.FLUSH, C.FLUSH if short else C.FULL_HOUSE,
        C.FOUR_OF_A_KIND, C.STRAIGHT_FLUSH, C.ROYAL_FLUSH, C.FIVE_ACES,
    ]  # fmt: skip
    return order.index(cat), tb, cat


def reference_best(kind: str, variant: str, hand) -> tuple:
    return max(reference(kind, variant, five) for five in combinations(hand, 5))


def reference_counts_5(kind: str, variant: str) -> Counter:
    """Reference counts of every five-card hand, one reference evaluation per
    (rank multiset, suited?) class, weighted by how many hands it covers."""
    real = [c for c in deck(kind) if not c.is_joker]
    ranks = sorted({c.rank for c in real})
    counts: Counter = Counter()
    for multiset in _multisets(ranks, 5):
        n = 1
        for k in Counter(multiset).values():
            n *= _choose(4, k)
        suits = _spread(multiset)
        if len(set(multiset)) == 5:
            flush = [Card(r, "s") for r in multiset]
            counts[reference(kind, variant, flush)[2]] += 4
            n -= 4
        counts[reference(kind, variant, suits)[2]] += n
    if kind == "53":
        for multiset in _multisets(ranks, 4):
            n = 1
            for k in Counter(multiset).values():
                n *= _choose(4, k)
            if len(set(multiset)) == 4:
                flush = [Card(r, "s") for r in multiset]
                counts[reference(kind, variant, [*flush, JOKER])[2]] += 4
                n -= 4
            counts[reference(kind, variant, [*_spread(multiset), JOKER])[2]] += n
    return counts


def _multisets(ranks, size, start=0):
    if size == 0:
        yield ()
        return
    for i in range(start, len(ranks)):
        for rest in _multisets(ranks, size - 1, i):
            candidate = (ranks[i], *rest)
            if candidate.count(ranks[i]) <= 4:
                yield candidate


def _spread(multiset) -> list[Card]:
    """Cards of these ranks with suits spread so that they are never all suited."""
    used: Counter = Counter()
    out = []
    for i, r in enumerate(multiset):
        suit = "shdc"[(used[r] + (1 if i == len(multiset) - 1 else 0)) % 4]
        while Card(r, suit) in out:
            suit = "shdc"[("shdc".index(suit) + 1) % 4]
        used[r] += 1
        out.append(Card(r, suit))
    return out


def _choose(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


def test_52_card_counts_match_the_known_table():
    assert category_counts("52", 5, "sin_descarte") == KNOWN_52


@pytest.mark.parametrize(("name", "kind", "size", "variant"), CASES)
def test_counts_cover_every_hand(name, kind, size, variant):
    from math import comb

    assert sum(category_counts(kind, size, variant).values()) == comb(int(kind), size)


@pytest.mark.parametrize(("name", "kind", "size", "variant"), [c for c in CASES if c[2] == 5])
def test_five_card_counts_agree_with_the_reference(name, kind, size, variant):
    assert category_counts(kind, size, variant) == dict(reference_counts_5(kind, variant))


def _fast(variant: str, hand) -> tuple[int, C]:
    """Our value of the best five of ``hand`` under ``variant``'s ranking."""
    if variant == "paigow":
        got = evaluate(variant, hand)
        return got.key, got.category
    tables = TABLES[TABLE_OF[variant]]
    total = sum(map(_code, hand))
    value = tables.by_ranks[total & RANK_BITS]
    suit = _flush_suit(total)
    if suit >= 0:
        mask = sum(1 << (c.rank - 2) for c in hand if c & 3 == suit)
        value = max(value, tables.by_suit[mask])
    return value, tables.info[value][0]


@pytest.mark.parametrize(("name", "kind", "size", "variant"), CASES)
def test_random_hands_agree_with_the_reference_in_category_and_order(name, kind, size, variant):
    rnd = random.Random(f"{kind}-{size}-{variant}")
    hands = [tuple(rnd.sample(deck(kind), size)) for _ in range(1500)]
    ours = [_fast(variant, hand) for hand in hands]
    refs = [reference_best(kind, variant, hand) for hand in hands]
    assert [mine[1] for mine in ours] == [ref[2] for ref in refs]
    for i in range(len(hands) - 1):
        a, b = ours[i][0], ours[i + 1][0]
        ra, rb = refs[i][:2], refs[i + 1][:2]
        assert (a > b) == (ra > rb) and (a == b) == (ra == rb), (hands[i], hands[i + 1])


def markdown() -> str:
    """The tables of docs/hand_counts.md."""
    lines = []
    for name, kind, size, variant in CASES:
        counts = category_counts(kind, size, variant)
        lines += [f"### {name} (`{variant}` ranking)", "", "| category | hands |", "|---|---:|"]
        lines += [
            f"| {cat.value} | {counts[cat]:,} |"
            for cat in reversed(TABLES[TABLE_OF[variant]].ranking.order)
            if cat in counts
        ]
        lines += [f"| **total** | {sum(counts.values()):,} |", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
