"""Póquer sin descarte (sen descarte; póquer sem descarte): five cards against
the bank's [GA art. 2-8; PT-SD 1-24].

The box places an ante; seeing its cards it folds (losing the ante) or calls
with twice the ante [GA art. 7; PT-SD 17]. The bank plays only with ace-king or
better; otherwise it pays every calling box even money on the ante and the call
comes back [GA art. 7; PT-SD 18]. When it plays, a higher box is paid the ante
at 1:1 and the call by the paytable; a lower box loses both; equal hands keep
their bets [GA art. 6.1, 7; PT-SD 6, 18].

Side bets [GA art. 8]: insurance pays on a full house or better whatever the
bank holds; the bought card costs the ante; the progressive jackpot is settled
by ``games.banked.jackpot``. A folded box loses its side bets: its cards go
back face down and are never shown [GA art. 7; PT-SD 17].
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from games.banked.common import (
    BoxResult,
    Outcome,
    SettlementError,
    bank_total,
    check_amount,
    check_boxes,
    check_within_limits,
)
from games.banked.jackpot import (
    JackpotResult,
    JackpotTable,
    check_stake,
    settle_jackpot,
)
from games.cards import Card
from games.hands import Category

C = Category

# GA art. 6.1a-j: the call bet is paid 100, 25, 20, 7, 5, 4, 3, 2, 1 times;
# ace-king (the least hand that beats a playing bank) once.
GA_PAYTABLE: Mapping[Category, int] = MappingProxyType(
    {
        C.ROYAL_FLUSH: 100,
        C.STRAIGHT_FLUSH: 25,
        C.FOUR_OF_A_KIND: 20,
        C.FULL_HOUSE: 7,
        C.FLUSH: 5,
        C.STRAIGHT: 4,
        C.THREE_OF_A_KIND: 3,
        C.TWO_PAIR: 2,
        C.PAIR: 1,
        C.HIGH_CARD: 1,
    }
)

# PT-SD 6a-j: the same but the straight flush pays 50; "cartas maiores" once.
PT_SD_PAYTABLE: Mapping[Category, int] = MappingProxyType({**GA_PAYTABLE, C.STRAIGHT_FLUSH: 50})

# GA art. 8a: insurance pays these multiples of its stake, whatever the bank holds.
GA_INSURANCE: Mapping[Category, int] = MappingProxyType(
    {C.FULL_HOUSE: 100, C.FOUR_OF_A_KIND: 300, C.STRAIGHT_FLUSH: 1000, C.ROYAL_FLUSH: 2000}
)

MAX_BOXES = 7  # GA art. 5; PT-SD 5


@dataclass(frozen=True)
class SinDescarteTable:
    """A table's paytable, limits and optional side bets."""

    paytable: Mapping[Category, int]
    minimum_cents: int
    maximum_cents: int
    insurance: Mapping[Category, int] | None = None  # GA art. 8a
    extra_card: bool = False  # GA art. 8c
    jackpot: JackpotTable | None = None  # GA art. 8b; PT-SD 3-12
    source: str = "GA art. 6-8"
    # The insurance stake is at most half the table minimum [GA art. 8a].
    insurance_max_share_of_minimum: Fraction = field(default=Fraction(1, 2))


@dataclass(frozen=True)
class SinDescarteBox:
    """One box's bets and hand.

    ``call_cents`` 0 means the box folded. ``outcome`` is the box's hand
    against the bank's (ignored when the bank does not play). A box that bought
    a card gives ``first_five_category`` too: the progressive depends only on
    the player's first five cards [GA art. 8b].
    """

    box: int
    ante_cents: int
    call_cents: int
    category: Category
    outcome: Outcome
    insurance_cents: int = 0
    extra_card_cents: int = 0
    jackpot_stake_cents: int = 0
    first_five_category: Category | None = None

    @property
    def jackpot_category(self) -> Category:
        """The hand the progressive pays on [GA art. 8b]."""
        return self.first_five_category if self.extra_card_cents else self.category


@dataclass(frozen=True)
class SinDescarteHand:
    boxes: tuple[BoxResult, ...]
    bank_cents: int
    jackpot: JackpotResult | None


def bank_qualifies(category: Category, hand: Iterable[Card]) -> bool:
    """The bank plays with ace and king or any higher hand [GA art. 7; PT-SD 18]."""
    if category != Category.HIGH_CARD:
        return True
    ranks = {c.rank for c in hand}
    return 14 in ranks and 13 in ranks


def _check_box(table: SinDescarteTable, b: SinDescarteBox) -> None:
    check_amount("bad_ante", "ante", b.ante_cents)
    check_within_limits(
        "ante", b.ante_cents, table.minimum_cents, table.maximum_cents, table.source
    )
    check_amount("bad_call", "call", b.call_cents, allow_zero=True)
    if b.call_cents and b.call_cents != 2 * b.ante_cents:
        raise SettlementError(
            "call_not_twice_ante",
            "To play on, a box calls exactly twice its ante [GA art. 7; PT-SD 17].",
            ante_cents=b.ante_cents,
            call_cents=2 * b.ante_cents,
        )
    if b.category not in table.paytable:
        raise SettlementError(
            "category_not_in_game", f"{b.category} is not a hand of this game [GA art. 6.1]."
        )
    if not isinstance(b.outcome, Outcome):
        raise SettlementError("bad_outcome", "The outcome is player, bank or tie.")
    check_amount("bad_insurance", "insurance", b.insurance_cents, allow_zero=True)
    if b.insurance_cents:
        if table.insurance is None:
            raise SettlementError("insurance_not_offered", "This table offers no insurance.")
        if b.insurance_cents > table.insurance_max_share_of_minimum * table.minimum_cents:
            raise SettlementError(
                "insurance_over_half_minimum",
                "Insurance is at most half the table minimum [GA art. 8a].",
                max_cents=int(table.insurance_max_share_of_minimum * table.minimum_cents),
            )
    check_amount("bad_extra_card", "extra card", b.extra_card_cents, allow_zero=True)
    if b.extra_card_cents:
        if not table.extra_card:
            raise SettlementError("extra_card_not_offered", "This table sells no extra card.")
        if b.jackpot_stake_cents and b.first_five_category is None:
            raise SettlementError(
                "first_five_category_required",
                "With a bought card, the progressive is paid on the first five cards: "
                "give their category [GA art. 8b].",
                box=b.box,
            )
        if b.extra_card_cents != b.ante_cents:
            raise SettlementError(
                "extra_card_not_ante",
                "An extra card costs the same as the ante [GA art. 8c].",
                ante_cents=b.ante_cents,
            )
    check_amount("bad_jackpot_stake", "jackpot stake", b.jackpot_stake_cents, allow_zero=True)
    if b.jackpot_stake_cents:
        if table.jackpot is None:
            raise SettlementError("jackpot_not_offered", "This table has no jackpot.")
        check_stake(table.jackpot, b.jackpot_stake_cents, table.minimum_cents)


def _main(b: SinDescarteBox, table: SinDescarteTable, bank_plays: bool) -> int:
    if not b.call_cents:
        return -b.ante_cents  # folded: the ante is lost [GA art. 7; PT-SD 17]
    if not bank_plays:
        return b.ante_cents  # even money on the ante, call back [GA art. 7; PT-SD 18]
    if b.outcome is Outcome.TIE:
        return 0  # bets kept, no prize [GA art. 6.1; PT-SD 6]
    if b.outcome is Outcome.BANK:
        return -(b.ante_cents + b.call_cents)
    return b.ante_cents + b.call_cents * table.paytable[b.category]


def _side(b: SinDescarteBox, table: SinDescarteTable) -> int:
    side = -b.extra_card_cents  # the card is bought from the bank [GA art. 8c]
    if b.insurance_cents:
        multiple = (table.insurance or {}).get(b.category) if b.call_cents else None
        side += b.insurance_cents * multiple if multiple else -b.insurance_cents
    return side


def settle_sin_descarte(
    table: SinDescarteTable,
    boxes: Sequence[SinDescarteBox],
    *,
    bank_plays: bool,
    jackpot_fund_cents: int = 0,
) -> SinDescarteHand:
    """Settles one hand. ``bank_plays``: see ``bank_qualifies``.

    The jackpot is paid whatever the bank holds [GA art. 8b; PT-SD 9].
    """
    check_boxes(boxes, MAX_BOXES, "GA art. 5; PT-SD 5")
    for b in boxes:
        _check_box(table, b)
    jackpot = None
    if table.jackpot is not None and any(b.jackpot_stake_cents for b in boxes):
        entries = [
            (b.box, b.jackpot_category, b.jackpot_stake_cents)
            for b in boxes
            if b.jackpot_stake_cents and b.call_cents
        ]
        jackpot = settle_jackpot(table.jackpot, jackpot_fund_cents, entries)
    won = jackpot.won_cents if jackpot else {}
    results = tuple(
        BoxResult(
            box=b.box,
            main_cents=_main(b, table, bank_plays),
            side_cents=_side(b, table),
            jackpot_stake_cents=b.jackpot_stake_cents,
            jackpot_won_cents=won.get(b.box, 0),
        )
        for b in boxes
    )
    return SinDescarteHand(boxes=results, bank_cents=bank_total(results), jackpot=jackpot)
