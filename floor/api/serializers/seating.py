"""The commands that seat players: the draw [CM-3; PT 25], calls, seat changes,
leaving a table, the buy-in at the table, and the action clock [CM-21].
"""

from __future__ import annotations

from rest_framework import serializers

from floor.api.serializers.common import (
    Cents,
)
from floor.application.joining import TABLE_PAYMENTS
from floor.domain.table import LEAVING_REASONS
from floor.kernel.web.serializers import CommandSerializer, PlayerCommandSerializer
from games.limits import MAX_AMOUNT_CENTS


class DrawSerializer(CommandSerializer):
    table_ids = serializers.ListField(
        child=serializers.UUIDField(),
        min_length=1,
        max_length=4,
        required=False,
        help_text="Other tables of the same game drawn together, by suit (PT 25).",
    )


class SeatPlayerSerializer(PlayerCommandSerializer):
    seat = serializers.IntegerField(
        required=False, allow_null=True, help_text="Omit while the draw is open (CM-3)."
    )
    post_big_blind = serializers.BooleanField(default=False)
    leave_other_lists = serializers.BooleanField(default=False)


class StartActionClockSerializer(CommandSerializer):
    seat = serializers.IntegerField(help_text="The player to act.")
    pot_cents = serializers.IntegerField(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        help_text="The pot now: 2 min up to 200 EUR, 4 above.",
    )


class SeatCommandSerializer(CommandSerializer):
    seat = serializers.IntegerField()


class CallNextSerializer(CommandSerializer):
    seat = serializers.IntegerField(help_text="The free seat offered.")


class ChangeSeatSerializer(PlayerCommandSerializer):
    seat = serializers.IntegerField()


class LeaveTableSerializer(PlayerCommandSerializer):
    reason = serializers.ChoiceField(choices=LEAVING_REASONS, default="left")


class BuyInSerializer(PlayerCommandSerializer):
    amount_cents = Cents(min_value=1, max_value=MAX_AMOUNT_CENTS)
    paid_with = serializers.ChoiceField(
        choices=TABLE_PAYMENTS,
        default="cash",
        help_text="cash given at the table (chips from its tray) or the player's own "
        "chips from off the tables; a buy-in paid at the cage is the cage's "
        "(POST /api/cage/buy-ins/).",
    )
