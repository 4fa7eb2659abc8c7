"""Balancing (RULES.md section 7): a game's tables across the sectors, the move
proposed and why, and the commands that accept or override a move, grant a table
change, keep two players apart [CM-14], and start or end the tournament's
dinner break [CM-23].
"""

from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from floor.api.serializers.common import (
    BuiltOnceModelSerializer,
    RequiredBooleanField,
)
from floor.domain import balance
from floor.kernel.web.serializers import CommandSerializer, PlayerCommandSerializer
from floor.models import (
    BalanceGroupView,
    TableView,
)
from games.profiles import get_profile


class GroupTableSerializer(BuiltOnceModelSerializer):
    sector_name = serializers.CharField(source="sector.name", read_only=True)

    class Meta:
        model = TableView
        fields = ["id", "sector_id", "sector_name", "number", "status", "players", "seats"]


PLAYING = ("running", "suspended")


class BalanceGroupSerializer(BuiltOnceModelSerializer):
    """A game's tables across the sectors, how far apart they are, the move the
    service proposes and why, the table-change requests, and whether the list
    can start another table."""

    tables = serializers.SerializerMethodField()
    spread = serializers.SerializerMethodField()
    open_table = serializers.SerializerMethodField()

    class Meta:
        model = BalanceGroupView
        fields = [
            "id",
            "game",
            "tables",
            "spread",
            "proposal",
            "change_requests",
            "must_move",
            "moves",
            "open_table",
        ]

    # A group comes loaded with its tables (``group_tables``, in the group's
    # order) and the players waiting on its list (``waiting_players``) by
    # floor.selectors.balancing, for every group at once: no query per group.

    def get_tables(self, group: BalanceGroupView) -> list[dict]:
        return GroupTableSerializer(group.group_tables, many=True).data

    def get_spread(self, group: BalanceGroupView) -> int:
        playing = {str(t.id): t.players for t in group.group_tables if t.status in PLAYING}
        return balance.spread(playing)

    def get_open_table(self, group: BalanceGroupView) -> dict | None:
        tables = [t for t in group.group_tables if t.status in PLAYING]
        free = sum(t.seats - t.players for t in tables)
        profile = get_profile(settings.FLOOR_RULE_PROFILE)
        return balance.opening_proposal(group.waiting_players, free, profile.min_players)


class AcceptMoveSerializer(CommandSerializer):
    proposal_id = serializers.IntegerField(help_text="The proposal's id, as listed.")


class OverrideMoveSerializer(PlayerCommandSerializer):
    to_table_id = serializers.UUIDField()
    seat = serializers.IntegerField(required=False, allow_null=True)
    reason = serializers.CharField(max_length=200, help_text="Why this move (on record).")


class GrantTableChangeSerializer(CommandSerializer):
    to_table_id = serializers.UUIDField()
    seat = serializers.IntegerField(required=False, allow_null=True)


class StartMustMoveSerializer(CommandSerializer):
    main_table_id = serializers.UUIDField(
        help_text="The main table of the same game and stakes this table feeds."
    )


class MoveFromMustMoveSerializer(CommandSerializer):
    seat = serializers.IntegerField(
        required=False, allow_null=True, help_text="The free seat; the policy's when omitted."
    )
    post_big_blind = serializers.BooleanField(
        default=False,
        help_text="The player posts the big blind now instead of waiting for it (CM-17).",
    )


class KeepApartSerializer(CommandSerializer):
    other = serializers.CharField(max_length=40, help_text="The other player's id or card.")
    reason = serializers.CharField(max_length=200)


class AllowTogetherSerializer(CommandSerializer):
    other = serializers.CharField(max_length=40)


class DinnerBreakSerializer(CommandSerializer):
    on = RequiredBooleanField(help_text="true: the dinner break starts; false: it ends.")
