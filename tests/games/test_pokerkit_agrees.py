"""Differential test: pokerkit (test dependency only) and games.evaluate pick the
same winner and the same ties on 100,000 seeded heads-up Hold'em deals and
100,000 Omaha deals.

pokerkit's fastest path here is its ``StandardLookup.get_entry`` on five cards;
we take the best entry over the 21 (Hold'em) or 60 (Omaha: two hole + three
board) five-card hands. The deals are split over two processes to fit the time
budget on a two-core machine.
"""

from __future__ import annotations

import multiprocessing
import random
from itertools import combinations

import pytest

from games.cards import deck
from games.evaluate import evaluate

pokerkit = pytest.importorskip("pokerkit")

DEALS = 100_000
WORKERS = 2


def _pk_best(lookup, hole, board, omaha: bool) -> int:
    get = lookup.get_entry
    if omaha:
        return max(get(a + b).index for a in combinations(hole, 2) for b in combinations(board, 3))
    return max(get(five).index for five in combinations(hole + board, 5))


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _check_chunk(args) -> list:
    """Mismatches among deals ``start``..``stop`` of the seeded sequence."""
    variant, start, stop = args
    lookup = pokerkit.StandardLookup()
    ours_deck = deck()
    theirs = {str(c): next(iter(pokerkit.Card.parse(str(c)))) for c in ours_deck}
    n_hole = 4 if variant == "omaha" else 2
    rnd = random.Random(f"{variant}-{start}")
    bad = []
    for _ in range(start, stop):
        dealt = rnd.sample(ours_deck, 5 + 2 * n_hole)
        board, a, b = dealt[:5], dealt[5 : 5 + n_hole], dealt[5 + n_hole :]
        mine = evaluate(variant, a, board).key - evaluate(variant, b, board).key
        pk = [tuple(theirs[str(c)] for c in cards) for cards in (a, b, board)]
        omaha = variant == "omaha"
        other = _pk_best(lookup, pk[0], pk[2], omaha) - _pk_best(lookup, pk[1], pk[2], omaha)
        if _sign(mine) != _sign(other):
            bad.append((variant, [str(c) for c in dealt]))
    return bad


# CPU alone: at a load of 13 to 23 (2026-11-27) the Hold'em deals took 59 s and
# the Omaha deals more than the suite's 300 s (pyproject.toml), a timeout that
# said nothing of the evaluator. The bound here is for a hang, not for the load.
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("variant", ["holdem", "omaha"])
def test_same_winner_and_ties_as_pokerkit(variant):
    step = DEALS // WORKERS
    chunks = [(variant, i * step, (i + 1) * step) for i in range(WORKERS)]
    with multiprocessing.get_context("fork").Pool(WORKERS) as pool:
        bad = [m for part in pool.map(_check_chunk, chunks) for m in part]
    assert bad == []
