"""What a report costs as the log grows: the history, occupancy and waiting
reports of one day, asked when the log holds that one day and again when it
holds many, read from the indexed read models (issue 23, item 4) and, side by
side, by the journal scans and replays they used before.

One small room on a scratch SQLite store (the embedded default), in process,
the clock moved by hand: every day two Hold'em tables open, eight players each
register, are drawn their seats and buy in, two more register late, the
tables play ``--hands`` hands, two players leave and the two late ones are
seated from the list, and the tables close. After the first day, then after
``--days`` days, the reports of the last day are asked once to warm up, then
``--repeats`` times each, both ways, alternating:

- ``history``: a table's history (its events, the money naming it, its fills);
  before: the same report, its rows matched by text (once ``data LIKE '%<id>%'``,
  now every event's data read from the store and matched);
- ``occupancy``: seats occupied per table and hour; before: every table's seat
  changes replayed from its opening;
- ``waiting``: the waiting lists' waits, calls and removals; before: each list's
  events replayed from its opening;
- ``players``: the players' time and rating per seat session (issue 26);
  replayed: every table's seat sessions worked out again from its events in
  the store (the projection's own rules, nothing read back).

It prints each report's median milliseconds at both sizes and the ratio of the
long log's over the short log's: the indexed reports should stay near 1x, the
replays grow with the log. Only ratios mean anything. Both ways must give the
same answer (the replays are the oracle): a difference, or a refused command,
makes the exit status 1.

Usage: .venv/bin/python bench/reports.py [--days 10] [--hands 30] [--repeats 15]
Results: printed, and written to var/bench/reports-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scratch_env import FOREIGN_ENV, output_dir, shown  # noqa: E402

TABLES, PLAYERS, LATE = 2, 8, 2


def setup_django(scratch: Path) -> None:
    """Django on scratch stores only: nothing of the caller's reaches the bench."""
    for name in FOREIGN_ENV:
        os.environ.pop(name, None)
    os.environ["FLOOR_VAR_DIR"] = str(scratch)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# --- the room --------------------------------------------------------------------------


def play_day(room, clock, hands: int) -> dict:
    """One day of the room, from 18:00; returns its range and a table of it."""
    from tests.support.floor import JEFE, new_id, open_sector

    day_start = clock.now()
    # A sector holds four tables, closed ones included: a sector a day.
    room.sector_id = open_sector(room.app, f"Day {day_start:%Y-%m-%d}")
    clock.advance(timedelta(hours=18))
    tables = []
    for index in range(TABLES):  # a game each: each its own waiting list
        table_id, cards = room.drawn_table(PLAYERS, buy_in=800, maximum_cents=1000 - 2 * index)
        tables.append((table_id, cards))
    for table_id, _cards in tables:
        late = room.new_players(LATE)
        for card in late:
            room.join(card, table_id)
    for _ in range(hands):
        clock.advance(timedelta(minutes=2))
        for table_id, _cards in tables:
            room.played(table_id)
    for table_id, cards in tables:  # two leave, the two late ones sit down
        for card in cards[:LATE]:
            room.leave(table_id, card)
        for card in room.listed(table_id)[:LATE]:
            room.sit(table_id, card)
    clock.advance(timedelta(minutes=10))
    for table_id, _cards in tables:
        room.app.close_table(JEFE, new_id(), table_id=table_id)
    clock.advance(day_start + timedelta(days=1) - clock.now())
    return {"start": day_start, "end": day_start + timedelta(days=1), "table": tables[0][0]}


# --- the reports, both ways ------------------------------------------------------------


def history_indexed(day: dict) -> list:
    from floor.reports.history import history_report

    _subject, rows = history_report({"table": day["table"]})
    return [row["position"] for row in rows]


def text_match(table_hex: str, *requests: str):
    """The history's selection before the index: the table's id matched in the
    journal's text, and its fills' and credits' own events. The journal no
    longer keeps the text (its data is the store's, issue 23 item 6): every
    event's data is read from the store and matched here, a scan of the whole
    log as the ``LIKE`` was."""
    from django.db.models import Q

    from floor.models import EventJournalEntry
    from floor.selectors.journal import data_at

    table = UUID(table_hex)
    every = EventJournalEntry.objects.values_list("position", flat=True)
    texts = {p: json.dumps(d).lower() for p, d in data_at(list(every)).items()}
    named = [p for p, text in texts.items() if table.hex in text or str(table) in text]
    return (
        Q(originator_id=table)
        | Q(position__in=named)
        | Q(originator_id__in=[UUID(r) for r in requests])
    )


def history_scanned(day: dict) -> list:
    """The same report, its rows selected as before: by text match."""
    from floor.reports import history
    from floor.selectors import journal

    indexed = journal.mentioning
    journal.mentioning = text_match
    try:
        _subject, rows = history.history_report({"table": day["table"]})
        return [row["position"] for row in rows]
    finally:
        journal.mentioning = indexed


def the_filter(day: dict):
    from floor.reports.common import ReportFilter
    from floor.selectors import reports as selected

    return ReportFilter(
        start=day["start"], end=day["end"], table_ids=selected.table_ids(None, None, None, None)
    )


def occupancy_indexed(day: dict) -> list:
    from floor.reports.occupancy import occupancy_report

    return occupancy_report(the_filter(day), "hour")


def replayed_steps(report) -> dict:
    """Every table's seat changes, replayed from its opening (the report before)."""
    from floor.domain.table import Table
    from floor.reports.common import event_of, table_events

    sitting, leaving = (
        (Table.PlayerSeated, Table.PlayerMovedIn),
        (
            Table.PlayerLeft,
            Table.PlayerMovedOut,
        ),
    )
    steps: dict = defaultdict(list)
    seated: dict = defaultdict(int)
    for entry in table_events(report, (Table.SeatsDrawn, *sitting, *leaving, Table.Closed)):
        kind, table_id = event_of(entry), entry.originator_id
        if kind is Table.SeatsDrawn:
            seated[table_id] += len(entry.data.get("assignment") or {})
        elif kind in sitting:
            seated[table_id] += 1
        elif kind in leaving:
            seated[table_id] -= 1
        else:
            seated[table_id] = 0
        steps[table_id].append((entry.occurred_at, seated[table_id]))
    return steps


def occupancy_replayed(day: dict) -> list:
    from floor.reports import occupancy

    indexed = occupancy._steps
    occupancy._steps = replayed_steps
    try:
        return occupancy.occupancy_report(the_filter(day), "hour")
    finally:
        occupancy._steps = indexed


def waiting_indexed(day: dict) -> list:
    from floor.reports.waiting import waiting_report

    return waiting_report(the_filter(day))


def waiting_replayed(day: dict) -> list:
    """The waiting report as it replayed each list's events from its opening."""
    from floor.domain.waiting_list import WaitingList
    from floor.reports.common import event_of, percentile
    from floor.reports.waiting import COLUMNS, _games
    from floor.selectors import journal

    report = the_filter(day)
    games = _games(report)
    counted = ("registrations", "seated", "calls", "no_shows", "withdrew")
    rows = {i: dict.fromkeys(counted, 0) | {"game": g, "waits": []} for i, g in games.items()}
    since: dict = {}
    kinds = (WaitingList.Registered, WaitingList.CheckedIn, WaitingList.Called, WaitingList.Removed)
    events = journal.events_of_aggregates(games, kinds, report.end)
    for entry in events:
        row, kind, data = rows[entry.originator_id], event_of(entry), entry.data
        inside, key = report.covers(entry.occurred_at), (entry.originator_id, data.get("player_id"))
        if kind is WaitingList.Registered:
            since[key] = datetime.fromisoformat(data["at"])
            row["registrations"] += inside
        elif kind is WaitingList.CheckedIn:
            if key in since:  # a remote entry waits from its check-in (issue 24)
                since[key] = datetime.fromisoformat(data["at"])
        elif kind is WaitingList.Called:
            row["calls"] += inside
        else:
            began = since.pop(key, None)
            if inside and data.get("reason") == "seated" and began is not None:
                row["seated"] += 1
                row["waits"].append(int((entry.occurred_at - began).total_seconds()))
            elif inside and data.get("reason") == "absent_when_called":
                row["no_shows"] += 1
            elif inside and data.get("reason") == "withdrew":
                row["withdrew"] += 1
    answer = []
    for row in sorted(rows.values(), key=lambda r: r["game"]):
        waits = row.pop("waits")
        if any(row[k] for k in counted):
            row["median_wait_seconds"] = percentile(waits, 0.5)
            row["p90_wait_seconds"] = percentile(waits, 0.9)
            answer.append({c: row[c] for c in COLUMNS})
    return answer


def _in_order(rows: list) -> list:
    return sorted(rows, key=lambda row: json.dumps(row, sort_keys=True))


def players_indexed(day: dict) -> list:
    from floor.reports.players import players_report

    return _in_order(players_report(the_filter(day), "session"))


def replayed_sessions(table_ids, start, end, player_ids=None) -> list:
    """The players' seat sessions as the projection keeps them
    (floor.projections.seat_sessions), replayed from every table's events in
    the store instead of read from their rows (the report before issue 26's
    read model would have had to)."""
    from floor.models import SeatSession
    from floor.projections.seat_sessions import SESSION_EVENTS, SessionBatch, _apply
    from floor.runtime import floor_app

    class Replay(SessionBatch):
        def table(self, table_id):  # nothing read back: the replay holds all
            return self.open.setdefault(table_id, {})

    batch, position = Replay(), 0
    for table_id in sorted(table_ids):
        for event in floor_app().events.get(table_id):
            position += 1
            if isinstance(event, SESSION_EVENTS):
                _apply(event, position, batch)
    sessions = [SeatSession(**{k: v for k, v in row.items() if k != "id"}) for row in batch.new]
    return sorted(
        (
            s
            for s in sessions
            if (end is None or s.started_at < end)
            and (start is None or s.ended_at is None or s.ended_at > start)
            and (player_ids is None or s.player_id in player_ids)
        ),
        key=lambda s: (s.started_at, s.position, s.player_id),
    )


def players_replayed(day: dict) -> list:
    from floor.reports.players import players_report
    from floor.selectors import reports as selected

    indexed = selected.seat_sessions
    selected.seat_sessions = replayed_sessions
    try:
        return _in_order(players_report(the_filter(day), "session"))
    finally:
        selected.seat_sessions = indexed


REPORTS: dict[str, tuple[Callable, Callable]] = {
    "history": (history_indexed, history_scanned),
    "occupancy": (occupancy_indexed, occupancy_replayed),
    "waiting": (waiting_indexed, waiting_replayed),
    "players": (players_indexed, players_replayed),
}


def measure(day: dict, repeats: int, problems: list[str], label: str) -> dict:
    """Median milliseconds of each report of ``day``, both ways, alternating."""
    times: dict = {name: {"indexed": [], "replayed": []} for name in REPORTS}
    for indexed, replayed in REPORTS.values():  # warm up: caches, the first queries
        indexed(day), replayed(day)
    for _ in range(repeats):
        for name, (indexed, replayed) in REPORTS.items():
            for way, run in (("indexed", indexed), ("replayed", replayed)):
                started = time.perf_counter()
                answer = run(day)
                times[name][way].append((time.perf_counter() - started) * 1000)
                times[name][f"{way}_answer"] = answer
    figures = {}
    for name in REPORTS:
        if times[name]["indexed_answer"] != times[name]["replayed_answer"]:
            problems.append(f"{label}: the {name} report differs from its replay")
        if not times[name]["indexed_answer"]:
            problems.append(f"{label}: the {name} report is empty")
        figures[name] = {
            way: round(statistics.median(times[name][way]), 3) for way in ("indexed", "replayed")
        }
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=10, help="days in the long log")
    parser.add_argument("--hands", type=int, default=30, help="hands a table a day")
    parser.add_argument("--repeats", type=int, default=15, help="times each report is asked")
    args = parser.parse_args()
    if args.days < 2 or args.hands < 2 or args.repeats < 1:
        parser.error("--days and --hands at least 2, --repeats at least 1")

    with tempfile.TemporaryDirectory(prefix="floor-bench-reports-") as scratch:
        setup_django(Path(scratch))
        from django.conf import settings

        from floor import runtime
        from floor.application.floor_app import FloorApplication
        from floor.kernel.clock import ManualClock
        from floor.models import EventJournalEntry
        from games.profile_rules import BuyInRules
        from games.profiles import get_profile
        from tests.support.room import Room

        clock = ManualClock(datetime(2026, 1, 1, tzinfo=UTC))
        # The suite's small tables: a buy-in bounded by the table, not the house
        # (tests/conftest.py, make_app), so the room's hands stay small.
        profile = replace(get_profile(settings.FLOOR_RULE_PROFILE), buy_in=BuyInRules())
        app = FloorApplication(env=runtime.event_store_env(), profile=profile, clock=clock)
        runtime.install(app)
        room = Room(app, tag="BR")
        problems: list[str] = []
        sizes = {}
        built = 0.0
        for label, days in (("short", 1), ("long", args.days)):
            started = time.perf_counter()
            while len(sizes.get("_days", [])) < days:
                sizes.setdefault("_days", []).append(play_day(room, clock, args.hands))
            runtime.floor_projector().catch_up()
            built += time.perf_counter() - started
            day = sizes["_days"][-1]
            sizes[label] = {
                "days": days,
                "events": EventJournalEntry.objects.count(),
                "ms": measure(day, args.repeats, problems, label),
            }
        del sizes["_days"]
        app.close()
        runtime.install(None)

    ratios = {
        name: {
            way: round(sizes["long"]["ms"][name][way] / sizes["short"]["ms"][name][way], 2)
            for way in ("indexed", "replayed")
        }
        for name in REPORTS
    }
    print(
        f"reports of the last day: a log of {sizes['short']['events']} events (1 day) "
        f"vs {sizes['long']['events']} ({args.days} days); built in {built:.0f} s"
    )
    print(f"{'report':<10} {'way':<9} {'1 day ms':>9} {f'{args.days} days ms':>11} {'ratio':>6}")
    for name in REPORTS:
        for way in ("indexed", "replayed"):
            short, long = sizes["short"]["ms"][name][way], sizes["long"]["ms"][name][way]
            print(f"{name:<10} {way:<9} {short:>9.2f} {long:>11.2f} {ratios[name][way]:>5.2f}x")
    # The two ways side by side at one size see the same load: their ratio is
    # the steadier figure on a shared machine.
    for name in REPORTS:
        short, long = (
            sizes[size]["ms"][name]["indexed"] / sizes[size]["ms"][name]["replayed"]
            for size in ("short", "long")
        )
        print(
            f"{name}: indexed / replayed {short:.2f} on the 1-day log, "
            f"{long:.2f} on the {args.days}-day log"
        )

    out = output_dir()
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"reports-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    path.write_text(
        json.dumps(
            {"args": vars(args), "sizes": sizes, "ratios": ratios, "problems": problems},
            indent=2,
        )
    )
    print(f"results: {shown(path)}")
    for problem in problems:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
