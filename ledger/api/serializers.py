"""The cage API's bodies and answers."""

from __future__ import annotations

from rest_framework import serializers

from floor.kernel.web.serializers import (
    CommandSerializer,
    ErrorSerializer,
    PlayerCommandSerializer,
)

__all__ = ["CommandSerializer", "ErrorSerializer"]
from games.limits import MAX_AMOUNT_CENTS
from ledger.application.aml import PAYOUT_INSTRUMENTS, PURCHASE_INSTRUMENTS
from ledger.domain.gaming_day import REASON_CODES
from ledger.domain.jackpot import SCHEMES
from ledger.domain.voids import MAX_NOTE_LENGTH, VOID_REASONS
from ledger.models import AccountView, GamingDayView, JackpotView, TransactionView, TrayRequestView
from ledger.reasons import transaction_reason

Cents = serializers.IntegerField


class FundCageSerializer(CommandSerializer):
    cash_cents = Cents(min_value=0, max_value=MAX_AMOUNT_CENTS, default=0)
    chips_cents = Cents(min_value=0, max_value=MAX_AMOUNT_CENTS, default=0)


class OpenGamingDaySerializer(CommandSerializer):
    day = serializers.DateField(
        required=False, help_text="The gaming day (YYYY-MM-DD); today's by default."
    )
    counts = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS),
        required=False,
        help_text="Optional counts as the day opens: tray:<table>, cage_cash, cage_chips.",
    )

    def validate_day(self, value):
        return value.isoformat()


class ChipsForPlayerSerializer(PlayerCommandSerializer):
    amount_cents = Cents(min_value=1, max_value=MAX_AMOUNT_CENTS)


class SellChipsSerializer(ChipsForPlayerSerializer):
    paid_by = serializers.ChoiceField(
        choices=list(PURCHASE_INSTRUMENTS),
        required=False,
        help_text="How the patron paid: cash (the default), card or cheque.",
    )


class WinningsCertificateSerializer(ChipsForPlayerSerializer):
    pass


class CageBuyInSerializer(ChipsForPlayerSerializer):
    table_id = serializers.UUIDField()

    def validate_table_id(self, value):
        return str(value)


class CashOutSerializer(PlayerCommandSerializer):
    amount_cents = Cents(
        min_value=1,
        max_value=MAX_AMOUNT_CENTS,
        required=False,
        help_text="Leave out to cash every chip the player holds off the tables.",
    )
    paid_as = serializers.ChoiceField(
        choices=list(PAYOUT_INSTRUMENTS),
        required=False,
        help_text="How the cage pays: cash (the default), casino cheque or transfer.",
    )


class TrayMoveSerializer(CommandSerializer):
    move = serializers.ChoiceField(choices=["fill", "credit"])
    amount_cents = Cents(min_value=1, max_value=MAX_AMOUNT_CENTS)


class CancelTrayMoveSerializer(CommandSerializer):
    reason = serializers.CharField(max_length=200, required=False, default="")


class ChipsOffSerializer(PlayerCommandSerializer):
    amount_cents = Cents(min_value=1, max_value=MAX_AMOUNT_CENTS)
    purpose = serializers.ChoiceField(choices=["tip", "hospitality"])


class CreateJackpotSerializer(CommandSerializer):
    name = serializers.CharField(max_length=100)
    stake_cents = Cents(min_value=1, max_value=MAX_AMOUNT_CENTS)
    seed_cents = Cents(min_value=1, max_value=MAX_AMOUNT_CENTS)
    table_ids = serializers.ListField(child=serializers.UUIDField(), min_length=1, max_length=40)
    scheme = serializers.ChoiceField(choices=SCHEMES, required=False)

    def validate_table_ids(self, value):
        return [str(t) for t in value]


class JackpotStakesSerializer(CommandSerializer):
    table_id = serializers.UUIDField()
    stakes = serializers.DictField(
        child=Cents(min_value=1, max_value=MAX_AMOUNT_CENTS),
        help_text="Seat number -> stake in cents.",
    )

    def validate_table_id(self, value):
        return str(value)


class JackpotWinnersSerializer(CommandSerializer):
    table_id = serializers.UUIDField()
    winners = serializers.DictField(
        child=serializers.CharField(max_length=30),
        help_text="Seat number -> the hand's category (royal_flush, straight_flush ...).",
    )

    def validate_table_id(self, value):
        return str(value)


class CountSerializer(CommandSerializer):
    counts = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS),
        help_text="Account name -> cents counted (tray:<table>, drop:<table>, "
        "rake:<table>, tips:<table>, cage_cash, cage_chips). An account the "
        "books hold nothing in may be left out.",
    )


class ExplainSerializer(CommandSerializer):
    account = serializers.CharField(max_length=120)
    reason_code = serializers.ChoiceField(choices=REASON_CODES)
    note = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class VoidEntrySerializer(CommandSerializer):
    """A cage entry voided: why, from the closed list, and a note ("other" needs one)."""

    reason_code = serializers.ChoiceField(choices=VOID_REASONS)
    note = serializers.CharField(
        max_length=MAX_NOTE_LENGTH, required=False, default="", allow_blank=True
    )


class AccountSerializer(serializers.ModelSerializer):
    class Meta:
        model = AccountView
        fields = [
            "name",
            "kind",
            "table_id",
            "player_id",
            "holds_chips",
            "balance_cents",
            "total_in_cents",
            "total_out_cents",
            "updated_at",
        ]


class TransactionSerializer(serializers.ModelSerializer):
    receipt_url = serializers.SerializerMethodField()
    # ``reason`` stays the English text recorded with the transaction; the code
    # and its params say it for a program, ``reason_text`` for a person, in the
    # request's language (ledger.reasons; the stored text when there is no code).
    reason_text = serializers.SerializerMethodField()

    class Meta:
        model = TransactionView
        fields = [
            "id",
            "position",
            "kind",
            "reason",
            "reason_code",
            "reason_params",
            "reason_text",
            "gaming_day",
            "table_id",
            "player_id",
            "reference",
            "postings",
            "amount_cents",
            "actor",
            "actor_role",
            "command_id",
            "rule_profile",
            "at",
            "receipt_url",
        ]

    def get_reason_text(self, transaction: TransactionView) -> str:
        return transaction_reason(transaction)

    def get_receipt_url(self, transaction: TransactionView) -> str:
        return f"/cage/receipts/{transaction.id}/"


class TrayRequestSerializer(serializers.ModelSerializer):
    class Meta:
        model = TrayRequestView
        fields = "__all__"


class JackpotSerializer(serializers.ModelSerializer):
    fund_cents = serializers.SerializerMethodField()

    class Meta:
        model = JackpotView
        fields = ["id", "name", "scheme", "stake_cents", "seed_cents", "table_ids", "fund_cents"]

    def get_fund_cents(self, jackpot: JackpotView) -> int:
        # The fund's balance, loaded with the jackpot (ledger.selectors.jackpots).
        return jackpot.fund_cents


class GamingDaySerializer(serializers.ModelSerializer):
    class Meta:
        model = GamingDayView
        fields = "__all__"
