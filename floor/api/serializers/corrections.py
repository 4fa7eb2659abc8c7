"""The jefe's corrections at a table (floor.application.corrections): each
with its reason from a closed list and a note ("other" needs one)."""

from __future__ import annotations

from rest_framework import serializers

from floor.domain.corrections import MAX_NOTE_LENGTH, STACK_FIX_REASONS, UNDO_REASONS
from floor.kernel.web.serializers import PlayerCommandSerializer
from games.limits import MAX_AMOUNT_CENTS


class UndoMoveSerializer(PlayerCommandSerializer):
    reason_code = serializers.ChoiceField(choices=UNDO_REASONS)
    note = serializers.CharField(
        max_length=MAX_NOTE_LENGTH, required=False, default="", allow_blank=True
    )


class FixStackSerializer(PlayerCommandSerializer):
    stack_cents = serializers.IntegerField(
        min_value=0, max_value=MAX_AMOUNT_CENTS, help_text="The stack really there, in cents."
    )
    reason_code = serializers.ChoiceField(choices=STACK_FIX_REASONS)
    note = serializers.CharField(
        max_length=MAX_NOTE_LENGTH, required=False, default="", allow_blank=True
    )
