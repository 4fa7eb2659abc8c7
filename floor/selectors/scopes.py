"""What the read rule (floor.access, floor.domain.reads) needs of the read
models to narrow a reader's lists and refuse what lies outside their scope."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from floor.models import SectorView, TableView


def sector_jefes() -> list[tuple[UUID, list[str]]]:
    """(sector id, the jefes named to run it) of every sector: a jefe reads
    the sectors he runs [GA art. 19.1]."""
    return list(SectorView.objects.values_list("id", "jefes"))


def table_ids_in(sector_ids: Iterable[UUID]) -> set[UUID]:
    """The ids of the tables of ``sector_ids`` (a jefe's sectors')."""
    return set(TableView.objects.filter(sector_id__in=sector_ids).values_list("id", flat=True))


def table_ids_dealt_by(username: str) -> set[UUID]:
    """The ids of the tables a crupier deals (he reads his own)."""
    return set(TableView.objects.filter(dealer=username).values_list("id", flat=True))


def sector_or_none(sector_id: Any) -> SectorView | None:
    """One sector, or None: to name it in a refusal."""
    return SectorView.objects.filter(id=sector_id).first()


def table_or_none(table_id: Any) -> TableView | None:
    """One table with its sector, or None: to name it in a refusal."""
    return TableView.objects.select_related("sector").filter(id=table_id).first()
