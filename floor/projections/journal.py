"""The event journal: one audit row per event, whatever the aggregate.

Each row also carries a link of the journal's hash chain (floor.audit): its
digest covers its content and the previous row's digest, so ``manage.py
verify_log`` can show that no row was edited, added or removed since.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from eventsourcing.domain import DomainEventProtocol

from floor.audit import GENESIS, chain_digest
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


def entry_content(event: DomainEventProtocol, position: int) -> dict[str, Any]:
    """What the journal records of an event at ``position`` (floor.audit's
    CONTENT_FIELDS): shared by the projection and by the check that compares a
    row with its stored event."""
    attributes = vars(event)
    return {
        "position": position,
        "topic": f"{type(event).__module__}:{type(event).__qualname__}",
        "originator_id": event.originator_id,
        "originator_version": event.originator_version,
        "occurred_at": event.timestamp,
        "actor": attributes.get("actor", ""),
        "actor_role": attributes.get("actor_role", ""),
        "command_id": attributes.get("command_id", ""),
        "rule_profile": attributes.get("rule_profile", ""),
        "data": {k: _plain(v) for k, v in attributes.items() if k not in METADATA},
    }


def journal(event: DomainEventProtocol, position: int) -> None:
    """Writes the audit row of one event, chained to the row before it.

    Events come in position order, inside the projector's batch transaction,
    so the row before is the last one written.
    """
    content = entry_content(event, position)
    previous = (
        EventJournalEntry.objects.filter(position__lt=position)
        .order_by("-position")
        .values_list("digest", flat=True)
        .first()
    )
    if previous is None:
        previous = GENESIS
    EventJournalEntry.objects.create(
        **content,
        previous_digest=previous,
        digest=chain_digest(previous, content),
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
