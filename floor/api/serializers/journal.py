"""The event journal as the API shows it: one row per event, who, under which
role and command, and what it recorded.
"""

from __future__ import annotations

from rest_framework import serializers

from floor.api.serializers.common import BuiltOnceModelSerializer
from floor.models import (
    EventJournalEntry,
)


class JournalSerializer(BuiltOnceModelSerializer):
    event = serializers.SerializerMethodField()
    # Read from the event store with the page (floor.selectors.journal), no
    # longer a column; declared as the model's JSON column was, so the schema
    # (docs/openapi.yaml) stays the same.
    data = serializers.JSONField(required=False)

    class Meta:
        model = EventJournalEntry
        fields = [
            "position",
            "event",
            "originator_id",
            "originator_version",
            "occurred_at",
            "actor",
            "actor_role",
            "command_id",
            "rule_profile",
            "data",
        ]

    def get_event(self, entry: EventJournalEntry) -> str:
        return entry.topic.rsplit(":", 1)[-1]
