"""Banked games settlement: what each box wins or loses against the bank.

The hands come in already judged: each box gives its ``Category`` and, where
the bank's hand matters, an ``Outcome`` of the box's hand against the bank's
(the evaluator in ``games.evaluate`` produces both; nothing here waits for it).
Money is integer cents. A box's ``net_cents`` is what it gains (negative: what
it loses); the bank's result is minus the sum of the boxes' main and side bets,
and the jackpot fund moves on its own (stakes in, prizes out).
"""

from games.banked.common import BoxResult, Outcome, SettlementError
from games.banked.jackpot import (
    GA_PROGRESSIVE,
    JackpotPrize,
    JackpotResult,
    JackpotTable,
    settle_jackpot,
)
from games.banked.paigow import PaiGowBox, settle_pai_gow
from games.banked.sin_descarte import (
    GA_PAYTABLE,
    PT_SD_PAYTABLE,
    SinDescarteBox,
    SinDescarteHand,
    SinDescarteTable,
    bank_qualifies,
    settle_sin_descarte,
)
from games.banked.trijoker import TRIJOKER_PAYTABLE, TrijokerBox, settle_trijoker

__all__ = [
    "GA_PAYTABLE",
    "GA_PROGRESSIVE",
    "PT_SD_PAYTABLE",
    "TRIJOKER_PAYTABLE",
    "BoxResult",
    "JackpotPrize",
    "JackpotResult",
    "JackpotTable",
    "Outcome",
    "PaiGowBox",
    "SettlementError",
    "SinDescarteBox",
    "SinDescarteHand",
    "SinDescarteTable",
    "TrijokerBox",
    "bank_qualifies",
    "settle_jackpot",
    "settle_pai_gow",
    "settle_sin_descarte",
    "settle_trijoker",
]
