"""Trijoker: three equal bets on three cards plus two common cards
[GA art. 9-16].

Each box places three equal bets, each within the table's limits [GA art.
14.1, 15.2]. Having seen its three cards the player may take back bet 1; after
the first common card, bet 2, whatever became of bet 1 [GA art. 15.2]. Bet 3
always plays. Every bet still in play is paid by the paytable when the hand is
jacks or better, and lost otherwise [GA art. 13, 15.3]; a bet taken back
neither wins nor loses. There is no bank hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from games.banked.common import (
    BoxResult,
    SettlementError,
    check_amount,
    check_boxes,
    check_within_limits,
)
from games.hands import Category

C = Category

# GA art. 13, in ascending order: a pair of jacks or better 1 to 1, two pair
# 2, trips 3, straight 5, flush 8, full house 11, four 50, straight flush 200,
# royal flush 500.
TRIJOKER_PAYTABLE: Mapping[Category, int] = MappingProxyType(
    {
        C.PAIR: 1,
        C.TWO_PAIR: 2,
        C.THREE_OF_A_KIND: 3,
        C.STRAIGHT: 5,
        C.FLUSH: 8,
        C.FULL_HOUSE: 11,
        C.FOUR_OF_A_KIND: 50,
        C.STRAIGHT_FLUSH: 200,
        C.ROYAL_FLUSH: 500,
    }
)

LOWEST_PAYING_PAIR = 11  # a pair must be jacks or better [GA art. 9, 13i]
MAX_BOXES = 7  # GA art. 10.3, 12
SOURCE = "GA art. 14.1"


@dataclass(frozen=True)
class TrijokerBox:
    """One box. ``pair_rank`` (2..14) is needed when ``category`` is a pair."""

    box: int
    bets_cents: tuple[int, int, int]
    withdrew_1: bool
    withdrew_2: bool
    category: Category
    pair_rank: int | None = None


def _pays(b: TrijokerBox) -> int:
    if b.category in (C.HIGH_CARD,):
        return 0
    if b.category not in TRIJOKER_PAYTABLE:
        raise SettlementError(
            "category_not_in_game", f"{b.category} is not a Trijoker hand [GA art. 13]."
        )
    if b.category == C.PAIR:
        if b.pair_rank is None or not 2 <= b.pair_rank <= 14:
            raise SettlementError(
                "pair_rank_required", "A pair's rank (2..14) decides whether it pays."
            )
        if b.pair_rank < LOWEST_PAYING_PAIR:
            return 0
    return TRIJOKER_PAYTABLE[b.category]


def settle_trijoker(
    boxes: Sequence[TrijokerBox], *, minimum_cents: int, maximum_cents: int
) -> tuple[BoxResult, ...]:
    """What each box wins or loses on the bets it left in play."""
    check_boxes(boxes, MAX_BOXES, "GA art. 12")
    results = []
    for b in boxes:
        if len(b.bets_cents) != 3:
            raise SettlementError("trijoker_three_bets", "A box makes three bets [GA art. 15.2].")
        for i, bet in enumerate(b.bets_cents, start=1):
            check_amount("bad_bet", f"bet {i}", bet)
            check_within_limits(f"bet {i}", bet, minimum_cents, maximum_cents, SOURCE)
        if len(set(b.bets_cents)) != 1:
            raise SettlementError(
                "trijoker_bets_not_equal", "The three bets are equal [GA art. 15.2]."
            )
        in_play = [not b.withdrew_1, not b.withdrew_2, True]
        pays = _pays(b)
        main = sum(
            (bet * pays if pays else -bet)
            for bet, live in zip(b.bets_cents, in_play, strict=True)
            if live
        )
        results.append(BoxResult(box=b.box, main_cents=main))
    return tuple(results)
