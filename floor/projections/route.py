"""Which branch of a chain of ``isinstance`` checks an event takes, worked out
once per event class (issue 23).

A projection asks, for every event of the log, which of a dozen classes it is:
the domain's event classes answer ``isinstance`` through their metaclass, so a
chain of them cost a rebuild a microsecond or more per module and event (a
command's record, a third of the log, went through every check of every
module to match none). The answer depends on the event's class alone, so a
``Route`` keeps it per class, and the chain keeps its order and its
readability: ``matched is Table.Event`` stands where ``isinstance(event,
Table.Event)`` stood.
"""

from __future__ import annotations

from typing import Any


class Route:
    """The first of ``branches`` (a class or a tuple of classes, as
    ``isinstance`` takes) an event is an instance of, or None: what the
    chain ``if isinstance(event, branches[0]) ... elif ...`` would take."""

    def __init__(self, *branches: type | tuple[type, ...]) -> None:
        self.branches = branches
        self._by_class: dict[type, type | tuple[type, ...] | None] = {}

    def __call__(self, event: Any) -> type | tuple[type, ...] | None:
        kind = type(event)
        try:
            return self._by_class[kind]
        except KeyError:
            matched = next((b for b in self.branches if issubclass(kind, b)), None)
            self._by_class[kind] = matched
            return matched
