"""What the jefe's console and the dealer's tablet read (floor.console.sector):
a sector's open tables with their seats, their hands in progress, the tables'
labels and numbers, and where the read models stand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from django.db.models import Max, Prefetch

from floor.kernel.web.live import ALL
from floor.models import (
    HandView,
    LiveMark,
    ProjectionPosition,
    SeatView,
    SectorView,
    TableView,
    WaitingEntryView,
)
from floor.selectors.tables import OPEN


def log_position() -> int:
    """The furthest position any projection has applied (0 before any): the
    consoles' live parts answer 204 while it stands still."""
    return ProjectionPosition.objects.aggregate(top=Max("position"))["top"] or 0


def live_position(scopes: Iterable[str]) -> int:
    """The last event that touched any of ``scopes`` or may show anywhere
    (floor.projections.live_marks; 0 before any): one small query, what a
    console's live part compares to answer 204."""
    marks = LiveMark.objects.filter(scope__in=[ALL, *scopes])
    return marks.aggregate(top=Max("position"))["top"] or 0


def open_tables_of(sector: SectorView) -> list[TableView]:
    """A sector's tables still on the floor, with their seats and players (the console)."""
    seats = SeatView.objects.select_related("player")  # the player's absence days too
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


def seat_calls() -> dict[UUID, dict[int, dict[str, Any]]]:
    """The seats offered to called players [CM-6]: table id -> seat -> the
    call's reservation and the end of its window (None: no window). The
    table card names whom a seat is offered to, and until when."""
    calls: dict[UUID, dict[int, dict[str, Any]]] = {}
    found = WaitingEntryView.objects.filter(status="called", call_table__isnull=False)
    for table_id, seat, reservation, ends_at in found.values_list(
        "call_table", "call_seat", "reservation", "call_ends_at"
    ):
        calls.setdefault(table_id, {})[seat] = {"reservation": reservation, "ends_at": ends_at}
    return calls


def games_with_free_waiting() -> set[tuple]:
    """The games (variant, limit, minimum, maximum) whose list has a player
    waiting who sits at no table: the one ``call_next`` would call [CM-5, CM-7]."""
    waiting = WaitingEntryView.objects.filter(
        status="waiting", checked_in=True, player__table__isnull=True
    )  # a remote entry is callable once checked in (issue 24)
    return set(
        waiting.values_list(
            "waiting_list__variant",
            "waiting_list__limit",
            "waiting_list__minimum_cents",
            "waiting_list__maximum_cents",
        ).distinct()
    )


def hand_to_end(table_id: Any) -> dict[str, Any] | None:
    """What the console's end-hand form works the contributions out from
    (issue 22): the hand in play at the table, its dealt-in seats, the blinds
    they posted (live, and the missed ones posted dead) and their stacks as
    the hand began (a stack moves only when the hand ends); None when no hand
    is in play (or not read yet)."""
    table = TableView.objects.filter(id=table_id).first()
    if table is None or not table.hand_in_progress:
        return None
    hand = HandView.objects.filter(
        table=table, number=table.hand_in_progress, ended_at__isnull=True
    ).first()
    if hand is None:
        return None
    stacks = dict(
        SeatView.objects.filter(table=table, seat__in=hand.dealt_in).values_list(
            "seat", "stack_cents"
        )
    )
    return {
        "dealt_in": list(hand.dealt_in),
        "blinds": {int(s): a for s, a in (hand.blinds or {}).items() if a},
        # Missed blinds a returning player posted dead [PT 90].
        "dead_blinds": {int(s): a for s, a in (hand.dead_blinds or {}).items() if a},
        "stacks": stacks,
    }


def game_draw(variant: str, limit: str, minimum: int, maximum: int) -> dict[str, Any]:
    """What a registering table's draw weighs (floor.domain.draws): the
    players on the game's list in its order, and the free seats of the game's
    playing tables the draw completes first (not held for a called player)
    [CM-8]. Two queries and one for the calls."""
    game = {
        "variant": variant,
        "limit": limit,
        "minimum_cents": minimum,
        "maximum_cents": maximum,
    }
    entries = WaitingEntryView.objects.filter(
        checked_in=True,  # the draw is among the players here (issue 24)
        **{f"waiting_list__{k}": v for k, v in game.items()},
    ).select_related("player")
    playing = TableView.objects.filter(status__in=["running", "suspended"], **game)
    held = seat_calls()
    free = sum(
        t.seats - t.players - len(held.get(t.id, {}))
        for t in playing.only("id", "seats", "players")
    )
    return {"listed": [e.player for e in entries.order_by("position")], "free_seats": free}
