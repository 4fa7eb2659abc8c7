"""Shapes of the floor API: read models out, commands in.

Command serializers check types only; the rules (stakes band, seats, the four
tables of a sector) are the domain's, which answers with a code.
"""

from __future__ import annotations

from rest_framework import serializers

from floor.domain.command_record import MAX_COMMAND_ID_LENGTH
from floor.domain.sector import MAX_SECTOR_NAME_LENGTH
from floor.models import SectorView, TableView
from games.limits import MAX_AMOUNT_CENTS, BettingLimit, small_blind_for
from games.variants import Variant


class TableSerializer(serializers.ModelSerializer):
    sector_id = serializers.UUIDField(read_only=True)
    sector_name = serializers.CharField(source="sector.name", read_only=True)
    small_blind_cents = serializers.SerializerMethodField()

    class Meta:
        model = TableView
        fields = [
            "id",
            "sector_id",
            "sector_name",
            "number",
            "variant",
            "limit",
            "minimum_cents",
            "maximum_cents",
            "small_blind_cents",
            "seats",
            "status",
            "opened_at",
            "opened_by",
        ]

    def get_small_blind_cents(self, table: TableView) -> int:
        return small_blind_for(table.minimum_cents)


class SectorSerializer(serializers.ModelSerializer):
    tables = TableSerializer(many=True, read_only=True)

    class Meta:
        model = SectorView
        fields = ["id", "name", "table_count", "opened_at", "opened_by", "tables"]


class CommandSerializer(serializers.Serializer):
    command_id = serializers.CharField(
        max_length=MAX_COMMAND_ID_LENGTH,
        help_text="Chosen by the client (a UUID). A repeat returns the first "
        "outcome and records nothing new.",
    )


class OpenSectorSerializer(CommandSerializer):
    name = serializers.CharField(max_length=MAX_SECTOR_NAME_LENGTH)


class OpenTableSerializer(CommandSerializer):
    variant = serializers.ChoiceField(choices=[v.value for v in Variant])
    limit = serializers.ChoiceField(choices=[b.value for b in BettingLimit])
    minimum_cents = serializers.IntegerField(
        max_value=MAX_AMOUNT_CENTS, help_text="Table minimum (the big blind), in euro cents."
    )
    maximum_cents = serializers.IntegerField(
        max_value=MAX_AMOUNT_CENTS, help_text="Table maximum, in euro cents."
    )
    seats = serializers.IntegerField()


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())
