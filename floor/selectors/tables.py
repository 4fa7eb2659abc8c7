"""Sectors, tables, their seats and hands, as the API and the consoles read them."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from floor.domain.table import TableStatus
from floor.models import BalanceGroupView, HandView, SeatView, SectorView, TableView

# The statuses of a table still on the floor (the consoles show these).
OPEN = ("registering", "running", "suspended")
# A table's latest hands, at most this many (the API's hand list).
HANDS_SHOWN = 200


def sectors() -> QuerySet[SectorView]:
    """Every sector with its tables in one extra query: the API's sector list
    and detail (the reader narrows it, floor.access)."""
    return SectorView.objects.prefetch_related("tables")


def all_sectors() -> QuerySet[SectorView]:
    """Every sector, no tables: the console's home page (the reader narrows it)."""
    return SectorView.objects.all()


def no_sectors() -> QuerySet[SectorView]:
    """No sector: the home page of a user who reads none."""
    return SectorView.objects.none()


def sector(sector_id: Any) -> SectorView:
    """One sector for the API and the consoles; 404 when there is none."""
    return get_object_or_404(SectorView, id=sector_id)


def sector_of_tables(sector_id: Any) -> SectorView:
    """One sector with its tables prefetched (the API's sector); 404 when there is none."""
    return get_object_or_404(sectors(), id=sector_id)


def _seated() -> QuerySet[SeatView]:
    return SeatView.objects.select_related("player")


def table_floor(table_id: Any) -> TableView:
    """One table with its sector and its seats and their players: the jefe's
    and the dealer's view of it (TableFloorSerializer); 404 when there is none."""
    return get_object_or_404(
        TableView.objects.select_related("sector").prefetch_related(
            Prefetch("occupied_seats", queryset=_seated())
        ),
        id=table_id,
    )


def sector_floor(sector_id: Any) -> SectorView:
    """A sector with its tables, their seats and players, and the balance groups
    with a proposal (SectorFloorSerializer, the jefe's view); 404 when there is none."""
    tables = TableView.objects.select_related("sector").prefetch_related(
        Prefetch("occupied_seats", queryset=_seated())
    )
    found = get_object_or_404(
        SectorView.objects.prefetch_related(Prefetch("tables", queryset=tables)),
        id=sector_id,
    )
    found.proposing_groups = list(BalanceGroupView.objects.filter(proposal__isnull=False))
    return found


def tables() -> QuerySet[TableView]:
    """Every table with its sector: the API's table list (the reader narrows it)."""
    return TableView.objects.select_related("sector")


def table_with_sector(table_id: Any) -> TableView:
    """One table with its sector, for the API and the scope checks; 404 when there is none."""
    return get_object_or_404(tables(), id=table_id)


def sector_tables(sector: SectorView) -> QuerySet[TableView]:
    """The tables of one sector, by number, with their sector (the API)."""
    return TableView.objects.filter(sector=sector).select_related("sector")


def dealt_tables(username: str) -> QuerySet[TableView]:
    """The tables a crupier deals and not closed: his links on the home page."""
    if not username:
        return TableView.objects.none()
    return (
        TableView.objects.filter(dealer=username).exclude(status="closed").select_related("sector")
    )


def tables_not_closed() -> list[TableView]:
    """Every table not closed, with its sector: the public board shows their games."""
    return list(TableView.objects.exclude(status=TableStatus.CLOSED).select_related("sector"))


def running_tables() -> list[TableView]:
    """The tables dealing to players now, with their sectors: the games the
    public board and the player's page show as running (issue 24, item 7).

    A table runs when its status is ``running`` and players sit at it. The
    read model says so: ``status`` is ``registering`` from its opening until
    its seats are drawn (no game yet, whoever is listed), ``suspended`` while
    fewer than the profile's minimum sit [GA art. 23; PT 24] (the same command
    that seats or unseats a player suspends or resumes it, so ``running``
    means enough players), and ``players`` counts the seats taken. Only
    registered players take seats on this floor (the dealer is staff, named
    apart, and no seat is the house's), so the seats taken are players: a
    table open with nobody, or only a dealer, does not count as a game.
    """
    return list(
        TableView.objects.filter(status=TableStatus.RUNNING, players__gt=0).select_related("sector")
    )


def open_tables() -> QuerySet[TableView]:
    """The tables still on the floor, with their sectors: the cage's console lists them."""
    return TableView.objects.filter(status__in=OPEN).select_related("sector")


def tables_by_id(table_ids: Any) -> dict[UUID, TableView]:
    """The tables of ``table_ids`` (those that exist) by id, with their sectors,
    to name them (receipts, the cage's lists, the reports)."""
    return {t.id: t for t in TableView.objects.filter(id__in=table_ids).select_related("sector")}


def table_hands(table_id: Any) -> QuerySet[HandView]:
    """The hands reported at a table, latest first, at most ``HANDS_SHOWN`` (the API)."""
    return HandView.objects.filter(table_id=table_id).order_by("-number")[:HANDS_SHOWN]
