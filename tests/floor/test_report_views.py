"""The reports' indexed read models (issue 23, item 4): what the history,
occupancy and waiting reports used to scan or replay the journal for, projected
as each event is applied (floor.projections.report_views).

Each is checked against the replay the reports did before, run here as the
oracle on the scripted shifts of tests/floor/test_reports.py and
tests/ledger/test_cage_report.py; a rebuild fills them alike; and a report's
queries neither grow in number with the log nor read the journal by scanning.
"""

from __future__ import annotations

import gc
import io
import json
import weakref
from collections import defaultdict
from datetime import datetime, timedelta
from uuid import UUID

import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from floor import runtime
from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList
from floor.kernel.web import shadow_db
from floor.kernel.web.shadow_rebuild import ShadowRebuild
from floor.models import EventJournalEntry, JournalMention, ListMove, OccupancyStep, PlayerView
from floor.projections.journal import entry_text
from floor.projections.report_views import _FOUND as SEARCHED
from floor.projections.report_views import (
    _OPEN_REGISTRATIONS,
    _open_registrations,
    event_mentioned_ids,
    mentioned_ids,
)
from floor.reports.common import ReportFilter, percentile
from floor.reports.waiting import COLUMNS as WAITING_COLUMNS
from floor.reports.waiting import waiting_report
from floor.selectors.journal import entries, event_type, event_types_of, mentioning, topics_of
from ledger.domain.accounts import AccountRef
from ledger.domain.gaming_day import GamingDay
from ledger.domain.transaction import Transaction
from ledger.models import AccountView
from tests.floor import test_reports
from tests.ledger import test_cage_report
from tests.support.floor import JEFE, new_id

pytestmark = pytest.mark.django_db

# The scripted shifts the reports' own tests check their answers on.
shift = test_reports.shift
inspector = test_reports.inspector
days = test_cage_report.days


# --- the replays the reports did before: the oracles ------------------------------------


def journal_texts() -> list[tuple[EventJournalEntry, str]]:
    """Every journal row with its data's JSON text (lower case), as the
    column the text match read (the data is the store's now, issue 23 item 6)."""
    rows = entries().order_by("position")
    return [(row, json.dumps(row.data).lower()) for row in rows]


def replayed_mentions(some_id: UUID) -> set[int]:
    """The history's rows of an aggregate, by the text match it used."""
    return {
        row.position
        for row, text in journal_texts()
        if row.originator_id == some_id or some_id.hex in text or str(some_id) in text
    }


def replayed_account(name: str) -> set[int]:
    """An account's history rows, as the books selected them from the journal."""
    posted, day = topics_of([Transaction.Posted]), topics_of(event_types_of(GamingDay))
    return {
        row.position
        for row, text in journal_texts()
        if row.originator_id == AccountRef(name).aggregate_id
        or (row.topic in posted and name in (row.data.get("postings") or {}))
        or (row.topic in day and f'"{name}"'.lower() in text)
    }


def indexed(*subjects: str) -> set[int]:
    found = EventJournalEntry.objects.filter(mentioning(*subjects))
    return set(found.values_list("position", flat=True))


SITTING_DOWN = (Table.PlayerSeated, Table.PlayerMovedIn)
LEAVING = (Table.PlayerLeft, Table.PlayerMovedOut)


def replayed_steps() -> dict:
    """Per table, (moment, seats occupied) of each change, replayed from its opening."""
    steps: dict = defaultdict(list)
    seated: dict = defaultdict(int)
    for entry in entries().order_by("position"):
        kind, table_id = event_type(entry), entry.originator_id
        if kind is Table.SeatsDrawn:
            seated[table_id] += len(entry.data.get("assignment") or {})
        elif kind in SITTING_DOWN:
            seated[table_id] += 1
        elif kind in LEAVING:
            seated[table_id] -= 1
        elif kind is Table.Closed:
            seated[table_id] = 0
        else:
            continue
        steps[table_id].append((entry.occurred_at, seated[table_id]))
    return dict(steps)


def replayed_waiting(report: ReportFilter, games: dict) -> list[dict]:
    """The waiting report as it replayed each list's events from its opening."""
    rows = {
        list_id: dict.fromkeys(("registrations", "seated", "calls", "no_shows", "withdrew"), 0)
        | {"game": game, "waits": []}
        for list_id, game in games.items()
    }
    since: dict = {}
    for entry in entries().filter(originator_id__in=games).order_by("position"):
        kind, data = event_type(entry), entry.data
        if report.end is not None and entry.occurred_at >= report.end:
            continue
        row, inside = rows[entry.originator_id], report.covers(entry.occurred_at)
        key = (entry.originator_id, data.get("player_id"))
        if kind is WaitingList.Registered:
            since[key] = datetime.fromisoformat(data["at"])
            row["registrations"] += inside
        elif kind is WaitingList.CheckedIn:
            if key in since:  # a remote entry waits from its check-in (issue 24)
                since[key] = datetime.fromisoformat(data["at"])
        elif kind is WaitingList.Called:
            row["calls"] += inside
        elif kind is WaitingList.Removed:
            began = since.pop(key, None)
            if not inside:
                continue
            if data.get("reason") == "seated" and began is not None:
                row["seated"] += 1
                row["waits"].append(int((entry.occurred_at - began).total_seconds()))
            elif data.get("reason") == "absent_when_called":
                row["no_shows"] += 1
            elif data.get("reason") == "withdrew":
                row["withdrew"] += 1
    answer = []
    for row in sorted(rows.values(), key=lambda r: r["game"]):
        waits = row.pop("waits")
        if any(row[k] for k in ("registrations", "seated", "calls", "no_shows", "withdrew")):
            row["median_wait_seconds"] = percentile(waits, 0.5)
            row["p90_wait_seconds"] = percentile(waits, 0.9)
            answer.append({c: row[c] for c in WAITING_COLUMNS})
    return answer


def report_views() -> dict:
    """Every row of the reports' read models, comparable across a rebuild."""
    return {
        "mentions": sorted(JournalMention.objects.values_list("subject", "position")),
        "steps": list(OccupancyStep.objects.order_by("position").values_list()),
        "moves": list(ListMove.objects.order_by("position").values_list()),
    }


# --- the read models equal the replay --------------------------------------------------


def test_the_mentions_of_every_aggregate_and_player_are_the_text_matchs(shift):
    subjects = set(EventJournalEntry.objects.values_list("originator_id", flat=True))
    subjects |= set(PlayerView.objects.values_list("id", flat=True))
    assert len(subjects) > 20
    for some_id in subjects:
        assert indexed(some_id.hex) == replayed_mentions(some_id), some_id
    table = UUID(shift["holdem"])
    assert len(indexed(table.hex)) > 50  # its own events, the hands' money, the lists' calls


def test_the_mentions_of_every_account_are_the_books_selection(days):
    names = list(AccountView.objects.values_list("name", flat=True))
    assert any(n.startswith("tray:") for n in names) and "cage_cash" in names
    for name in names:
        assert indexed(AccountRef(name).aggregate_id.hex, name) == replayed_account(name), name
    assert len(replayed_account("cage_cash")) > 5


def test_the_occupancy_steps_are_the_replayed_changes(shift):
    projected: dict = defaultdict(list)
    for _position, table_id, at, seated in OccupancyStep.objects.order_by("position").values_list(
        "position", "table_id", "at", "seated"
    ):
        projected[table_id].append((at, seated))
    replayed = replayed_steps()
    assert dict(projected) == replayed
    assert replayed[UUID(shift["holdem"])][-1][1] == 0  # closed, empty


@pytest.mark.parametrize(
    "bounds",
    [
        {},
        {"start": "2026-11-22T20:15:00+00:00"},
        {"end": "2026-11-22T21:05:00+00:00"},
        {"start": "2026-11-22T20:05:00+00:00", "end": "2026-11-22T21:09:00+00:00"},
    ],
)
def test_the_waiting_report_from_the_moves_is_the_replays(shift, bounds):
    from floor.reports.waiting import _games

    report = ReportFilter(**{k: datetime.fromisoformat(v) for k, v in bounds.items()})
    games = _games(report)
    assert waiting_report(report) == replayed_waiting(report, games)
    assert waiting_report(report)  # something happened in each range


def test_a_rebuild_fills_the_reports_read_models_alike(shift):
    live = report_views()
    assert all(live.values())
    JournalMention.objects.all().delete()  # lose some
    call_command("rebuild_projections", "--no-progress", stdout=io.StringIO())
    assert report_views() == live


def test_a_lists_open_registrations_come_as_tuples_on_every_backend(shift):
    for card in shift["room"].new_players(2):
        shift["room"].join(card, shift["holdem"])
    runtime.floor_projector().catch_up()
    list_id = ListMove.objects.filter(open=True).values_list("list_id", flat=True).first()
    registrations = _open_registrations(list_id)
    assert registrations and all(type(row) is tuple for row in registrations)
    expected = ListMove.objects.filter(list_id=list_id, open=True).order_by("position")
    assert registrations == list(expected.values_list("position", "player_id", "since"))


def test_the_open_registrations_statement_keeps_no_connection_alive(shift):
    """A rebuild reads them on its shadow's connection, dropped at its end:
    the statement kept for the backend holds nothing of that connection."""
    _OPEN_REGISTRATIONS.clear()
    shadows = []

    def watching(done: int, total: int) -> None:
        if not shadows:  # the first batch's, on the shadow
            shadows.append(weakref.ref(connections[shadow_db.ALIAS]))

    ShadowRebuild(runtime.floor_projector(), batch_size=5, progress=watching).run()
    assert connection.vendor in _OPEN_REGISTRATIONS  # the rebuild read some
    gc.collect()
    assert shadows and shadows[0]() is None


# --- a report's cost does not follow the log ------------------------------------------

REPORTS = [
    ("occupancy", {"by": "hour"}),
    ("occupancy", {"by": "game"}),
    ("waiting-lists", {}),
    ("tables", {}),
]
RANGE = {"from": "2026-11-22T20:00:00Z", "to": "2026-11-22T22:00:00Z"}


def another_day(shift, clock) -> None:
    """A day later, a table fills from its list, plays and closes: more log."""
    room = shift["room"]
    clock.advance(timedelta(days=1))
    for _ in range(2):
        table_id, cards = room.drawn_table(5)
        for _ in range(4):
            room.played(table_id)
        room.leave(table_id, cards[0])
        room.app.close_table(JEFE, new_id(), table_id=table_id)
    runtime.floor_projector().catch_up()


def asked(client, path: str, params: dict) -> tuple[object, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/api/reports/{path}/", params)
    assert response.status_code == 200, response.content
    return response.json(), [q["sql"] for q in queries.captured_queries]


def test_a_reports_queries_do_not_grow_with_the_log(shift, clock, inspector):
    table = shift["holdem"]
    asks = [*((p, {**RANGE, **extra}) for p, extra in REPORTS)]
    asks += [("history", {"table": table}), ("history", {"player": _a_player(table)})]
    before = [asked(inspector, path, params) for path, params in asks]
    journal = EventJournalEntry.objects.count()
    another_day(shift, clock)
    assert EventJournalEntry.objects.count() > journal + 100
    after = [asked(inspector, path, params) for path, params in asks]
    for (path, _), (answer, sql), (answer_after, sql_after) in zip(
        asks, before, after, strict=True
    ):
        assert answer_after == answer, path
        assert len(sql_after) == len(sql), path


def test_the_projection_reads_its_report_rows_back_by_an_index(shift, clock):
    """A table's last occupancy step and a list's open registrations, read
    back by each batch, are found by an index: not by sorting every step
    of the table or reading every move of the list, which grew with the log
    (issue 23: the million-event rebuild). PostgreSQL is asked with its
    sequential and bitmap scans off: on a test's few rows they are cheaper, and the
    question is which index serves the statement."""
    with CaptureQueriesContext(connection) as queries:
        another_day(shift, clock)
    read_back = {
        table: [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")
                and f'FROM "{table}"' in q["sql"]]
        for table in ("floor_occupancystep", "floor_listmove")
    }  # fmt: skip
    used = {
        "floor_occupancystep": "occupancy_table_position",
        "floor_listmove": "list_move_still_open",
    }
    sqlite = connection.vendor == "sqlite"
    with connection.cursor() as cursor:
        if not sqlite:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
        for table, statements in read_back.items():
            assert statements, table
            for sql in statements:
                cursor.execute(f"{'EXPLAIN QUERY PLAN' if sqlite else 'EXPLAIN'} {sql}")
                plan = " / ".join(str(row[-1]) for row in cursor.fetchall())
                assert used[table] in plan, plan
                assert ("TEMP B-TREE" if sqlite else "Sort") not in plan, plan


@pytest.mark.parametrize(("path", "extra"), REPORTS[:3])
def test_occupancy_and_waiting_read_no_journal(shift, inspector, path, extra):
    _answer, sql = asked(inspector, path, {**RANGE, **extra})
    assert not [q for q in sql if "eventjournalentry" in q.lower()]


def test_a_history_reads_the_journal_by_its_mentions_not_its_text(shift, inspector):
    answer, sql = asked(inspector, "history", {"table": shift["holdem"]})
    assert answer["count"] > 50
    journal = [q for q in sql if "eventjournalentry" in q.lower()]
    assert journal and all("journalmention" in q.lower() for q in journal)
    assert not [q for q in journal if " like " in q.lower()]


def test_a_history_finds_its_mentions_by_the_mentions_key(shift, inspector):
    """The mentions are keyed by (subject, position) and, on SQLite, are that
    key's b-tree alone (WITHOUT ROWID, issue 23, item 6): a history's
    subjects are looked up in it, not scanned for. PostgreSQL is asked with
    its sequential and bitmap scans off, as above."""
    _answer, sql = asked(inspector, "history", {"table": shift["holdem"]})
    journal = [q for q in sql if "journalmention" in q.lower()]
    sqlite = connection.vendor == "sqlite"
    uses = "USING PRIMARY KEY (subject=?)" if sqlite else "floor_journalmention_pkey"
    with connection.cursor() as cursor:
        if not sqlite:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
        for statement in journal:
            cursor.execute(f"{'EXPLAIN QUERY PLAN' if sqlite else 'EXPLAIN'} {statement}")
            plan = " / ".join(str(row[-1]) for row in cursor.fetchall())
            assert uses in plan, plan
    assert journal


def test_the_cage_report_reads_its_days_by_their_index(days, inspector):
    _answer, sql = asked(inspector, "cage", {"by": "day", "from": "2026-11-23"})
    day_queries = [q for q in sql if "gamingdayview" in q.lower()]
    assert day_queries and all("where" in q.lower() for q in day_queries)
    _answer, sql = asked(inspector, "cage", {"by": "transaction", "from": "2026-11-23"})
    journal = [q for q in sql if "eventjournalentry" in q.lower()]
    assert journal and all("originator_id" in q.lower() for q in journal)


def _a_player(table_id: str) -> str:
    """A player seated at the table in the shift, by id."""
    mentioned = JournalMention.objects.filter(
        position__in=OccupancyStep.objects.filter(table_id=table_id).values("position")
    ).values_list("subject", flat=True)
    players = set(PlayerView.objects.values_list("id", flat=True))
    return str(next(UUID(s) for s in mentioned if UUID(s) in players))


class _Fields:
    """An event's fields, as ``vars`` gives them (metadata included)."""

    def __init__(self, **fields) -> None:
        self.__dict__.update(fields)


class _Shown:
    def __str__(self) -> str:
        return f"held by {ID_A}"


ID_A = UUID("0123abcd-4567-89ef-0123-456789abcdef")
ID_B = UUID("fedcba98-7654-3210-fedc-ba9876543210")


@pytest.mark.parametrize(
    "value",
    [
        ID_A,
        str(ID_A),
        ID_A.hex.upper(),
        f"player:{ID_A.hex}",
        {ID_A.hex: 1, "x": [ID_B, (str(ID_B),)]},
        {ID_A: "a key JSON cannot take as it is", 3: None},
        "é" + ID_A.hex[:28],  # JSON escapes é as \u00e9: hex digits joined to the rest
        "\x1f" + ID_A.hex[:28],
        ID_A.hex + "0",  # a longer run of hex names nothing
        "a" + ID_A.hex,
        f"{ID_A}-1",
        10**31 + 12345,  # 32 decimal digits, bare in the JSON
        -(10**33),
        [1.5, True, None, 12, "short"],
        datetime(2026, 11, 27, 5, 46),
        _Shown(),
        {"nested": {"deeper": [{"id": ID_B.hex}]}},
        ["é" + ID_A.hex[:28], 10**31 + 1, {"\b" + ID_A.hex[:30]: ID_A}],
        "ab" * 32,  # a digest: hex alone, longer than an id
        ["0" * 32, ID_B.hex.upper(), "F" * 31, {"c" * 64: ID_A.hex[:30]}],
    ],
)
def test_the_mentions_found_by_walking_the_fields_are_those_of_the_json_text(value):
    event = _Fields(originator_id=ID_B, actor="jefe", field=value, other="plain")
    assert event_mentioned_ids(event) == mentioned_ids(entry_text(event))


def test_a_digest_is_not_remembered_among_the_strings_searched():
    """A command's fingerprint comes once: held among the strings whose ids
    are remembered, they filled it and had it emptied every 50,000."""
    digest, named = "9f" * 32, f"player:{ID_A.hex}"
    event = _Fields(originator_id=ID_B, fingerprint=digest, note=named)
    assert event_mentioned_ids(event) == {ID_A.hex}
    assert named in SEARCHED and digest not in SEARCHED
