"""Shapes every part of the floor API shares: the caller's roles, a switch that
must be said, and the choices the schema names once as an enum (config/settings.py
``ENUM_NAME_OVERRIDES`` reads ``VARIANT_CHOICES`` and ``SESSION_END_CHOICES``
through the package, floor.api.serializers). The bases every command body
extends, and the refusal's shape, are the kernel's (floor.kernel.web.serializers):
the cage's bodies extend them too.
"""

from __future__ import annotations

import copy
from typing import Any

from rest_framework import serializers

from games.rake import SessionEnd
from games.variants import Variant


# A read model's serializer whose fields are built from the model once per
# class, then copied for each instance. DRF's ModelSerializer inspects the model
# and builds every field anew each time a serializer is made (field_mapping, the
# model's metadata): about half of a command's answer's serializer time (issue
# 23, bench/README.md). What it builds depends only on the class (its Meta and
# its declared fields), never on the instance or the context, so building it
# once loses nothing; each serializer still gets its own copies, as DRF copies
# declared fields, since binding a field to its parent changes it. Subclasses
# that choose their fields per instance (an overridden ``get_fields``) must not
# use this. (A comment, not a docstring: drf-spectacular would show a docstring
# as the description of every read model in the schema.)
class BuiltOnceModelSerializer(serializers.ModelSerializer):
    def get_fields(self) -> dict[str, Any]:
        cls = type(self)
        built = cls.__dict__.get("_fields_built_once")
        if built is None:  # two threads may both build it: the same fields
            built = super().get_fields()
            cls._fields_built_once = built
        return copy.deepcopy(built)


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
