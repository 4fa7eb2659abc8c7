"""The bodies every command of either context extends, and the refusal's shape.

Every command body carries the command id the client draws (its idempotency);
a command naming a player names them by id or card; every refusal is
``{"code", "message", "details"}``. The floor's bodies (floor.api.serializers)
and the cage's (ledger.api.serializers) extend these, so both APIs say them
alike and the schema names them once.
"""

from __future__ import annotations

from rest_framework import serializers


class CommandIdField(serializers.UUIDField):
    """A command id is a UUID the client draws (uuid4): the docs always said so,
    and a free text (``"x"``, ``"1"``) from two clients would collide. DRF's
    field also takes an integer as a UUID; a command id is only ever a string.
    The domain gets the canonical lowercase form, so ``ABC...`` repeats ``abc...``."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return str(super().to_internal_value(data))


class CommandSerializer(serializers.Serializer):
    command_id = CommandIdField(
        help_text="Chosen by the client: a UUID (uuid4). A repeat returns the first "
        "outcome and records nothing new.",
    )


class PlayerCommandSerializer(CommandSerializer):
    player = serializers.CharField(max_length=40, help_text="The player's id or card number.")


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField(
        required=False,
        help_text="What a domain refusal names (the seat, the pot, the limit ...), by name.",
    )
