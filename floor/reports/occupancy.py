"""The occupancy report: how full the tables were, hour by hour, and the
player hours each game drew; a seat counts from the player sitting down to
their leaving (or the table closing). The changes are projected as they
happen (floor.projections.report_views: a draw seats its assignment, a player
sitting down or moved in counts one, leaving or moved out takes one, a close
empties the table)."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta

from floor.projections.report_views import SEAT_CHANGES
from floor.reports.common import (
    ReportFilter,
    hour_of,
    hours,
    iso,
    now,
    table_columns,
    table_labels,
)
from floor.selectors import reports as selected

# The events the seat changes it adds up are projected from.
CHANGES = SEAT_CHANGES
COLUMNS = {
    "hour": ("table_id", "sector", "table", "game", "hour", "seat_seconds", "seats_occupied"),
    "game": ("game", "tables", "player_seconds", "player_hours"),
}
HOUR = timedelta(hours=1)


def _steps(report: ReportFilter) -> dict:
    """Per table, the moments its count of occupied seats changed, and to what,
    from the last change before the range on: read from the projected steps
    (floor.projections.report_views), not replayed from the table's opening,
    so the report's time does not grow with the log (issue 23)."""
    return selected.occupancy_steps(report.table_ids, report.start, report.end)


def _seat_seconds(report: ReportFilter) -> dict:
    """(table, hour) -> seat-seconds occupied in that hour, within the range."""
    until = now() if report.end is None else min(report.end, now())
    found: dict = defaultdict(float)
    for table_id, changes in _steps(report).items():
        for (at, count), following in zip(changes, [*changes[1:], (until, 0)], strict=True):
            begin, finish = report.clip(at, max(at, following[0]))
            while count and begin < finish:
                hour = hour_of(begin)
                piece = min(finish, hour + HOUR)
                found[(table_id, hour)] += (piece - begin).total_seconds() * count
                begin = piece
    return found


def occupancy_report(report: ReportFilter, by: str) -> list[dict]:
    """Seats occupied per table and hour (``hour``) or player hours per game (``game``)."""
    found = _seat_seconds(report)
    labels = table_labels({t for t, _hour in found})
    if by == "hour":
        rows = []
        for (table_id, hour), seconds in found.items():
            if table_id in labels:
                rows.append(
                    {
                        **table_columns(labels[table_id]),
                        "hour": iso(hour),
                        "seat_seconds": int(seconds),
                        # The seats occupied on average over that hour.
                        "seats_occupied": hours(seconds),
                        "_at": hour,
                    }
                )
        rows.sort(key=lambda r: (r["sector"], r["table"], r["_at"]))
        return [{k: v for k, v in row.items() if k != "_at"} for row in rows]
    games: dict = {}
    for (table_id, _hour), seconds in found.items():
        if table_id not in labels:
            continue
        game = table_columns(labels[table_id])["game"]
        row = games.setdefault(game, {"game": game, "tables": set(), "player_seconds": 0.0})
        row["tables"].add(table_id)
        row["player_seconds"] += seconds
    rows = sorted(games.values(), key=lambda r: r["game"])
    return [
        {
            "game": r["game"],
            "tables": len(r["tables"]),
            "player_seconds": int(r["player_seconds"]),
            "player_hours": hours(r["player_seconds"]),
        }
        for r in rows
    ]
