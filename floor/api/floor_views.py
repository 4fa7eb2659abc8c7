"""Floor API endpoints beyond sectors and tables: players, waiting lists, the
draw, seats, rests, hands, closing, and the histories.

Every command endpoint takes a JSON body with a ``command_id`` and answers 201
with ``{"result": ..., <what it changed>: ...}`` (200 and the first outcome for
a repeated command id), or a refusal ``{"code", "message"}`` (400, 403, 404,
409) that recorded nothing.
"""

from __future__ import annotations

from uuid import UUID

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from floor.api import serializers as s
from floor.kernel.web.endpoints import CommandView
from floor.kernel.web.filters import FILTER_REFUSALS, Filters, parameter
from floor.kernel.web.gateway import ask, perform
from floor.kernel.web.responses import REFUSALS, command_response
from floor.kernel.web.serializers import ErrorSerializer
from floor.selectors import balancing, journal, players
from floor.selectors.player_hours import player_hours
from floor.selectors.players import waiting_lists
from floor.selectors.tables import sector_floor, table_floor, table_hands, table_with_sector


class PreviewSettlementView(APIView):
    """What a hand end would pay, recording nothing (issue 19): the pots the
    service builds from the contributions, their rake and winners, the chips
    returned, what each seat takes back and the stacks after. The same body,
    roles, scope and refusals as the hand's end; a dealer asks before
    confirming it."""

    command: str  # preview_settlement (floor.api.commands)

    @extend_schema(
        request=s.HandResultSerializer,
        responses={200: s.SettlementSerializer, **REFUSALS},
        summary="Preview a hand's settlement (records nothing)",
        operation_id="preview_settlement",
    )
    def post(self, request: Request, table_id: UUID) -> Response:
        checked = s.HandResultSerializer(data=request.data)
        checked.is_valid(raise_exception=True)
        answer = ask(self.command, request.user, table_id=str(table_id), **checked.validated_data)
        return Response(answer)


DRAW_ANSWER = inline_serializer(
    name="draw_seats_answer",
    fields={"result": serializers.DictField(), "table": s.TableFloorSerializer()},
)


class DrawSeatsView(CommandView):
    body = s.DrawSerializer

    @extend_schema(
        request=s.DrawSerializer,
        responses={201: DRAW_ANSWER, 200: DRAW_ANSWER, **REFUSALS},
        summary="Start the table: draw its seats among the registered players",
    )
    def post(self, request: Request, table_id: UUID) -> Response:
        """Draws the seats of this table, and of ``table_ids`` of the same game
        drawn with it by suit (PT 25)."""
        checked = self.body(data=request.data)
        checked.is_valid(raise_exception=True)
        ids = [str(table_id), *(str(t) for t in checked.validated_data.get("table_ids", []))]
        outcome = perform(
            self.command, request.user, checked.validated_data["command_id"], table_ids=ids
        )
        table = s.TableFloorSerializer(table_floor(table_id)).data
        return command_response(outcome, {"result": outcome.result, "table": table})


class TableFloorView(APIView):
    reads = "table_floor"

    @extend_schema(responses={200: s.TableFloorSerializer, 404: ErrorSerializer})
    def get(self, request: Request, table_id: UUID) -> Response:
        """A table with its seats, who sits where, the button, the state."""
        table = table_floor(table_id)
        request.reader.check_table(table)
        return Response(s.TableFloorSerializer(table).data)


class TableHandsView(APIView):
    reads = "table_floor"

    @extend_schema(responses={200: s.HandSerializer(many=True), 404: ErrorSerializer})
    def get(self, request: Request, table_id: UUID) -> Response:
        """The hands reported at a table, latest first."""
        request.reader.check_table(table_with_sector(table_id))
        return Response(s.HandSerializer(table_hands(table_id), many=True).data)


# A history answers at most this many events; ``?after=`` the last one's position pages on.
HISTORY_PAGE = 1000
HISTORY_PARAMETERS = [
    parameter(
        "after",
        "integer",
        f"Page on: events after this log position ({HISTORY_PAGE} a page)",
        minimum=0,
    )
]


def _journal(request: Request, originator_id: UUID) -> list:
    after = Filters(request.query_params).integer("after", minimum=0) or 0
    entries = journal.events_of(originator_id, after=after, most=HISTORY_PAGE)
    return s.JournalSerializer(entries, many=True).data


class TableHistoryView(APIView):
    # The journal is the audit trail: read by who reads the histories (not the dealer).
    reads = "history"

    @extend_schema(
        parameters=HISTORY_PARAMETERS,
        responses={200: s.JournalSerializer(many=True), 404: ErrorSerializer, **FILTER_REFUSALS},
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        """Every event of a table, oldest first: who did what, when, under which command."""
        request.reader.check_table(table_with_sector(table_id))
        return Response(_journal(request, table_id))


class SectorFloorView(APIView):
    reads = "sectors"

    @extend_schema(responses={200: s.SectorFloorSerializer, 404: ErrorSerializer})
    def get(self, request: Request, sector_id: UUID) -> Response:
        """The sector view: its tables, their seats and players, their state."""
        sector = sector_floor(sector_id)
        request.reader.check_sector(sector)
        return Response(s.SectorFloorSerializer(sector).data)


# --- players ---------------------------------------------------------------------------


class PlayerListView(CommandView):
    body = s.RegisterPlayerSerializer
    reads = "players"

    @extend_schema(
        parameters=[parameter("card", "text", "Find by card number")],
        responses={200: s.PlayerSerializer(many=True), **FILTER_REFUSALS},
        operation_id="players_list",
    )
    def get(self, request: Request) -> Response:
        """Players, or the one with ``?card=`` (card numbers ignore case); the
        cage finds players by card only."""
        card = Filters(request.query_params).text("card", max_length=40)
        request.reader.check_card(card)
        return Response(s.PlayerSerializer(players.players(card), many=True).data)

    @extend_schema(
        request=s.RegisterPlayerSerializer,
        responses={201: s.PlayerSerializer, 200: s.PlayerSerializer, **REFUSALS},
        summary="Register a player: card number and display name only",
    )
    def post(self, request: Request) -> Response:
        outcome, result = self.run(request)
        player = players.player(result["player_id"])
        return command_response(outcome, s.PlayerSerializer(player).data)


class PlayerDetailView(APIView):
    reads = "players"

    @extend_schema(responses={200: s.PlayerSerializer, 404: ErrorSerializer})
    def get(self, request: Request, player_id: UUID) -> Response:
        return Response(s.PlayerSerializer(players.player(player_id)).data)


class PlayerHistoryView(APIView):
    # The journal is the audit trail: read by who reads the histories (not the dealer).
    reads = "history"

    @extend_schema(
        parameters=HISTORY_PARAMETERS,
        responses={200: s.JournalSerializer(many=True), 404: ErrorSerializer, **FILTER_REFUSALS},
    )
    def get(self, request: Request, player_id: UUID) -> Response:
        """The player's own events: registered, lists joined and left, seated,
        left, barred; oldest first."""
        players.player(player_id)
        return Response(_journal(request, player_id))


PLAYER_HOURS = inline_serializer(
    name="player_hours",
    fields={
        "gaming_day": serializers.DateField(),
        "today_seconds": serializers.IntegerField(),
        "today_hours": serializers.FloatField(),
        "seconds": serializers.IntegerField(),
        "hours": serializers.FloatField(),
        "sessions": serializers.IntegerField(),
        "comp_points": serializers.IntegerField(),
        "seated_since": serializers.DateTimeField(allow_null=True),
        "last_sessions": serializers.ListField(child=serializers.DictField()),
    },
)


class PlayerHoursView(APIView):
    # The player's history's readers: a jefe counts the hours at his sectors' tables.
    reads = "history"

    @extend_schema(
        responses={200: PLAYER_HOURS, 404: ErrorSerializer},
        summary="A player's hours: today's gaming day, in all, comp points, last sessions",
    )
    def get(self, request: Request, player_id: UUID) -> Response:
        """The player's time at the tables (issue 26): seated to leaving, less
        resting and away unless the house counts them
        (games.profile_rules.PlayerRating), today and in all, with the comp
        points it earned and the last sessions; a jefe's, at his sectors'
        tables."""
        players.player(player_id)
        return Response(player_hours(player_id.hex, request.reader.table_ids))


# --- waiting lists ------------------------------------------------------------------------


JOIN_ANSWER = inline_serializer(
    name="join_waiting_list_answer",
    fields={"result": serializers.DictField(), "waiting_list": s.WaitingListSerializer()},
)


class WaitingListsView(CommandView):
    body = s.GameSerializer
    reads = "waiting_lists"

    @extend_schema(responses=s.WaitingListSerializer(many=True), operation_id="waiting_lists")
    def get(self, request: Request) -> Response:
        """Every game's list: positions, reservation numbers, waiting times, calls."""
        return Response(s.WaitingListSerializer(waiting_lists(), many=True).data)

    @extend_schema(
        request=s.GameSerializer,
        responses={201: JOIN_ANSWER, 200: JOIN_ANSWER, **REFUSALS},
        summary="Register a player for a game: last on its list [CM-6]",
    )
    def post(self, request: Request) -> Response:
        outcome, result = self.run(request)
        waiting = players.waiting_list(result["waiting_list_id"])
        body = s.WaitingListSerializer(waiting).data
        return command_response(outcome, {"result": result, "waiting_list": body})


# --- balancing ----------------------------------------------------------------------------


class BalanceGroupsView(APIView):
    reads = "balance_groups"

    @extend_schema(responses={200: s.BalanceGroupSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """Each game's tables across the sectors: how far apart, the move the
        service proposes and why, the table-change requests, a new table the
        list could start; a jefe's, the groups with a table of his sectors."""
        groups = balancing.balance_groups(request.reader.table_ids)
        return Response(s.BalanceGroupSerializer(groups, many=True).data)
