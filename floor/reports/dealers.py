"""The dealers' report (issue 26, item 4): hands dealt per dealer, and hands
per hour per dealer and table.

A hand's dealer is the crupier the table had when the hand started (its
``dealer``, named by the jefe or pushed in by the rotation [GA art. 19.1];
projected on the hand's row, floor.projections.floor_views); a hand reported
with no dealer named counts under "" (the jefe reported it). The hours are
those spent dealing: each stretch of hands one dealer dealt in a row at a
table, from its first hand's start to its last hand's end (or start), so a
dealer's time in the box or on break counts for nothing.
"""

from __future__ import annotations

from collections import defaultdict

from floor.reports.common import ReportFilter, iso, table_columns, table_labels
from floor.selectors import reports as selected

COLUMNS = {
    "dealer": ("dealer", "hands", "tables", "dealing_seconds", "hands_per_hour", "first", "last"),
    "table": (
        "dealer",
        "table_id",
        "sector",
        "table",
        "game",
        "hands",
        "dealing_seconds",
        "hands_per_hour",
    ),
}


def per_hour(hands: int, seconds: float) -> float | None:
    """Hands per hour of dealing, to the tenth (None: no time to divide by)."""
    return round(hands * 3600 / seconds, 1) if seconds > 0 else None


def _stretches(report: ReportFilter) -> dict:
    """(dealer, table) -> [hands, seconds dealing, first start, last start]."""
    found: dict = defaultdict(lambda: [0, 0.0, None, None])
    current = None  # (table, dealer, stretch start, stretch end)
    rows = selected.dealt_hands(report.table_ids, report.start, report.end)

    def close(stretch) -> None:
        if stretch is not None:
            table_id, dealer, begin, finish = stretch
            found[(dealer, table_id)][1] += (finish - begin).total_seconds()

    for table_id, dealer, started, ended in rows:
        entry = found[(dealer, table_id)]
        entry[0] += 1
        entry[2] = started if entry[2] is None else min(entry[2], started)
        entry[3] = started if entry[3] is None else max(entry[3], started)
        finish = max(started, ended or started)
        if current is not None and current[:2] == (table_id, dealer):
            current = (table_id, dealer, current[2], max(current[3], finish))
        else:
            close(current)
            current = (table_id, dealer, started, finish)
    close(current)
    return found


def dealers_report(report: ReportFilter, by: str) -> list[dict]:
    """Per dealer (``dealer``) or per dealer and table (``table``)."""
    found = _stretches(report)
    labels = table_labels({table_id for _dealer, table_id in found})
    if by == "table":
        rows = [
            {
                "dealer": dealer,
                **table_columns(labels[table_id]),
                "hands": hands,
                "dealing_seconds": int(seconds),
                "hands_per_hour": per_hour(hands, seconds),
            }
            for (dealer, table_id), (hands, seconds, _first, _last) in found.items()
            if table_id in labels
        ]
        return sorted(rows, key=lambda r: (r["dealer"], r["sector"], r["table"]))
    dealers: dict = {}
    for (dealer, table_id), (hands, seconds, first, last) in found.items():
        row = dealers.setdefault(
            dealer, {"dealer": dealer, "hands": 0, "tables": set(), "seconds": 0.0, "at": []}
        )
        row["hands"] += hands
        row["tables"].add(table_id)
        row["seconds"] += seconds
        row["at"] += [first, last]
    return [
        {
            "dealer": r["dealer"],
            "hands": r["hands"],
            "tables": len(r["tables"]),
            "dealing_seconds": int(r["seconds"]),
            "hands_per_hour": per_hour(r["hands"], r["seconds"]),
            "first": iso(min(r["at"])),
            "last": iso(max(r["at"])),
        }
        for r in sorted(dealers.values(), key=lambda r: r["dealer"])
    ]
