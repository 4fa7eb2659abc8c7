"""What a command handler works on: the aggregates of one command, each loaded once.

A handler is a plain function ``handler(work, **arguments) -> Decision``: it gets
the aggregates it needs from ``work``, calls their methods (which check the
rules and trigger the events) and returns what it changed with its answer; the
command service then saves all of it, and whatever the policies derive from it
(the books), in one ``save()``. That is eventsourcing's own example shape (get,
call the aggregate, save) with the save done once, by the service.

Within a command each aggregate is loaded once (an identity map), so two
helpers touching the same table change one copy, and an aggregate created by
the command is findable by it once ``add``-ed. The command's scope check, its
decision and the books share one unit of work (issue 23, item 5): what one
loaded the others find. Outside a command (a preview's
checks, a scope check) a unit of work simply reads the store.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import TYPE_CHECKING, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from floor.kernel.context import current_context
from floor.kernel.errors import not_found

if TYPE_CHECKING:
    from eventsourcing.application import Application

    from games.profiles import RuleProfile

A = TypeVar("A", bound=Aggregate)

_current: ContextVar[UnitOfWork | None] = ContextVar("floor_unit_of_work", default=None)


class UnitOfWork:
    """One command's aggregates, loaded from ``service``'s store."""

    def __init__(self, service: Application, profile: RuleProfile) -> None:
        self.service = service
        self.profile = profile
        self._loaded: dict[UUID, Aggregate | None] = {}
        # Reads from the store, counted so a test can pin them per command.
        self.loads = 0

    def now(self) -> datetime:
        """The time of the command being decided: the time its events carry."""
        return current_context().now

    def get(self, aggregate_id: UUID) -> Aggregate | None:
        """The aggregate of that id, whatever its class, or None.

        Each id is read from the store once per unit of work, found or not: an
        account the books look up three times before opening it costs one read
        (issue 23, item 5); ``add`` replaces a remembered absence."""
        if aggregate_id in self._loaded:
            return self._loaded[aggregate_id]
        self.loads += 1
        try:
            aggregate = self.service.repository.get(aggregate_id)
        except AggregateNotFoundError:
            aggregate = None
        self._loaded[aggregate_id] = aggregate
        return aggregate

    def find(self, cls: type[A], aggregate_id: UUID) -> A | None:
        """The aggregate, or None when there is none of that class."""
        aggregate = self.get(aggregate_id)
        return aggregate if isinstance(aggregate, cls) else None

    def load(self, cls: type[A], aggregate_id: UUID | str, what: str) -> A:
        """The aggregate, or a not-found error naming ``what`` it should be."""
        try:
            aggregate_id = UUID(str(aggregate_id))
        except ValueError:
            raise not_found(f"{what}_not_found") from None
        aggregate = self.find(cls, aggregate_id)
        if aggregate is None:
            raise not_found(f"{what}_not_found")
        return aggregate

    def add(self, aggregate: A) -> A:
        """Makes an aggregate the command created findable by the rest of it
        (and saved with it)."""
        self._loaded[aggregate.id] = aggregate
        return aggregate

    def touched(self, changed: Sequence[Aggregate]) -> list[Aggregate]:
        """``changed`` and every other aggregate loaded or added here that has
        events to save, each once."""
        pending = [a for a in self._loaded.values() if a is not None and a.pending_events]
        return list({id(a): a for a in [*changed, *pending]}.values())


@contextmanager
def working(work: UnitOfWork) -> Iterator[UnitOfWork]:
    """Makes ``work`` the unit of work in force while the block runs."""
    token = _current.set(work)
    try:
        yield work
    finally:
        _current.reset(token)


def current_work() -> UnitOfWork | None:
    """The unit of work of the command being decided, if one is."""
    return _current.get()
