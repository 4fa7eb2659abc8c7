"""Posting to the books inside the command being decided.

A command that moves money calls ``book``; the floor's own stack changes are
booked from the Table events it raised (ledger.domain.floor_money) by the
``Books`` policy just before the save (floor.kernel.composition: the ledger
declares it in ledger.apps). Either way the transaction and the guarded
accounts it touched are saved with the command's other events, or nothing is.

Every transaction is dated with the cage's open day (ledger.domain.cage), so
the cage and its day are looked up here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, timedelta
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate

from floor.kernel.composition import CommandPolicy
from floor.kernel.unit_of_work import UnitOfWork
from floor.ports.tables import Table
from ledger.domain.account import Account
from ledger.domain.accounts import AccountRef, Kind
from ledger.domain.cage import Cage
from ledger.domain.floor_money import Booking, bookings_for
from ledger.domain.gaming_day import GamingDay
from ledger.domain.transaction import Transaction, TransactionKind, balanced_postings

# --- the cage and its day ------------------------------------------------------------


def cage(work: UnitOfWork) -> Cage:
    """The room's cage, opened on its first use."""
    found = work.find(Cage, Cage.ID)
    if found is None:
        found = work.add(Cage(id=Cage.ID))
    return found


def open_day(work: UnitOfWork) -> tuple[Cage, GamingDay]:
    """The cage and its open gaming day, or the refusal that none is open."""
    found = cage(work)
    day = found.check_day_open()
    return found, work.load(GamingDay, GamingDay.id_for(day), "gaming_day")


def gaming_day_of_now(work: UnitOfWork) -> str:
    """Transactions belong to the cage's open day. With none open, to the
    day that opens next: the profile's day of the moment, or the day after
    the last one closed if that one was it (a table plays on after the
    cage's close)."""
    found = work.find(Cage, Cage.ID)
    if found is not None and found.open_day is not None:
        return found.open_day
    return next_day(work, found)


def next_day(work: UnitOfWork, found: Cage | None) -> str:
    """The gaming day that opens next (profile's day turn)."""
    day = work.profile.gaming_day.of(work.now()).isoformat()
    if found is not None and found.days_closed and day <= found.days_closed[-1]:
        return (date.fromisoformat(found.days_closed[-1]) + timedelta(days=1)).isoformat()
    return day


# --- the accounts ----------------------------------------------------------------------


def account(work: UnitOfWork, ref: AccountRef) -> Account:
    """The guarded account, opened on its first posting. The cage counts
    every table that has a tray or a box at the close."""
    if ref.table_id is not None and ref.kind is not Kind.STACK:
        cage(work).know_table(ref.table_id)
    found = work.find(Account, ref.aggregate_id)
    if found is None:
        found = work.add(Account(id=ref.aggregate_id, name=ref.name))
    return found


def balance_of(work: UnitOfWork, ref: AccountRef) -> int:
    """A guarded account's balance as this command sees it."""
    if ref.may_go_negative:
        raise ValueError(f"{ref.name} is an open account: its balance is a projection")
    found = work.find(Account, ref.aggregate_id)
    return found.balance if found is not None else 0


def account_totals(work: UnitOfWork, ref: AccountRef) -> list[int]:
    """[everything put in, everything taken out] of a guarded account."""
    found = work.find(Account, ref.aggregate_id)
    return [found.total_in, found.total_out] if found is not None else [0, 0]


# --- posting ---------------------------------------------------------------------------


def book(
    work: UnitOfWork,
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
        posted = account(work, ref)
        posted.post(transaction_id, amount)
        changed.append(posted)
    transaction = Transaction(  # saved with the command (CommandService.execute)
        id=transaction_id,
        kind=str(kind),
        postings=merged,
        reason=reason,
        gaming_day=gaming_day_of_now(work),
        table_id=_hex(table_id),
        player_id=_hex(player_id),
        reference=reference,
        reason_code=reason_code,
        reason_params=reason_params or {},
    )
    work.add(transaction)
    return [transaction, *changed]


def post_booking(work: UnitOfWork, booking: Booking) -> list[Aggregate]:
    return book(
        work,
        booking.kind,
        booking.postings,
        reason=booking.reason,
        table_id=booking.table_id,
        player_id=booking.player_id,
        reference=booking.reference,
        reason_code=booking.reason_code,
        reason_params=booking.reason_params,
    )


def book_floor_money(work: UnitOfWork, changed: Sequence[Aggregate]) -> list[Aggregate]:
    """Books the stack changes of the Tables this command changed."""
    booked: list[Aggregate] = []
    for aggregate in changed:
        if isinstance(aggregate, Table):
            for event in aggregate.pending_events:
                for booking in bookings_for(event, aggregate.id):
                    if any(amount for _, amount in booking.postings):
                        booked += post_booking(work, booking)  # a zero charge moves nothing
    return booked


class Books(CommandPolicy):
    """The double-entry books of the room, kept by every command: what a
    decision did to the floor's stacks is booked in the same save."""

    def follow(self, work: UnitOfWork, changed: Sequence[Aggregate]) -> list[Aggregate]:
        return book_floor_money(work, changed)

    def effects(
        self, work: UnitOfWork, result: dict[str, Any], changed: Sequence[Aggregate]
    ) -> dict[str, Any]:
        """A floor command that moved money names its transactions, so its
        answer leads to their receipts, as a cage command's does."""
        booked = [str(a.id) for a in changed if isinstance(a, Transaction)]
        if booked and "transaction_ids" not in result:
            result = {**result, "transaction_ids": booked}
        return result


def _hex(value: object) -> str | None:
    return UUID(str(value)).hex if value is not None else None
