"""The books' part of the history report (floor.reports.history): the history
of an account, the fills and credits asked for a table, and the money a jefe
does not read hidden from his histories.

An account is named exactly: its own aggregate's events (each posting with the
balance after it), the transactions that post to it, and the gaming days that
opened, counted or explained it. The floor's history report asks these through
floor.reports.parts; the ledger declares them (``declare``).
"""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

from django.db.models import QuerySet

from floor.kernel.errors import DomainError, invalid, not_found
from floor.ports.report_reads import (
    REPORT_PARTS,
    HistorySubject,
    Subject,
    filters,
    first_event,
    hiding,
    known,
    mentioning,
)
from ledger import selectors as books
from ledger.domain.account import Account
from ledger.domain.accounts import AccountRef
from ledger.domain.transaction import Transaction

# A transaction posting to an account: what a jefe's history hides of others'.
POSTED = (Transaction.Posted,)


def _account_name(text: str) -> str:
    """An account by its name (``tray:<table>``, ``cage_cash`` ...; ids with or
    without dashes) or by the id of the aggregate that guards it."""
    try:
        some_id = UUID(text)
    except ValueError:
        pass
    else:
        opened = first_event(Account.Opened, some_id)
        if opened is None:
            raise not_found("account_not_found")
        return known(opened.data)["name"]
    kind, *parts = text.split(":")
    try:
        parts = [UUID(p).hex for p in parts]
        return AccountRef.parse(":".join([kind, *parts])).name
    except (ValueError, DomainError):
        raise invalid("report_filter_invalid", field="account") from None


def _account(text: str) -> Subject:
    name = _account_name(text)
    if not books.account_exists(name):
        raise not_found("account_not_found")
    # Its own aggregate's events, and those the books' projection indexed under
    # its name (ledger.projections.mentioned_accounts): the transactions that
    # post to it, the gaming days that name it.
    return Subject("account", name, mentioning(AccountRef(name).aggregate_id.hex, name))


def _check_account(reader, subject: Subject) -> None:
    reader.check_account(books.account_named(subject.name))


def tray_requests_of(table_id: UUID) -> Iterator[str]:
    """A fill or credit names its table when asked; its confirmation or
    cancellation, only the request: a table's history holds all three, the
    request's own events (its id, from the indexed read model, read when the
    history is)."""
    for request in books.tray_request_ids_of(table_id):
        yield request.hex


def readable_money(reader, entries: QuerySet) -> QuerySet:
    """The money a history mentions is read as the transactions are
    (floor.domain.reads): a jefe sees his tables' fills and credits, not a
    player's purchases and cash-outs through this other door."""
    readable = reader.transactions(books.transactions()).values("id")
    return hiding(entries, POSTED, but=readable)


def declare() -> None:
    REPORT_PARTS.add_history_subject(
        HistorySubject(
            "account", lambda params: _account(filters(params).text("account")), _check_account
        )
    )
    REPORT_PARTS.add_table_concerns(tray_requests_of)
    REPORT_PARTS.add_history_narrowing(readable_money)
