"""Sectors and tables: their views (a table with who sits where, its time-charged
session [GA art. 18.3b; PT 7b]) and the commands that open, staff and close
them, and announce the casino's closing [GA art. 4, 11, 19; CM-24].
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from floor.api.serializers.common import (
    SESSION_END_CHOICES,
    VARIANT_CHOICES,
    BuiltOnceModelSerializer,
)
from floor.domain.seat import SEAT_FLAGS
from floor.domain.sector import MAX_SECTOR_NAME_LENGTH
from floor.domain.table import CLOSING_REASONS
from floor.kernel.web.serializers import CommandSerializer
from floor.models import (
    SeatView,
    SectorView,
    TableView,
)
from floor.selectors.players import is_staff_member
from games.limits import MAX_AMOUNT_CENTS, BettingLimit, small_blind_for


class TableSerializer(BuiltOnceModelSerializer):
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
            "ante_cents",
            "rake",
            "seats",
            "status",
            "dealer",
            "opened_at",
            "opened_by",
        ]

    def get_small_blind_cents(self, table: TableView) -> int:
        return small_blind_for(table.minimum_cents)


class SectorSerializer(BuiltOnceModelSerializer):
    tables = TableSerializer(many=True, read_only=True)

    class Meta:
        model = SectorView
        fields = ["id", "name", "table_count", "opened_at", "opened_by", "jefes", "tables"]


NO_SUCH_STAFF = {
    "jefe_sector": gettext_lazy("There is no jefe de sector called %(username)s."),
    "crupier": gettext_lazy("There is no crupier called %(username)s."),
}


def staff_member(username: str, role: str) -> str:
    """A user holding ``role`` (a floor group), or the input error."""
    if not is_staff_member(username, role):
        raise serializers.ValidationError(str(NO_SUCH_STAFF[role]) % {"username": username})
    return username


class AssignJefesSerializer(CommandSerializer):
    jefes = serializers.ListField(
        child=serializers.CharField(max_length=150),
        max_length=20,
        allow_empty=True,
        help_text="Usernames of jefes de sector; empty: any jefe runs the sector.",
    )

    def validate_jefes(self, jefes: list[str]) -> list[str]:
        return [staff_member(name, "jefe_sector") for name in jefes]


class AssignDealerSerializer(CommandSerializer):
    dealer = serializers.CharField(
        max_length=150,
        allow_null=True,
        allow_blank=True,
        required=False,
        default=None,
        help_text="Username of a crupier; empty or null: nobody (the jefe reports).",
    )

    def validate_dealer(self, dealer: str | None) -> str | None:
        return staff_member(dealer, "crupier") if dealer else None


class OpenSectorSerializer(CommandSerializer):
    name = serializers.CharField(max_length=MAX_SECTOR_NAME_LENGTH)


class OpenTableSerializer(CommandSerializer):
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES)
    limit = serializers.ChoiceField(choices=[b.value for b in BettingLimit])
    minimum_cents = serializers.IntegerField(
        max_value=MAX_AMOUNT_CENTS, help_text="Table minimum (the big blind), in euro cents."
    )
    maximum_cents = serializers.IntegerField(
        max_value=MAX_AMOUNT_CENTS, help_text="Table maximum, in euro cents."
    )
    seats = serializers.IntegerField()
    second_variant = serializers.ChoiceField(
        choices=VARIANT_CHOICES,
        required=False,
        allow_null=True,
        help_text="A mixed table's second variant, where the profile allows it (PT 23).",
    )
    ante_cents = serializers.IntegerField(
        min_value=0, max_value=MAX_AMOUNT_CENTS, default=0, help_text="At most half the minimum."
    )
    rake_model = serializers.ChoiceField(
        choices=["per_hand", "per_session"],
        required=False,
        help_text="The announced house benefit; omitted: the profile's default.",
    )
    rake_percent = serializers.DecimalField(
        max_digits=5, decimal_places=2, required=False, help_text="Per hand: at most 5."
    )
    rake_cap_cents = serializers.IntegerField(
        min_value=1, max_value=MAX_AMOUNT_CENTS, required=False
    )
    rake_step_cents = serializers.IntegerField(
        min_value=1, max_value=MAX_AMOUNT_CENTS, required=False
    )
    session_percent = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    session_base = serializers.ChoiceField(choices=["table_maximum", "stack"], required=False)


class SeatSerializer(BuiltOnceModelSerializer):
    player_id = serializers.UUIDField(read_only=True)
    card_number = serializers.CharField(source="player.card_number", read_only=True)
    display_name = serializers.CharField(source="player.display_name", read_only=True)

    class Meta:
        model = SeatView
        fields = [
            "seat",
            "player_id",
            "card_number",
            "display_name",
            "stack_cents",
            *SEAT_FLAGS,  # the seat's fields the floor shows (floor.domain.seat)
        ]


class SessionRuleSerializer(serializers.Serializer):
    """Which rule ends a time-charged table's sessions [GA art. 18.3b; PT 7b]."""

    end = serializers.ChoiceField(
        choices=SESSION_END_CHOICES,
        help_text="After the hour: two more hands (GA art. 18.3b), or the hand in "
        "progress is finished (PT 7b).",
    )
    session_seconds = serializers.FloatField(help_text="The session's hour of play, in seconds.")
    hands_after_hour = serializers.IntegerField(
        allow_null=True, help_text="Hands played after the hour: 2 (GA); null under PT."
    )
    late_join_seconds = serializers.FloatField(
        allow_null=True,
        help_text="A player sitting down this long after the session's start pays it "
        "(PT 7b: 30 minutes); null under GA.",
    )
    sessions_started = serializers.IntegerField(help_text="Sessions started at the table so far.")


class SessionSerializer(serializers.Serializer):
    """The running session of a time-charged table [GA art. 18.3b; PT 7b]."""

    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    hour_at = serializers.DateTimeField(help_text="When its hour of play strikes.")
    struck = serializers.BooleanField(help_text="Whether the hour has struck.")
    hands_since_hour = serializers.IntegerField(help_text="Hands finished since the hour struck.")
    end = serializers.CharField(allow_null=True, help_text="As the table's session_rule.end.")
    hands_left = serializers.IntegerField(
        allow_null=True,
        help_text="Hands the session still plays; null until the hour strikes.",
    )
    late_join_until = serializers.DateTimeField(
        allow_null=True,
        help_text="A player sitting down until then pays this session (PT 7b); null under GA.",
    )


class TableFloorSerializer(TableSerializer):
    """A table with who sits where: the jefe's view of it."""

    occupied_seats = SeatSerializer(many=True, read_only=True)
    session = SessionSerializer(read_only=True, allow_null=True)
    session_rule = SessionRuleSerializer(read_only=True, allow_null=True)
    free_seats = serializers.SerializerMethodField()

    class Meta(TableSerializer.Meta):
        fields = [
            *TableSerializer.Meta.fields,
            "second_variant",
            "players",
            "button",
            "hands_played",
            "hand_in_progress",
            "draw_open",
            "suspended_at",
            "closes_at",
            "closed_at",
            "seat_change_requests",
            "action_clock",
            "session",
            "session_rule",
            "last_hands_left",
            "occupied_seats",
            "free_seats",
        ]

    def get_free_seats(self, table: TableView) -> list[int]:
        taken = {s.seat for s in table.occupied_seats.all()}
        return [n for n in range(1, table.seats + 1) if n not in taken]


class SectorFloorSerializer(SectorSerializer):
    tables = TableFloorSerializer(many=True, read_only=True)
    balance_proposals = serializers.SerializerMethodField()

    class Meta(SectorSerializer.Meta):
        fields = [
            *SectorSerializer.Meta.fields,
            "closes_at",
            "last_hands_at",
            "last_hands_begun",
            "balance_proposals",
        ]

    def get_balance_proposals(self, sector: SectorView) -> list[dict]:
        """The balancing moves proposed to or from this sector's tables, with
        why (RULES.md section 7)."""
        mine = {str(t.id) for t in sector.tables.all()}
        # The groups with a proposal, loaded with the sector (floor.selectors.tables.sector_floor).
        return [
            {"group_id": str(g.id), "game": g.game, **g.proposal}
            for g in sector.proposing_groups
            if {g.proposal["from_table"], g.proposal["to_table"]} & mine
        ]


class AnnounceClosingSerializer(CommandSerializer):
    closes_at = serializers.DateTimeField(
        help_text="When the casino closes; the last hands start 15 minutes before (CM-24)."
    )


class CloseTableSerializer(CommandSerializer):
    reason = serializers.ChoiceField(choices=CLOSING_REASONS, default="closed_by_jefe")
