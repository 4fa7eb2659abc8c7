"""The cage report by gaming day: what the day opened on, the money it moved
(chips sold, buy-ins, cash-outs, fills, credits, rake, tips, jackpots), its
count differences and the cage's position at its end (docs/ledger.md).

Worked out from the ledger's read models: each transaction is booked in the
gaming day it belongs to, so the figures agree with the cage's own day report.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING

from floor.ports.report_reads import ReportFilter, iso
from ledger import selectors as books

if TYPE_CHECKING:  # the read models as types; the selectors read them
    from ledger.models import GamingDayView

# Who reads the cage report: management and the regulator's inspector, as every
# report, and the cage, whose day it is (as it reads the rake it books). The
# jefe asks the cage for fills and credits [GA art. 19.1] but keeps no books,
# and the dealer deals: neither reads the cage's position.

COLUMNS = (
    "gaming_day",
    "status",
    "opened_at",
    "opened_by",
    "closed_at",
    "closed_by",
    "opening_cash_cents",
    "opening_chips_cents",
    "chips_sold_cents",
    "buy_ins",
    "buy_in_cents",
    "cash_outs",
    "cashed_out_cents",
    "fills",
    "fill_cents",
    "credits",
    "credit_cents",
    "rake_cents",
    "tips_cents",
    "hospitality_cents",
    "jackpot_stakes_cents",
    "jackpot_prizes_cents",
    "exceptions",
    "unexplained",
    "differences_cents",
    "result_cents",
    "cash_in_cents",
    "cash_out_cents",
    "chips_in_cents",
    "chips_out_cents",
    "cash_cents",
    "chips_cents",
)
# The cage's own figures: they belong to no table, so a sector, table or game
# filter leaves them out (null) rather than show the whole cage's.
CAGE_FIELDS = (
    "opening_cash_cents",
    "opening_chips_cents",
    "chips_sold_cents",
    "cash_outs",
    "cashed_out_cents",
    "cash_in_cents",
    "cash_out_cents",
    "chips_in_cents",
    "chips_out_cents",
    "cash_cents",
    "chips_cents",
)
# A transaction kind -> the (count, cents) columns it adds its amount to.
COUNTED = {
    "buy_in": ("buy_ins", "buy_in_cents"),
    "cash_out": ("cash_outs", "cashed_out_cents"),
    "fill": ("fills", "fill_cents"),
    "credit": ("credits", "credit_cents"),
    "chips_sold": (None, "chips_sold_cents"),
    "tip": (None, "tips_cents"),
    "hospitality": (None, "hospitality_cents"),
    "jackpot_bet": (None, "jackpot_stakes_cents"),
    "jackpot_paid": (None, "jackpot_prizes_cents"),
}
RAKED = ("hand", "time_charge")  # their postings to a rake box are the rake
NOT_OPENED = "not_opened"  # a day booked into (a float, a late hand) before it opened
# The cage's movements since the day opened: none before it opens.
FLOWS = ("cash_in_cents", "cash_out_cents", "chips_in_cents", "chips_out_cents")


def in_range(report: ReportFilter, day: str) -> bool:
    """A gaming day is in the range when its date (a UTC day) overlaps it."""
    begin = datetime.combine(date.fromisoformat(day), time(0), tzinfo=UTC)
    return (report.start is None or begin + timedelta(days=1) > report.start) and (
        report.end is None or begin < report.end
    )


def days_touched(report: ReportFilter) -> tuple[str | None, str | None]:
    """The first and last dates the range touches (either open): ``in_range``
    as the database's indexed gaming days take it."""
    first = last = None
    if report.start is not None:
        first = report.start.astimezone(UTC).date().isoformat()
    if report.end is not None:
        last = (report.end.astimezone(UTC) - timedelta(microseconds=1)).date().isoformat()
    return first, last


def _booked_in_range(report: ReportFilter, table_ids=None) -> list[tuple]:
    """The transactions of the days in the range, by their indexed gaming day."""
    return books.booked_between(*days_touched(report), table_ids)


def filtered(report: ReportFilter) -> bool:
    """Whether the report asks for some tables rather than the whole cage."""
    return bool(report.sector_id or report.table_id or report.variant or report.limit)


def table_of(account: str) -> str | None:
    """The table (hex id) an account belongs to: tray:<t>, drop:<t>, stack:<t>:<p> ..."""
    kind, _, rest = account.partition(":")
    return rest.split(":")[0] if kind in ("tray", "drop", "rake", "tips", "stack") else None


def _empty_row(day: str) -> dict:
    row = dict.fromkeys(COLUMNS, 0)
    row.update(
        gaming_day=day,
        status=NOT_OPENED,
        opened_at=None,
        opened_by=None,
        closed_at=None,
        closed_by=None,
        opening_cash_cents=None,
        opening_chips_cents=None,
        result_cents=None,
        cash_cents=None,
        chips_cents=None,
    )
    return row


def _add_transaction(
    row: dict, kind: str, postings: dict, amount: int, flows: bool, voided: str | None = None
) -> None:
    """Adds one transaction of the day to its row. The cage's flows count only
    what came after the day opened (``flows``): what came before, a float say,
    is in the opening figures. A void (``voided``: the kind of the entry it
    reversed) takes that entry back out of its columns; its postings, the
    entry's reversed, undo its flows."""
    sign = 1
    if voided is not None:
        kind, sign = voided, -1
    count, cents = COUNTED.get(kind, (None, None))
    if count:
        row[count] += sign
    if cents:
        row[cents] += sign * amount
    if kind in RAKED:
        row["rake_cents"] += sum(
            a for name, a in postings.items() if name.startswith("rake:") and a > 0
        )
    if flows:
        cash, chips = postings.get("cage_cash", 0), postings.get("cage_chips", 0)
        row["cash_in_cents"] += max(cash, 0)
        row["cash_out_cents"] += max(-cash, 0)
        row["chips_in_cents"] += max(chips, 0)
        row["chips_out_cents"] += max(-chips, 0)


def _add_day(row: dict, day: GamingDayView, tables: set[str] | None) -> None:
    """The day's own figures: its opening, exceptions, result and position."""
    row.update(
        status=day.status,
        opened_at=iso(day.opened_at),
        opened_by=day.opened_by,
        closed_at=iso(day.closed_at),
        closed_by=day.closed_by or None,
        opening_cash_cents=day.opening.get("cage_cash", 0),
        opening_chips_cents=day.opening.get("cage_chips", 0),
    )
    exceptions = [e for e in day.exceptions if tables is None or table_of(e["account"]) in tables]
    row["exceptions"] = len(exceptions)
    row["unexplained"] = sum(1 for e in exceptions if not e.get("reason_code"))
    row["differences_cents"] = sum(e["difference_cents"] for e in exceptions)
    if day.report:
        results = day.report.get("tables", {})
        row["result_cents"] = sum(
            r["result_cents"] for t, r in results.items() if tables is None or t in tables
        )
    row["cash_cents"] = row["opening_cash_cents"] + row["cash_in_cents"] - row["cash_out_cents"]
    row["chips_cents"] = row["opening_chips_cents"] + row["chips_in_cents"] - row["chips_out_cents"]


def _touches(day: GamingDayView, tables: set[str]) -> bool:
    """Whether the selected tables have a count difference or a result that day."""
    return any(table_of(e["account"]) in tables for e in day.exceptions) or any(
        t in tables for t in (day.report or {}).get("tables", {})
    )


def cage_days_report(report: ReportFilter) -> list[dict]:
    """One row per gaming day in the range, oldest first. With a sector, table
    or game, the rows count only those tables' money and leave the cage's own
    figures out; a day where they moved nothing is left out."""
    tables = {t.hex for t in report.table_ids} if filtered(report) else None
    days = {d.day: d for d in books.gaming_days_between(*days_touched(report))}
    booked = _booked_in_range(report, report.table_ids if tables is not None else None)
    rows: dict[str, dict] = {}
    for gaming_day, kind, postings, amount, position, params in booked:
        if not in_range(report, gaming_day):
            continue
        row = rows.setdefault(gaming_day, _empty_row(gaming_day))
        day = days.get(gaming_day)
        opened = (day.opened_position or 0) if day is not None else None
        voided = (params or {}).get("kind") if kind == "void" else None
        _add_transaction(
            row, kind, postings, amount, opened is not None and position > opened, voided
        )
    for name, day in days.items():
        if tables is None or name in rows or _touches(day, tables):
            _add_day(rows.setdefault(name, _empty_row(name)), day, tables)
    answer = [rows[name] for name in sorted(rows)]
    for row in answer:
        if tables is not None:
            row.update(dict.fromkeys(CAGE_FIELDS))
        elif row["status"] == NOT_OPENED:
            row.update(dict.fromkeys(FLOWS))
    return answer
