"""The reports' endpoints: GET only, filtered, paginated, JSON or CSV."""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from floor.api.permissions import MayRead
from floor.api.serializers import TableFloorSerializer
from floor.kernel.errors import invalid
from floor.kernel.web.filters import parameter
from floor.kernel.web.serializers import ErrorSerializer
from floor.reports import (
    cage,
    cage_moves,
    clocks,
    history,
    occupancy,
    rake,
    table_at,
    tables,
    waiting,
)
from floor.reports.common import (
    FILTER_PARAMETERS,
    REPORT_REFUSALS,
    ReportFilter,
    answer,
    parse_filter,
    wants_csv,
)
from floor.selectors import journal
from ledger import selectors as books


def json_or_csv(page: serializers.Serializer) -> dict:
    """A report's 200: a JSON page, or (``format=csv``) every row as CSV."""
    return {(200, "application/json"): page, (200, "text/csv"): OpenApiTypes.STR}


def page_of(name: str) -> serializers.Serializer:
    """The schema of a page of report rows."""
    return inline_serializer(
        name=f"{name}_page",
        fields={
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": serializers.ListField(child=serializers.DictField()),
        },
    )


class _Report(APIView):
    """A report: its readers, its rows from the filter, its CSV columns."""

    # Who reads it, and how far (floor.domain.reads): a jefe, his sectors' tables.
    permission_classes = [IsAuthenticated, MayRead]
    reads = "reports"
    name = ""
    # by -> (rows from the filter, CSV columns); "" when the report has one shape.
    shapes: dict[str, tuple[Callable[[ReportFilter], list[dict]], tuple[str, ...]]] = {}
    default_by = ""

    def perform_content_negotiation(self, request, force=False):
        """``?format=csv`` and ``Accept: text/csv`` are ours to answer (common.answer):
        DRF would refuse them for want of a CSV renderer."""
        return super().perform_content_negotiation(request, force=True)

    def get(self, request: Request):
        by = request.query_params.get("by", self.default_by)
        if by not in self.shapes:
            raise invalid("report_by_invalid", field="by")
        build, columns = self.shapes[by]
        rows = build(request.reader.narrow_report(parse_filter(request.query_params)))
        return answer(request, rows, columns, f"{self.name}-{by}" if by else self.name)


def _by(choices: list[str], default: str) -> OpenApiParameter:
    return parameter("by", "choice", f"Grouping (default {default})", choices=choices)


class TablesReportView(_Report):
    name = "tables"
    shapes = {"": (tables.tables_report, tables.COLUMNS)}

    @extend_schema(
        parameters=FILTER_PARAMETERS,
        responses={**json_or_csv(page_of("tables_report")), **REPORT_REFUSALS},
        summary="Tables: opening, closing, hours running, hands, players, suspensions",
    )
    def get(self, request: Request):
        """Each table open in the range: when it opened, started and closed and
        why, the hours it ran, its hands and players, its suspensions."""
        return super().get(request)


def _rake_by(by: str):
    return lambda report: rake.rake_report(report, by)


class RakeReportView(_Report):
    name = "rake"
    reads = "report_rake"
    default_by = "table_hour"
    shapes = {by: (_rake_by(by), columns) for by, columns in rake.COLUMNS.items()}

    @extend_schema(
        parameters=[*FILTER_PARAMETERS, _by(list(rake.COLUMNS), "table_hour")],
        responses={**json_or_csv(page_of("rake_report")), **REPORT_REFUSALS},
        summary="Rake: per hand, per table and hour, per session, per gaming day, by model",
    )
    def get(self, request: Request):
        """The rake of the hands and the time charges in the range, grouped by
        ``by``; the cage (cajero) reads it too."""
        return super().get(request)


class WaitingListsReportView(_Report):
    name = "waiting-lists"
    reads = "report_waiting_lists"
    shapes = {"": (waiting.waiting_report, waiting.COLUMNS)}

    @extend_schema(
        parameters=FILTER_PARAMETERS,
        responses={**json_or_csv(page_of("waiting_lists_report")), **REPORT_REFUSALS},
        summary="Waiting lists: waits (median, 90th percentile), calls, no-shows",
    )
    def get(self, request: Request):
        """Each game's list: registrations, players seated from it and how long
        they waited, calls, players absent when called [CM-6]."""
        return super().get(request)


class ClocksReportView(_Report):
    name = "clocks"
    shapes = {"": (clocks.clocks_report, clocks.COLUMNS)}

    @extend_schema(
        parameters=FILTER_PARAMETERS,
        responses={**json_or_csv(page_of("clocks_report")), **REPORT_REFUSALS},
        summary="Clocks: action clocks called and expired, absence clocks used",
    )
    def get(self, request: Request):
        """Each table's action clocks (called, warned, stopped, run out: the hand
        dead [CM-22]) and absence clocks (used, warned, run out, ended [CM-18])."""
        return super().get(request)


def _occupancy_by(by: str):
    return lambda report: occupancy.occupancy_report(report, by)


class OccupancyReportView(_Report):
    name = "occupancy"
    default_by = "hour"
    shapes = {by: (_occupancy_by(by), columns) for by, columns in occupancy.COLUMNS.items()}

    @extend_schema(
        parameters=[*FILTER_PARAMETERS, _by(list(occupancy.COLUMNS), "hour")],
        responses={**json_or_csv(page_of("occupancy_report")), **REPORT_REFUSALS},
        summary="Occupancy: seats occupied per table and hour, player hours per game",
    )
    def get(self, request: Request):
        """by=hour: each table's seats occupied on average in each UTC hour;
        by=game: the player hours each game drew."""
        return super().get(request)


class CageReportView(_Report):
    name = "cage"
    reads = "report_cage"
    default_by = "day"

    @property
    def shapes(self):
        """by=day, or by=transaction narrowed to the ``kind`` asked (read per request)."""
        kinds = cage_moves.parse_kinds(self.request.query_params.get("kind"))
        return {
            "day": (cage.cage_days_report, cage.COLUMNS),
            "transaction": (
                lambda report: cage_moves.cage_moves_report(report, kinds),
                cage_moves.COLUMNS,
            ),
        }

    @extend_schema(
        parameters=[
            *FILTER_PARAMETERS,
            _by(["day", "transaction"], "day"),
            parameter(
                "kind",
                "text",
                "by=transaction: fill, credit or exception (comma-separated)",
                pattern=r"^(fill|credit|exception)(,(fill|credit|exception))*$",
            ),
        ],
        responses={**json_or_csv(page_of("cage_report")), **REPORT_REFUSALS},
        summary="Cage: each gaming day's position and flows; fills, credits, exceptions",
    )
    def get(self, request: Request):
        """by=day: each gaming day's opening, money moved, differences and the
        cage's position; by=transaction: each fill and credit (asked, confirmed
        or cancelled and why) and each count difference with its reason."""
        return super().get(request)


class HistoryReportView(_Report):
    name = "history"
    reads = "history"

    @extend_schema(
        parameters=[
            parameter("table", "uuid", "A table's id"),
            parameter("player", "text", "A player's id or card number"),
            parameter("account", "text", "An account's name or id"),
            *[p for p in FILTER_PARAMETERS if p.name not in ("sector", "table", "game")],
        ],
        responses={
            **json_or_csv(page_of("history_report")),
            **REPORT_REFUSALS,
            404: OpenApiResponse(ErrorSerializer, description="No such table, player or account"),
        },
        summary="History: every event of one table, player or account, in order",
    )
    def get(self, request: Request):
        """The journal's events concerning one table, player or account (exactly
        one of them), oldest first: who, when, which command, which profile."""
        subject, rows = history.history_report(request.query_params)
        if subject.kind == "table":
            request.reader.check_table(None, subject.name)
        elif subject.kind == "account":
            request.reader.check_account(books.account_named(subject.name))
        if not request.reader.everything:
            # The money a history mentions is read as the transactions are
            # (floor.domain.reads): a jefe sees his tables' fills and credits,
            # not a player's purchases and cash-outs through this other door.
            readable = request.reader.transactions(books.transactions()).values("id")
            rows.entries = journal.hiding(rows.entries, history.POSTED, but=readable)
        return answer(request, rows, history.COLUMNS, f"history-{subject.kind}")


class TableAtReportView(_Report):
    name = "table-at"

    @extend_schema(
        parameters=[
            parameter("moment", "text", "An ISO date-time with its zone (default: now)"),
            parameter("format", "choice", "csv: the seats as rows", choices=["json", "csv"]),
        ],
        responses={
            **json_or_csv(
                inline_serializer(
                    name="table_at_report",
                    fields={
                        "moment": serializers.DateTimeField(),
                        "version": serializers.IntegerField(),
                        "last_event_at": serializers.DateTimeField(),
                        "table": TableFloorSerializer(),
                    },
                )
            ),
            **REPORT_REFUSALS,
            404: OpenApiResponse(
                ErrorSerializer, description="No such table, or it did not exist yet"
            ),
        },
        summary="A table at a past moment, replayed from the event store",
    )
    def get(self, request: Request, table_id: str):
        """The table as it stood at ``moment``: its seats, players, stacks,
        state, button and hands, in the shape of its current view."""
        csv_wanted = wants_csv(request)
        request.reader.check_table(table_at._table_view(table_id))
        found = table_at.table_at(table_id, request.query_params.get("moment"))
        if csv_wanted:
            return answer(request, table_at.seat_rows(found), table_at.SEAT_COLUMNS, self.name)
        return Response(found)
