"""The floor's read models: sectors and tables as the consoles show them."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models
from django.db.models import F
from eventsourcing.domain import DomainEventProtocol

from floor.domain.sector import Sector
from floor.domain.table import Table, TableStatus
from floor.models import EventJournalEntry, SectorView, TableView
from floor.projections.journal import journal


class FloorProjection:
    """Sectors, tables and the event journal, from the floor application's log."""

    name = "floor"

    def read_models(self) -> Iterable[type[models.Model]]:
        """Children first, so that emptying them respects foreign keys."""
        return [TableView, SectorView, EventJournalEntry]

    def apply(self, event: DomainEventProtocol, position: int) -> None:
        """Journals every event; updates the sector and table rows it touches."""
        journal(event, position)
        if isinstance(event, Sector.Opened):
            SectorView.objects.create(
                id=event.originator_id,
                name=event.name,
                opened_at=event.timestamp,
                opened_by=event.actor,
            )
        elif isinstance(event, Sector.TableAdded):
            # Incremental on purpose: applying an event twice would show.
            SectorView.objects.filter(id=event.originator_id).update(
                table_count=F("table_count") + 1
            )
        elif isinstance(event, Table.Opened):
            TableView.objects.create(
                id=event.originator_id,
                sector_id=event.sector_id,
                number=event.number,
                variant=event.variant,
                limit=event.limit,
                minimum_cents=event.minimum_cents,
                maximum_cents=event.maximum_cents,
                seats=event.seats,
                status=TableStatus.OPEN,
                opened_at=event.timestamp,
                opened_by=event.actor,
            )
