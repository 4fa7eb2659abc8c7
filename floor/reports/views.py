"""The floor's reports' endpoints: GET only, filtered, paginated, JSON or CSV.

The cage's report is the ledger's (ledger.reports); the rake and history
reports here take what the books add through floor.reports.parts."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from floor.api.serializers import TableFloorSerializer
from floor.kernel.web.filters import parameter
from floor.kernel.web.serializers import ErrorSerializer
from floor.reports import (
    clocks,
    dealers,
    history,
    occupancy,
    players,
    rake,
    table_at,
    tables,
    waiting,
)
from floor.reports.base import ReportView, by_parameter, json_or_csv, page_of
from floor.reports.common import (
    FILTER_PARAMETERS,
    REPORT_REFUSALS,
    answer,
    wants_csv,
)


class TablesReportView(ReportView):
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


class RakeReportView(ReportView):
    name = "rake"
    reads = "report_rake"
    default_by = "table_hour"
    shapes = {by: (_rake_by(by), columns) for by, columns in rake.COLUMNS.items()}

    @extend_schema(
        parameters=[*FILTER_PARAMETERS, by_parameter(list(rake.COLUMNS), "table_hour")],
        responses={**json_or_csv(page_of("rake_report")), **REPORT_REFUSALS},
        summary="Rake: per hand, per table and hour, per session, per gaming day, by model",
    )
    def get(self, request: Request):
        """The rake of the hands and the time charges in the range, grouped by
        ``by``; the cage (cajero) reads it too."""
        return super().get(request)


class WaitingListsReportView(ReportView):
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


class ClocksReportView(ReportView):
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


def _dealers_by(by: str):
    return lambda report: dealers.dealers_report(report, by)


class DealersReportView(ReportView):
    name = "dealers"
    default_by = "dealer"
    shapes = {by: (_dealers_by(by), columns) for by, columns in dealers.COLUMNS.items()}

    @extend_schema(
        parameters=[*FILTER_PARAMETERS, by_parameter(list(dealers.COLUMNS), "dealer")],
        responses={**json_or_csv(page_of("dealers_report")), **REPORT_REFUSALS},
        summary="Dealers: hands dealt per dealer, hands per hour per dealer and table",
    )
    def get(self, request: Request):
        """The hands each dealer dealt in the range (the table's dealer when the
        hand started [GA art. 19.1]) and their hands per hour of dealing, per
        dealer or per dealer and table (issue 26)."""
        return super().get(request)


def _occupancy_by(by: str):
    return lambda report: occupancy.occupancy_report(report, by)


class OccupancyReportView(ReportView):
    name = "occupancy"
    default_by = "hour"
    shapes = {by: (_occupancy_by(by), columns) for by, columns in occupancy.COLUMNS.items()}

    @extend_schema(
        parameters=[*FILTER_PARAMETERS, by_parameter(list(occupancy.COLUMNS), "hour")],
        responses={**json_or_csv(page_of("occupancy_report")), **REPORT_REFUSALS},
        summary="Occupancy: seats occupied per table and hour, player hours per game",
    )
    def get(self, request: Request):
        """by=hour: each table's seats occupied on average in each UTC hour;
        by=game: the player hours each game drew."""
        return super().get(request)


def _players_by(by: str):
    return lambda report: players.players_report(report, by)


class PlayersReportView(ReportView):
    name = "players"
    default_by = "top"
    shapes = {by: (_players_by(by), columns) for by, columns in players.COLUMNS.items()}

    @extend_schema(
        parameters=[*FILTER_PARAMETERS, by_parameter(list(players.COLUMNS), "top")],
        responses={**json_or_csv(page_of("players_report")), **REPORT_REFUSALS},
        summary="Players: time played and rating, top by hours, per session, day or game",
    )
    def get(self, request: Request):
        """by=top: the players by hours played; by=session: each seat session's
        rating (buy-in, rebuys, stack left with, time charged, hours, stakes,
        comp points); by=day: per gaming day, with the cage's cash-outs;
        by=game: hours per game. Resting and away count as the house decides
        (games.profile_rules.PlayerRating)."""
        return super().get(request)


class GameHoursReportView(ReportView):
    name = "game-hours"
    shapes = {"": (players.game_hours_report, players.GAME_HOUR_COLUMNS)}

    @extend_schema(
        parameters=FILTER_PARAMETERS,
        responses={**json_or_csv(page_of("game_hours_report")), **REPORT_REFUSALS},
        summary="Game hours: the players' hours per game and local hour of day",
    )
    def get(self, request: Request):
        """Per game and hour of the day (the house's time): how many players
        played, on how many gaming days, their hours and how many played on
        average: what a room reads to decide which games to spread."""
        return super().get(request)


class HistoryReportView(ReportView):
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
        history.for_reader(request.reader, subject, rows)
        return answer(request, rows, history.COLUMNS, f"history-{subject.kind}")


class TableAtReportView(ReportView):
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
