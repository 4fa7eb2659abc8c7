"""The dealer rotation's commands (issue 26; GA art. 19): the bodies of the
clock-in, the games a dealer may deal, a push, an override and a break. A
dealer is a crupier's username (a staff account of the crupier group); the
games are checked by the roster (floor.domain.dealer_roster), which names an
unknown one."""

from __future__ import annotations

from rest_framework import serializers

from floor.api.serializers.tables import staff_member
from floor.application.dealers import MAX_REASON_LENGTH
from floor.kernel.web.serializers import CommandSerializer


class DealerField(serializers.CharField):
    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("help_text", "Username of a crupier.")
        super().__init__(max_length=150, **kwargs)

    def to_internal_value(self, data):
        return staff_member(super().to_internal_value(data), "crupier")


def games_field(**kwargs) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.CharField(max_length=40),
        max_length=20,
        help_text="The games (variants) the dealer may deal, e.g. texas_holdem, omaha.",
        **kwargs,
    )


class DealerGamesSerializer(CommandSerializer):
    dealer = DealerField()
    games = games_field()


class ClockInDealerSerializer(CommandSerializer):
    dealer = DealerField()
    games = games_field(required=False, default=None, allow_null=True)


class DealerSerializer(CommandSerializer):
    dealer = DealerField()


class PushDealerSerializer(CommandSerializer):
    dealer = serializers.CharField(
        max_length=150,
        required=False,
        default=None,
        allow_null=True,
        help_text="The dealer the plan showed; refused if the plan has changed since.",
    )


class OverrideDealerPushSerializer(CommandSerializer):
    dealer = DealerField()
    reason = serializers.CharField(
        max_length=MAX_REASON_LENGTH,
        allow_blank=True,
        help_text="Why someone else than the plan's goes in (required).",
    )
    to_break = serializers.BooleanField(
        default=False, help_text="The dealer relieved goes on break (else to the box)."
    )
