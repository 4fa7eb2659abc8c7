"""The cage report by transaction: each fill and credit from the jefe's request
to the cage's confirmation or its cancellation and reason [GA art. 19.1], and
each count difference (an exception) from the count that found it to the
reason code the cage gave it (docs/ledger.md, "The gaming day").

Replayed from the event journal (the floor keeps it: floor.ports.report_reads),
which knows who asked, who decided and when; the ledger's read models add the
gaming day and the transactions.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING
from uuid import UUID

from floor.kernel.errors import invalid
from floor.ports.report_reads import (
    ReportFilter,
    event_of,
    events_of_aggregates,
    gaming_day_of,
    iso,
    table_columns,
    table_labels,
)
from ledger import selectors as books
from ledger.domain.gaming_day import GamingDay
from ledger.domain.tray_request import TrayRequest
from ledger.reports.cage import filtered, table_of

if TYPE_CHECKING:  # the read models as types; the selectors read them
    from floor.ports.report_reads import EventJournalEntry
    from ledger.models import GamingDayView

# A fill or credit: asked for, then confirmed or cancelled.
TRAY_EVENTS = (TrayRequest.Requested, TrayRequest.Confirmed, TrayRequest.Cancelled)
# A gaming day's count differences: found at the opening or a count, then explained.
DAY_EVENTS = (GamingDay.Opened, GamingDay.Counted, GamingDay.ExceptionExplained)
KINDS = ("fill", "credit", "exception")
TABLE = ("table_id", "sector", "table", "game")
COLUMNS = (
    "gaming_day",
    "kind",
    "status",
    "at",
    "by",
    "role",
    *TABLE,
    "account",
    "amount_cents",
    "expected_cents",
    "counted_cents",
    "count",
    "decided_at",
    "decided_by",
    "decided_role",
    "reason",
    "note",
    "request_id",
    "transaction_id",
)


def parse_kinds(text: str | None) -> frozenset[str]:
    """``kind``: fill, credit or exception, or several comma-separated; all by default."""
    if text is None:
        return frozenset(KINDS)
    kinds = frozenset(k.strip() for k in text.split(","))
    if not kinds <= set(KINDS):
        raise invalid("report_filter_invalid", field="kind")
    return kinds


def _row(entry: EventJournalEntry, **fields) -> dict:
    """A move as first recorded: when, by whom; the rest filled in later."""
    row = dict.fromkeys(COLUMNS)
    row.update(at=entry.occurred_at, by=entry.actor, role=entry.actor_role, **fields)
    row["_order"] = entry.position
    return row


def _decided(row: dict, entry: EventJournalEntry, status: str) -> None:
    row.update(
        status=status,
        decided_at=iso(entry.occurred_at),
        decided_by=entry.actor,
        decided_role=entry.actor_role,
    )


def _tray_moves(kinds: frozenset[str], report: ReportFilter) -> list[dict]:
    """Each fill and credit asked for in the range, with its confirmation or
    cancellation (whenever that came)."""
    moves: dict[UUID, dict] = {}
    # The requests asked in the range by their indexed time, then their own
    # events by the journal's index of aggregates: never the whole journal.
    asked = books.tray_requests_asked(report.start, report.end)
    entries = events_of_aggregates(asked, TRAY_EVENTS)
    for entry in entries:
        kind, data = event_of(entry), entry.data
        if kind is TrayRequest.Requested:
            if data["move"] in kinds:
                moves[entry.originator_id] = _row(
                    entry,
                    kind=data["move"],
                    status="pending",
                    account=f"tray:{data['table_id']}",
                    amount_cents=data["amount"],
                    request_id=str(entry.originator_id),
                    _table=data["table_id"],
                )
            continue
        move = moves.get(entry.originator_id)
        if move is None:
            continue
        if kind is TrayRequest.Confirmed:
            _decided(move, entry, "confirmed")
            move["transaction_id"] = str(UUID(data["transaction_id"]))
        elif kind is TrayRequest.Cancelled:
            _decided(move, entry, "cancelled")
            move["reason"] = data.get("reason", "")
    booked = books.booked_days([m["transaction_id"] for m in moves.values() if m["transaction_id"]])
    days = books.gaming_days_in_order()
    for move in moves.values():
        if move["transaction_id"]:
            move["gaming_day"] = booked.get(UUID(move["transaction_id"]))
        else:
            move["gaming_day"] = _day_at(move["at"], days)
    return list(moves.values())


def _day_at(moment: datetime, days: list[GamingDayView]) -> str:
    """The gaming day a request not confirmed belongs to: the day the cage had
    open at that moment, or the one that opened next; else the day that will
    (the profile's day of the moment, after the last one closed)."""
    last_closed = None
    for day in days:
        if day.closed_at is None or day.closed_at > moment:
            return day.day
        last_closed = day.day
    of_moment = gaming_day_of(moment).isoformat()
    if last_closed is not None and of_moment <= last_closed:
        return (date.fromisoformat(last_closed) + timedelta(days=1)).isoformat()
    return of_moment


def _found(entry: EventJournalEntry, day: str, exception: dict) -> dict:
    """A count difference, as the count (at the open or the close) found it."""
    return _row(
        entry,
        gaming_day=day,
        kind="exception",
        status="unexplained",
        account=exception["account"],
        amount_cents=exception["difference_cents"],
        expected_cents=exception["expected_cents"],
        counted_cents=exception["counted_cents"],
        count=exception.get("at", "close"),
        _table=table_of(exception["account"]),
    )


def _exceptions(report: ReportFilter) -> list[dict]:
    """Each gaming day's count differences, replayed as the day keeps them: a
    new count replaces the differences not yet explained (GamingDay.count).
    Only the days open during the range can have found one in it: their
    events are read by the journal's index of aggregates."""
    open_then = books.gaming_days_open_during(report.start, report.end)
    kept: dict[UUID, list[dict]] = {}
    days: dict[UUID, str] = {}
    explained: dict[str, dict] = {}  # command id -> the difference it explained
    for entry in events_of_aggregates([GamingDay.id_for(d) for d in open_then], DAY_EVENTS):
        kind, data, day = event_of(entry), entry.data, entry.originator_id
        if kind is GamingDay.Opened:
            days[day] = data["day"]
            kept[day] = [_found(entry, data["day"], e) for e in data.get("exceptions") or []]
        elif kind is GamingDay.Counted:
            # The domain keeps the explained ones and those of the opening, in
            # order, and appends the new count's differences after them.
            still = [e for e in kept.get(day, []) if e["reason"] or e["count"] == "open"]
            new = data["exceptions"][len(still) :]
            kept[day] = still + [_found(entry, days.get(day), e) for e in new]
        else:
            for exception in kept.get(day, []):
                if exception["account"] == data["account"] and not exception["reason"]:
                    _decided(exception, entry, "explained")
                    exception.update(reason=data["reason_code"], note=data.get("note", ""))
                    explained[entry.command_id] = exception
                    break
    adjustments = books.adjustments_of(list(explained))
    for command_id, transaction_id in adjustments:
        explained[command_id]["transaction_id"] = str(transaction_id)
    return [e for found in kept.values() for e in found]


def cage_moves_report(report: ReportFilter, kinds: frozenset[str] = frozenset(KINDS)) -> list[dict]:
    """The fills, credits and exceptions recorded in the range, in the order
    they were recorded; a sector, table or game keeps those of its tables."""
    rows = _tray_moves(kinds, report) if kinds & {"fill", "credit"} else []
    if "exception" in kinds:
        rows += _exceptions(report)
    rows = [r for r in rows if report.covers(r["at"])]
    if filtered(report):
        wanted = {t.hex for t in report.table_ids}
        rows = [r for r in rows if r["_table"] in wanted]
    labels = table_labels({UUID(r["_table"]) for r in rows if r["_table"]})
    rows.sort(key=lambda r: r["_order"])
    for row in rows:
        table = labels.get(UUID(row["_table"])) if row["_table"] else None
        if table is not None:
            row.update(table_columns(table))
        row["at"] = iso(row["at"])
        del row["_order"], row["_table"]
    return rows
