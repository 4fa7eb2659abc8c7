"""Aggregate states held in memory by the projection (issue 23, item 2).

The read models that are rewritten from an aggregate's state (tables, players,
waiting lists, balancing groups, the books' tray requests and gaming days) need
the aggregate *as it stood right after* each event. Loading it from the store
per event (``repository.get(id, version=...)``) was a quarter of a rebuild's
time: the snapshot, then every event since, again and again for a table that
lives all day. The projection sees every event in order, so it folds each one
onto the state it already holds (``event.mutate(aggregate)``, what the
library's own replay does) and loads from the store only on a miss, or when the
state it holds is not the version just before (a gap: another process
projected the events between, or a batch was rolled back and is read again).

The states are kept in a least-recently-used cache (``Recent``), bounded, so memory stays flat
however long the log: an aggregate not seen for a while is dropped and loaded
again if it comes back. A state handed out must not be changed by its reader:
the next event of that aggregate is folded onto the same object.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import CanInitAggregate, DomainEventProtocol

# Aggregates held at most: a big room's open tables, its players of the day and
# its lists fit with room to spare; a table is a few kilobytes.
DEFAULT_MAXSIZE = 5_000


class Recent:
    """The library's ``LRUCache`` as the states use it (``get`` raising
    ``KeyError`` on a miss, ``put``, the least recently used dropped past
    ``maxsize``), on an ``OrderedDict``: without the lock and the linked list
    of links the library's keeps for threads, which were 2 to 3 us of every
    event's fold (issue 23, sixth pass). A projection applies its events in
    one thread."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self.cache: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any) -> Any:
        value = self.cache[key]
        self.cache.move_to_end(key)
        return value

    def put(self, key: Any, value: Any) -> None:
        cache = self.cache
        cache[key] = value
        cache.move_to_end(key)
        if len(cache) > self.maxsize:
            cache.popitem(last=False)


class AggregateStates:
    """The aggregate after each event, folded in memory, loaded on a miss."""

    def __init__(
        self, application: Callable[[], Application], maxsize: int = DEFAULT_MAXSIZE
    ) -> None:
        self.application = application
        self.cache = Recent(maxsize)
        self.loads = 0  # how many states came from the store (a bench's figure)
        self.folds = 0  # how many events were folded in memory

    def observe(self, event: DomainEventProtocol) -> None:
        """Folds ``event`` onto the aggregate's state if one is held, right
        before it; every event of the log passes here, in order, so a state
        once loaded follows its aggregate without a store read. An aggregate
        not held is not loaded (a transaction of the books is never read back)."""
        held = self.cache.cache.get(event.originator_id)
        if held is not None and held.version == event.originator_version - 1:
            self.cache.put(event.originator_id, event.mutate(held))
            self.folds += 1

    def __call__(self, event: DomainEventProtocol) -> Any:
        """The aggregate as it stood right after ``event`` (the ``state``
        callable the read models take): equal to
        ``repository.get(event.originator_id, version=event.originator_version)``."""
        version = event.originator_version
        try:
            held = self.cache.get(event.originator_id)
        except KeyError:
            held = None
        if held is not None and held.version == version:
            return held
        if held is not None and held.version == version - 1:
            folded = event.mutate(held)
            self.folds += 1
        elif held is None and isinstance(event, CanInitAggregate):
            # The event that creates the aggregate: its state is the event's
            # alone, as the store's replay would make it. A big room's
            # players are each read once, at registration, and never before:
            # loading them from the store was one query a newcomer (28,757 of
            # them on the million-event log, about a tenth of its rebuild).
            folded = event.mutate(None)
            self.folds += 1
        else:
            folded = self.application().repository.get(event.originator_id, version=version)
            self.loads += 1
        self.cache.put(event.originator_id, folded)
        return folded

    def clear(self) -> None:
        """Forgets every state (a rebuild starts from nothing)."""
        self.cache = Recent(self.cache.maxsize)
