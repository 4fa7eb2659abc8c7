"""The waiting lists report: how long players waited for a seat, how often the
jefe called, and who did not come when called [CM-5, CM-6; PT 12]."""

from __future__ import annotations

from floor.models import ListMove
from floor.projections.report_views import LIST_EVENTS as PROJECTED_FROM
from floor.reports.common import ReportFilter, percentile
from floor.selectors import reports as selected

# The events a list's waits, calls and removals are projected from.
LIST_EVENTS = PROJECTED_FROM

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
    """One row per game's list: waits end when the player is seated from it.
    The moves are projected as they happen (floor.projections.report_views),
    each removal with the wait it ended, so only the range's are read.

    A wait is the player's time at the floor waiting for a seat: a walk-in's
    from their registration, a remote ("called in") entry's from the jefe's
    check-in (issue 24, item 2), as until then the player was not in the
    room and could not be called [PT 12; CM-5; CM-6]. A remote entry that
    expired before its player arrived ("remote_expired") or was withdrawn
    counts as a registration and among no waits: only a seating ends one."""
    games = _games(report)
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
    for list_id, kind, reason, wait in selected.list_moves(games, report.start, report.end):
        row = rows[list_id]
        if kind == ListMove.REGISTERED:
            # Registering again starts a new wait under a new number [CM-6].
            row["registrations"] += 1
        elif kind == ListMove.CALLED:
            row["calls"] += 1
        elif reason == "seated" and wait is not None:
            row["seated"] += 1
            row["waits"].append(wait)
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
