"""A player's time at the tables (issue 26, "Players' time and rating"), read
from the projected seat sessions (floor.projections.seat_sessions): what the
players' reports (floor.reports.players), the player's history (the API) and
the consoles count, alike.

A player's time runs from sitting down to leaving, being moved out or the
table closing; the minutes they rested [GA art. 20; PT 13] or were away on
the absence clock [CM-18] are left out unless the house counts them
(games.profile_rules.PlayerRating: by default neither counts). Every moment is
an event's, so the seconds are exact; a session still open runs until now. A
stretch is cut at each hour and each gaming day's start
(games.profile_rules.GamingDay), so a night played across the turn of the day
counts on each day for what was played in it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from floor.models import SeatSession
from floor.runtime import floor_app
from floor.selectors import reports as selected
from games.profile_rules import GamingDay, PlayerRating

RESTING, AWAY = "resting", "away"
HOUR = timedelta(hours=1)
# The last sessions a player's hours list.
LAST_SESSIONS = 5


def _at(text: str | None, default: datetime) -> datetime:
    return default if text is None else datetime.fromisoformat(text)


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z") if moment else None


def _hours(seconds: float) -> float:
    return round(seconds / 3600, 2)


def _hour_of(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def pause_seconds(session: SeatSession, kind: str, until: datetime) -> int:
    """The seconds of the session's pauses of ``kind`` ("resting", "away")."""
    end = session.ended_at or until
    total = 0.0
    for paused, begin, finish in session.pauses:
        if paused == kind:
            total += max(0.0, (min(_at(finish, end), end) - _at(begin, end)).total_seconds())
    return int(total)


def counted_stretches(
    session: SeatSession, rating: PlayerRating, until: datetime
) -> list[tuple[datetime, datetime]]:
    """The stretches of the session that count as played: from sitting down
    to leaving (``until`` if still seated), less the pauses the house does
    not count."""
    begin, end = session.started_at, session.ended_at or until
    if end <= begin:
        return []
    left_out = sorted(
        (_at(start, end), _at(finish, end))
        for kind, start, finish in session.pauses
        if (kind == RESTING and not rating.counts_resting)
        or (kind == AWAY and not rating.counts_away)
    )
    stretches, cursor = [], begin
    for start, finish in left_out:
        start, finish = max(start, cursor), min(finish, end)
        if start > cursor:
            stretches.append((cursor, start))
        cursor = max(cursor, finish)
    if cursor < end:
        stretches.append((cursor, end))
    return stretches


def _next_day_start(moment: datetime, day: GamingDay) -> datetime:
    zone = ZoneInfo(day.time_zone)
    local = moment.astimezone(zone)
    turn = datetime.combine(local.date(), day.starts, tzinfo=zone)
    if turn <= local:
        turn = datetime.combine(local.date() + timedelta(days=1), day.starts, tzinfo=zone)
    return turn


def pieces(begin: datetime, end: datetime, day: GamingDay) -> Iterator[tuple[float, str, int]]:
    """[begin, end) cut at each hour and each gaming day's start: (seconds,
    gaming day, local hour of day)."""
    zone = ZoneInfo(day.time_zone)
    while begin < end:
        finish = min(end, _hour_of(begin) + HOUR, _next_day_start(begin, day))
        yield (
            (finish - begin).total_seconds(),
            day.of(begin).isoformat(),
            begin.astimezone(zone).hour,
        )
        begin = finish


class Played:
    """A session as it counts: its seconds within [start, end), by gaming day
    and by (gaming day, local hour of day)."""

    def __init__(
        self,
        session: SeatSession,
        rating: PlayerRating,
        until: datetime,
        start: datetime | None = None,
        end: datetime | None = None,
    ) -> None:
        self.session = session
        self.seconds = 0.0
        self.by_day: dict[str, float] = defaultdict(float)
        self.by_hour: dict[tuple[str, int], float] = defaultdict(float)
        day = floor_app().profile.gaming_day
        for begin, finish in counted_stretches(session, rating, until):
            if start is not None:
                begin = max(begin, start)
            if end is not None:
                finish = min(finish, end)
            for seconds, gaming_day, hour in pieces(begin, finish, day):
                self.seconds += seconds
                self.by_day[gaming_day] += seconds
                self.by_hour[(gaming_day, hour)] += seconds
        self.gaming_day = day.of(session.started_at).isoformat()


def played(
    table_ids: Iterable | None,
    start: datetime | None,
    end: datetime | None,
    player_ids: Iterable[str] | None = None,
) -> list[Played]:
    """The sessions at ``table_ids`` (None: any) overlapping [start, end),
    counted as the house counts them; a session still open runs until now."""
    rating = floor_app().profile.rating
    until = floor_app().clock.now()
    if end is not None:
        until = min(until, end)
    return [
        Played(session, rating, until, start, end)
        for session in selected.seat_sessions(table_ids, start, end, player_ids)
    ]


def player_hours(player_id: str, table_ids: Iterable | None = None) -> dict:
    """One player's time (at ``table_ids``; None: anywhere): today's gaming
    day, in all, their comp points and their last sessions, for the player's
    history and the consoles."""
    rating = floor_app().profile.rating
    now = floor_app().clock.now()
    counted = played(table_ids, None, None, [player_id])
    today = floor_app().profile.gaming_day.of(now).isoformat()
    labels = selected.tables_by_id({s.session.table_id for s in counted})
    total = sum(s.seconds for s in counted)
    today_seconds = sum(s.by_day.get(today, 0.0) for s in counted)

    def table_of(s: Played) -> dict:
        table = labels.get(s.session.table_id)
        if table is None:
            return {"table": None, "game": ""}
        game = f"{table.variant}/{table.limit}/{table.minimum_cents}/{table.maximum_cents}"
        return {"table": table.number, "game": game}

    return {
        "gaming_day": today,
        "today_seconds": int(today_seconds),
        "today_hours": _hours(today_seconds),
        "seconds": int(total),
        "hours": _hours(total),
        "sessions": len(counted),
        "comp_points": sum(
            rating.comp_points(int(s.seconds), labels[s.session.table_id].minimum_cents)
            for s in counted
            if s.session.table_id in labels
        ),
        "seated_since": next(
            (_iso(s.session.started_at) for s in reversed(counted) if s.session.ended_at is None),
            None,
        ),
        "last_sessions": [
            {
                "table_id": str(s.session.table_id),
                **table_of(s),
                "started_at": _iso(s.session.started_at),
                "ended_at": _iso(s.session.ended_at),
                "seconds": int(s.seconds),
                "hours": _hours(s.seconds),
            }
            for s in counted[-LAST_SESSIONS:][::-1]
        ],
    }


def day_start(moment: datetime, day: GamingDay) -> datetime:
    """When the gaming day of ``moment`` began."""
    zone = ZoneInfo(day.time_zone)
    return datetime.combine(day.of(moment), day.starts, tzinfo=zone)


def hours_of_players(player_ids: Iterable[str]) -> dict[str, dict]:
    """Several players' time this gaming day, in one query over the
    sessions since the day began (the console's seats, the player's page):
    player (hex) -> {"today_seconds", "seated_since"}."""
    wanted = [p for p in player_ids if p]
    if not wanted:
        return {}
    now = floor_app().clock.now()
    since = day_start(now, floor_app().profile.gaming_day)
    found: dict[str, dict] = {}
    for s in played(None, since, None, wanted):
        row = found.setdefault(s.session.player_id, {"today_seconds": 0.0, "seated_since": None})
        row["today_seconds"] += s.seconds
        if s.session.ended_at is None:
            row["seated_since"] = s.session.started_at
    for row in found.values():
        row["today_seconds"] = int(row["today_seconds"])
    return found
