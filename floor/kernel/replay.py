"""Rebuilding an aggregate from its events, without the library's per-event type check.

eventsourcing's ``project_aggregate`` asserts ``isinstance(event,
CanMutateProtocol)`` before each ``event.mutate``. On Python 3.11 an isinstance
against a runtime-checkable Protocol walks the protocol's members every call:
measured here about 69 us against 12 us for the ``mutate`` itself, so the
assert is most of an aggregate's replay (issue 23, item 5; figures in
bench/README.md, "Replay"). It checks nothing our events could fail: each of
them is an ``eventsourcing.domain`` aggregate event, rebuilt by the mapper from
its topic, and an object without ``mutate`` fails on the call just the same
(an AttributeError, never a silent skip). ``python -O`` drops the assert too;
we drop it for our own application only, and keep the library's projector
everywhere else.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from eventsourcing.application import Repository


def project_events(aggregate: Any, events: Iterable[Any]) -> Any:
    """The aggregate after ``events`` (from ``aggregate``, or None: from its
    creation): what ``project_aggregate`` returns, without its assert."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


class OwnRepository(Repository):
    """The library's repository, replaying with ``project_events`` unless the
    caller names another projector."""

    def get(self, aggregate_id: Any, *, version: int | None = None, **options: Any) -> Any:
        options.setdefault("projector_func", project_events)
        return super().get(aggregate_id, version=version, **options)
