"""Shapes every part of the floor API shares: the caller's roles, a switch that
must be said, and the choices the schema names once as an enum (config/settings.py
``ENUM_NAME_OVERRIDES`` reads ``VARIANT_CHOICES`` and ``SESSION_END_CHOICES``
through the package, floor.api.serializers). The bases every command body
extends, and the refusal's shape, are the kernel's (floor.kernel.web.serializers):
the cage's bodies extend them too.
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


class RequiredBooleanField(serializers.BooleanField):
    """A boolean the request must give. DRF reads one missing from a form body
    as false (an unticked checkbox); a switch with no default must be said."""

    default_empty_html = serializers.empty


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())
