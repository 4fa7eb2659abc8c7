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
