"""The public board, for a TV in the room: the games running, their free
seats, and each game's waiting list by reservation number (no names).

Nobody logs in to a TV, and the board shows nothing personal: it is public.
It reloads itself every few seconds.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from floor.forms import LIMIT_LABELS, VARIANT_LABELS
from floor.selectors import players
from floor.selectors import tables as floor_tables
from games.limits import small_blind_for

# How often the TV reloads the board, in seconds (settings can shorten it).
REFRESH_SECONDS = 10


def board_games() -> list[dict]:
    """Each game with a table open or a list: its tables, seats free, and
    the reservation numbers waiting, in list order."""
    games: dict[tuple, dict] = {}

    def game(variant: str, limit: str, minimum: int, maximum: int) -> dict:
        key = (variant, limit, minimum, maximum)
        if key not in games:
            games[key] = {
                "variant": VARIANT_LABELS.get(variant, variant),
                "limit": LIMIT_LABELS.get(limit, limit),
                "small_blind_cents": small_blind_for(minimum),
                "big_blind_cents": minimum,
                "maximum_cents": maximum,
                "tables": [],
                "seats_free": 0,
                "waiting": [],
                "called": [],
            }
        return games[key]

    on_the_floor = floor_tables.tables_not_closed()
    for table in on_the_floor:
        shown = game(table.variant, table.limit, table.minimum_cents, table.maximum_cents)
        shown["tables"].append(
            {
                "label": str(table),
                "players": table.players,
                # The last hands announced at closing [CM-24; GA art. 7, 15.3].
                "last_hands_left": table.last_hands_left,
            }
        )
        shown["seats_free"] += max(table.seats - table.players, 0)
    numbers_of_tables = {t.id: t.number for t in on_the_floor}
    for waiting in players.board_lists():
        entries = sorted(waiting.entries.all(), key=lambda e: e.position)
        if not entries:
            continue
        shown = game(waiting.variant, waiting.limit, waiting.minimum_cents, waiting.maximum_cents)
        for entry in entries:
            if entry.call_table is not None:
                number = numbers_of_tables.get(entry.call_table)
                shown["called"].append(
                    {"reservation": entry.reservation, "table": number, "seat": entry.call_seat}
                )
            else:
                shown["waiting"].append(entry.reservation)
    return sorted(
        games.values(), key=lambda g: (str(g["variant"]), g["big_blind_cents"], g["maximum_cents"])
    )


def board(request: HttpRequest) -> HttpResponse:
    """The room's board (public, reloads itself): it names no one."""
    return render(
        request,
        "floor/board.html",
        {
            "games": board_games(),
            "refresh_seconds": getattr(settings, "FLOOR_BOARD_REFRESH_SECONDS", REFRESH_SECONDS),
        },
    )


board.reads = "public"  # floor.domain.reads: anyone, logged in or not
