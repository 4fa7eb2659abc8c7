"""The waiting lists report: how long players waited for a seat, how often the
jefe called, and who did not come when called [CM-5, CM-6; PT 12]."""

from __future__ import annotations

from datetime import datetime

from floor.domain.waiting_list import WaitingList
from floor.reports.common import ReportFilter, event_of, percentile
from floor.selectors import journal
from floor.selectors import reports as selected

# The events a list's waits, calls and removals are replayed from.
LIST_EVENTS = (WaitingList.Registered, WaitingList.Called, WaitingList.Removed)

COLUMNS = (
    "game",
    "registrations",
    "seated",
    "median_wait_seconds",
    "p90_wait_seconds",
    "calls",
    "no_shows",
    "withdrew",
)


def _games(report: ReportFilter) -> dict:
    """The lists of the games asked for; a sector or table asks for the games
    its tables play (a list is the game's, not a table's)."""
    lists = selected.waiting_lists(report.variant, report.limit)
    if report.sector_id or report.table_id:
        played = selected.games_played(report.table_ids)
        return {
            w.id: w.game
            for w in lists
            if (w.variant, w.limit, w.minimum_cents, w.maximum_cents) in played
        }
    return {w.id: w.game for w in lists}


def waiting_report(report: ReportFilter) -> list[dict]:
    """One row per game's list: waits end when the player is seated from it."""
    games = _games(report)
    events = journal.events_of_aggregates(games, LIST_EVENTS, report.end)
    rows = {
        list_id: {
            "game": game,
            "registrations": 0,
            "seated": 0,
            "calls": 0,
            "no_shows": 0,
            "withdrew": 0,
            "waits": [],
        }
        for list_id, game in games.items()
    }
    waiting_since: dict[tuple, datetime] = {}
    for entry in events:
        row, kind, data = rows[entry.originator_id], event_of(entry), entry.data
        inside = report.covers(entry.occurred_at)
        key = (entry.originator_id, data.get("player_id"))
        if kind is WaitingList.Registered:
            # Registering again starts a new wait under a new number [CM-6].
            waiting_since[key] = datetime.fromisoformat(data["at"])
            row["registrations"] += inside
        elif kind is WaitingList.Called:
            row["calls"] += inside
        elif kind is WaitingList.Removed:
            since = waiting_since.pop(key, None)
            if not inside:
                continue
            reason = data.get("reason")
            if reason == "seated" and since is not None:
                row["seated"] += 1
                row["waits"].append(int((entry.occurred_at - since).total_seconds()))
            elif reason == "absent_when_called":
                row["no_shows"] += 1
            elif reason == "withdrew":
                row["withdrew"] += 1
    answer = []
    for row in sorted(rows.values(), key=lambda r: r["game"]):
        waits = row.pop("waits")
        if not any(row[k] for k in ("registrations", "seated", "calls", "no_shows", "withdrew")):
            continue  # nothing happened on this list in the range
        row["median_wait_seconds"] = percentile(waits, 0.5)
        row["p90_wait_seconds"] = percentile(waits, 0.9)
        answer.append({c: row[c] for c in COLUMNS})
    return answer
