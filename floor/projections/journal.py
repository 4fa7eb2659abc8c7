"""The event journal: one audit row per event, whatever the aggregate."""

from __future__ import annotations

from datetime import datetime

from eventsourcing.domain import DomainEventProtocol

from floor.models import EventJournalEntry

METADATA = {
    "originator_id",
    "originator_version",
    "originator_topic",
    "timestamp",
    "actor",
    "actor_role",
    "command_id",
    "rule_profile",
}


def journal(event: DomainEventProtocol, position: int) -> None:
    """Writes the audit row of one event."""
    attributes = vars(event)
    EventJournalEntry.objects.create(
        position=position,
        topic=f"{type(event).__module__}:{type(event).__qualname__}",
        originator_id=event.originator_id,
        originator_version=event.originator_version,
        occurred_at=event.timestamp,
        actor=attributes.get("actor", ""),
        actor_role=attributes.get("actor_role", ""),
        command_id=attributes.get("command_id", ""),
        rule_profile=attributes.get("rule_profile", ""),
        data={k: _plain(v) for k, v in attributes.items() if k not in METADATA},
    )


def _plain(value: object) -> object:
    """A JSON-friendly copy of an event attribute."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)
