"""The base of every aggregate of ours: events that carry their audit metadata."""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import Aggregate

from floor.kernel.context import current_context


class AuditedAggregate(Aggregate):
    """An aggregate whose every event names its actor, role, command and profile.

    The metadata and the timestamp come from the command context in force
    (floor.kernel.context), so the injected clock dates every event.
    """

    class Event(Aggregate.Event):
        actor: str
        actor_role: str
        command_id: str
        rule_profile: str

    class Created(Event, Aggregate.Created):
        pass

    @classmethod
    def _create(cls, event_class, *, id=None, **kwargs: Any):  # noqa: A002
        kwargs.update(current_context().event_metadata())
        return super()._create(event_class, id=id, **kwargs)

    def trigger_event(self, event_class, **kwargs: Any) -> None:
        kwargs.update(current_context().event_metadata())
        super().trigger_event(event_class, **kwargs)
