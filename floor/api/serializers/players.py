"""Players and the waiting lists: their views, and the commands that register or
bar a player and put one on, or take one off, a game's list.
"""

from __future__ import annotations

from django.utils import timezone
from rest_framework import serializers

from floor.api.serializers.common import (
    BuiltOnceModelSerializer,
    Cents,
)
from floor.domain.player import CONTACT_CHANNELS
from floor.domain.waiting_list import CALL_ANSWERS, LIST_LEAVING_REASONS
from floor.kernel.web.serializers import CommandSerializer, PlayerCommandSerializer
from floor.models import (
    PlayerView,
    WaitingEntryView,
    WaitingListView,
)
from floor.notifications.texts import LANGUAGES
from games.limits import MAX_AMOUNT_CENTS, BettingLimit
from games.variants import Variant


class PlayerSerializer(BuiltOnceModelSerializer):
    # Null while the player sits at no table (as ``seat``).
    table_id = serializers.UUIDField(read_only=True, allow_null=True)

    class Meta:
        model = PlayerView
        fields = [
            "id",
            "card_number",
            "display_name",
            "barred",
            "bar_reason",
            "table_id",
            "seat",
            "registered_at",
            "in_tournament",
            "kept_apart",
        ]


class WaitingEntrySerializer(BuiltOnceModelSerializer):
    player_id = serializers.UUIDField(read_only=True)
    card_number = serializers.CharField(source="player.card_number", read_only=True)
    display_name = serializers.CharField(source="player.display_name", read_only=True)
    waiting_seconds = serializers.SerializerMethodField()

    class Meta:
        model = WaitingEntryView
        fields = [
            "position",
            "reservation",
            "player_id",
            "card_number",
            "display_name",
            "registered_at",
            "waiting_seconds",
            "status",
            "called_at",
            "call_ends_at",
            "call_table",
            "call_seat",
            # Issue 24: a remote ("called in") entry, callable once checked
            # in, expiring at ``check_in_by``; the called player's answer.
            "remote",
            "checked_in",
            "check_in_by",
            "answer",
            "answered_at",
        ]

    def get_waiting_seconds(self, entry: WaitingEntryView) -> int:
        return max(0, int((timezone.now() - entry.registered_at).total_seconds()))


class WaitingListSerializer(BuiltOnceModelSerializer):
    entries = WaitingEntrySerializer(many=True, read_only=True)

    class Meta:
        model = WaitingListView
        fields = ["id", "game", "variant", "limit", "minimum_cents", "maximum_cents", "entries"]


class RegisterPlayerSerializer(CommandSerializer):
    card_number = serializers.CharField(max_length=40)
    display_name = serializers.CharField(max_length=120)


class BarPlayerSerializer(CommandSerializer):
    reason = serializers.CharField(max_length=200)


class ResolveExclusionSerializer(CommandSerializer):
    """A director's decision on a possible match on an exclusion list (issue
    25, item 2): clear (not the listed person) or excluded."""

    decision = serializers.ChoiceField(choices=["clear", "excluded"])
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class LiftSelfExclusionSerializer(CommandSerializer):
    """A director lifts a patron's self-exclusion (issue 25, item 4), once
    the house's minimum period has passed, saying why (no personal data:
    the reason is kept in the log for good)."""

    reason = serializers.CharField(required=False, allow_blank=True, default="")


class ContactSerializer(CommandSerializer):
    """How the player wants to be told of a call (issue 24, item 3). The
    address and number are kept outside the event log; each is checked
    (floor.notifications.contacts) and the chosen channel needs its own."""

    channel = serializers.ChoiceField(choices=list(CONTACT_CHANNELS))
    email = serializers.CharField(max_length=254, required=False, allow_blank=True, default="")
    phone = serializers.CharField(
        max_length=32, required=False, allow_blank=True, default="", help_text="E.164: +34600123456"
    )
    language = serializers.ChoiceField(choices=list(LANGUAGES), default="es")


class GameSerializer(PlayerCommandSerializer):
    """A game is named by one of its tables or by variant, limit and stakes."""

    table_id = serializers.UUIDField(required=False)
    variant = serializers.ChoiceField(choices=[v.value for v in Variant], required=False)
    limit = serializers.ChoiceField(choices=[b.value for b in BettingLimit], required=False)
    minimum_cents = Cents(min_value=1, max_value=MAX_AMOUNT_CENTS, required=False)
    maximum_cents = Cents(min_value=1, max_value=MAX_AMOUNT_CENTS, required=False)

    def validate(self, attrs: dict) -> dict:
        game_fields = ("variant", "limit", "minimum_cents", "maximum_cents")
        if "table_id" not in attrs and not all(f in attrs for f in game_fields):
            raise serializers.ValidationError(
                "Name the game by table_id, or by variant, limit, minimum_cents and maximum_cents."
            )
        return attrs


class LeaveListSerializer(GameSerializer):
    reason = serializers.ChoiceField(choices=LIST_LEAVING_REASONS, default="withdrew")


class AnswerCallSerializer(GameSerializer):
    """A called player's answer [CM-6; issue 24]."""

    answer = serializers.ChoiceField(choices=CALL_ANSWERS)


class IdentitySerializer(CommandSerializer):
    """A patron's identity document (issue 25, item 1): checked by
    floor.compliance.documents (DNI/NIE check letter, passport shape, ISO
    country, an adult's birth date), each fault a 400 with its code; kept
    outside the event log, which records the kind of document and the country."""

    # Blank is let through: the check says what is missing, with its code.
    document_type = serializers.CharField(
        max_length=20, allow_blank=True, help_text="dni, nie, passport or other"
    )
    document_number = serializers.CharField(
        max_length=40, allow_blank=True, help_text="e.g. 12345678Z"
    )
    country = serializers.CharField(
        max_length=8, required=False, allow_blank=True, default="", help_text="ISO 3166-1 alpha-2"
    )
    full_name = serializers.CharField(max_length=200, allow_blank=True)
    birth_date = serializers.CharField(max_length=20, allow_blank=True, help_text="YYYY-MM-DD")


class EraseIdentitySerializer(CommandSerializer):
    """A director erases a patron's identity document (issue 25, item 4).
    Without a reason, only once the law no longer requires it (Ley 10/2010
    art. 25; Lei 83/2017 art. 51); ``recorded_in_error`` (the wrong
    patron's document, a typo) at any time, the reason recorded. Checked by
    floor.compliance.identity, a wrong reason a 400 with its code."""

    reason = serializers.CharField(
        max_length=40,
        required=False,
        allow_blank=True,
        default="",
        help_text="Blank (or retention_ended): the retention has ended. "
        "recorded_in_error: the document was not this patron's, or mistyped.",
    )


class IdentityDocumentSerializer(serializers.Serializer):
    document_number = serializers.CharField()
    country = serializers.CharField()
    full_name = serializers.CharField()
    birth_date = serializers.DateField()
    recorded_at = serializers.DateTimeField()
    recorded_by = serializers.CharField()


class ShownIdentitySerializer(serializers.Serializer):
    """A patron's identity as the reader may see it: the document itself to
    the cage, the director and the inspector only (``document``, absent for
    the others); whether identified, and with what kind of document, to all."""

    player_id = serializers.UUIDField()
    identified = serializers.BooleanField()
    document_type = serializers.CharField(allow_null=True)
    document = IdentityDocumentSerializer(required=False, allow_null=True)


class ContactExportSerializer(serializers.Serializer):
    channel = serializers.CharField()
    email = serializers.CharField()
    phone = serializers.CharField()
    language = serializers.CharField()
    updated_at = serializers.DateTimeField()
    updated_by = serializers.CharField()


class IdentityExportSerializer(IdentityDocumentSerializer):
    document_type = serializers.CharField()


class ExclusionRefusalSerializer(serializers.Serializer):
    """A refused attempt at a door (issue 25, item 2; floor.compliance.refusals):
    no name, no document."""

    at = serializers.DateTimeField()
    player_id = serializers.UUIDField()
    door = serializers.CharField()
    result = serializers.CharField()
    lists = serializers.ListField(child=serializers.CharField())
    command = serializers.CharField()
    command_id = serializers.CharField()
    actor = serializers.CharField()
    actor_role = serializers.CharField()


class PersonalDataSerializer(serializers.Serializer):
    """Everything personal kept of a patron (issue 25, item 4): contact,
    identity and the attempts refused at the doors by the exclusion lists."""

    player_id = serializers.UUIDField()
    contact = ContactExportSerializer(allow_null=True)
    identity = IdentityExportSerializer(allow_null=True)
    exclusion_refusals = ExclusionRefusalSerializer(many=True)
