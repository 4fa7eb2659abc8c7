"""What every report shares: who may read it, its filters, its pages, its CSV.

Reports only read, through the selectors: the event journal, selected by the
event classes a report declares (floor.selectors.journal), and the read models
(floor.selectors.reports). A bad filter is a 400 ``{"code", "message"}``, never a 500; the
role check lives here once, so every report refuses alike.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING
from uuid import UUID

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse
from rest_framework.request import Request
from rest_framework.response import Response

from floor.kernel.errors import conflict, invalid
from floor.kernel.web.filters import Filters, parameter
from floor.kernel.web.serializers import ErrorSerializer
from floor.models import MISSING, EventJournalEntry, TableView
from floor.runtime import floor_app
from floor.selectors import journal
from floor.selectors import reports as selected
from floor.selectors.journal import EventType, event_type
from games.limits import BettingLimit
from games.variants import Variant

if TYPE_CHECKING:  # the read models as types; the selectors read them
    from floor.models import MISSING, EventJournalEntry, TableView

DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000
MAX_PAGE = 1_000_000  # past it, an offset no database takes

REPORT_FILTER_INVALID = "report_filter_invalid"
# ``game``: a variant, or a variant and its betting limit.
GAMES = [
    *(v.value for v in Variant),
    *(f"{v.value}/{b.value}" for v in Variant for b in BettingLimit),
]


# --- filters ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ReportFilter:
    """The validated filters of a report request; None means no bound."""

    start: datetime | None = None
    end: datetime | None = None
    sector_id: UUID | None = None
    table_id: UUID | None = None
    variant: str | None = None
    limit: str | None = None
    table_ids: frozenset[UUID] = field(default_factory=frozenset)
    # Narrowed to a scoped reader's tables (a jefe's sectors: floor.access
    # Reader.narrow_report): figures that cannot be told apart by table (the
    # cage's payouts to a player) are not theirs to read.
    scoped: bool = False

    def covers(self, moment: datetime) -> bool:
        """Whether ``moment`` lies in [start, end)."""
        return (self.start is None or moment >= self.start) and (
            self.end is None or moment < self.end
        )

    def clip(self, begin: datetime, finish: datetime) -> tuple[datetime, datetime]:
        """The part of [begin, finish) inside the filter's range (may be empty)."""
        if self.start is not None:
            begin = max(begin, self.start)
        if self.end is not None:
            finish = min(finish, self.end)
        return begin, max(begin, finish)

    def matches_game(self, variant: str, limit: str) -> bool:
        return (self.variant is None or variant == self.variant) and (
            self.limit is None or limit == self.limit
        )


def _moment(name: str, text: str, *, upper: bool) -> datetime:
    """An ISO date (the whole day: ``to`` includes it) or datetime, as UTC."""
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            moment = datetime.combine(day, time(0), tzinfo=UTC)
            return moment + timedelta(days=1) if upper else moment
        moment = datetime.fromisoformat(text.replace(" ", "+"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.astimezone(UTC)
    except (ValueError, OverflowError):  # not a date, or past the calendar's ends
        raise invalid("report_filter_invalid", field=name) from None


def filters(params) -> Filters:
    """A report's filters, read as every list's are (floor.kernel.web.filters), under
    the reports' own code."""
    return Filters(params, REPORT_FILTER_INVALID)


def parse_filter(params) -> ReportFilter:
    """Reads ``from``, ``to``, ``sector``, ``table`` and ``game`` (``variant`` or
    ``variant/limit``), and resolves the tables they select. A filter given
    empty is refused, as on every list."""
    given = filters(params)
    start = _moment("from", given.text("from"), upper=False) if "from" in params else None
    end = _moment("to", given.text("to"), upper=True) if "to" in params else None
    if start and end and end <= start:
        raise invalid("report_range_empty")
    sector_id = table_id = variant = limit = None
    if (text := given.text("sector")) is not None:
        try:
            sector_id = UUID(text)
        except ValueError:
            found = selected.sector_named(text)
            if found is None:
                raise invalid("report_filter_invalid", field="sector") from None
            sector_id = found
    table_id = given.uuid("table")
    if (game := given.choice("game", GAMES)) is not None:
        variant, _, limit = game.partition("/")
        limit = limit or None
    return ReportFilter(
        start=start,
        end=end,
        sector_id=sector_id,
        table_id=table_id,
        variant=variant,
        limit=limit,
        table_ids=selected.table_ids(sector_id, table_id, variant, limit),
    )


def now() -> datetime:
    """The floor's clock: a table still open runs until now."""
    return floor_app().clock.now()


def table_events(
    report: ReportFilter,
    types: Iterable[EventType],
    in_range: Iterable[EventType] = (),
    *,
    data: bool = True,
):
    """The journal's events of ``types`` of the selected tables, in log order,
    up to the range's end (a table's state at the start needs its earlier
    events); the events of ``in_range`` only from the range's start on (what
    is counted, not replayed), so a long journal is not read for them.
    ``data``: with each event's data, read from the store (a report that only
    counts events does without)."""
    return journal.table_events(
        report.table_ids, types, in_range, report.start, report.end, data=data
    )


def event_of(entry: EventJournalEntry) -> EventType:
    """The declared event class of a journal row (reports compare it with
    theirs). A row read with its data whose stored event is gone or cannot be
    decoded (floor.selectors.journal.data_at) stops the report (``known``):
    replayed without its fields, it would count wrong or fail as a 500."""
    data = entry.__dict__.get("_data")
    if data is not None:
        known(data)
    return event_type(entry)


def known(data: dict) -> dict:
    """An event's data, or the report's refusal (409 ``stored_event_unreadable``,
    naming its log position) when it is the marker of a stored event gone or
    unreadable (floor.models.missing_data): logged where it was read, refused
    here, never taken for an event with no fields."""
    if MISSING in data:
        raise conflict("stored_event_unreadable", position=data.get("_position"))
    return data


def iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z") if moment else None


def hour_of(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def hours(seconds: float) -> float:
    """Seconds as hours, to the hundredth."""
    return round(seconds / 3600, 2)


def percentile(values: Sequence[int], share: float) -> int | None:
    """Nearest-rank percentile: the smallest value with at least ``share`` of
    the values at or below it; no interpolation, so it is a value that occurred."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(1, math.ceil(share * len(ordered))) - 1]


def table_labels(table_ids: Iterable[UUID]) -> dict[UUID, TableView]:
    return selected.tables_by_id(table_ids)


def table_columns(table: TableView) -> dict:
    """The columns naming a table in every report's row."""
    return {
        "table_id": str(table.id),
        "sector": table.sector.name,
        "table": table.number,
        "game": f"{table.variant}/{table.limit}/{table.minimum_cents}/{table.maximum_cents}",
    }


# --- answering: pages and CSV ----------------------------------------------------------


def _page_number(params, name: str, default: int, most: int) -> int:
    number = filters(params).integer(name, minimum=1, maximum=most, code="report_page_invalid")
    return default if number is None else number


def wants_csv(request: Request) -> bool:
    fmt = request.query_params.get("format")
    if fmt is not None:
        if fmt not in ("json", "csv"):
            raise invalid("report_format_invalid", field="format")
        return fmt == "csv"
    return "text/csv" in request.META.get("HTTP_ACCEPT", "")


def answer(request: Request, rows: list[dict], columns: Sequence[str], name: str):
    """One page of ``rows`` as JSON, or every row as a CSV attachment."""
    params = request.query_params
    if wants_csv(request):
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(columns), extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(row.get(k)) for k in columns})
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
        return response
    page = _page_number(params, "page", 1, MAX_PAGE)
    size = _page_number(params, "page_size", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
    first = (page - 1) * size
    return Response(
        {
            "count": len(rows),
            "next": _link(request, page + 1) if first + size < len(rows) else None,
            "previous": _link(request, page - 1) if page > 1 else None,
            "results": rows[first : first + size],
        }
    )


# A text cell a spreadsheet would read as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A row's value as a CSV cell: lists and objects as JSON, None empty,
    and a text a spreadsheet would take for a formula (a player named
    ``=HYPERLINK(...)``, a reason typed by staff) behind an apostrophe, so it
    opens as the text it is (OWASP, "CSV Injection"). Numbers are untouched:
    a negative amount is a number, not a formula."""
    if isinstance(value, (list, dict)):
        value = json.dumps(value, separators=(",", ":"))
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _link(request: Request, page: int) -> str:
    query = request.query_params.copy()
    query["page"] = str(page)
    return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")


# --- the schema ------------------------------------------------------------------------

FILTER_PARAMETERS = [
    parameter("from", "text", "From this ISO date or UTC date-time on"),
    parameter("to", "text", "Before this date-time, or to this ISO date included"),
    parameter("sector", "text", "A sector's id or name"),
    parameter("table", "uuid", "A table's id"),
    parameter("game", "choice", "A variant, or variant/limit", choices=GAMES),
    parameter("page", "integer", "Page number, from 1", minimum=1, maximum=MAX_PAGE),
    parameter(
        "page_size",
        "integer",
        f"Rows a page, at most {MAX_PAGE_SIZE}",
        minimum=1,
        maximum=MAX_PAGE_SIZE,
    ),
    parameter("format", "choice", "csv: every row as CSV", choices=["json", "csv"]),
]
REPORT_REFUSALS = {
    400: OpenApiResponse(ErrorSerializer, description="A filter or page is not valid"),
    403: OpenApiResponse(ErrorSerializer, description="The role may not read this report"),
    404: OpenApiResponse(
        ErrorSerializer, description="A sector or table the filter names does not exist"
    ),
}
