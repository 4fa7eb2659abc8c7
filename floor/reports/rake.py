"""The rake report: the house's benefit from hands (a share of the pot) and
from time (a session charge) [GA art. 18.3; PT 7], grouped as asked.

By gaming day, a rake falls on the day the books booked its money in; the
ledger declares where that is (floor.reports.parts, ledger.reports.rake)."""

from __future__ import annotations

from datetime import datetime

from floor.domain.table import Table
from floor.reports.common import (
    ReportFilter,
    event_of,
    hour_of,
    iso,
    table_columns,
    table_events,
    table_labels,
)
from floor.reports.parts import REPORT_PARTS
from floor.runtime import floor_app

TABLE = ("table_id", "sector", "table", "game")
# A session's start dates its time charges; the rake is counted in the range only.
SESSION_EVENTS = (Table.SessionStarted,)
RAKE_EVENTS = (Table.HandEnded, Table.TimeCharged)
COLUMNS = {
    "hand": (*TABLE, "hand", "ended_at", "model", "pot_cents", "rake_cents"),
    "table_hour": (*TABLE, "hour", "hands", "rake_cents"),
    "session": (*TABLE, "session", "started_at", "charges", "rake_cents"),
    "gaming_day": ("gaming_day", "hands", "hand_rake_cents", "time_rake_cents", "rake_cents"),
    "model": ("model", "tables", "hands", "rake_cents"),
}


def _items(report: ReportFilter) -> list[dict]:
    """Every raking event in the range: a hand's rake or a time charge."""
    items, session_starts = [], {}
    for entry in table_events(report, SESSION_EVENTS, in_range=RAKE_EVENTS):
        kind, data = event_of(entry), entry.data
        if kind is Table.SessionStarted:
            session_starts[(entry.originator_id, data["number"])] = entry.occurred_at
            continue
        if not report.covers(entry.occurred_at):
            continue
        item = {
            "table_id": entry.originator_id,
            "at": entry.occurred_at,
            "command_id": entry.command_id,
        }
        if kind is Table.HandEnded:
            item.update(
                kind="hand", hand=data["number"], pot=data["pot_cents"], cents=data["rake_cents"]
            )
        else:
            item.update(
                kind="time",
                session=data["session"],
                cents=data["cents"],
                started_at=session_starts.get((entry.originator_id, data["session"])),
            )
        items.append(item)
    return items


def _gaming_days(items: list[dict]) -> dict[str, str]:
    """The cage's gaming day of each raking command: the day its ledger
    transaction was booked in, so the report agrees with the cage's books."""
    return REPORT_PARTS.booked_days(sorted({i["command_id"] for i in items}))


def _model(table) -> str:
    return (table.rake or {}).get("model") or "none"


def rake_report(report: ReportFilter, by: str) -> list[dict]:
    """The rake in the range, one row per ``by`` group (see COLUMNS)."""
    items = _items(report)
    labels = table_labels({i["table_id"] for i in items})
    items = [i for i in items if i["table_id"] in labels]
    if by == "hand":
        return [
            {
                **table_columns(labels[i["table_id"]]),
                "hand": i["hand"],
                "ended_at": iso(i["at"]),
                "model": _model(labels[i["table_id"]]),
                "pot_cents": i["pot"],
                "rake_cents": i["cents"],
            }
            for i in _sorted(items, labels)
            if i["kind"] == "hand"
        ]
    groups: dict[tuple, dict] = {}
    for item in _sorted(items, labels):
        table = labels[item["table_id"]]
        if by == "table_hour":
            key = (item["table_id"], hour_of(item["at"]))
            row = groups.setdefault(
                key, {**table_columns(table), "hour": iso(key[1]), "hands": 0, "rake_cents": 0}
            )
        elif by == "session":
            if item["kind"] != "time":
                continue
            key = (item["table_id"], item["session"])
            row = groups.setdefault(
                key,
                {
                    **table_columns(table),
                    "session": item["session"],
                    "started_at": iso(item["started_at"]),
                    "charges": 0,
                    "rake_cents": 0,
                },
            )
            row["charges"] += 1
        elif by == "gaming_day":
            day = _gaming_day(item)
            row = groups.setdefault(
                (day,),
                {
                    "gaming_day": day,
                    "hands": 0,
                    "hand_rake_cents": 0,
                    "time_rake_cents": 0,
                    "rake_cents": 0,
                },
            )
            row["hand_rake_cents" if item["kind"] == "hand" else "time_rake_cents"] += item["cents"]
        else:
            model = _model(table)
            row = groups.setdefault(
                (model,), {"model": model, "tables": set(), "hands": 0, "rake_cents": 0}
            )
            row["tables"].add(item["table_id"])
        if item["kind"] == "hand" and "hands" in row:
            row["hands"] += 1
        row["rake_cents"] += item["cents"]
    rows = list(groups.values())
    for row in rows:
        if isinstance(row.get("tables"), set):
            row["tables"] = len(row["tables"])
    if by in ("gaming_day", "model"):
        rows.sort(key=lambda r: r[by])
    return rows


def _sorted(items: list[dict], labels) -> list[dict]:
    """The items by sector, table and time, each with its booked gaming day."""
    days = _gaming_days(items)
    for item in items:
        item["gaming_day"] = days.get(item["command_id"])
    return sorted(
        items,
        key=lambda i: (labels[i["table_id"]].sector.name, labels[i["table_id"]].number, i["at"]),
    )


def _gaming_day(item: dict) -> str:
    """The booked gaming day; a rake that moved no money (none is booked) falls
    on the profile's gaming day of its moment."""
    if item.get("gaming_day"):
        return item["gaming_day"]
    moment: datetime = item["at"]
    return floor_app().profile.gaming_day.of(moment).isoformat()
