"""What the jefe's console and the dealer's tablet read (floor.console.sector):
a sector's open tables with their seats, their hands in progress, the tables'
labels and numbers, and where the read models stand."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import Max, Prefetch

from floor.models import HandView, ProjectionPosition, SeatView, SectorView, TableView
from floor.selectors.tables import OPEN


def log_position() -> int:
    """The furthest position any projection has applied (0 before any): the
    consoles' live parts answer 204 while it stands still."""
    return ProjectionPosition.objects.aggregate(top=Max("position"))["top"] or 0


def open_tables_of(sector: SectorView) -> list[TableView]:
    """A sector's tables still on the floor, with their seats and players (the console)."""
    seats = SeatView.objects.select_related("player")
    found = TableView.objects.prefetch_related(Prefetch("occupied_seats", queryset=seats))
    return list(found.filter(sector=sector, status__in=OPEN))


def closed_tables_count(sector: SectorView) -> int:
    """How many of a sector's tables are closed (the console says so)."""
    return TableView.objects.filter(sector=sector, status="closed").count()


def hands_in_progress(tables: list[TableView]) -> dict[tuple[UUID, int], HandView]:
    """The hands dealt and not ended at ``tables`` by (table id, number): the
    console's cards show them."""
    return {
        (h.table_id, h.number): h
        for h in HandView.objects.filter(table__in=[t for t in tables if t.hand_in_progress])
        if h.ended_at is None
    }


def open_table_labels() -> dict[str, str]:
    """Each open table's id (text) -> "sector number": the tables a player
    asking to change may be sent to."""
    return {
        str(i): f"{sector} {number}"
        for i, sector, number in TableView.objects.filter(status__in=OPEN).values_list(
            "id", "sector__name", "number"
        )
    }


def table_numbers(table_ids: list[Any]) -> dict[UUID, int]:
    """The numbers of the tables of ``table_ids`` that exist, by id (a proposal's)."""
    return dict(
        TableView.objects.filter(id__in=table_ids)
        .select_related("sector")
        .values_list("id", "number")
    )


def tables_in(table_ids: list[Any]) -> list[TableView]:
    """The tables of ``table_ids`` that exist (a balance group's targets)."""
    return list(TableView.objects.filter(id__in=table_ids))
