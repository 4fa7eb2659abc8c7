"""Lookup tables behind ``games.evaluate``: one set per ranking rule.

Why tables: a hand's worth without a flush depends only on how many cards of
each rank it holds, and with a flush only on which ranks of the flush suit it
holds. Both are small integers, so each distinct one is worked out once (the
first time it is met) and then read back with one dict lookup. That keeps a
7-card Hold'em evaluation free of the 21 five-card combinations.

A rank-count key packs 3 bits per rank (rank 2 at bit 0, ace at bit 36): the sum
over the cards of ``1 << 3 * (rank - 2)``. A suit mask has bit ``rank - 2`` set
for each rank held in one suit.

A value key is ``order << 20 | tiebreak``: ``order`` is the category's place in
the variant's ranking and ``tiebreak`` holds up to five ranks, four bits each,
most significant first, so plain integer comparison orders hands.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.hands import Category

C = Category

# Ranking of categories, weakest first [GA art. 22.1; PT 17-18].
STANDARD_ORDER = (
    C.HIGH_CARD,
    C.PAIR,
    C.TWO_PAIR,
    C.THREE_OF_A_KIND,
    C.STRAIGHT,
    C.FLUSH,
    C.FULL_HOUSE,
    C.FOUR_OF_A_KIND,
    C.STRAIGHT_FLUSH,
    C.ROYAL_FLUSH,
)


def _swap_flush_and_full(order: tuple[Category, ...]) -> tuple[Category, ...]:
    """With fewer than 52 cards the flush beats the full house [GA art. 22.1, last
    paragraph]; in the 52-card deck (standard list above) the full house wins."""
    out = list(order)
    i, j = out.index(C.FLUSH), out.index(C.FULL_HOUSE)
    out[i], out[j] = out[j], out[i]
    return tuple(out)


def _with_figuras(order: tuple[Category, ...]) -> tuple[Category, ...]:
    """Closed poker adds "figuras" between trips and two pair [GA art. 22.1h]."""
    out = list(order)
    out.insert(out.index(C.TWO_PAIR) + 1, C.FIGURAS)
    return tuple(out)


@dataclass(frozen=True)
class Ranking:
    """How one family of variants ranks five cards.

    ``straights`` lists every straight as (its five ranks, its tiebreak value),
    so odd straights (the ace below the 8 in sintético, Pai Gow's A-2-3-4-5 as
    second best) are data, not code.
    """

    name: str
    lowest_rank: int
    order: tuple[Category, ...]
    straights: tuple[tuple[frozenset[int], int], ...]
    figuras: bool = False


def _straights(lowest: int, ace_low: bool, wheel_value: int | None = None) -> tuple:
    """Every straight of a deck whose ranks run ``lowest``..ace, strongest first.

    ``ace_low`` adds the straight with the ace under ``lowest``; its tiebreak is
    its top card unless ``wheel_value`` says otherwise (Pai Gow).
    """
    runs = [(frozenset(range(top - 4, top + 1)), top) for top in range(14, lowest + 3, -1)]
    if ace_low:
        ranks = frozenset({14, *range(lowest, lowest + 4)})
        runs.append((ranks, wheel_value if wheel_value is not None else lowest + 3))
    return tuple(sorted(runs, key=lambda run: -run[1]))


def _paigow_straights() -> tuple:
    """Pai Gow: A-2-3-4-5 is the second-highest straight [PG, "Escalera Real"].
    The ace-high straight is scored 15 so the wheel (14) sits just below it."""
    runs = [(frozenset(range(top - 4, top + 1)), top) for top in range(13, 5, -1)]
    runs.append((frozenset({10, 11, 12, 13, 14}), 15))
    runs.append((frozenset({14, 2, 3, 4, 5}), 14))
    return tuple(sorted(runs, key=lambda run: -run[1]))


SHORT_ORDER = _swap_flush_and_full(STANDARD_ORDER)

# 52 cards: A-2-3-4-5 is the lowest straight [GA art. 22, cards: "o As pode
# utilizarse como carta menor por debaixo do 2"].
STANDARD = Ranking("standard", 2, STANDARD_ORDER, _straights(2, ace_low=True))
# 32 cards (7..A) [GA art. 37]: the article keeps only the ace-high reading; the
# low ace is granted in words for the 28-card deck only [GA art. 40], so
# A-7-8-9-T is NOT a straight here (see docs/hand_counts.md).
SHORT_32 = Ranking("short32", 7, SHORT_ORDER, _straights(7, ace_low=False))
# 28 cards (8..A): the ace may be the card under the 8, so A-8-9-T-J is the
# lowest straight [GA art. 40].
SHORT_28 = Ranking("short28", 8, SHORT_ORDER, _straights(8, ace_low=True))
DRAW_52 = Ranking(
    "draw52", 2, _with_figuras(STANDARD_ORDER), _straights(2, ace_low=True), figuras=True
)
DRAW_32 = Ranking(
    "draw32", 7, _with_figuras(SHORT_ORDER), _straights(7, ace_low=False), figuras=True
)
# Pai Gow: five aces (four aces and the joker) on top [PG].
PAIGOW = Ranking("paigow", 2, (*STANDARD_ORDER, C.FIVE_ACES), _paigow_straights())

FACES = frozenset({11, 12, 13, 14})


def pack(ranks: list[int] | tuple[int, ...]) -> int:
    """Tiebreak ranks, most significant first, four bits each (five slots)."""
    out = 0
    for i, rank in enumerate(ranks):
        out |= rank << (16 - 4 * i)
    return out


def counts_of(rank_key: int) -> dict[int, int]:
    """Rank -> count, from a rank-count key."""
    found = {}
    for rank in range(2, 15):
        n = (rank_key >> (3 * (rank - 2))) & 7
        if n:
            found[rank] = n
    return found


def _top_straight(ranking: Ranking, present: set[int] | frozenset[int]):
    """The best straight among ``present`` ranks, as (ranks, tiebreak), or None."""
    for ranks, value in ranking.straights:
        if ranks <= present:
            return ranks, value
    return None


def _straight_ranks(ranks: frozenset[int], value: int) -> tuple[int, ...]:
    """A straight's ranks from its top card down, the low ace last."""
    ordered = sorted(ranks, reverse=True)
    if 14 in ranks and 13 not in ranks:  # the ace plays low
        ordered = [*ordered[1:], 14]
    return tuple(ordered)


def rank_value(ranking: Ranking, counts: dict[int, int]) -> tuple[Category, list[int], list[int]]:
    """The best five cards of these ranks, ignoring suits.

    Returns (category, tiebreak ranks, the five ranks used with repeats). Order of
    tests follows the categories from the top; quads and full house outrank any
    straight in every variant, so straight is tested after them.
    """
    by_count = sorted(counts.items(), key=lambda item: (-item[1], -item[0]))
    desc = sorted(counts, reverse=True)
    if counts.get(14, 0) >= 5:
        return C.FIVE_ACES, [14], [14] * 5
    quads = [r for r in desc if counts[r] >= 4]
    if quads:
        q = quads[0]
        kicker = max(r for r in desc if r != q)
        return C.FOUR_OF_A_KIND, [q, kicker], [q] * 4 + [kicker]
    trips = [r for r in desc if counts[r] >= 3]
    if trips:
        pairs = [r for r in desc if r != trips[0] and counts[r] >= 2]
        if pairs:
            return C.FULL_HOUSE, [trips[0], pairs[0]], [trips[0]] * 3 + [pairs[0]] * 2
    straight = _top_straight(ranking, set(desc))
    if straight:
        ranks, value = straight
        return C.STRAIGHT, [value], list(_straight_ranks(ranks, value))
    if trips:
        t = trips[0]
        kick = [r for r in desc if r != t][:2]
        return C.THREE_OF_A_KIND, [t, *kick], [t] * 3 + kick
    pairs = [r for r, n in by_count if n == 2]
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        kicker = max(r for r in desc if r not in (hi, lo))
        return C.TWO_PAIR, [hi, lo, kicker], [hi, hi, lo, lo, kicker]
    if pairs:
        p = pairs[0]
        kick = [r for r in desc if r != p][:3]
        return C.PAIR, [p, *kick], [p, p, *kick]
    return C.HIGH_CARD, desc[:5], desc[:5]


def figuras_value(counts: dict[int, int], category: Category, used: list[int]):
    """Five cards all A/K/Q/J that make only a pair or two pair are "figuras"
    [GA art. 22.1h]. Ties [GA art. 22.2f]: the highest pair, then the highest
    card, read literally as the remaining cards from the highest down."""
    if sum(counts.values()) != 5 or not set(counts) <= FACES:
        return None
    if category not in (C.PAIR, C.TWO_PAIR):
        return None
    top_pair = max(r for r, n in counts.items() if n == 2)
    rest = sorted(used, reverse=True)
    rest.remove(top_pair)
    rest.remove(top_pair)
    return C.FIGURAS, [top_pair, *rest], [top_pair, top_pair, *rest]


def flush_value(ranking: Ranking, suited: frozenset[int]) -> tuple[Category, list[int], list[int]]:
    """The best five cards of one suit: straight flush (royal when ace-high, GA
    art. 22.1a) or a flush of the five highest."""
    straight = _top_straight(ranking, suited)
    if straight:
        ranks, value = straight
        used = list(_straight_ranks(ranks, value))
        royal = ranks == frozenset({10, 11, 12, 13, 14})
        return (C.ROYAL_FLUSH if royal else C.STRAIGHT_FLUSH), [value], used
    top = sorted(suited, reverse=True)[:5]
    return C.FLUSH, top, top


class ValueTable(dict):
    """Key -> value key, worked out on first use (``__missing__``), so that
    import stays instant and the hot path is one C-level dict lookup."""

    def __init__(self, ranking: Ranking, info: dict, kind: str) -> None:
        super().__init__()
        self.ranking = ranking
        self.info = info
        self.kind = kind

    def __missing__(self, key: int) -> int:
        if self.kind == "rank":
            counts = counts_of(key)
            category, tiebreak, used = rank_value(self.ranking, counts)
            if self.ranking.figuras:
                figuras = figuras_value(counts, category, used)
                if figuras:
                    category, tiebreak, used = figuras
        else:
            suited = frozenset(r for r in range(2, 15) if key >> (r - 2) & 1)
            category, tiebreak, used = flush_value(self.ranking, suited)
        value = self.ranking.order.index(category) << 20 | pack(tiebreak)
        self.info[value] = (category, tuple(used), self.kind == "suit")
        self[key] = value
        return value


class Tables:
    """The two tables and the decoding info for one ranking."""

    def __init__(self, ranking: Ranking) -> None:
        self.ranking = ranking
        self.info: dict[int, tuple[Category, tuple[int, ...], bool]] = {}
        self.by_ranks = ValueTable(ranking, self.info, "rank")
        self.by_suit = ValueTable(ranking, self.info, "suit")


TABLES = {r.name: Tables(r) for r in (STANDARD, SHORT_32, SHORT_28, DRAW_52, DRAW_32, PAIGOW)}
