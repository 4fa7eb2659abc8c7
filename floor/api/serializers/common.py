"""Shapes every part of the floor API shares: the command id every body carries,
the player a command names (by id or card), the refusal's shape, the caller's
roles, and the choices the schema names once as an enum (config/settings.py
``ENUM_NAME_OVERRIDES`` reads ``VARIANT_CHOICES`` and ``SESSION_END_CHOICES``
through the package, floor.api.serializers).
"""

from __future__ import annotations

from rest_framework import serializers

from games.rake import SessionEnd
from games.variants import Variant

# The variants a table may play, as the API offers them (one enum in the schema).
VARIANT_CHOICES = [v.value for v in Variant]
# How a time-charged session ends after its hour [GA art. 18.3b; PT 7b].
SESSION_END_CHOICES = [e.value for e in SessionEnd]


Cents = serializers.IntegerField


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


class RequiredBooleanField(serializers.BooleanField):
    """A boolean the request must give. DRF reads one missing from a form body
    as false (an unticked checkbox); a switch with no default must be said."""

    default_empty_html = serializers.empty


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField(
        required=False,
        help_text="What a domain refusal names (the seat, the pot, the limit ...), by name.",
    )


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())
