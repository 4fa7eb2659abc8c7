"""Mixins that hold one concern of an aggregate, its events included.

The event-sourcing library defines an aggregate's event classes from the
``@event`` methods found in the aggregate class's own namespace (eventsourcing
``BaseAggregate.__init_subclass__``); it does not look into plain mixins. A
``TableConcern`` mixin's ``@event`` methods are copied into the namespace of
the aggregate class that uses it, just before the library looks: each becomes
that class's own event (``Table.RestStarted``), so its topic is the one stored
since the start (``floor.domain.table:Table.RestStarted``) and old events load.

Only the aggregate that first takes the concerns gets them: a subclass of
``Table`` inherits Table's events like any subclass of an aggregate. Copying the
methods again onto it would make the library define the subclass's own event
classes and point the decorators at them, so every Table would from then on
record ``Sub.RestStarted`` under another topic.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import CommandMethodDecorator, MetaAggregate


class TableConcern:
    """A part of the Table aggregate: its decisions and its ``@event`` methods."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        takes_concerns = isinstance(cls, MetaAggregate) and not any(
            isinstance(base, MetaAggregate) and issubclass(base, TableConcern)
            for base in cls.__mro__[1:]
        )
        if takes_concerns:
            for base in cls.__mro__[1:]:
                if not issubclass(base, TableConcern) or isinstance(base, MetaAggregate):
                    continue
                for name, value in vars(base).items():
                    if isinstance(value, CommandMethodDecorator) and name not in vars(cls):
                        setattr(cls, name, value)
        super().__init_subclass__(**kwargs)
