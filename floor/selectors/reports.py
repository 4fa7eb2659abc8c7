"""The read models the reports resolve their filters on and name their rows by."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db.models import OuterRef, Subquery

from floor.models import (
    HandView,
    ListMove,
    OccupancyStep,
    PlayerView,
    SeatSession,
    SectorView,
    TableView,
    WaitingListView,
)
from floor.selectors.scopes import table_or_none
from floor.selectors.tables import tables_by_id

__all__ = ["table_or_none", "tables_by_id"]


def sector_named(name: str) -> UUID | None:
    """The id of the sector called ``name``, or None (a report's ``sector`` filter)."""
    return SectorView.objects.filter(name=name).values_list("id", flat=True).first()


def table_ids(
    sector_id: UUID | None, table_id: UUID | None, variant: str | None, limit: str | None
) -> frozenset[UUID]:
    """The ids of the tables a report's filter selects: of a sector, one table,
    a variant, a betting limit (each given narrows; none given: every table)."""
    found = TableView.objects.all()
    if sector_id:
        found = found.filter(sector_id=sector_id)
    if table_id:
        found = found.filter(id=table_id)
    if variant:
        found = found.filter(variant=variant)
    if limit:
        found = found.filter(limit=limit)
    return frozenset(found.values_list("id", flat=True))


def table_exists(table_id: Any) -> bool:
    """Whether the floor has a table of that id (a history's subject)."""
    return TableView.objects.filter(id=table_id).exists()


def player_or_none(player_id: Any) -> PlayerView | None:
    """One player, or None (a history's subject)."""
    return PlayerView.objects.filter(id=player_id).first() if player_id else None


def players_by_id(player_ids: Iterable[Any]) -> dict[Any, PlayerView]:
    """The players of ``player_ids`` that exist, by id (a past table's seats)."""
    return {p.id: p for p in PlayerView.objects.filter(id__in=player_ids)}


def waiting_lists(variant: str | None, limit: str | None) -> list[WaitingListView]:
    """The games' lists, of a variant and a betting limit when given (the waiting report)."""
    found = WaitingListView.objects.all()
    if variant:
        found = found.filter(variant=variant)
    if limit:
        found = found.filter(limit=limit)
    return list(found)


def games_played(table_ids: Iterable[UUID]) -> set[tuple]:
    """The games (variant, limit, minimum, maximum) the tables ``table_ids`` play."""
    return {
        (t.variant, t.limit, t.minimum_cents, t.maximum_cents)
        for t in TableView.objects.filter(id__in=table_ids)
    }


# --- the reports' indexed read models (floor.projections.report_views) -----------------


def occupancy_steps(
    table_ids: Iterable[UUID], start: datetime | None, end: datetime | None
) -> dict[UUID, list[tuple[datetime, int]]]:
    """Per table, the (moment, seats occupied) of each change before ``end``
    that counts from ``start`` on: those inside the range, after the last one
    before it (the count the range opens with) where seats were occupied. Two
    indexed queries, whatever the length of the log."""
    steps: dict[UUID, list[tuple[datetime, int]]] = {}
    inside = OccupancyStep.objects.filter(table_id__in=table_ids)
    if start is not None:
        before = OccupancyStep.objects.filter(table_id=OuterRef("id"), at__lt=start).order_by(
            "-at", "-position"
        )
        # A table closed before the range, or empty at its start, counts
        # nothing until its next change (inside the range, if any).
        opening = (
            TableView.objects.filter(id__in=table_ids)
            .exclude(closed_at__lt=start)
            .annotate(
                step_at=Subquery(before.values("at")[:1]),
                step_seated=Subquery(before.values("seated")[:1]),
            )
            .filter(step_at__isnull=False)
            .exclude(step_seated=0)
            .values_list("id", "step_at", "step_seated")
        )
        for table_id, at, seated in opening:
            steps[table_id] = [(at, seated)]
        inside = inside.filter(at__gte=start)
    if end is not None:
        inside = inside.filter(at__lt=end)
    for table_id, at, seated in inside.order_by("position").values_list("table_id", "at", "seated"):
        steps.setdefault(table_id, []).append((at, seated))
    return steps


def dealt_hands(
    table_ids: Iterable[UUID], start: datetime | None, end: datetime | None
) -> list[tuple[UUID, str, datetime, datetime | None]]:
    """(table, dealer, started, ended) of each hand of ``table_ids`` started in
    [start, end), per table in the order they were dealt (issue 26)."""
    found = HandView.objects.filter(table_id__in=table_ids)
    if start is not None:
        found = found.filter(started_at__gte=start)
    if end is not None:
        found = found.filter(started_at__lt=end)
    return list(
        found.order_by("table_id", "number").values_list(
            "table_id", "dealer", "started_at", "ended_at"
        )
    )


def list_moves(
    list_ids: Iterable[UUID], start: datetime | None, end: datetime | None
) -> list[tuple[UUID, str, str, int | None]]:
    """(list, kind, reason, wait) of each registration, call and removal of
    the lists ``list_ids`` in [start, end), by the moves' index."""
    found = ListMove.objects.filter(list_id__in=list_ids)
    if start is not None:
        found = found.filter(occurred_at__gte=start)
    if end is not None:
        found = found.filter(occurred_at__lt=end)
    return list(found.order_by("position").values_list("list_id", "kind", "reason", "wait_seconds"))


def seat_sessions(
    table_ids: Iterable[UUID] | None,
    start: datetime | None,
    end: datetime | None,
    player_ids: Iterable[str] | None = None,
) -> list[SeatSession]:
    """The players' seat sessions at ``table_ids`` (None: any table) that
    overlap [start, end), of ``player_ids`` (hex; None: anyone's), oldest
    first (issue 26). One indexed query."""
    found = SeatSession.objects.all()
    if table_ids is not None:
        found = found.filter(table_id__in=list(table_ids))
    if player_ids is not None:
        found = found.filter(player_id__in=list(player_ids))
    if end is not None:
        found = found.filter(started_at__lt=end)
    if start is not None:
        found = found.exclude(ended_at__lte=start)
    return list(found.order_by("started_at", "position", "player_id"))
