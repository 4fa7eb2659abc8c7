"""An account's balance, guarded.

Only accounts that must never go negative are aggregates: their version makes
two commands that spend the same chips at once conflict in the event store, so
the second is decided again on the new balance and refused if it no longer
fits (a cash-out and a rebuy of the same chips cannot both take them).
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import event

from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict
from ledger.domain.accounts import AccountRef


class Account(AuditedAggregate):
    @event("Opened")
    def __init__(self, id: UUID, name: str) -> None:  # noqa: A002
        self.name = name
        self.balance = 0
        # Everything ever put in and taken out: a day's flows are differences.
        self.total_in = 0
        self.total_out = 0

    @property
    def ref(self) -> AccountRef:
        return AccountRef(self.name)

    def post(self, transaction_id: UUID, amount: int) -> None:
        """Adds ``amount`` (negative to take); never below zero."""
        balance = self.balance + amount
        if balance < 0 and not self.ref.may_go_negative:
            raise conflict(
                "insufficient_funds",
                account=self.name,
                balance_cents=self.balance,
                amount_cents=-amount,
            )
        self._posted(transaction_id=transaction_id.hex, amount=amount, balance=balance)

    @event("Posted")
    def _posted(self, transaction_id: str, amount: int, balance: int) -> None:
        self.balance = balance
        if amount > 0:
            self.total_in += amount
        else:
            self.total_out -= amount
