"""Posting to the books inside the command being decided.

A command that moves money calls ``book``; the floor's own stack changes are
booked from the Table events it raised (ledger.domain.floor_money) just before
the save. Either way the transaction and the guarded accounts it touched are
saved with the command's other events, or nothing is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate

from floor.domain.table import Table
from floor.kernel.service import CommandService
from ledger.domain.account import Account
from ledger.domain.accounts import AccountRef
from ledger.domain.floor_money import Booking, bookings_for
from ledger.domain.transaction import Transaction, TransactionKind, balanced_postings


class LedgerBooks(CommandService):
    """The double-entry books of the room, kept by every command."""

    def gaming_day_of_now(self) -> str:
        """The gaming day the command falls in (profile's day turn)."""
        return self.profile.gaming_day.of(self.now()).isoformat()

    def account(self, ref: AccountRef) -> Account:
        """The guarded account, opened on its first posting."""
        found = self.find(Account, ref.aggregate_id)
        if found is None:
            found = Account(id=ref.aggregate_id, name=ref.name)
            self.remember(found)
        return found

    def balance_of(self, ref: AccountRef) -> int:
        """A guarded account's balance as this command sees it."""
        if ref.may_go_negative:
            raise ValueError(f"{ref.name} is an open account: its balance is a projection")
        found = self.find(Account, ref.aggregate_id)
        return found.balance if found is not None else 0

    def account_totals(self, ref: AccountRef) -> list[int]:
        """[everything put in, everything taken out] of a guarded account."""
        found = self.find(Account, ref.aggregate_id)
        return [found.total_in, found.total_out] if found is not None else [0, 0]

    def book(
        self,
        kind: TransactionKind,
        postings: Iterable[tuple[AccountRef, int]],
        *,
        reason: str = "",
        table_id: object = None,
        player_id: object = None,
        reference: str | None = None,
        reason_code: str = "",
        reason_params: dict | None = None,
    ) -> list[Aggregate]:
        """Posts one balanced transaction; returns what to save with it."""
        merged = balanced_postings(postings)
        transaction_id = uuid4()
        changed: list[Aggregate] = []
        for name, amount in merged.items():
            ref = AccountRef(name)
            if ref.may_go_negative:
                continue  # the world outside: its balance is only a projection
            account = self.account(ref)
            account.post(transaction_id, amount)
            changed.append(account)
        transaction = Transaction(  # saved with the command (CommandService.execute)
            id=transaction_id,
            kind=str(kind),
            postings=merged,
            reason=reason,
            gaming_day=self.gaming_day_of_now(),
            table_id=_hex(table_id),
            player_id=_hex(player_id),
            reference=reference,
            reason_code=reason_code,
            reason_params=reason_params or {},
        )
        self.remember(transaction)
        return [transaction, *changed]

    def post_booking(self, booking: Booking) -> list[Aggregate]:
        return self.book(
            booking.kind,
            booking.postings,
            reason=booking.reason,
            table_id=booking.table_id,
            player_id=booking.player_id,
            reference=booking.reference,
            reason_code=booking.reason_code,
            reason_params=booking.reason_params,
        )

    def book_floor_money(self, changed: Sequence[Aggregate]) -> list[Aggregate]:
        """Books the stack changes of the Tables this command changed."""
        booked: list[Aggregate] = []
        for aggregate in changed:
            if isinstance(aggregate, Table):
                for event in aggregate.pending_events:
                    for booking in bookings_for(event, aggregate.id):
                        if any(amount for _, amount in booking.postings):
                            booked += self.post_booking(booking)  # a zero charge moves nothing
        return booked

    def after_decide(self, changed: Sequence[Aggregate]) -> list[Aggregate]:
        return [*super().after_decide(changed), *self.book_floor_money(changed)]

    def with_effects(self, result: dict, changed: list[Aggregate]) -> dict:
        """A floor command that moved money names its transactions, so its
        answer leads to their receipts, as a cage command's does."""
        result = super().with_effects(result, changed)
        booked = [str(a.id) for a in changed if isinstance(a, Transaction)]
        if booked and "transaction_ids" not in result:
            result = {**result, "transaction_ids": booked}
        return result

    def transaction(self, transaction_id: object) -> Transaction:
        return self.load(Transaction, transaction_id, "transaction")


def _hex(value: object) -> str | None:
    return UUID(str(value)).hex if value is not None else None
