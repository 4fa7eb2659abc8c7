"""The books' part of the history report (floor.reports.history): the history
of an account, the fills and credits asked for a table, and the money a jefe
does not read hidden from his histories.

An account is named exactly: its own aggregate's events (each posting with the
balance after it), the transactions that post to it, and the gaming days that
opened, counted or explained it. The floor's history report asks these through
floor.reports.parts; the ledger declares them (``declare``).
"""

from __future__ import annotations

from uuid import UUID

from django.db.models import Q, QuerySet

from floor.kernel.errors import DomainError, invalid, not_found
from floor.ports.report_reads import (
    REPORT_PARTS,
    HistorySubject,
    Subject,
    event_types_of,
    filters,
    first_event,
    hiding,
    of_types_naming,
    of_types_with_key,
    originators_of,
)
from ledger import selectors as books
from ledger.domain.account import Account
from ledger.domain.accounts import AccountRef
from ledger.domain.gaming_day import GamingDay
from ledger.domain.transaction import Transaction
from ledger.domain.tray_request import TrayRequest

# A transaction posting to an account; the gaming days that opened, counted or
# explained it (every event of a day).
POSTED = (Transaction.Posted,)
DAY_EVENTS = tuple(event_types_of(GamingDay))
# A fill or credit asked for a table.
REQUESTED = TrayRequest.Requested


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
        return opened.data["name"]
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
    concerns = (
        Q(originator_id=AccountRef(name).aggregate_id)
        | of_types_with_key(POSTED, name)
        # The name as a whole JSON string: a key or a value, never part of one.
        | of_types_naming(DAY_EVENTS, f'"{name}"')
    )
    return Subject("account", name, concerns)


def _check_account(reader, subject: Subject) -> None:
    reader.check_account(books.account_named(subject.name))


def tray_requests_of(table_id: UUID) -> Q:
    """A fill or credit names its table when asked; its confirmation or
    cancellation, only the request: a table's history holds all three."""
    return Q(originator_id__in=originators_of(REQUESTED, table_id=table_id.hex))


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
