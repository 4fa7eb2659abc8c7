"""The cage API: every money command with an idempotent command id, and the
books to read (accounts, transactions, fills and credits, jackpots, days).

A command answers 201 ``{"result": ..., "transactions": [...]}`` (200 and the
first outcome for a repeated command id), each transaction with the address of
its printable receipt; a refusal is ``{"code", "message"}`` and records nothing.
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from floor.api.filters import FILTER_REFUSALS, Filters, parameter
from floor.api.views import REFUSALS, command_response
from floor.gateway import perform
from ledger import selectors as books
from ledger.api import serializers as s
from ledger.domain.accounts import CHIP_KINDS, Kind
from ledger.domain.tray_request import RequestStatus

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


class _CageCommand(APIView):
    command: str
    body: type[serializers.Serializer]

    def run(self, request: Request, **arguments: Any) -> Response:
        checked = self.body(data=request.data)
        checked.is_valid(raise_exception=True)
        data = dict(checked.validated_data)
        command_id = data.pop("command_id")
        outcome = perform(self.command, request.user, command_id, **arguments, **data)
        body = {"result": outcome.result, "transactions": transactions_of(outcome.result)}
        return command_response(outcome, body)


def cage_command(command: str, body: type[serializers.Serializer], summary: str, **url) -> type:
    """An endpoint running ``command`` with the body and the URL's ids."""

    def post(self, request: Request, **kwargs: Any) -> Response:
        return self.run(request, **{k: str(v) for k, v in kwargs.items()})

    post = extend_schema(
        request=body,
        responses={201: ANSWER, 200: ANSWER, **REFUSALS},
        summary=summary,
        operation_id=command,
    )(post)
    name = f"{command.title().replace('_', '')}View"
    return type(name, (_CageCommand,), {"command": command, "body": body, "post": post})


FundCageView = cage_command(
    "fund_cage", s.FundCageSerializer, "The house puts a float of cash and chips into the cage"
)
OpenGamingDayView = cage_command(
    "open_gaming_day", s.OpenGamingDaySerializer, "Open the cage's gaming day"
)
CountGamingDayView = cage_command(
    "count_gaming_day",
    s.CountSerializer,
    "The close's count: every tray and box and the cage; differences become exceptions",
)
ExplainDifferenceView = cage_command(
    "explain_difference",
    s.ExplainSerializer,
    "Give a count difference its reason code; the difference is booked",
)
SellChipsView = cage_command(
    "sell_chips", s.ChipsForPlayerSerializer, "The cage sells a player chips for cash"
)
BuyInAtCageView = cage_command(
    "buy_in_at_cage",
    s.CageBuyInSerializer,
    "A seated player pays at the cage; the chips go to their seat",
)
CashOutView = cage_command(
    "cash_out", s.CashOutSerializer, "The cage pays a player cash for their chips"
)
RequestTrayMoveView = cage_command(
    "request_tray_move", s.TrayMoveSerializer, "The jefe asks the cage for a fill or a credit"
)
ConfirmTrayMoveView = cage_command(
    "confirm_tray_move",
    s.CommandSerializer,
    "The cage confirms a fill or credit (another person than who asked)",
)
CancelTrayMoveView = cage_command(
    "cancel_tray_move", s.CancelTrayMoveSerializer, "Cancel a fill or credit not yet confirmed"
)
ChipsOffView = cage_command(
    "take_chips_off",
    s.ChipsOffSerializer,
    "Chips off a stack for a tip or hospitality, at most 15 EUR (CM-15)",
)
CreateJackpotView = cage_command(
    "create_jackpot", s.CreateJackpotSerializer, "A progressive jackpot, seeded from the cage"
)
StakeJackpotView = cage_command(
    "stake_jackpot", s.JackpotStakesSerializer, "A hand's jackpot stakes, seat by seat"
)
PayJackpotView = cage_command(
    "pay_jackpot", s.JackpotWinnersSerializer, "Pay a hand's jackpot winners (GA 8b, PT-SD 12)"
)


class CloseGamingDayView(_CageCommand):
    command = "close_gaming_day"
    body = s.CommandSerializer

    @extend_schema(
        request=s.CommandSerializer,
        responses={201: ANSWER, 200: ANSWER, **REFUSALS},
        summary="Close the gaming day: boxes to the cage, tips paid, the report kept",
        operation_id="close_gaming_day",
    )
    def post(self, request: Request) -> Response:
        return self.run(request)


# --- reading the books ----------------------------------------------------------------------


PAGE_MOST = 500


def _page(request: Request, queryset, serializer, default: int = 100) -> dict:
    """One page of ``queryset``: ``?offset=`` and ``?limit=`` (at most 500)."""
    given = Filters(request.query_params)
    offset = given.integer("offset", minimum=0) or 0
    limit = given.integer("limit", minimum=1, maximum=PAGE_MOST) or default
    total = queryset.count()
    rows = queryset[offset : offset + limit]
    return {"count": total, "offset": offset, "results": serializer(rows, many=True).data}


ACCOUNT_KINDS = [k.value for k in Kind]
TABLE_FILTER = parameter("table", "uuid", "Only this table's")
PLAYER_FILTER = parameter("player", "uuid", "Only this player's (their id)")
# A transaction's kind is a word the command gives it (sale, cash_out, fill ...).
TRANSACTION_KIND = r"^[a-z_]{1,20}$"


class AccountListView(APIView):
    reads = "accounts"  # the cage's books; a jefe's tables' accounts (floor.domain.reads)

    @extend_schema(
        operation_id="ledger_accounts_list",
        parameters=[
            parameter("kind", "choice", "Only accounts of this kind", choices=ACCOUNT_KINDS),
            TABLE_FILTER,
            PLAYER_FILTER,
        ],
        responses={200: s.AccountSerializer(many=True), **FILTER_REFUSALS},
    )
    def get(self, request: Request) -> Response:
        """Every account's balance, filtered by kind, table or player."""
        given = Filters(request.query_params)
        kind = given.choice("kind", ACCOUNT_KINDS)
        found = books.accounts(
            kind=kind, table_id=given.uuid("table"), player_id=given.uuid("player")
        )
        accounts = request.reader.tables(found, "table_id")
        return Response(s.AccountSerializer(accounts, many=True).data)


class TransactionListView(APIView):
    reads = "transactions"  # the cage's books; a jefe's tables' fills and credits

    @extend_schema(
        operation_id="ledger_transactions_list",
        parameters=[
            parameter("gaming_day", "day", "Only this gaming day's"),
            parameter(
                "kind", "text", "Only this kind (sale, cash_out ...)", pattern=TRANSACTION_KIND
            ),
            TABLE_FILTER,
            PLAYER_FILTER,
            parameter("offset", "integer", "Skip this many", minimum=0),
            parameter(
                "limit", "integer", "At most this many (default 100)", minimum=1, maximum=PAGE_MOST
            ),
        ],
        responses={
            200: inline_serializer(
                name="transaction_page",
                fields={
                    "count": serializers.IntegerField(),
                    "offset": serializers.IntegerField(),
                    "results": s.TransactionSerializer(many=True),
                },
            ),
            **FILTER_REFUSALS,
        },
    )
    def get(self, request: Request) -> Response:
        """The transactions, oldest first, filtered and paginated."""
        given = Filters(request.query_params)
        day = given.day("gaming_day")
        if (kind := given.text("kind", max_length=20)) and not re.fullmatch(TRANSACTION_KIND, kind):
            raise given.refuse("kind", "a kind of transaction (sale, cash_out ...)")
        found = books.transactions(
            gaming_day=day,
            kind=kind,
            table_id=given.uuid("table"),
            player_id=given.uuid("player"),
        )
        found = request.reader.transactions(found)
        return Response(_page(request, found, s.TransactionSerializer))


class TransactionDetailView(APIView):
    reads = "transactions"

    @extend_schema(responses={200: s.TransactionSerializer, 404: s.ErrorSerializer})
    def get(self, request: Request, transaction_id: UUID) -> Response:
        transaction = books.transaction(transaction_id)
        request.reader.check_transaction(transaction)
        return Response(s.TransactionSerializer(transaction).data)


REQUEST_STATUSES = [r.value for r in RequestStatus]


class TrayRequestListView(APIView):
    reads = "tray_requests"  # the cage's; a jefe's, his tables' fills and credits

    @extend_schema(
        parameters=[parameter("status", "choice", "Only these", choices=REQUEST_STATUSES)],
        responses={200: s.TrayRequestSerializer(many=True), **FILTER_REFUSALS},
    )
    def get(self, request: Request) -> Response:
        """Fills and credits, pending ones first in the cage's eyes."""
        status = Filters(request.query_params).choice("status", REQUEST_STATUSES)
        found = request.reader.tables(books.tray_requests(status), "table_id")
        return Response(s.TrayRequestSerializer(found, many=True).data)


class JackpotListView(APIView):
    reads = "jackpots"

    @extend_schema(responses=s.JackpotSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(s.JackpotSerializer(books.jackpots(), many=True).data)


class GamingDayListView(APIView):
    reads = "cage"

    @extend_schema(responses=s.GamingDaySerializer(many=True))
    def get(self, request: Request) -> Response:
        """The gaming days, newest first, each with its count and report."""
        return Response(s.GamingDaySerializer(books.gaming_days(), many=True).data)


class GamingDayDetailView(APIView):
    reads = "cage"

    @extend_schema(responses={200: s.GamingDaySerializer, 404: s.ErrorSerializer})
    def get(self, request: Request, day: str) -> Response:
        return Response(s.GamingDaySerializer(books.gaming_day(day)).data)


def cage_position() -> dict:
    """The cage now: its cash and chips, the chips out on the floor, and the
    open day's flows since its opening; chips out equal what stacks, trays
    and boxes hold."""
    balances = books.balances()
    by_kind = books.chips_out_by_kind([k.value for k in CHIP_KINDS], Kind.CAGE_CHIPS.value)
    day = books.current_gaming_day()
    flows = {}
    if day is not None:
        # The day's movements: after its opening (a float given before it is not one).
        cash_in = cash_out = chips_in = chips_out = 0
        for postings in books.cage_postings_after(day.opened_position or 0):
            cash, chips = postings.get("cage_cash", 0), postings.get("cage_chips", 0)
            cash_in, cash_out = cash_in + max(cash, 0), cash_out + max(-cash, 0)
            chips_in, chips_out = chips_in + max(chips, 0), chips_out + max(-chips, 0)
        flows = {
            "cash_in_cents": cash_in,
            "cash_out_cents": cash_out,
            "chips_in_cents": chips_in,
            "chips_out_cents": chips_out,
        }
    return {
        "gaming_day": day.day if day else None,
        "cash_cents": balances.get("cage_cash", 0),
        "chips_cents": balances.get("cage_chips", 0),
        "chips_on_the_floor_cents": sum(by_kind.values()),
        "chips_on_the_floor_by_kind": by_kind,
        "day_flows": flows,
    }


class CagePositionView(APIView):
    reads = "cage"

    @extend_schema(
        responses=inline_serializer(
            "cage_position",
            {
                "gaming_day": serializers.CharField(allow_null=True),
                "cash_cents": serializers.IntegerField(),
                "chips_cents": serializers.IntegerField(),
                "chips_on_the_floor_cents": serializers.IntegerField(),
                "chips_on_the_floor_by_kind": serializers.DictField(
                    child=serializers.IntegerField()
                ),
                "day_flows": serializers.DictField(child=serializers.IntegerField()),
            },
        )
    )
    def get(self, request: Request) -> Response:
        """The cage's position now (cash, chips, chips out) and the day's flows."""
        return Response(cage_position())
