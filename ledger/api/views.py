"""The cage API's reads: the books (accounts, transactions, fills and credits,
jackpots, days). Its commands are declared in ledger.api.commands.
"""

from __future__ import annotations

import re
from uuid import UUID

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from floor.kernel.web.filters import FILTER_REFUSALS, Filters, parameter
from ledger import selectors as books
from ledger.api import serializers as s
from ledger.domain.accounts import CHIP_KINDS, Kind
from ledger.domain.tray_request import RequestStatus

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
        cash_in = cash_out = chips_in = chips_out = bank_in = bank_out = 0
        for postings in books.cage_postings_after(day.opened_position or 0):
            cash, chips = postings.get("cage_cash", 0), postings.get("cage_chips", 0)
            cash_in, cash_out = cash_in + max(cash, 0), cash_out + max(-cash, 0)
            chips_in, chips_out = chips_in + max(chips, 0), chips_out + max(-chips, 0)
            # Cards and cheques taken, casino cheques and transfers paid (issue 25):
            # the bank's, not the drawer's, shown apart so the count is the drawer's.
            bank = postings.get("bank", 0)
            bank_in, bank_out = bank_in + max(bank, 0), bank_out + max(-bank, 0)
        flows = {
            "cash_in_cents": cash_in,
            "cash_out_cents": cash_out,
            "chips_in_cents": chips_in,
            "chips_out_cents": chips_out,
            "bank_in_cents": bank_in,
            "bank_out_cents": bank_out,
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
