"""The ledger's read models, from the same log as the floor's.

Balances are summed incrementally from each transaction's postings (so every
account, the world outside included, has one), and rebuilt from nothing by
``rebuild_projections`` to the same figures. The rest is rewritten from the
aggregate's state at the event's version, like the floor's read models.

The floor's one projector applies them with its own, in the same transaction
and at the same position: the ledger declares them as a part of it
(``READ_MODEL_PART``, floor.kernel.composition, declared by ledger.apps), and
the floor imports nothing of the ledger.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any
from uuid import UUID

from eventsourcing.domain import DomainEventProtocol

from floor.kernel.composition import ReadModelPart
from floor.kernel.errors import DomainError
from floor.kernel.web.rows import insert_dicts, insert_rows, update_rows
from ledger.domain.accounts import AccountRef, Kind
from ledger.domain.gaming_day import GamingDay
from ledger.domain.jackpot import Jackpot
from ledger.domain.transaction import Transaction, amount_of
from ledger.domain.tray_request import TrayRequest
from ledger.models import (
    AccountView,
    GamingDayView,
    JackpotView,
    TransactionView,
    TrayRequestView,
)

READ_MODELS = [AccountView, TransactionView, TrayRequestView, JackpotView, GamingDayView]

# The events the ledger's read models are changed by (apply_ledger_event).
EVENTS = (Transaction.Posted, TrayRequest.Event, Jackpot.Created, GamingDay.Event)


@lru_cache(maxsize=16_384)
def _uuid(value: str | None) -> UUID | None:
    """An id of an event (hex) as a UUID; the same tables and players come
    back in transaction after transaction (issue 23, sixth pass), and a UUID
    is immutable, so one is shared."""
    return UUID(value) if value else None


def apply_ledger_event(event: DomainEventProtocol, position: int, state: Callable) -> None:
    """Updates the ledger's read models for one event of the log."""
    if isinstance(event, Transaction.Posted):
        _transaction(event, position)
    elif isinstance(event, TrayRequest.Event):
        _tray_request(state(event), event)
    elif isinstance(event, Jackpot.Created):
        JackpotView.objects.create(
            id=event.originator_id,
            name=event.name,
            scheme=event.scheme,
            stake_cents=event.stake_cents,
            seed_cents=event.seed_cents,
            table_ids=[str(UUID(t)) for t in event.table_ids],
        )
    elif isinstance(event, GamingDay.Event):
        _gaming_day(state(event), event, position)


@dataclass
class _Books:
    """What a batch of transactions writes at its end (issue 23, item 2): the
    transactions' rows, and each account's movement summed. Nothing in the
    projection reads them back within the batch, so the rows are the same as
    written one posting at a time, for three statements a batch instead of
    three or four per posting."""

    # The transactions' rows, as fields by name (rows.insert_dicts: no model
    # instance each).
    transactions: list[dict[str, Any]] = field(default_factory=list)
    # account name -> [moved, in, out, last moved at]
    moves: dict[str, list] = field(default_factory=dict)

    def post(self, name: str, amount: int, at: datetime) -> None:
        move = self.moves.setdefault(name, [0, 0, 0, at])
        move[0] += amount
        move[1] += max(amount, 0)
        move[2] += max(-amount, 0)
        move[3] = at

    def write(self) -> None:
        insert_dicts(TransactionView, self.transactions)
        if not self.moves:
            return
        known = AccountView.objects.in_bulk(list(self.moves))
        new = []
        for name, (moved, put_in, taken_out, at) in self.moves.items():
            account = known.get(name) or _new_account(name)
            account.balance_cents += moved
            account.total_in_cents += put_in
            account.total_out_cents += taken_out
            account.updated_at = at
            if name not in known:
                new.append(account)
        insert_rows(AccountView, new)
        update_rows(
            AccountView,
            known.values(),
            ["balance_cents", "total_in_cents", "total_out_cents", "updated_at"],
        )


# The books of the batch being applied (None: an event applied on its own).
_batch: ContextVar[_Books | None] = ContextVar("ledger_books_batch", default=None)


@contextmanager
def books_batch() -> Iterator[None]:
    """The ledger part's batch (ReadModelPart.batch): the transactions and the
    balances of the batch written once, as it ends."""
    books = _Books()
    token = _batch.set(books)
    try:
        yield
        books.write()
    finally:
        _batch.reset(token)


def _new_account(name: str) -> AccountView:
    ref = AccountRef(name)
    return AccountView(
        name=name,
        kind=str(ref.kind),
        table_id=_uuid(ref.table_id),
        player_id=_uuid(ref.player_id),
        holds_chips=ref.holds_chips,
    )


def _transaction(event: DomainEventProtocol, position: int) -> None:
    row = {
        "id": event.originator_id,
        "position": position,
        "kind": event.kind,
        "reason": event.reason[:300],
        # Posted before the codes: the stored event has none, its text stands.
        "reason_code": getattr(event, "reason_code", ""),
        "reason_params": getattr(event, "reason_params", None) or {},
        "gaming_day": event.gaming_day,
        "table_id": _uuid(event.table_id),
        "player_id": _uuid(event.player_id),
        "reference": event.reference or "",
        "postings": event.postings,
        "amount_cents": amount_of(event.postings),
        "actor": event.actor,
        "actor_role": event.actor_role,
        "command_id": event.command_id,
        "rule_profile": event.rule_profile,
        "at": event.timestamp,
    }
    books = _batch.get()
    alone = books is None  # an event applied on its own: a batch of one
    if alone:
        books = _Books()
    books.transactions.append(row)
    for name, amount in event.postings.items():
        books.post(name, amount, event.timestamp)
    if alone:
        books.write()


def _tray_request(request: TrayRequest, event: DomainEventProtocol) -> None:
    fields = {
        "move": request.move,
        "table_id": UUID(request.table_id),
        "amount_cents": request.amount,
        "status": str(request.status),
        "requested_by": request.requested_by,
        "confirmed_by": request.confirmed_by or "",
        "transaction_id": _uuid(request.transaction_id),
    }
    if isinstance(event, TrayRequest.Requested):
        TrayRequestView.objects.create(id=request.id, requested_at=event.timestamp, **fields)
        return
    if isinstance(event, TrayRequest.Confirmed):
        fields["confirmed_at"] = event.timestamp
    TrayRequestView.objects.filter(id=request.id).update(**fields)


def _gaming_day(day: GamingDay, event: DomainEventProtocol, position: int) -> None:
    if isinstance(event, GamingDay.PatronCageNoted):
        return  # the patrons' cage totals are the day's own (ledger.application.aml)
    if isinstance(event, GamingDay.WinningsCertified):
        # The compliance officer's record: who gave which certificate, when.
        row = GamingDayView.objects.get(day=day.day)
        row.certificates = [
            *row.certificates,
            {
                "number": event.number,
                "player_id": event.player_id,
                "amount_cents": event.amount,
                "at": event.timestamp.isoformat(),
                "by": event.actor,
                "by_role": event.actor_role,
            },
        ]
        row.save(update_fields=["certificates"])
        return
    fields = {
        "status": day.status,
        "opening": day.opening,
        "fills": day.fills,
        "credits": day.credits,
        "counts": day.counts,
        "expected": day.expected,
        "exceptions": day.exceptions,
        "report": day.report,
    }
    if isinstance(event, GamingDay.Opened):
        GamingDayView.objects.create(
            day=day.day,
            opened_at=event.timestamp,
            opened_by=event.actor,
            opened_position=position,
            **fields,
        )
        return
    if isinstance(event, GamingDay.Closed):
        fields |= {"closed_at": event.timestamp, "closed_by": event.actor}
    GamingDayView.objects.filter(day=day.day).update(**fields)


# The kinds of account: a name is one of them, or starts with one and a colon.
_KINDS = frozenset(kind.value for kind in Kind)
# What every event carries besides its data (floor.projections.journal): no
# account is named there.
_METADATA = frozenset(
    {"originator_id", "originator_version", "originator_topic", "timestamp"}
    | {"actor", "actor_role", "command_id", "rule_profile"}
)


def _account_names(value: Any) -> set[str]:
    """Every key and string of ``value`` (nested) that names an account."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            found |= _account_names(str(key)) | _account_names(inner)
    elif isinstance(value, (list, tuple)):
        for inner in value:
            found |= _account_names(inner)
    elif isinstance(value, str) and (":" in value or value in _KINDS):
        with suppress(DomainError):  # a string that names no account
            found.add(AccountRef.parse(value).name)
    return found


def mentioned_accounts(event: DomainEventProtocol) -> set[str]:
    """The accounts an event concerns, by name, as the history report of an
    account selects them (ledger.reports.history): those a transaction posts
    to, and those a gaming day names anywhere in its data (opened, counted,
    explained)."""
    if isinstance(event, Transaction.Posted):
        return set(event.postings)
    if isinstance(event, GamingDay.Event):
        return _account_names({k: v for k, v in vars(event).items() if k not in _METADATA})
    return set()


def keep_close_anchor(day: str, anchor: dict[str, Any]) -> None:
    """Keeps the audit chain's head, anchored at the close of ``day``
    (floor.projections.journal), on the day's report."""
    GamingDayView.objects.filter(day=day).update(anchor=anchor)


def closed_day(result: dict[str, Any]) -> str | None:
    """The gaming day a close_gaming_day command closed, from its answer."""
    return result.get("gaming_day")


READ_MODEL_PART = ReadModelPart(
    name="ledger",
    events=EVENTS,
    apply=apply_ledger_event,
    read_models=tuple(READ_MODELS),
    batch=books_batch,
    mentions=mentioned_accounts,
)
