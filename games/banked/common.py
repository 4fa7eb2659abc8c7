"""What every banked settlement shares: the comparison outcome, the result of
one box, and checks on amounts."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.errors import RuleViolation


class SettlementError(RuleViolation):
    """A bet the rules of a banked game refuse (its ``code`` says which)."""


class Outcome(StrEnum):
    """A box's hand against the bank's, as the dealer reads it."""

    PLAYER = "player"  # the box's hand is higher
    BANK = "bank"  # the bank's hand is higher
    TIE = "tie"  # equal hands


@dataclass(frozen=True)
class BoxResult:
    """What one box gets from a hand, in cents (negative: it pays).

    ``main_cents`` is the game against the bank; ``side_cents`` the bank-paid
    side bets (insurance, the bought card); ``jackpot_stake_cents`` what went
    to the jackpot fund and ``jackpot_won_cents`` what the fund paid. The
    house ``commission_cents`` (Pai Gow) is already out of ``main_cents``.
    """

    box: int
    main_cents: int = 0
    side_cents: int = 0
    jackpot_stake_cents: int = 0
    jackpot_won_cents: int = 0
    commission_cents: int = 0

    @property
    def net_cents(self) -> int:
        return self.main_cents + self.side_cents - self.jackpot_stake_cents + self.jackpot_won_cents

    @property
    def against_bank_cents(self) -> int:
        """What the bank pays this box (negative: what it takes)."""
        return self.main_cents + self.side_cents


def check_amount(code: str, name: str, value: object, *, allow_zero: bool = False) -> int:
    """An amount is a whole number of cents, positive (or zero where optional)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettlementError(code, f"{name} must be a whole number of cents.", field=name)
    if value < 0 or (value == 0 and not allow_zero):
        raise SettlementError(code, f"{name} must be a positive amount.", field=name)
    return value


def bank_total(results: list[BoxResult] | tuple[BoxResult, ...]) -> int:
    """The bank's result: minus what it paid the boxes."""
    return -sum(r.against_bank_cents for r in results)


def check_boxes(boxes: object, max_boxes: int, source: str) -> None:
    """Each box once, numbered 1..max_boxes [GA art. 5, 12; PT-SD 5; PG III.3]."""
    if not isinstance(boxes, (list, tuple)):
        raise SettlementError("bad_boxes", "Boxes are given as a list or a tuple.")
    numbers = [b.box for b in boxes]  # type: ignore[attr-defined]
    if len(set(numbers)) != len(numbers):
        raise SettlementError("duplicate_box", "A box is settled once per hand.")
    bad = [n for n in numbers if isinstance(n, bool) or not isinstance(n, int)]
    if bad or any(not 1 <= n <= max_boxes for n in numbers):
        raise SettlementError(
            "box_out_of_range",
            f"Boxes are numbered 1 to {max_boxes} [{source}].",
            max_boxes=max_boxes,
        )


def check_within_limits(name: str, value: int, minimum: int, maximum: int, source: str) -> None:
    """A bet lies between the table's minimum and maximum."""
    if not minimum <= value <= maximum:
        raise SettlementError(
            "bet_out_of_limits",
            f"The {name} must be between {minimum} and {maximum} cents [{source}].",
            field=name,
            minimum_cents=minimum,
            maximum_cents=maximum,
        )
