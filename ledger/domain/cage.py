"""The cage: which gaming day it works in, and the tables it keeps books for.

One per room. The gaming day is opened and closed by hand at the cage (the
floor's once-a-day rules turn with the profile's clock instead); every
transaction is dated with the cage's open day. The tables it knows are those
that ever had a tray, a drop, a rake box or a tip box: the day's count covers
each of them.
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import event

from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict
from floor.kernel.identity import name_based_id


class Cage(AuditedAggregate):
    ID = name_based_id("cage", "the cage")

    @event("Opened")
    def __init__(self, id: UUID) -> None:  # noqa: A002
        self.open_day: str | None = None
        self.tables: list[str] = []
        self.days_closed: list[str] = []

    def check_day_open(self) -> str:
        if self.open_day is None:
            raise conflict("gaming_day_not_open")
        return self.open_day

    def open_day_of(self, day: str) -> None:
        if self.open_day is not None:
            raise conflict("gaming_day_open", gaming_day=self.open_day)
        if self.days_closed and day <= self.days_closed[-1]:
            raise conflict("gaming_day_closed", gaming_day=day)
        self._day_opened(day=day)

    @event("DayOpened")
    def _day_opened(self, day: str) -> None:
        self.open_day = day

    def close_day(self) -> None:
        self._day_closed(day=self.check_day_open())

    @event("DayClosed")
    def _day_closed(self, day: str) -> None:
        self.open_day = None
        self.days_closed = [*self.days_closed, day]

    def know_table(self, table_id: str) -> None:
        if table_id not in self.tables:
            self._table_known(table_id=table_id)

    @event("TableKnown")
    def _table_known(self, table_id: str) -> None:
        self.tables = [*self.tables, table_id]
