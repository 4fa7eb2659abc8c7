"""The clocks report: the action clock called and run out [CM-20 to CM-22] and
the absence clock used [CM-18, CM-19], table by table."""

from __future__ import annotations

from floor.domain.table import Table
from floor.reports.common import (
    ReportFilter,
    event_of,
    table_columns,
    table_events,
    table_labels,
)

# The column each clock event counts in.
COUNTED = {
    Table.ActionClockStarted: "action_clocks_called",
    Table.ActionClockWarned: "action_clocks_warned",
    Table.ActionClockStopped: "action_clocks_stopped",
    Table.HandDeclaredDead: "action_clocks_expired",
    Table.AbsenceStarted: "absence_clocks_used",
    Table.AbsenceWarned: "absence_clocks_warned",
    Table.AbsenceExpired: "absence_clocks_expired",
    Table.AbsenceEnded: "absences_ended",
}
COLUMNS = ("table_id", "sector", "table", "game", *COUNTED.values())


def clocks_report(report: ReportFilter) -> list[dict]:
    """One row per table with a clock in the range, by sector and number."""
    counts: dict = {}
    for entry in table_events(report, (), in_range=COUNTED, data=False):  # counted only
        if report.covers(entry.occurred_at):
            row = counts.setdefault(entry.originator_id, dict.fromkeys(COUNTED.values(), 0))
            row[COUNTED[event_of(entry)]] += 1
    labels = table_labels(counts)
    rows = [{**table_columns(labels[t]), **row} for t, row in counts.items() if t in labels]
    return sorted(rows, key=lambda r: (r["sector"], r["table"]))
