"""The event journal as the API shows it: one row per event, who, under which
role and command, and what it recorded.
"""

from __future__ import annotations

from rest_framework import serializers

from floor.api.serializers.common import BuiltOnceModelSerializer
from floor.models import (
    EventJournalEntry,
)


class StoredData(serializers.JSONField):
    """A row's ``data``, which a read of the journal without the store's data
    (``EventJournalEntry.objects`` rather than floor.selectors.journal.entries)
    leaves unset: DRF would drop the key of a field not required, so a
    response would silently lack it; this fails loudly instead."""

    def get_attribute(self, instance: EventJournalEntry):
        try:
            return instance.data
        except AttributeError:
            raise RuntimeError(
                f"journal row {instance.position} was read without its data: "
                "select it with floor.selectors.journal.entries()"
            ) from None


class JournalSerializer(BuiltOnceModelSerializer):
    event = serializers.SerializerMethodField()
    # Read from the event store with the page (floor.selectors.journal), no
    # longer a column; declared as the model's JSON column was, so the schema
    # (docs/openapi.yaml) stays the same; a row without it is an error.
    data = StoredData(required=False)

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
