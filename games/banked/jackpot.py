"""The progressive jackpot of póquer sin descarte.

GA art. 8b: a royal flush takes the whole jackpot, a straight flush 10 % of it;
the stake is at most half the table minimum; the jackpot may be shared by
several tables. PT-SD 9-12: the prizes are the concessionaire's, approved by
the inspectorate; the fund starts at no less than 10,000 stakes; several
winners in one hand are paid from the smallest prize to the largest, the top
prize takes what is left, and winners of the same prize split it.

Readings where the texts are silent (docs/games.md lists them):
- Percentage prizes are of the fund as it stood when the hand began.
- "The top prize" is the prize that takes the rest of the fund (the royal);
  a hand whose best winner is a straight flush pays only the 10 %.
- GA says nothing of several winners: PT-SD 12 is applied under GA too.
- Cents that do not divide among equal winners stay in the fund.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.banked.common import SettlementError
from games.hands import Category


@dataclass(frozen=True)
class JackpotPrize:
    """One prize: a share of the fund, a multiple of the stake, or the rest."""

    category: Category
    share: Fraction | None = None
    multiple_of_stake: int | None = None
    takes_rest: bool = False

    def __post_init__(self) -> None:
        chosen = [self.share is not None, self.multiple_of_stake is not None, self.takes_rest]
        if sum(chosen) != 1:
            raise SettlementError(
                "bad_jackpot_prize",
                "A jackpot prize is a share of the fund, a multiple of the stake, or the rest.",
            )


@dataclass(frozen=True)
class JackpotTable:
    prizes: tuple[JackpotPrize, ...]
    # The stake is at most this share of the table minimum [GA art. 8b] ...
    max_stake_share_of_minimum: Fraction | None = None
    # ... or exactly this amount, fixed by the inspectorate [PT-SD 8].
    fixed_stake_cents: int | None = None
    # The fund starts at no less than this many stakes [PT-SD 10].
    min_seed_stakes: int | None = None
    source: str = ""

    def prize_for(self, category: Category) -> JackpotPrize | None:
        return next((p for p in self.prizes if p.category == category), None)


# GA art. 8b: royal flush, the whole jackpot; straight flush, 10 % of it.
GA_PROGRESSIVE = JackpotTable(
    prizes=(
        JackpotPrize(Category.ROYAL_FLUSH, takes_rest=True),
        JackpotPrize(Category.STRAIGHT_FLUSH, share=Fraction(10, 100)),
    ),
    max_stake_share_of_minimum=Fraction(1, 2),
    source="GA art. 8b",
)


@dataclass(frozen=True)
class JackpotResult:
    won_cents: dict[int, int]  # box -> prize
    fund_before_cents: int
    fund_after_cents: int

    @property
    def paid_cents(self) -> int:
        return sum(self.won_cents.values())


def check_stake(table: JackpotTable, stake_cents: int, minimum_cents: int) -> None:
    """The stake the table's jackpot accepts [GA art. 8b; PT-SD 8]."""
    if table.fixed_stake_cents is not None and stake_cents != table.fixed_stake_cents:
        raise SettlementError(
            "jackpot_stake_not_fixed_amount",
            f"The jackpot stake is exactly {table.fixed_stake_cents} cents [PT-SD 8].",
            stake_cents=table.fixed_stake_cents,
        )
    share = table.max_stake_share_of_minimum
    if share is not None and stake_cents > share * minimum_cents:
        raise SettlementError(
            "jackpot_stake_over_half_minimum",
            "The progressive stake is at most half the table minimum [GA art. 8b].",
            max_cents=int(share * minimum_cents),
        )


def check_seed(table: JackpotTable, fund_cents: int) -> None:
    """A new fund starts at no less than 10,000 stakes [PT-SD 10]."""
    if table.min_seed_stakes is not None and table.fixed_stake_cents is not None:
        least = table.min_seed_stakes * table.fixed_stake_cents
        if fund_cents < least:
            raise SettlementError(
                "jackpot_seed_too_small",
                f"The jackpot starts at no less than {least} cents [PT-SD 10].",
                least_cents=least,
            )


def settle_jackpot(
    table: JackpotTable, fund_cents: int, winners: Sequence[tuple[int, Category, int]]
) -> JackpotResult:
    """Pays the jackpot winners of one hand.

    ``winners`` are ``(box, category, stake_cents)`` for every box that staked
    on the jackpot and kept its hand; boxes without a prize category get
    nothing. Smallest prize first, the rest to the top prize, equal prizes
    split [PT-SD 12; GA art. 8b].
    """
    if fund_cents < 0:
        raise SettlementError("bad_jackpot_fund", "The jackpot fund cannot be negative.")
    groups: dict[JackpotPrize, list[tuple[int, int]]] = defaultdict(list)
    for box, category, stake in winners:
        prize = table.prize_for(category)
        if prize is not None:
            groups[prize].append((box, stake))

    def amount(prize: JackpotPrize, stakes: list[tuple[int, int]]) -> int:
        if prize.share is not None:
            return int(prize.share * fund_cents)
        assert prize.multiple_of_stake is not None
        # Same combination, one prize [PT-SD 12c]: of the (fixed) stake.
        return prize.multiple_of_stake * max(stake for _, stake in stakes)

    fixed = sorted(
        ((amount(p, s), p, s) for p, s in groups.items() if not p.takes_rest),
        key=lambda item: item[0],
    )
    remaining = fund_cents
    won: dict[int, int] = {}
    for full, _prize, stakes in fixed:
        pay = min(full, remaining)
        each = pay // len(stakes)
        for box, _ in stakes:
            won[box] = each
        remaining -= each * len(stakes)
    for prize, stakes in groups.items():
        if prize.takes_rest:
            each = remaining // len(stakes)  # PT-SD 12a-b
            for box, _ in stakes:
                won[box] = each
            remaining -= each * len(stakes)
    return JackpotResult(won_cents=won, fund_before_cents=fund_cents, fund_after_cents=remaining)
