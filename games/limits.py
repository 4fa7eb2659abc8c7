"""Betting limits and the band a table's minimum must sit in."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from games.errors import RuleViolation

# A sanity bound on any table amount (one million euros): far above any stakes a
# room announces, far inside the 64-bit integers the stores keep cents in.
MAX_AMOUNT_CENTS = 100_000_000


class BettingLimit(StrEnum):
    """How far a bet may go [GA art. 22.3; PT 21]."""

    SPLIT_LIMIT = "split_limit"  # at most half the pot
    POT_LIMIT = "pot_limit"  # at most the pot
    NO_LIMIT = "no_limit"  # at most the player's stack


@dataclass(frozen=True)
class TableStakes:
    """A table's announced minimum and maximum, in integer cents.

    The minimum is the big blind in flop games [PT 81-83; CM]; the small blind is
    half of it.
    """

    limit: BettingLimit
    minimum_cents: int
    maximum_cents: int

    @property
    def big_blind_cents(self) -> int:
        return self.minimum_cents

    @property
    def small_blind_cents(self) -> int:
        return small_blind_for(self.minimum_cents)


def small_blind_for(minimum_cents: int) -> int:
    """The small blind is half the table minimum [PT 81-83; CM]."""
    return minimum_cents // 2


def check_stakes(stakes: TableStakes, minimum_share_band: tuple[Fraction, Fraction]) -> None:
    """Refuses stakes whose minimum lies outside the profile's band of the maximum.

    GA art. 22.3a and PT 20 put the table minimum between 20 % and 40 % of the
    maximum; the band is a profile setting.
    """
    if stakes.minimum_cents <= 0:
        raise RuleViolation(
            "stakes_minimum_not_positive", "The table minimum must be a positive amount."
        )
    if stakes.minimum_cents % 2:
        raise RuleViolation(
            "stakes_minimum_odd",
            "The table minimum must be an even number of cents: the small blind is half of it.",
        )
    if stakes.maximum_cents > MAX_AMOUNT_CENTS:
        raise RuleViolation(
            "stakes_too_large",
            f"A table maximum is at most {MAX_AMOUNT_CENTS // 100} euros.",
            max_euros=MAX_AMOUNT_CENTS // 100,
        )
    if stakes.maximum_cents < stakes.minimum_cents:
        raise RuleViolation(
            "stakes_maximum_below_minimum", "The table maximum may not be below its minimum."
        )
    low, high = minimum_share_band
    share = Fraction(stakes.minimum_cents, stakes.maximum_cents)
    if not low <= share <= high:
        raise RuleViolation(
            "stakes_out_of_band",
            f"The table minimum must be between {int(low * 100)} % and "
            f"{int(high * 100)} % of the maximum.",
            low_percent=int(low * 100),
            high_percent=int(high * 100),
        )
