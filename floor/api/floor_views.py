"""Floor API endpoints beyond sectors and tables: players, waiting lists, the
draw, seats, rests, hands, closing, and the histories.

Every command endpoint takes a JSON body with a ``command_id`` and answers 201
with ``{"result": ..., <what it changed>: ...}`` (200 and the first outcome for
a repeated command id), or a refusal ``{"code", "message"}`` (400, 403, 404,
409) that recorded nothing.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from floor.api import serializers as s
from floor.api.filters import FILTER_REFUSALS, Filters, parameter
from floor.api.views import REFUSALS, command_response
from floor.gateway import ask, perform
from floor.selectors import balancing, journal, players
from floor.selectors.players import waiting_lists
from floor.selectors.tables import sector_floor, table_floor, table_hands, table_with_sector


def _answer(name: str, shape: type[serializers.Serializer], key: str = "table") -> Any:
    """A command's answer: its result and the thing it changed, under ``key``."""
    return inline_serializer(name=name, fields={"result": serializers.DictField(), key: shape()})


def command_view(
    command: str,
    body: type[serializers.Serializer],
    summary: str,
    post: Any,
    answer: tuple[type[serializers.Serializer], str] = (s.TableFloorSerializer, "table"),
    *,
    base: type | None = None,
    description: str | None = None,
) -> type:
    """The view class of an endpoint running ``command`` through ``post``: its
    schema (the body, the answer under its key, the refusals) and its name."""
    shape, key = answer
    answered = _answer(f"{command}_answer", shape, key)
    post = extend_schema(
        request=body,
        responses={201: answered, 200: answered, **REFUSALS},  # 200: a repeated command id
        summary=summary,
        description=description,
        operation_id=command,
    )(post)
    name = f"{command.title().replace('_', '')}View"
    return type(name, (base or _Command,), {"command": command, "body": body, "post": post})


class _Command(APIView):
    """Validates the body with ``body``, runs ``command``, answers with the thing
    it changed."""

    command: str
    body: type[serializers.Serializer]

    def run(self, request: Request, **arguments: Any) -> tuple[Any, dict]:
        checked = self.body(data=request.data)
        checked.is_valid(raise_exception=True)
        data = dict(checked.validated_data)
        command_id = data.pop("command_id")
        outcome = perform(self.command, request.user, command_id, **arguments, **data)
        return outcome, outcome.result


class _TableCommand(_Command):
    def post(self, request: Request, table_id: UUID) -> Response:
        outcome, result = self.run(request, table_id=str(table_id))
        table = s.TableFloorSerializer(table_floor(table_id)).data
        return command_response(outcome, {"result": result, "table": table})


def table_command(command: str, body: type[serializers.Serializer], summary: str) -> type:
    """An endpoint running ``command`` on the table in the URL."""

    def post(self, request: Request, table_id: UUID) -> Response:
        return _TableCommand.post(self, request, table_id)

    return command_view(command, body, summary, post, base=_TableCommand)


SeatPlayerView = table_command(
    "seat_player",
    s.SeatPlayerSerializer,
    "Seat a player (list order; drawn while the draw is open)",
)
RequestSeatChangeView = table_command(
    "request_seat_change", s.PlayerCommandSerializer, "A seated player asks for another seat"
)
WithdrawSeatChangeView = table_command(
    "withdraw_seat_change", s.PlayerCommandSerializer, "A player keeps their seat after all"
)
CallNextView = table_command(
    "call_next", s.CallNextSerializer, "Offer a free seat: seat changes first, then the list"
)
ChangeSeatView = table_command(
    "change_seat", s.ChangeSeatSerializer, "Move a seated player to a free seat"
)
LeaveTableView = table_command(
    "leave_table", s.LeaveTableSerializer, "A player leaves; the seat is offered to the list"
)
BuyInView = table_command("buy_in", s.BuyInSerializer, "Chips bought at the table")
StartRestView = table_command("start_rest", s.PlayerCommandSerializer, "A player rests")
EndRestView = table_command("end_rest", s.PlayerCommandSerializer, "A player is back")
CloseTableView = table_command("close_table", s.CloseTableSerializer, "Close a table")
StartActionClockView = table_command(
    "start_action_clock", s.StartActionClockSerializer, "Put a slow player on the clock (CM-20)"
)
StopActionClockView = table_command(
    "stop_action_clock", s.SeatCommandSerializer, "The player acted: stop the clock (CM-22)"
)
StartAbsenceView = table_command(
    "start_absence", s.PlayerCommandSerializer, "A player steps away on the absence clock (CM-18)"
)
EndAbsenceView = table_command(
    "end_absence", s.PlayerCommandSerializer, "A player away is back (CM-18)"
)
RequestTableChangeView = table_command(
    "request_table_change", s.PlayerCommandSerializer, "A seated player asks to change table"
)
WithdrawTableChangeView = table_command(
    "withdraw_table_change", s.PlayerCommandSerializer, "A player keeps their table after all"
)
GrantTableChangeView = table_command(
    "grant_table_change",
    s.GrantTableChangeSerializer,
    "Move a player who asked to another table of the game (high card among several, CM-11)",
)
BreakTableView = table_command(
    "break_table",
    s.CommandSerializer,
    "Break a table: its players to the free seats of the game's other tables, the rest "
    "to the top of the list",
)
StartHandView = table_command("start_hand", s.StartHandSerializer, "Report a hand dealt")
EndHandView = table_command("end_hand", s.EndHandSerializer, "Report a hand's end")
SettleBankedHandView = table_command(
    "settle_banked_hand",
    s.BankedHandSerializer,
    "Report a banked hand box by box; the service settles and books it (GA art. 6-16; PT-SD; PG)",
)


class _PreviewCommand(_TableCommand):
    def post(self, request: Request, table_id: UUID) -> Response:
        _outcome, result = self.run(request, table_id=str(table_id))
        table = s.TableFloorSerializer(table_floor(table_id)).data
        return Response({"result": result, "table": table}, status=200)


def _preview_post(self, request: Request, table_id: UUID) -> Response:
    return _PreviewCommand.post(self, request, table_id)


PreviewBankedHandView = command_view(
    "preview_banked_hand",
    s.BankedHandSerializer,
    "The settlement a banked hand would get, computed the same way; records nothing",
    _preview_post,
    base=_PreviewCommand,
)


class PreviewSettlementView(APIView):
    """What a hand end would pay, recording nothing (issue 19): the pots the
    service builds from the contributions, their rake and winners, the chips
    returned, what each seat takes back and the stacks after. The same body,
    roles, scope and refusals as the hand's end; a dealer asks before
    confirming it."""

    command = "preview_settlement"

    @extend_schema(
        request=s.HandResultSerializer,
        responses={200: s.SettlementSerializer, **REFUSALS},
        summary="Preview a hand's settlement (records nothing)",
        operation_id="preview_settlement",
    )
    def post(self, request: Request, table_id: UUID) -> Response:
        checked = s.HandResultSerializer(data=request.data)
        checked.is_valid(raise_exception=True)
        answer = ask(
            "preview_settlement", request.user, table_id=str(table_id), **checked.validated_data
        )
        return Response(answer)


DRAW_ANSWER = _answer("draw_seats_answer", s.TableFloorSerializer)


class DrawSeatsView(_Command):
    command = "draw_seats"
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

    @extend_schema(responses={200: s.TableFloorSerializer, 404: s.ErrorSerializer})
    def get(self, request: Request, table_id: UUID) -> Response:
        """A table with its seats, who sits where, the button, the state."""
        table = table_floor(table_id)
        request.reader.check_table(table)
        return Response(s.TableFloorSerializer(table).data)


class TableHandsView(APIView):
    reads = "table_floor"

    @extend_schema(responses={200: s.HandSerializer(many=True), 404: s.ErrorSerializer})
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
        responses={200: s.JournalSerializer(many=True), 404: s.ErrorSerializer, **FILTER_REFUSALS},
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        """Every event of a table, oldest first: who did what, when, under which command."""
        request.reader.check_table(table_with_sector(table_id))
        return Response(_journal(request, table_id))


class SectorFloorView(APIView):
    reads = "sectors"

    @extend_schema(responses={200: s.SectorFloorSerializer, 404: s.ErrorSerializer})
    def get(self, request: Request, sector_id: UUID) -> Response:
        """The sector view: its tables, their seats and players, their state."""
        sector = sector_floor(sector_id)
        request.reader.check_sector(sector)
        return Response(s.SectorFloorSerializer(sector).data)


def sector_command(
    command: str, body: type[serializers.Serializer], summary: str, why: str
) -> type:
    """An endpoint running ``command`` on the sector in the URL; answers the sector."""

    def post(self, request: Request, sector_id: UUID) -> Response:
        outcome, result = self.run(request, sector_id=str(sector_id))
        sector = s.SectorFloorSerializer(sector_floor(sector_id)).data
        return command_response(outcome, {"result": result, "sector": sector})

    answer = (s.SectorFloorSerializer, "sector")
    return command_view(command, body, summary, post, answer, description=why)


AnnounceClosingView = sector_command(
    "announce_closing",
    s.AnnounceClosingSerializer,
    "Announce the casino's closing time: the last hands start 15 minutes before",
    "The jefe or the director announces when the casino closes [CM-24].",
)
AssignJefesView = sector_command(
    "assign_jefes",
    s.AssignJefesSerializer,
    "Name the jefes who run a sector (director); none named: any jefe",
    "Only the jefes named here act on the sector's tables [GA art. 19.1].",
)


AssignDealerView = table_command(
    "assign_dealer",
    s.AssignDealerSerializer,
    "Name the crupier dealing at a table (jefe); only they report its hands",
)


# --- players ---------------------------------------------------------------------------


class PlayerListView(_Command):
    command = "register_player"
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

    @extend_schema(responses={200: s.PlayerSerializer, 404: s.ErrorSerializer})
    def get(self, request: Request, player_id: UUID) -> Response:
        return Response(s.PlayerSerializer(players.player(player_id)).data)


class PlayerHistoryView(APIView):
    # The journal is the audit trail: read by who reads the histories (not the dealer).
    reads = "history"

    @extend_schema(
        parameters=HISTORY_PARAMETERS,
        responses={200: s.JournalSerializer(many=True), 404: s.ErrorSerializer, **FILTER_REFUSALS},
    )
    def get(self, request: Request, player_id: UUID) -> Response:
        """The player's own events: registered, lists joined and left, seated,
        left, barred; oldest first."""
        players.player(player_id)
        return Response(_journal(request, player_id))


def player_command(command: str, body: type[serializers.Serializer], summary: str) -> type:
    def post(self, request: Request, player_id: UUID) -> Response:
        outcome, result = self.run(request, player=str(player_id))
        player = players.player(player_id)
        return command_response(
            outcome, {"result": result, "player": s.PlayerSerializer(player).data}
        )

    answer = inline_serializer(
        name=f"{command}_answer",
        fields={"result": serializers.DictField(), "player": s.PlayerSerializer()},
    )
    post = extend_schema(
        request=body,
        responses={201: answer, 200: answer, **REFUSALS},
        summary=summary,
        operation_id=command,
    )(post)
    name = f"{command.title().replace('_', '')}View"
    return type(name, (_Command,), {"command": command, "body": body, "post": post})


KeepApartView = player_command(
    "keep_apart", s.KeepApartSerializer, "Keep two players from the same table (CM-14)"
)
AllowTogetherView = player_command(
    "allow_together", s.AllowTogetherSerializer, "Two players may sit together again"
)
EnterTournamentView = player_command(
    "enter_tournament", s.CommandSerializer, "The player plays the tournament (CM-23)"
)
LeaveTournamentView = player_command(
    "leave_tournament", s.CommandSerializer, "The player is out of the tournament"
)
BarPlayerView = player_command("bar_player", s.BarPlayerSerializer, "Bar a player")
LiftBarView = player_command("lift_bar", s.CommandSerializer, "Lift a player's bar")


# --- waiting lists ------------------------------------------------------------------------


JOIN_ANSWER = inline_serializer(
    name="join_waiting_list_answer",
    fields={"result": serializers.DictField(), "waiting_list": s.WaitingListSerializer()},
)
LEAVE_ANSWER = inline_serializer(
    name="leave_waiting_list_answer", fields={"result": serializers.DictField()}
)


class WaitingListsView(_Command):
    command = "join_waiting_list"
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


class LeaveWaitingListView(_Command):
    command = "leave_waiting_list"
    body = s.LeaveListSerializer

    @extend_schema(
        request=s.LeaveListSerializer,
        responses={201: LEAVE_ANSWER, 200: LEAVE_ANSWER, **REFUSALS},
        summary="Take a player off a game's list",
    )
    def post(self, request: Request) -> Response:
        outcome, result = self.run(request)
        return command_response(outcome, {"result": result})


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


def group_command(command: str, body: type[serializers.Serializer], summary: str) -> type:
    """An endpoint running ``command`` on the balance group in the URL."""

    def post(self, request: Request, group_id: UUID) -> Response:
        outcome, result = self.run(request, group_id=str(group_id))
        group = balancing.balance_group(group_id)
        data = s.BalanceGroupSerializer(group).data
        return command_response(outcome, {"result": result, "balance_group": data})

    answer = (s.BalanceGroupSerializer, "balance_group")
    return command_view(command, body, summary, post, answer)


AcceptMoveView = group_command(
    "accept_move", s.AcceptMoveSerializer, "Accept the balancing move the service proposes"
)
OverrideMoveView = group_command(
    "override_move", s.OverrideMoveSerializer, "Move a player of the jefe's choice, saying why"
)


DINNER_BREAK_ANSWER = inline_serializer(
    name="set_dinner_break_answer", fields={"result": serializers.DictField()}
)


class DinnerBreakView(_Command):
    command = "set_dinner_break"
    body = s.DinnerBreakSerializer

    @extend_schema(
        request=s.DinnerBreakSerializer,
        responses={201: DINNER_BREAK_ANSWER, 200: DINNER_BREAK_ANSWER, **REFUSALS},
        summary="The tournament's dinner break starts or ends (CM-23)",
        operation_id="set_dinner_break",
    )
    def post(self, request: Request) -> Response:
        outcome, result = self.run(request)
        return command_response(outcome, {"result": result})
