"""The estimated wait on a game's list (issue 24, item 6): from the game's own
recent history, never a made-up number.

What it is computed from, all of it already projected for the reports
(floor.projections.report_views), so that a request reads a few indexed rows
and never the log (issue 23's rule: a read's time must not grow with it):

- how often a seat of the game frees up, per table and hour: each step of an
  ``OccupancyStep`` where a table of the game lost exactly one player (a
  player who left, or moved out), over the hours its tables had players,
  in the window;
- how many of the game's tables are open now (``TableView``);
- the share of calls that ended with the player absent (``ListMove``: the
  removals ``absent_when_called`` over the calls [CM-6]): a player ahead who
  does not come takes no seat, so the list moves faster by that much;
- the seats free now that no call holds yet.

The window is the last ``RECENT_HOURS``; with too little in it (fewer than
``ENOUGH_FREED`` seats freed, or under ``ENOUGH_TABLE_HOURS`` of play), the
last ``LONGER_HOURS``; with too little there either, or no table of the game
open, there is no estimate (None), and the pages say so.

The range is the 10th to 90th percentile of a gamma distribution: the time
until the k-th seat frees, seats freeing as a Poisson process of the rate
measured, is Erlang (gamma of shape k); the rate itself is known only from the
n seats freed in the window, which adds a relative variance of about 1/n
(delta method). A gamma with the same mean and a squared coefficient of
variation 1/k + 1/n carries both; its quantiles are taken by the
Wilson-Hilferty approximation (a cube of a normal), within a few per cent of
the exact ones for any shape above one, with the standard library's
NormalDist: no numerical library for two quantiles. A model, not empirical
quantiles of past waits: those would need many past waits at each position
and tables open, which a list of a few hours does not have.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import NormalDist
from uuid import UUID

from django.db.models import Count, OuterRef, Q, Subquery
from django.utils.translation import gettext, ngettext

from floor.domain.table_status import TableStatus
from floor.domain.waiting_list import EntryStatus
from floor.models import ListMove, OccupancyStep, TableView, WaitingEntryView, WaitingListView

# The windows of history the estimate looks back on, the short one first.
RECENT_HOURS = 3
LONGER_HOURS = 12
# Less than this in a window is too little to estimate from.
ENOUGH_FREED = 3
ENOUGH_TABLE_HOURS = 0.5
# Fewer calls than this: the no-show share is taken as none (too few to tell).
ENOUGH_CALLS = 3
# The range's percentiles.
LOW_QUANTILE, HIGH_QUANTILE = 0.10, 0.90
# The statuses of a table that is open and can free a seat for the list.
OPEN_STATUSES = (TableStatus.RUNNING, TableStatus.SUSPENDED, TableStatus.REGISTERING)


@dataclass(frozen=True)
class WaitEstimate:
    """An estimated wait, in whole minutes, with its 10-90 % range, and what it
    was computed from (for the jefe)."""

    expected_minutes: int
    low_minutes: int
    high_minutes: int
    basis: str

    def __str__(self) -> str:
        return f"~{self.expected_minutes} min ({self.low_minutes}-{self.high_minutes})"


@dataclass(frozen=True)
class _Rate:
    """A game's recent history, as the estimate uses it."""

    per_table_hour: float  # seats freed per table and hour
    freed: int  # seats freed in the window (the rate's evidence)
    table_hours: float
    hours: int  # the window's length
    tables_open: int
    no_show_share: float
    calls: int
    no_shows: int
    free_now: int  # seats free now that no call holds

    @property
    def per_minute(self) -> float:
        return self.per_table_hour * self.tables_open / 60


def gamma_quantile(shape: float, scale: float, q: float) -> float:
    """The ``q`` quantile of a gamma distribution, by Wilson and Hilferty's
    approximation: (shape ** (1/3) of a gamma is nearly normal); never below 0."""
    z = NormalDist().inv_cdf(q)
    third = 1 / (9 * shape)
    return max(0.0, shape * scale * (1 - third + z * math.sqrt(third)) ** 3)


def _steps(
    table_ids: list[UUID], since: datetime, now: datetime
) -> dict[UUID, list[tuple[datetime, int]]]:
    """Per table, the (moment, seats occupied) of its steps in [since, now),
    after the last one before ``since`` (the count the window opens with).
    Two statements whatever the log's length, each by the index on (table,
    moment): the window's steps, sorted here (a window's few, not the log);
    each table's last step before the window, the index read backwards from
    the window's start, the steps of that one moment alone sorted by
    position (the ties of a minute: never all the table's steps)."""
    if not table_ids:
        return {}
    before = OccupancyStep.objects.filter(table_id=OuterRef("id"), at__lt=since).order_by(
        "-at", "-position"
    )
    opening = (
        TableView.objects.filter(id__in=table_ids)
        .order_by()
        .annotate(
            step_at=Subquery(before.values("at")[:1]),
            step_seated=Subquery(before.values("seated")[:1]),
        )
        .values_list("id", "step_at", "step_seated")
    )
    steps: dict[UUID, list[tuple[int, datetime, int]]] = {
        table_id: [(0, at, seated)] for table_id, at, seated in opening if at is not None
    }
    inside = OccupancyStep.objects.filter(
        table_id__in=table_ids, at__gte=since, at__lt=now
    ).values_list("table_id", "position", "at", "seated")
    for table_id, position, at, seated in inside:
        steps.setdefault(table_id, []).append((position, at, seated))
    return {
        table_id: [(at, seated) for _, at, seated in sorted(rows, key=lambda r: r[0])]
        for table_id, rows in steps.items()
    }


def _freed_and_hours(
    steps: list[tuple[datetime, int]], since: datetime, now: datetime
) -> tuple[int, float]:
    """From a table's occupancy steps (the one the window opens with first,
    when seats were occupied then): the seats that freed one at a time (a table
    closed or broken drops to nothing at once: no seat frees for the list) and
    the hours it had players within [since, now)."""
    freed, seconds = 0, 0.0
    previous, previous_at = 0, since
    for at, seated in steps:
        if previous > 0:
            seconds += (min(at, now) - max(previous_at, since)).total_seconds()
        if seated == previous - 1 and at >= since:
            freed += 1
        previous, previous_at = seated, max(at, since)
    if previous > 0:
        seconds += (now - previous_at).total_seconds()
    return freed, max(seconds, 0.0) / 3600


def _game_tables(game_key: str) -> tuple[list[UUID], int, int]:
    """The game's tables (their ids), how many are open now, and their free seats."""
    try:
        variant, limit, minimum, maximum = game_key.split("/")
        minimum_cents, maximum_cents = int(minimum), int(maximum)
    except ValueError:
        return [], 0, 0
    rows = TableView.objects.filter(
        variant=variant, limit=limit, minimum_cents=minimum_cents, maximum_cents=maximum_cents
    ).values_list("id", "status", "seats", "players")
    ids, open_now, free = [], 0, 0
    for table_id, status, seats, players in rows:
        ids.append(table_id)
        if status in OPEN_STATUSES:
            open_now += 1
            free += max(seats - players, 0)
    return ids, open_now, free


def _calls(list_id: UUID | None, since: datetime, now: datetime) -> tuple[int, int]:
    """The calls on the list in [since, now) and how many ended with the player absent."""
    if list_id is None:
        return 0, 0
    counted = ListMove.objects.filter(
        list_id=list_id, occurred_at__gte=since, occurred_at__lt=now
    ).aggregate(
        calls=Count("position", filter=Q(kind=ListMove.CALLED)),
        absent=Count("position", filter=Q(kind=ListMove.REMOVED, reason="absent_when_called")),
    )
    return counted["calls"] or 0, counted["absent"] or 0


def _rate(game_key: str, now: datetime, waiting_list: WaitingListView | None) -> _Rate | None:
    """The game's recent rate of freed seats, or None when there is too
    little history or no table of the game open."""
    table_ids, open_now, free = _game_tables(game_key)
    if not open_now:
        return None
    held = 0
    if waiting_list is not None:
        held = WaitingEntryView.objects.filter(
            waiting_list=waiting_list, status=EntryStatus.CALLED
        ).count()
    for hours in (RECENT_HOURS, LONGER_HOURS):
        since = now - timedelta(hours=hours)
        freed, table_hours = 0, 0.0
        for steps in _steps(table_ids, since, now).values():
            table_freed, played = _freed_and_hours(steps, since, now)
            freed += table_freed
            table_hours += played
        if freed >= ENOUGH_FREED and table_hours >= ENOUGH_TABLE_HOURS:
            calls, absent = _calls(waiting_list.id if waiting_list else None, since, now)
            share = absent / calls if calls >= ENOUGH_CALLS else 0.0
            return _Rate(
                per_table_hour=freed / table_hours,
                freed=freed,
                table_hours=table_hours,
                hours=hours,
                tables_open=open_now,
                no_show_share=min(share, 0.9),
                calls=calls,
                no_shows=absent,
                free_now=max(free - held, 0),
            )
    return None


def _estimate(rate: _Rate, position: int) -> WaitEstimate:
    """The wait of the player ``position``-th among those waiting: the seats
    that must free before theirs (one for each player ahead who will come, and
    their own), less those free now, at the game's rate."""
    seats_needed = 1 + (position - 1) * (1 - rate.no_show_share) - rate.free_now
    per_minute = rate.per_minute
    if seats_needed <= 0:
        # A seat is free for them now: the wait is the call's, at most the
        # time until one more seat frees.
        expected, low, high = 0.0, 0.0, 1 / per_minute
    else:
        mean = seats_needed / per_minute
        shape = 1 / (1 / seats_needed + 1 / rate.freed)
        scale = mean / shape
        expected = mean
        low = gamma_quantile(shape, scale, LOW_QUANTILE)
        high = gamma_quantile(shape, scale, HIGH_QUANTILE)
    expected_minutes = round(expected)
    return WaitEstimate(
        expected_minutes=expected_minutes,
        low_minutes=min(math.floor(low), expected_minutes),
        high_minutes=max(math.ceil(high), expected_minutes),
        basis=_basis(rate),
    )


def _basis(rate: _Rate) -> str:
    """What the estimate stood on, for the jefe, in the page's language."""
    tables = ngettext("%(n)d table open", "%(n)d tables open", rate.tables_open) % {
        "n": rate.tables_open
    }
    turnover = gettext(
        "%(freed)d seats freed in the last %(hours)d h (%(rate).1f per table and hour)"
    ) % {"freed": rate.freed, "hours": rate.hours, "rate": rate.per_table_hour}
    calls = gettext("%(absent)d of %(calls)d calls absent") % {
        "absent": rate.no_shows,
        "calls": rate.calls,
    }
    return f"{tables}; {turnover}; {calls}"


def _list_of(game_key: str) -> WaitingListView | None:
    return WaitingListView.objects.filter(game=game_key).first()


def estimate_wait(game_key: str, position: int, now: datetime) -> WaitEstimate | None:
    """The estimated wait of the player at ``position`` (1-based, among the
    players still waiting, not called) on the list of ``game_key``
    (``texas_holdem/no_limit/200/1000``), or None when the game's recent
    history is too short to tell, or no table of it is open."""
    if position < 1:
        return None
    rate = _rate(game_key, now, _list_of(game_key))
    return None if rate is None else _estimate(rate, position)


def estimates_for_list(
    game_key: str, now: datetime, *, remote_keeps_order: bool = True
) -> dict[str, WaitEstimate]:
    """Every waiting player's estimate on the list of ``game_key``, by the
    player's id as hex; empty when there is no estimate to give. The game's
    history is read once for the whole list: a constant number of queries.

    Only the players in the room are called to a seat (issue 24, item 2): a
    remote entry not checked in yet is nobody's wait ahead, and its own
    estimate is the wait it would have if its player arrived now, in its
    place (``remote_keeps_order``, the house's WaitingListRules setting) or
    last among those here."""
    waiting_list = _list_of(game_key)
    if waiting_list is None:
        return {}
    # A player seated at another table (another variant, CM-7) is not
    # called (offer_seat passes them over): nobody's wait ahead either, and
    # told the wait they would have if free now, as one not here yet.
    waiting = [
        (player_id, checked_in and seated_at is None)
        for player_id, checked_in, seated_at in WaitingEntryView.objects.filter(
            waiting_list=waiting_list, status=EntryStatus.WAITING
        )
        .order_by("position")
        .values_list("player_id", "checked_in", "player__table_id")
    ]
    if not waiting:
        return {}
    rate = _rate(game_key, now, waiting_list)
    if rate is None:
        return {}
    here_in_all = sum(1 for _player, checked_in in waiting if checked_in)
    places, here = {}, 0
    for player_id, checked_in in waiting:
        if checked_in:
            here += 1
            place = here
        else:
            place = here + 1 if remote_keeps_order else here_in_all + 1
        places[UUID(str(player_id)).hex] = place
    return {player: _estimate(rate, place) for player, place in places.items()}
