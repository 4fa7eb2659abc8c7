"""The cage's commands over HTTP: one declaration each (floor.kernel.web.endpoints).

Every money command carries an idempotent command id and answers 201
``{"result": ..., "transactions": [...]}`` (200 and the first outcome for a
repeated command id), each transaction with the address of its printable
receipt; a refusal is ``{"code", "message"}`` and records nothing. Who may run
a command, and its name, are its handler's (the registry's).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from floor.kernel.registry import COMMANDS
from floor.kernel.web.endpoints import CommandEndpoint
from floor.kernel.web.gateway import perform
from floor.kernel.web.responses import command_response
from ledger import selectors as books
from ledger.api import serializers as s

ANSWER = inline_serializer(
    name="cage_answer",
    fields={
        "result": serializers.DictField(),
        "transactions": s.TransactionSerializer(many=True),
    },
)


def transactions_of(result: dict) -> list[dict]:
    ids = result.get("transaction_ids", [])
    found = books.transactions_in(ids)
    return s.TransactionSerializer(found, many=True).data


class CageAnswer(APIView):
    # Runs the command with the body and the URL's ids; answers its result and
    # the transactions it booked. (No docstring: drf-spectacular would make it
    # every cage operation's description, and they have none.)

    command: str
    body: type[serializers.Serializer]

    def post(self, request: Request, **kwargs: Any) -> Response:
        return self.run(request, **{k: str(v) for k, v in kwargs.items()})

    def run(self, request: Request, **arguments: Any) -> Response:
        checked = self.body(data=request.data)
        checked.is_valid(raise_exception=True)
        data = dict(checked.validated_data)
        command_id = data.pop("command_id")
        outcome = perform(self.command, request.user, command_id, **arguments, **data)
        body = {"result": outcome.result, "transactions": transactions_of(outcome.result)}
        return command_response(outcome, body)

    @staticmethod
    def answer_schema(command: str) -> Any:
        return ANSWER


def _cage(handler: Any, route: str, url_name: str, body: Any, summary: str) -> CommandEndpoint:
    return CommandEndpoint(handler, route, url_name, body, summary, CageAnswer)


GAMING_DAYS = "cage/gaming-days/"
TRAY_REQUEST = "cage/tray-requests/<uuid:request_id>/"
JACKPOT = "jackpots/<uuid:jackpot_id>/"

CAGE_ENDPOINTS: tuple[CommandEndpoint, ...] = (
    _cage(
        COMMANDS.fund_cage,
        "cage/float/",
        "fund-cage",
        s.FundCageSerializer,
        "The house puts a float of cash and chips into the cage",
    ),
    # the gaming day
    _cage(
        COMMANDS.open_gaming_day,
        GAMING_DAYS + "open/",
        "open-gaming-day",
        s.OpenGamingDaySerializer,
        "Open the cage's gaming day",
    ),
    _cage(
        COMMANDS.count_gaming_day,
        GAMING_DAYS + "count/",
        "count-gaming-day",
        s.CountSerializer,
        "The close's count: every tray and box and the cage; differences become exceptions",
    ),
    _cage(
        COMMANDS.explain_difference,
        GAMING_DAYS + "explain/",
        "explain",
        s.ExplainSerializer,
        "Give a count difference its reason code; the difference is booked",
    ),
    _cage(
        COMMANDS.close_gaming_day,
        GAMING_DAYS + "close/",
        "close-gaming-day",
        s.CommandSerializer,
        "Close the gaming day: boxes to the cage, tips paid, the report kept",
    ),
    # players' chips and cash
    _cage(
        COMMANDS.sell_chips,
        "cage/chips-sold/",
        "sell-chips",
        s.SellChipsSerializer,
        "The cage sells a player chips for cash, by card or by cheque",
    ),
    _cage(
        COMMANDS.cash_out,
        "cage/cash-outs/",
        "cash-out",
        s.CashOutSerializer,
        "The cage pays a player for their chips: cash, casino cheque or transfer",
    ),
    _cage(
        COMMANDS.certify_winnings,
        "cage/winnings-certificates/",
        "certify-winnings",
        s.WinningsCertificateSerializer,
        "A certificate of winnings, to an identified patron, up to the day's result at the cage",
    ),
    _cage(
        COMMANDS.buy_in_at_cage,
        "cage/buy-ins/",
        "buy-in-at-cage",
        s.CageBuyInSerializer,
        "A seated player pays at the cage; the chips go to their seat",
    ),
    # a cage entry booked by mistake, voided with its reason (issue 22)
    _cage(
        COMMANDS.void_entry,
        "cage/transactions/<uuid:transaction_id>/void/",
        "void-entry",
        s.VoidEntrySerializer,
        "Void a cage entry booked by mistake: a new transaction reverses it, with the reason",
    ),
    # fills and credits
    _cage(
        COMMANDS.confirm_tray_move,
        TRAY_REQUEST + "confirm/",
        "confirm-tray-move",
        s.CommandSerializer,
        "The cage confirms a fill or credit (another person than who asked)",
    ),
    _cage(
        COMMANDS.cancel_tray_move,
        TRAY_REQUEST + "cancel/",
        "cancel-tray-move",
        s.CancelTrayMoveSerializer,
        "Cancel a fill or credit not yet confirmed",
    ),
    _cage(
        COMMANDS.request_tray_move,
        "tables/<uuid:table_id>/tray-requests/",
        "request-tray-move",
        s.TrayMoveSerializer,
        "The jefe asks the cage for a fill or a credit",
    ),
    _cage(
        COMMANDS.take_chips_off,
        "tables/<uuid:table_id>/chips-off/",
        "chips-off",
        s.ChipsOffSerializer,
        "Chips off a stack for a tip or hospitality, at most 15 EUR (CM-15)",
    ),
    # jackpots
    _cage(
        COMMANDS.create_jackpot,
        "jackpots/create/",
        "create-jackpot",
        s.CreateJackpotSerializer,
        "A progressive jackpot, seeded from the cage",
    ),
    _cage(
        COMMANDS.stake_jackpot,
        JACKPOT + "stakes/",
        "stakes",
        s.JackpotStakesSerializer,
        "A hand's jackpot stakes, seat by seat",
    ),
    _cage(
        COMMANDS.pay_jackpot,
        JACKPOT + "pay/",
        "pay-jackpot",
        s.JackpotWinnersSerializer,
        "Pay a hand's jackpot winners (GA 8b, PT-SD 12)",
    ),
)
