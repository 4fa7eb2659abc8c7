"""Mixins that hold one concern of an aggregate, its events included.

The event-sourcing library defines an aggregate's event classes from the
``@event`` methods found in the aggregate class's own namespace (eventsourcing
``BaseAggregate.__init_subclass__``); it does not look into plain mixins. A
``TableConcern`` mixin's ``@event`` methods are copied into the namespace of
the aggregate class that uses it, just before the library looks: each becomes
that class's own event (``Table.RestStarted``), so its topic is the one stored
since the start (``floor.domain.table:Table.RestStarted``) and old events load.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import CommandMethodDecorator, MetaAggregate


class TableConcern:
    """A part of the Table aggregate: its decisions and its ``@event`` methods."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if isinstance(cls, MetaAggregate):
            for base in cls.__mro__[1:]:
                if not issubclass(base, TableConcern) or isinstance(base, MetaAggregate):
                    continue
                for name, value in vars(base).items():
                    if isinstance(value, CommandMethodDecorator) and name not in vars(cls):
                        setattr(cls, name, value)
        super().__init_subclass__(**kwargs)
