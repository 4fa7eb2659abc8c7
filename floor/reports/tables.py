"""The tables report: when each table opened, ran and closed, its hands and
players, and why it was suspended or closed (RULES.md section 3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from floor.domain.table import Table
from floor.reports.common import (
    ReportFilter,
    event_of,
    hours,
    iso,
    now,
    table_columns,
    table_events,
    table_labels,
)

COLUMNS = (
    "table_id",
    "sector",
    "table",
    "game",
    "opened_at",
    "started_at",
    "closed_at",
    "closed_reason",
    "running_seconds",
    "hours_running",
    "hands",
    "players",
    "suspended_seconds",
    "suspensions",
)


@dataclass
class _Life:
    """One table's life, replayed from its events."""

    opened_at: datetime | None = None
    started_at: datetime | None = None
    closed_at: datetime | None = None
    closed_reason: str | None = None
    running: list[list] = field(default_factory=list)  # [start, end or None]
    suspensions: list[dict] = field(default_factory=list)
    hands: int = 0
    players: set[str] = field(default_factory=set)

    def stop_running(self, at: datetime) -> None:
        if self.running and self.running[-1][1] is None:
            self.running[-1][1] = at

    def end_suspension(self, at: datetime, how: str) -> None:
        if self.suspensions and self.suspensions[-1]["ended_at"] is None:
            self.suspensions[-1]["ended_at"] = at
            self.suspensions[-1]["ended_by"] = how


# The events a table's life is replayed from; its hands are counted in the range only.
LIFE_EVENTS = (Table.Opened, Table.SeatsDrawn, Table.Suspended, Table.Resumed, Table.Closed)
# A hand, dealt or banked, counted in the range only.
HAND_EVENTS = (Table.HandEnded, Table.BankedHandSettled)


def _when(text: str | None) -> str | None:
    return iso(datetime.fromisoformat(text)) if text else None


def _replay(report: ReportFilter) -> dict[UUID, _Life]:
    lives: dict[UUID, _Life] = {}
    for entry in table_events(report, LIFE_EVENTS, in_range=HAND_EVENTS):
        life = lives.setdefault(entry.originator_id, _Life())
        kind, at, data = event_of(entry), entry.occurred_at, entry.data
        if kind is Table.Opened:
            life.opened_at = at
        elif kind is Table.SeatsDrawn:
            life.started_at = at
            life.running.append([at, None])
        elif kind is Table.Suspended:
            life.stop_running(at)
            life.suspensions.append(
                {
                    "at": at,
                    "cause": "players_below_minimum",
                    "players": data.get("players"),
                    "needed": data.get("needed"),
                    "closes_at": _when(data.get("closes_at")),
                    "ended_at": None,
                    "ended_by": None,
                }
            )
        elif kind is Table.Resumed:
            life.end_suspension(at, "resumed")
            life.running.append([at, None])
        elif kind is Table.Closed:
            life.stop_running(at)
            life.end_suspension(at, "closed")
            life.closed_at, life.closed_reason = at, data.get("reason")
        elif kind is Table.HandEnded and report.covers(at):
            life.hands += 1
            life.players.update((data.get("players") or {}).values())
        elif kind is Table.BankedHandSettled and report.covers(at):
            # A banked hand counts as a hand; its players are its boxes'.
            life.hands += 1
            life.players.update(box["player_id"] for box in (data.get("boxes") or {}).values())
    return lives


def _overlaps(report: ReportFilter, begin: datetime, finish: datetime) -> bool:
    lo, hi = report.clip(begin, finish)
    return hi > lo


def _seconds(report: ReportFilter, spans, until: datetime) -> int:
    total = 0.0
    for begin, finish in spans:
        lo, hi = report.clip(begin, finish or until)
        total += (hi - lo).total_seconds()
    return int(total)


def tables_report(report: ReportFilter) -> list[dict]:
    """One row per table that was open in the range, by sector and number."""
    lives = _replay(report)
    until = now() if report.end is None else min(report.end, now())
    labels = table_labels(lives)
    rows = []
    for table_id, life in lives.items():
        if life.opened_at is None or table_id not in labels:
            continue
        if not report.covers(life.opened_at) and not _overlaps(
            report, life.opened_at, life.closed_at or until
        ):
            continue  # closed before the range or opened after it
        suspensions = [
            s
            for s in life.suspensions
            if report.covers(s["at"]) or _overlaps(report, s["at"], s["ended_at"] or until)
        ]
        running = _seconds(report, life.running, until)
        rows.append(
            {
                **table_columns(labels[table_id]),
                "opened_at": iso(life.opened_at),
                "started_at": iso(life.started_at),
                "closed_at": iso(life.closed_at),
                "closed_reason": life.closed_reason,
                "running_seconds": running,
                "hours_running": hours(running),
                "hands": life.hands,
                "players": len(life.players),
                "suspended_seconds": _seconds(
                    report, [(s["at"], s["ended_at"]) for s in suspensions], until
                ),
                "suspensions": [
                    {**s, "at": iso(s["at"]), "ended_at": iso(s["ended_at"])} for s in suspensions
                ],
            }
        )
    rows.sort(key=lambda r: (r["sector"], r["table"], r["opened_at"]))
    return rows
