"""The floor's commands over HTTP: one declaration each (floor.kernel.web.endpoints).

Every command endpoint takes a JSON body with a ``command_id`` and answers 201
with ``{"result": ..., <what it changed>: ...}`` (200 and the first outcome for
a repeated command id), or a refusal ``{"code", "message"}`` (400, 403, 404,
409) that recorded nothing. The answer kinds below say what a command changed
and how it is shown; FLOOR_ENDPOINTS gives each command its route, body and
summary. Who may run it, and its name, are its handler's (the registry's).

The file stays whole, over 400 lines, by design: it is one table of
declarations, one entry per command, read down like the list of routes that
floor.kernel.web.endpoints builds from it; splitting it would scatter that list.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from rest_framework.request import Request
from rest_framework.response import Response

from floor.api import exclusion_views, identity_views, views
from floor.api import floor_views as fv
from floor.api import serializers as s
from floor.api.serializers import dealers as sd
from floor.compliance.exclusions import exclude_self, lift_self_exclusion
from floor.kernel.registry import COMMANDS
from floor.kernel.web.endpoints import CommandEndpoint, CommandView, result_answer
from floor.kernel.web.responses import command_response
from floor.kernel.web.serializers import CommandSerializer, PlayerCommandSerializer
from floor.notifications.contacts import change_contact
from floor.selectors import balancing, players

# The answer kinds have no docstrings: drf-spectacular would take one for the
# description of every operation built on it (CommandView's is theirs today).


class OnTable(CommandView):
    # Runs the command on the table in the URL; answers the table's floor.
    def post(self, request: Request, table_id: UUID) -> Response:
        outcome, result = self.run(request, table_id=str(table_id))
        table = s.TableFloorSerializer(fv.table_floor(table_id)).data
        return command_response(outcome, {"result": result, "table": table})

    @staticmethod
    def answer_schema(command: str) -> Any:
        return result_answer(command, "table", s.TableFloorSerializer)


class PreviewOnTable(OnTable):
    # Decides as the command would and records nothing: always 200.
    def post(self, request: Request, table_id: UUID) -> Response:
        _outcome, result = self.run(request, table_id=str(table_id))
        table = s.TableFloorSerializer(fv.table_floor(table_id)).data
        return Response({"result": result, "table": table}, status=200)


class OnSector(CommandView):
    # Runs the command on the sector in the URL; answers the sector's floor.
    def post(self, request: Request, sector_id: UUID) -> Response:
        outcome, result = self.run(request, sector_id=str(sector_id))
        sector = s.SectorFloorSerializer(fv.sector_floor(sector_id)).data
        return command_response(outcome, {"result": result, "sector": sector})

    @staticmethod
    def answer_schema(command: str) -> Any:
        return result_answer(command, "sector", s.SectorFloorSerializer)


class OnPlayer(CommandView):
    # Runs the command on the player in the URL; answers the player.
    def post(self, request: Request, player_id: UUID) -> Response:
        outcome, result = self.run(request, player=str(player_id))
        player = players.player(player_id)
        return command_response(
            outcome, {"result": result, "player": s.PlayerSerializer(player).data}
        )

    @staticmethod
    def answer_schema(command: str) -> Any:
        return result_answer(command, "player", s.PlayerSerializer)


class ContactOnPlayer(OnPlayer):
    # The player's contact: the command names the channel, the details are
    # kept outside the log (floor.notifications.contacts.change_contact).
    def run(self, request: Request, **arguments: Any) -> tuple[Any, dict]:
        checked = self.body(data=request.data)
        checked.is_valid(raise_exception=True)
        data = dict(checked.validated_data)
        command_id = data.pop("command_id")
        outcome = change_contact(request.user, command_id, **arguments, **data)
        return outcome, outcome.result


class SelfExclusionOnPlayer(OnPlayer):
    # The patron's self-exclusion: the command records it, and their document
    # (kept outside the log) goes on the house list (floor.compliance.exclusions).
    def run(self, request: Request, **arguments: Any) -> tuple[Any, dict]:
        checked = self.body(data=request.data)
        checked.is_valid(raise_exception=True)
        outcome = exclude_self(request.user, checked.validated_data["command_id"], **arguments)
        return outcome, outcome.result


class LiftSelfExclusionOnPlayer(OnPlayer):
    # The director lifts a self-exclusion: the command records it, and the
    # patron's document leaves the house list (floor.compliance.exclusions).
    def run(self, request: Request, **arguments: Any) -> tuple[Any, dict]:
        checked = self.body(data=request.data)
        checked.is_valid(raise_exception=True)
        data = dict(checked.validated_data)
        command_id = data.pop("command_id")
        outcome = lift_self_exclusion(request.user, command_id, **arguments, **data)
        return outcome, outcome.result


class OnGroup(CommandView):
    # Runs the command on the balance group in the URL; answers the group.
    def post(self, request: Request, group_id: UUID) -> Response:
        outcome, result = self.run(request, group_id=str(group_id))
        group = balancing.balance_group(group_id)
        data = s.BalanceGroupSerializer(group).data
        return command_response(outcome, {"result": result, "balance_group": data})

    @staticmethod
    def answer_schema(command: str) -> Any:
        return result_answer(command, "balance_group", s.BalanceGroupSerializer)


class ResultOnly(CommandView):
    # Answers the command's result alone.
    def post(self, request: Request) -> Response:
        outcome, result = self.run(request)
        return command_response(outcome, {"result": result})

    @staticmethod
    def answer_schema(command: str) -> Any:
        return result_answer(command)


E = CommandEndpoint
TABLE = "tables/<uuid:table_id>/"
PLAYER = "players/<uuid:player_id>/"

FLOOR_ENDPOINTS: tuple[CommandEndpoint, ...] = (
    # sectors and tables (their views also list them)
    E(COMMANDS.open_sector, "sectors/", "sectors", view=views.SectorListView),
    E(
        COMMANDS.open_table,
        "sectors/<uuid:sector_id>/tables/",
        "sector-tables",
        view=views.SectorTablesView,
    ),
    E(
        COMMANDS.announce_closing,
        "sectors/<uuid:sector_id>/closing/",
        "announce-closing",
        s.AnnounceClosingSerializer,
        "Announce the casino's closing time: the last hands start 15 minutes before",
        OnSector,
        "The jefe or the director announces when the casino closes [CM-24].",
    ),
    E(
        COMMANDS.assign_jefes,
        "sectors/<uuid:sector_id>/jefes/",
        "assign-jefes",
        s.AssignJefesSerializer,
        "Name the jefes who run a sector (director); none named: any jefe",
        OnSector,
        "Only the jefes named here act on the sector's tables [GA art. 19.1].",
    ),
    E(
        COMMANDS.assign_dealer,
        TABLE + "dealer/",
        "assign-dealer",
        s.AssignDealerSerializer,
        "Name the crupier dealing at a table (jefe); only they report its hands",
        OnTable,
    ),
    # the dealer rotation (issue 26; GA art. 19)
    E(
        COMMANDS.set_dealer_games,
        "dealers/games/",
        "set-dealer-games",
        sd.DealerGamesSerializer,
        "Set the games (variants) a dealer may deal",
        ResultOnly,
        "The rotation sends a dealer only to tables of these games [GA art. 19].",
    ),
    E(
        COMMANDS.clock_in_dealer,
        "sectors/<uuid:sector_id>/dealers/clock-in/",
        "clock-in-dealer",
        sd.ClockInDealerSerializer,
        "A dealer clocks in at a sector, into the dealer box",
        OnSector,
    ),
    E(
        COMMANDS.clock_out_dealer,
        "sectors/<uuid:sector_id>/dealers/clock-out/",
        "clock-out-dealer",
        sd.DealerSerializer,
        "A dealer clocks out (not while dealing an open table)",
        OnSector,
    ),
    E(
        COMMANDS.send_dealer_on_break,
        "sectors/<uuid:sector_id>/dealers/break/",
        "send-dealer-on-break",
        sd.DealerSerializer,
        "An idle dealer goes on break",
        OnSector,
    ),
    E(
        COMMANDS.end_dealer_break,
        "sectors/<uuid:sector_id>/dealers/back/",
        "end-dealer-break",
        sd.DealerSerializer,
        "A dealer is back from break, in the box",
        OnSector,
    ),
    E(
        COMMANDS.push_dealer,
        TABLE + "dealer/push/",
        "push-dealer",
        sd.PushDealerSerializer,
        "The planned push at a table happens: the plan's dealer taps in",
        OnTable,
        "The dealer relieved goes to the box or on break, as planned [GA art. 19].",
    ),
    E(
        COMMANDS.override_dealer_push,
        TABLE + "dealer/override/",
        "override-dealer-push",
        sd.OverrideDealerPushSerializer,
        "Send another dealer than the plan's to a table, with a reason",
        OnTable,
    ),
    # the absence clock
    E(
        COMMANDS.start_absence,
        TABLE + "absence/",
        "start-absence",
        PlayerCommandSerializer,
        "A player steps away on the absence clock (CM-18)",
        OnTable,
    ),
    E(
        COMMANDS.end_absence,
        TABLE + "absence/end/",
        "end-absence",
        PlayerCommandSerializer,
        "A player away is back (CM-18)",
        OnTable,
    ),
    # balancing and table changes
    E(
        COMMANDS.accept_move,
        "balance-groups/<uuid:group_id>/accept/",
        "accept-move",
        s.AcceptMoveSerializer,
        "Accept the balancing move the service proposes",
        OnGroup,
    ),
    E(
        COMMANDS.override_move,
        "balance-groups/<uuid:group_id>/override/",
        "override-move",
        s.OverrideMoveSerializer,
        "Move a player of the jefe's choice, saying why",
        OnGroup,
    ),
    E(
        COMMANDS.request_table_change,
        TABLE + "table-change-request/",
        "request-table-change",
        PlayerCommandSerializer,
        "A seated player asks to change table",
        OnTable,
    ),
    E(
        COMMANDS.withdraw_table_change,
        TABLE + "table-change-request/withdraw/",
        "withdraw-table-change",
        PlayerCommandSerializer,
        "A player keeps their table after all",
        OnTable,
    ),
    E(
        COMMANDS.grant_table_change,
        TABLE + "grant-table-change/",
        "grant-table-change",
        s.GrantTableChangeSerializer,
        "Move a player who asked to another table of the game (high card among several, CM-11)",
        OnTable,
    ),
    E(
        COMMANDS.start_must_move,
        TABLE + "must-move/",
        "start-must-move",
        s.StartMustMoveSerializer,
        "Make this table the must-move table of a main table of the same game: its players "
        "move there in arrival order as seats open (CM-10 still binds)",
        OnTable,
    ),
    E(
        COMMANDS.end_must_move,
        TABLE + "must-move/end/",
        "end-must-move",
        CommandSerializer,
        "The must-move table becomes a table like the others of its game",
        OnTable,
    ),
    E(
        COMMANDS.move_from_must_move,
        TABLE + "move-from-must-move/",
        "move-from-must-move",
        s.MoveFromMustMoveSerializer,
        "Move the must-move table's next player, in arrival order, to a free seat of this "
        "main table; the seat they leave is offered to the list",
        OnTable,
    ),
    E(
        COMMANDS.break_table,
        TABLE + "break/",
        "break-table",
        CommandSerializer,
        "Break a table: its players to the free seats of the game's other tables, the rest "
        "to the top of the list",
        OnTable,
    ),
    # who may sit where, the tournament
    E(
        COMMANDS.keep_apart,
        PLAYER + "keep-apart/",
        "keep-apart",
        s.KeepApartSerializer,
        "Keep two players from the same table (CM-14)",
        OnPlayer,
    ),
    E(
        COMMANDS.allow_together,
        PLAYER + "allow-together/",
        "allow-together",
        s.AllowTogetherSerializer,
        "Two players may sit together again",
        OnPlayer,
    ),
    E(
        COMMANDS.enter_tournament,
        PLAYER + "tournament/",
        "enter-tournament",
        CommandSerializer,
        "The player plays the tournament (CM-23)",
        OnPlayer,
    ),
    E(
        COMMANDS.leave_tournament,
        PLAYER + "tournament/leave/",
        "leave-tournament",
        CommandSerializer,
        "The player is out of the tournament",
        OnPlayer,
    ),
    E(
        COMMANDS.set_dinner_break,
        "tournament/dinner-break/",
        "dinner-break",
        s.DinnerBreakSerializer,
        "The tournament's dinner break starts or ends (CM-23)",
        ResultOnly,
    ),
    # the draw and the seats
    E(COMMANDS.draw_seats, TABLE + "draw/", "draw-seats", view=fv.DrawSeatsView),
    E(
        COMMANDS.seat_player,
        TABLE + "seat/",
        "seat-player",
        s.SeatPlayerSerializer,
        "Seat a player (list order; drawn while the draw is open)",
        OnTable,
    ),
    E(
        COMMANDS.request_seat_change,
        TABLE + "seat-change-request/",
        "request-seat-change",
        PlayerCommandSerializer,
        "A seated player asks for another seat",
        OnTable,
    ),
    E(
        COMMANDS.withdraw_seat_change,
        TABLE + "seat-change-request/withdraw/",
        "withdraw-seat-change",
        PlayerCommandSerializer,
        "A player keeps their seat after all",
        OnTable,
    ),
    E(
        COMMANDS.call_next,
        TABLE + "call-next/",
        "call-next",
        s.CallNextSerializer,
        "Offer a free seat: seat changes first, then the list",
        OnTable,
    ),
    E(
        COMMANDS.change_seat,
        TABLE + "change-seat/",
        "change-seat",
        s.ChangeSeatSerializer,
        "Move a seated player to a free seat",
        OnTable,
    ),
    # corrections with their reason (issue 22): the jefe's
    E(
        COMMANDS.undo_move,
        TABLE + "undo-move/",
        "undo-move",
        s.UndoMoveSerializer,
        "Undo the move or seat change that brought a player here, made by mistake",
        OnTable,
    ),
    E(
        COMMANDS.fix_stack,
        TABLE + "fix-stack/",
        "fix-stack",
        s.FixStackSerializer,
        "Correct a seat's recorded stack, between hands; the books take the difference",
        OnTable,
    ),
    E(
        COMMANDS.leave_table,
        TABLE + "leave/",
        "leave-table",
        s.LeaveTableSerializer,
        "A player leaves; the seat is offered to the list",
        OnTable,
    ),
    E(
        COMMANDS.buy_in,
        TABLE + "buy-in/",
        "buy-in",
        s.BuyInSerializer,
        "Chips bought at the table",
        OnTable,
    ),
    E(
        COMMANDS.start_rest,
        TABLE + "rest/",
        "start-rest",
        PlayerCommandSerializer,
        "A player rests",
        OnTable,
    ),
    E(
        COMMANDS.end_rest,
        TABLE + "rest/end/",
        "end-rest",
        PlayerCommandSerializer,
        "A player is back",
        OnTable,
    ),
    E(
        COMMANDS.close_table,
        TABLE + "close/",
        "close-table",
        s.CloseTableSerializer,
        "Close a table",
        OnTable,
    ),
    # hands
    E(
        COMMANDS.start_hand,
        TABLE + "hands/start/",
        "start-hand",
        s.StartHandSerializer,
        "Report a hand dealt",
        OnTable,
    ),
    E(
        COMMANDS.end_hand,
        TABLE + "hands/end/",
        "end-hand",
        s.EndHandSerializer,
        "Report a hand's end",
        OnTable,
    ),
    E(
        COMMANDS.settle_banked_hand,
        TABLE + "banked-hands/",
        "settle-banked-hand",
        s.BankedHandSerializer,
        "Report a banked hand box by box; the service settles and books it "
        "(GA art. 6-16; PT-SD; PG)",
        OnTable,
    ),
    E(
        COMMANDS.preview_banked_hand,
        TABLE + "banked-hands/preview/",
        "preview-banked-hand",
        s.BankedHandSerializer,
        "The settlement a banked hand would get, computed the same way; records nothing",
        PreviewOnTable,
    ),
    E(
        COMMANDS.preview_settlement,
        TABLE + "hands/settlement/",
        "preview-settlement",
        view=fv.PreviewSettlementView,
    ),
    # the action clock
    E(
        COMMANDS.start_action_clock,
        TABLE + "action-clock/start/",
        "start-action-clock",
        s.StartActionClockSerializer,
        "Put a slow player on the clock (CM-20)",
        OnTable,
    ),
    E(
        COMMANDS.stop_action_clock,
        TABLE + "action-clock/stop/",
        "stop-action-clock",
        s.SeatCommandSerializer,
        "The player acted: stop the clock (CM-22)",
        OnTable,
    ),
    # players and the waiting lists (their views also list them)
    E(COMMANDS.register_player, "players/", "players", view=fv.PlayerListView),
    E(
        COMMANDS.bar_player,
        PLAYER + "bar/",
        "bar-player",
        s.BarPlayerSerializer,
        "Bar a player",
        OnPlayer,
    ),
    E(
        COMMANDS.change_contact_preference,
        PLAYER + "contact/",
        "player-contact",
        s.ContactSerializer,
        "How a player is told of a call: none, e-mail or SMS (kept outside the log)",
        ContactOnPlayer,
    ),
    # A patron's identity (issue 25): kept outside the log; GET shows it as
    # the reader may see it (floor.api.identity_views).
    E(
        COMMANDS.record_identity,
        PLAYER + "identity/",
        "player-identity",
        view=identity_views.IdentityView,
    ),
    E(
        COMMANDS.erase_identity,
        PLAYER + "identity/erase/",
        "erase-identity",
        view=identity_views.EraseIdentityView,
    ),
    # The exclusion lists (issue 25, item 2): a version uploaded, a director's decision on a
    # possible match, a self-exclusion taken at the room.
    E(
        COMMANDS.import_exclusion_list,
        "exclusion-lists/",
        "exclusion-lists",
        view=exclusion_views.UploadListView,
    ),
    E(
        COMMANDS.resolve_possible_exclusion,
        PLAYER + "resolve-possible-exclusion/",
        "resolve-possible-exclusion",
        s.ResolveExclusionSerializer,
        "Resolve a possible match on an exclusion list (the director's)",
        OnPlayer,
    ),
    E(
        COMMANDS.exclude_self,
        PLAYER + "self-exclusion/",
        "self-exclusion",
        CommandSerializer,
        "The patron excludes themself: on the house list at once",
        SelfExclusionOnPlayer,
    ),
    E(
        COMMANDS.lift_self_exclusion,
        PLAYER + "self-exclusion/lift/",
        "lift-self-exclusion",
        s.LiftSelfExclusionSerializer,
        "Lift a patron's self-exclusion, after the house's minimum period (the director's)",
        LiftSelfExclusionOnPlayer,
    ),
    E(
        COMMANDS.lift_bar,
        PLAYER + "lift-bar/",
        "lift-bar",
        CommandSerializer,
        "Lift a player's bar",
        OnPlayer,
    ),
    E(COMMANDS.join_waiting_list, "waiting-lists/", "waiting-lists", view=fv.WaitingListsView),
    E(
        COMMANDS.leave_waiting_list,
        "waiting-lists/leave/",
        "leave-waiting-list",
        s.LeaveListSerializer,
        "Take a player off a game's list",
        ResultOnly,
        named=False,
    ),
    E(
        COMMANDS.check_in_player,
        "waiting-lists/check-in/",
        "check-in-player",
        s.GameSerializer,
        "Check in the player of a remote entry: callable from now (issue 24)",
        ResultOnly,
        named=False,
    ),
    E(
        COMMANDS.answer_call,
        "waiting-lists/answer-call/",
        "answer-call",
        s.AnswerCallSerializer,
        "Record a called player's answer: coming, five more minutes, not coming [CM-6]",
        ResultOnly,
        named=False,
    ),
)
