"""Pai Gow Poker: a five-card and a two-card hand against the bank's [PG I].

Both of the player's hands must beat the bank's to win; equal hands ("copies")
go to the bank; one hand won and one lost is a push and the bet stays as it
was. Winning bets are paid even money less the house commission; losing bets
are taken [PG I; PG III.2]. The excerpt we hold says "menos el porcentaje de
comisión determinado" without the figure, so the commission is a parameter.
The commission is rounded down to the cent: the house never takes more than
the announced rate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.banked.common import (
    BoxResult,
    Outcome,
    SettlementError,
    check_amount,
    check_boxes,
    check_within_limits,
)

MAX_BOXES = 6  # PG II.2, III.3


@dataclass(frozen=True)
class PaiGowBox:
    """One box: its bet and how each of its hands fared against the bank's."""

    box: int
    bet_cents: int
    high: Outcome  # the five-card hand
    low: Outcome  # the two-card hand


def _wins(outcome: Outcome) -> bool:
    if not isinstance(outcome, Outcome):
        raise SettlementError("bad_outcome", "The outcome is player, bank or tie.")
    return outcome is Outcome.PLAYER  # the bank wins the copies [PG I]


def settle_pai_gow(
    boxes: Sequence[PaiGowBox],
    *,
    commission: Fraction,
    minimum_cents: int,
    maximum_cents: int,
) -> tuple[BoxResult, ...]:
    """What each box wins or loses; ``commission`` is the house's share of a win."""
    if not isinstance(commission, Fraction | int) or not 0 <= commission < 1:
        raise SettlementError(
            "bad_commission", "The commission is a share of the win, from 0 up to 1."
        )
    check_boxes(boxes, MAX_BOXES, "PG III.3")
    results = []
    for b in boxes:
        check_amount("bad_bet", "bet", b.bet_cents)
        check_within_limits("bet", b.bet_cents, minimum_cents, maximum_cents, "PG")
        won = _wins(b.high) + _wins(b.low)
        if won == 2:
            fee = int(b.bet_cents * Fraction(commission))
            results.append(BoxResult(box=b.box, main_cents=b.bet_cents - fee, commission_cents=fee))
        elif won == 1:
            results.append(BoxResult(box=b.box))  # push [PG I]
        else:
            results.append(BoxResult(box=b.box, main_cents=-b.bet_cents))
    return tuple(results)
