"""What the jefe's console reads to offer a correction only when its command
would take it (floor.console.corrections): the tables the seats' undoable
moves came from, each with its number, status and taken seats."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from floor.models import SeatView, TableView


def seat_of(table_id: object, player: object) -> SeatView | None:
    """The seat ``player`` (id or card number) has at ``table_id``, with its
    player, or None (one query)."""
    try:
        table = UUID(str(table_id))
    except ValueError:
        return None
    text = str(player or "").strip()
    seats = SeatView.objects.select_related("player").filter(table_id=table)
    try:
        return seats.filter(player_id=UUID(text)).first()
    except ValueError:
        return seats.filter(player__card_number__iexact=text).first()


@dataclass(frozen=True)
class FormerTable:
    """A table a seated player was moved from: enough to say whether the
    move may be undone (floor.domain.corrections.undo_refusal)."""

    id: UUID
    number: int
    status: str
    taken: frozenset[int]
    hands_played: int = 0  # one in play counted: it was dealt since any move
    sector_id: UUID | None = None
    # The jefes named to run its sector (empty: any jefe) [GA art. 19.1].
    jefes: tuple[str, ...] = ()


def former_tables() -> dict[UUID, FormerTable]:
    """Every table some seated player's undoable move came from, by id, with
    its sector's jefes (two queries)."""
    wanted = {
        UUID(str(moved["table"]))
        for moved in SeatView.objects.filter(moved_from__isnull=False).values_list(
            "moved_from", flat=True
        )
        if moved and moved.get("table")
    }
    if not wanted:
        return {}
    taken: dict[UUID, set[int]] = {t: set() for t in wanted}
    for table_id, seat in SeatView.objects.filter(table_id__in=wanted).values_list(
        "table_id", "seat"
    ):
        taken[table_id].add(seat)
    return {
        t.id: FormerTable(
            t.id,
            t.number,
            t.status,
            frozenset(taken[t.id]),
            t.hands_played + (t.hand_in_progress is not None),
            t.sector_id,
            tuple(t.sector.jefes or ()),
        )
        for t in TableView.objects.filter(id__in=wanted)
        .select_related("sector")
        .only(
            "id",
            "number",
            "status",
            "hands_played",
            "hand_in_progress",
            "sector__id",
            "sector__jefes",
        )
    }
