"""A ledger transaction: postings that sum to zero, and why they were made.

The transaction is the unit of the books: it is saved with the floor's events
of the same command, names its kind (buy-in, rake, fill ...) and the table,
player and gaming day it belongs to, and is never edited: a correction is a new
transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from uuid import UUID

from eventsourcing.domain import event

from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict, invalid
from ledger.domain.accounts import AccountRef


class TransactionKind(StrEnum):
    FLOAT = "float"  # the house funds the cage
    CHIPS_SOLD = "chips_sold"  # the cage sells chips for cash
    CASH_OUT = "cash_out"  # the cage buys chips back
    BUY_IN = "buy_in"  # chips onto a seat (first buy-in or rebuy)
    HAND = "hand"  # a hand's pot paid out, its rake to the rake box
    TIME_CHARGE = "time_charge"  # a session's time rake [GA art. 18.3b; PT 7b]
    STACK_LEFT = "stack_left"  # a player leaves a table with their stack
    STACK_MOVED = "stack_moved"  # a stack goes with its player to another table
    TIP = "tip"  # chips from a stack to the tip box [CM-15]
    HOSPITALITY = "hospitality"  # chips from a stack for hospitality [CM-15]
    FILL = "fill"  # chips from the cage to a tray
    CREDIT = "credit"  # chips from a tray to the cage
    JACKPOT_SEED = "jackpot_seed"  # the house brings a fund to its starting amount
    JACKPOT_BET = "jackpot_bet"  # the jackpot stakes of one hand
    JACKPOT_PAID = "jackpot_paid"  # a jackpot's prizes to its winners' stacks
    DROP = "drop"  # the day's drop boxes emptied into the cage
    TIPS_PAID = "tips_paid"  # the day's tips paid out to the staff
    ADJUSTMENT = "adjustment"  # a count difference booked, with its reason code
    STACK_FIX = "stack_fix"  # a seat's stack corrected by the jefe, against the table's differences
    VOID = "void"  # a cage entry booked by mistake, reversed leg by leg (ledger.domain.voids)


def balanced_postings(postings: Iterable[tuple[AccountRef, int]]) -> dict[str, int]:
    """The postings by account name, each account once, after checking that
    each amount is whole cents and that they sum to zero."""
    merged: dict[str, int] = {}
    for account, amount in postings:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise invalid("amount_invalid")
        merged[account.name] = merged.get(account.name, 0) + amount
    merged = {name: amount for name, amount in merged.items() if amount}
    if sum(merged.values()) != 0:
        raise invalid("transaction_does_not_balance", total_cents=sum(merged.values()))
    if not merged:
        raise invalid("transaction_empty")
    return dict(sorted(merged.items()))


def amount_of(postings: dict[str, int]) -> int:
    """A transaction's amount: its largest posting, in or out."""
    return max((abs(a) for a in postings.values()), default=0)


class Transaction(AuditedAggregate):
    """One balanced movement of money, with its reason and references."""

    @event("Posted")
    def __init__(
        self,
        id: UUID,  # noqa: A002
        kind: str,
        postings: dict[str, int],
        reason: str,
        gaming_day: str,
        table_id: str | None = None,
        player_id: str | None = None,
        reference: str | None = None,
        reason_code: str = "",
        reason_params: dict | None = None,
    ) -> None:
        self.kind = kind
        self.postings = postings
        # ``reason`` is the English text every transaction has carried; the
        # code and its params (ledger.reasons) let each reader see it in their
        # language. Transactions posted before the codes have only the text:
        # their stored events are not edited, and they show the text as is.
        self.reason = reason
        self.reason_code = reason_code
        self.reason_params = reason_params or {}
        self.gaming_day = gaming_day
        self.table_id = table_id
        self.player_id = player_id
        self.reference = reference

    @property
    def amount_cents(self) -> int:
        """What the transaction moved, as a person says it: its largest
        posting (a cash-out of 8 EUR moves 8 EUR of chips and 8 of cash)."""
        return amount_of(self.postings)

    # --- voided by a correction (ledger.domain.voids) ---------------------------------

    @property
    def voided_by(self) -> str | None:
        """The void transaction that reversed this one (hex), if any. Read
        with getattr: a transaction loaded from before voids has no such field."""
        return getattr(self, "_voided_by", None)

    def void(self, by_transaction: UUID, reason_code: str, note: str) -> None:
        """Marks this entry voided by ``by_transaction``, once: the original
        is never edited, this is a new event of its own (DESIGN.md), and its
        version makes a second void of the same entry conflict."""
        if self.voided_by is not None:
            raise conflict("entry_already_voided")
        self._voided(by_transaction=by_transaction.hex, reason_code=reason_code, note=note)

    @event("Voided")
    def _voided(self, by_transaction: str, reason_code: str, note: str) -> None:
        self._voided_by = by_transaction
