"""The public board, for the TV in the room: the games running with their
stakes (blinds, or a banked table's limits) and free seats, the reservation
numbers called to a seat, and each game's waiting list by reservation number.

Nobody logs in to a TV, and the board shows nothing personal: it is public,
so it names no player and shows no card, only reservation numbers [CM-6].
The page asks its own live part (``?live=1``) every second, with the room's
position it shows: 204 while nothing moved, else the new part, swapped in.
Every ``REFRESH_SECONDS`` it asks without the position (what the board says
may move with the time alone); without JavaScript the page reloads itself
then.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from floor.amounts import money
from floor.forms import LIMIT_LABELS, VARIANT_LABELS
from floor.kernel.web.live import log_position, server_now, stamp
from floor.selectors import players, waits
from floor.selectors import tables as floor_tables
from games.limits import small_blind_for
from games.variants import VARIANTS, Variant

# How often the TV asks for the whole live part however still the room is, in
# seconds (settings can shorten it); in between it asks whether anything moved.
REFRESH_SECONDS = 10


def tv_euros(cents: int) -> str:
    """An amount as the room reads it from afar: 200 -> "2 €", 50 -> "0,50 €",
    100000 -> "1.000 €" (cents only when there are some)."""
    return money(cents, whole=True)


def _banked(variant: str) -> bool:
    """Whether the house banks this game [GA art. 2-16; PG]: its table has a
    minimum and a maximum bet, no blinds."""
    try:
        return VARIANTS[Variant(variant)].banked
    except ValueError:
        return False


def board_games() -> list[dict]:
    """Each game with a table running or a list: its stakes, its tables, the
    seats free, the reservation numbers called and those waiting, in list
    order. Nothing here names a player."""
    games: dict[tuple, dict] = {}

    def game(variant: str, limit: str, minimum: int, maximum: int) -> dict:
        key = (variant, limit, minimum, maximum)
        if key not in games:
            banked = _banked(variant)
            games[key] = {
                "variant": VARIANT_LABELS.get(variant, variant),
                "banked": banked,
                # A banked game bets against the bank: no betting limit to name.
                "limit": None if banked else LIMIT_LABELS.get(limit, limit),
                "small_blind": tv_euros(small_blind_for(minimum)),
                "big_blind": tv_euros(minimum),
                "minimum": tv_euros(minimum),
                "maximum": tv_euros(maximum),
                "big_blind_cents": minimum,
                "maximum_cents": maximum,
                "tables": [],
                "seats_free": 0,
                "waiting": [],
                "here": 0,
                "called": [],
                # The wait of a player joining the list now, from the game's
                # recent history (floor.selectors.waits); None, and the board
                # says nothing of it, when there is too little history.
                "wait": None,
                "key": f"{variant}/{limit}/{minimum}/{maximum}",
            }
        return games[key]

    # Only real games (issue 24, item 7): a table counts once it deals to
    # players (floor.selectors.tables.running_tables), not while it is still
    # drawing its seats or suspended short of players. A call may name any
    # table on the floor, so every table not closed is numbered for it.
    on_the_floor = sorted(floor_tables.tables_not_closed(), key=lambda t: t.number)
    running = sorted(floor_tables.running_tables(), key=lambda t: t.number)
    for table in running:
        shown = game(table.variant, table.limit, table.minimum_cents, table.maximum_cents)
        free = max(table.seats - table.players, 0)
        shown["tables"].append(
            {
                "number": table.number,
                "seats_free": free,
                # The last hands announced at closing [CM-24; GA art. 7, 15.3].
                "last_hands_left": table.last_hands_left,
            }
        )
        shown["seats_free"] += free
    numbers_of_tables = {t.id: t.number for t in on_the_floor}
    for waiting in players.board_lists():
        entries = sorted(waiting.entries.all(), key=lambda e: e.position)
        played = (waiting.variant, waiting.limit, waiting.minimum_cents, waiting.maximum_cents)
        if not entries or (played not in games and not any(e.checked_in for e in entries)):
            # Only real games (issue 24, item 7): a game no table plays shows
            # once someone in the room waits for it, not for phones alone.
            continue
        shown = game(waiting.variant, waiting.limit, waiting.minimum_cents, waiting.maximum_cents)
        for entry in entries:
            if entry.call_table is not None:
                number = numbers_of_tables.get(entry.call_table)
                shown["called"].append(
                    {
                        "reservation": entry.reservation,
                        "table": number,
                        "seat": entry.call_seat,
                        # The called player has until then to appear [CM-6].
                        "until": entry.call_ends_at,
                    }
                )
            else:
                shown["waiting"].append(entry.reservation)
                # Only those in the room are called (issue 24, item 2).
                shown["here"] += 1 if entry.checked_in else 0
    now = server_now()
    for shown in games.values():
        if shown["tables"]:  # no table open: no seat frees, no estimate
            wait = waits.estimate_wait(shown["key"], shown["here"] + 1, now)
            # A seat free for whoever joins: the board says so already.
            shown["wait"] = wait if wait is not None and wait.expected_minutes > 0 else None
    return sorted(
        games.values(), key=lambda g: (str(g["variant"]), g["big_blind_cents"], g["maximum_cents"])
    )


def board(request: HttpRequest) -> HttpResponse:
    """The room's board (public, updates itself): it names no one. With
    ``?live=1`` only its live part, which the page swaps in; with ``since``
    too (the room's position the TV last showed, X-Floor-Position), 204 while
    nothing moved. The board shows every game, so its position is the room's."""
    position = log_position()
    if request.GET.get("live") and request.GET.get("since") == position:
        # Nothing moved in the room since the TV's last look: a TV left on all
        # night costs one small query a second (issue 22, item 4).
        return stamp(HttpResponse(status=204), position)
    context = {
        "games": board_games(),
        "refresh_seconds": getattr(settings, "FLOOR_BOARD_REFRESH_SECONDS", REFRESH_SECONDS),
        "poll_ms": settings.FLOOR_CONSOLE_POLL_MS,
        "position": position,
    }
    if request.GET.get("live"):
        return stamp(render(request, "floor/_board_live.html", context), position)
    return stamp(render(request, "floor/board.html", context), position)


board.reads = "public"  # floor.domain.reads: anyone, logged in or not
