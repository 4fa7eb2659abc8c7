"""Audit (issue 9, item 4): every event names who, in which role, under which
command and profile, and ``manage.py verify_log`` shows that the log and its
journal are complete and unaltered, against a short shift built through the
real commands, then tampered with in the journal and in the event store."""

from __future__ import annotations

import hashlib
import importlib
import io
import itertools
import json
import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from floor import runtime
from floor.audit import GENESIS, JournalRow, StoredEntry, Summary, chain_digest, verify
from floor.models import EventJournalEntry
from tests.support.room import Room

pytestmark = pytest.mark.django_db

CHAIN_BROKEN = "(a row before it was removed, added or rewritten)"


@pytest.fixture
def shift(floor_app, clock) -> int:
    """A table drawn among four players, two hands and a player leaving, all
    projected; returns the number of events in the log."""
    room = Room(floor_app, tag="AU")
    table_id, cards = room.drawn_table(4)
    clock.advance(timedelta(minutes=10))
    room.played(table_id)
    room.played(table_id)
    clock.advance(timedelta(minutes=10))
    room.leave(table_id, cards[0])
    runtime.floor_projector().catch_up()
    return floor_app.last_position()


def verify_log(*args: str) -> tuple[bool, str, str]:
    """Runs the command: whether it passed, its output, its error."""
    out = io.StringIO()
    try:
        call_command("verify_log", *args, stdout=out)
    except CommandError as error:
        return False, out.getvalue(), str(error)
    return True, out.getvalue(), ""


def lines(output: str) -> list[str]:
    return output.splitlines()


def row_of(topic_suffix: str) -> EventJournalEntry:
    """The first journal row of an event class (``Player.Registered``)."""
    return EventJournalEntry.objects.filter(topic__endswith=f":{topic_suffix}").first()


def tamper_stored(app, position: int, *, state: bytes | None = None, sql: str = "") -> None:
    """Changes the event store behind the application's back, in raw SQL on the
    table its recorder writes: a new ``state``, or a ``SET``/``DELETE`` of ours."""
    recorder = app.recorder
    postgres = settings.EVENT_STORE_BACKEND == "postgres"
    key, mark = ("notification_id", "%s") if postgres else ("rowid", "?")
    table = recorder.events_table_name
    with recorder.datastore.transaction(commit=True) as cursor:
        if state is not None:
            cursor.execute(
                f"UPDATE {table} SET state = {mark} WHERE {key} = {mark}", [state, position]
            )
        elif sql == "DELETE":
            cursor.execute(f"DELETE FROM {table} WHERE {key} = {mark}", [position])
        else:
            cursor.execute(f"UPDATE {table} SET {sql} WHERE {key} = {mark}", [position])


def stored_state(app, position: int) -> dict:
    notification = app.recorder.select_notifications(position, 1)[0]
    assert notification.id == position
    return json.loads(notification.state)


# --- an intact log ----------------------------------------------------------------


@pytest.mark.parametrize("options", [[], ["--batch-size", "7"]])
def test_an_intact_log_verifies(shift, options):
    assert shift > 80
    assert EventJournalEntry.objects.count() == shift
    ok, out, _ = verify_log(*options)
    assert ok
    assert out == f"{shift} events, chain intact\n"


def test_the_journal_rows_form_a_hash_chain_anyone_can_recompute(shift):
    rows = list(EventJournalEntry.objects.order_by("position"))
    assert [r.position for r in rows] == list(range(1, shift + 1))
    assert rows[0].previous_digest == GENESIS
    for before, row in itertools.pairwise(rows):
        assert row.previous_digest == before.digest
    assert all(re.fullmatch("[0-9a-f]{64}", r.digest) for r in rows)
    assert len({r.digest for r in rows}) == shift
    # The documented recipe, written out without floor.audit.
    first = rows[0]
    text = json.dumps(
        {
            "position": first.position,
            "topic": first.topic,
            "originator_id": str(first.originator_id),
            "originator_version": first.originator_version,
            "occurred_at": first.occurred_at.isoformat(),
            "actor": first.actor,
            "actor_role": first.actor_role,
            "command_id": first.command_id,
            "rule_profile": first.rule_profile,
            "data": first.data,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    assert first.occurred_at.isoformat() == "2026-11-22T20:00:00+00:00"
    assert first.digest == hashlib.sha256((GENESIS + text).encode()).hexdigest()


def test_every_journal_row_names_who_role_command_and_profile(shift):
    rows = list(EventJournalEntry.objects.all())
    assert len(rows) == shift
    for row in rows:
        assert row.actor and row.actor_role and row.command_id, row
        assert row.rule_profile == settings.FLOOR_RULE_PROFILE, row
    who = {(r.actor, r.actor_role) for r in rows}
    assert {("dora", "director"), ("jaime", "jefe_sector"), ("cris", "crupier")} <= who
    # Every event belongs to a command that was recorded, under the same actor.
    recorded = {
        (r.actor, r.command_id) for r in rows if r.topic.endswith(":CommandRecord.Recorded")
    }
    assert {(r.actor, r.command_id) for r in rows} == recorded


def test_events_not_yet_projected_are_counted_apart(shift, floor_app):
    Room(floor_app, tag="AV")  # opens a sector: two more events
    ok, out, _ = verify_log()
    assert ok
    assert out == f"{shift} events, chain intact (2 newer events not journaled yet)\n"


def test_json_output(shift):
    ok, out, _ = verify_log("--json")
    assert ok
    last = EventJournalEntry.objects.order_by("position").last()
    assert json.loads(out) == {
        "intact": True,
        "events": shift,
        "pending": 0,
        "head": last.digest,
        "head_position": shift,
        "problems": [],
        "notes": [],
    }


# --- a tampered journal ----------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "differ"),
    [
        (lambda row: {"data": {**row.data, "display_name": "Someone else"}}, "data"),
        (lambda row: {"actor": "mallory"}, "actor"),
        (lambda row: {"command_id": ""}, "command_id"),
        (lambda row: {"occurred_at": row.occurred_at - timedelta(hours=1)}, "occurred_at"),
    ],
)
def test_an_edited_journal_row_is_reported_at_its_position(shift, change, differ):
    row = row_of("Player.Registered")
    EventJournalEntry.objects.filter(position=row.position).update(**change(row))
    ok, out, error = verify_log()
    assert not ok
    assert lines(out) == [
        f"position {row.position}: changed: the journal row's digest does not match its content",
        f"position {row.position}: changed: the journal row and the stored event differ in "
        f"{differ}",
    ]
    assert error == f"2 problem(s) in {shift} events: the log is not intact"


def test_a_deleted_journal_row_is_reported_as_a_gap(shift):
    middle = shift // 2
    EventJournalEntry.objects.filter(position=middle).delete()
    ok, out, _ = verify_log("--batch-size", "10")
    assert not ok
    assert lines(out) == [
        f"position {middle}: gap: the journal has no row for this stored event",
        f"position {middle + 1}: changed: the journal row does not chain from row "
        f"{middle - 1} {CHAIN_BROKEN}",
    ]


def test_a_deleted_last_journal_row_is_reported_as_a_gap(shift):
    EventJournalEntry.objects.filter(position=shift).delete()
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out) == [f"position {shift}: gap: the journal has no row for this stored event"]


def test_a_journal_rewritten_with_a_fresh_chain_still_differs_from_the_store(shift):
    """A forger who knows the recipe rechains every row after the one they
    edit: the chain holds, the stored events give them away."""
    row = row_of("Player.Registered")
    EventJournalEntry.objects.filter(position=row.position).update(actor="mallory")
    rechain_from(row.position)
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out) == [
        f"position {row.position}: changed: the journal row and the stored event differ in actor"
    ]


def rechain_from(position: int) -> None:
    """What a forger who knows the recipe does after editing a row."""
    previous = EventJournalEntry.objects.get(position=position - 1).digest
    for entry in EventJournalEntry.objects.filter(position__gte=position):
        entry.previous_digest = previous
        entry.digest = previous = chain_digest(previous, vars(entry))
        entry.save()


def test_a_forged_store_and_journal_show_against_an_anchored_head(shift, floor_app):
    """Someone who can write both the store and the journal, and rechains, is
    caught only by a digest kept elsewhere before (``--anchor``)."""
    report = json.loads(verify_log("--json")[1])
    head = f"{report['head_position']}:{report['head']}"
    assert verify_log("--anchor", head) == (True, f"{shift} events, chain intact\n", "")

    row = row_of("Player.Registered")
    state = stored_state(floor_app, row.position)
    state["actor"] = "mallory"
    tamper_stored(floor_app, row.position, state=json.dumps(state).encode())
    EventJournalEntry.objects.filter(position=row.position).update(actor="mallory")
    rechain_from(row.position)
    assert verify_log()[0], "a consistent forgery passes without an anchor"
    ok, out, _ = verify_log("--anchor", head)
    assert not ok
    assert lines(out) == [
        f"position {shift}: changed: the journal row's digest is not the anchored one"
    ]


def test_a_malformed_anchor_is_refused(shift):
    with pytest.raises(CommandError, match="POSITION:DIGEST"):
        call_command("verify_log", "--anchor", "12:not-a-digest", stdout=io.StringIO())


def test_a_journal_with_every_problem_reports_each(shift):
    """Problems come in position order, one line each, and the command fails."""
    EventJournalEntry.objects.filter(position=3).update(actor_role="director")
    EventJournalEntry.objects.filter(position=10).delete()
    ok, out, error = verify_log("--json")
    assert not ok
    report = json.loads(out)
    assert report["intact"] is False
    assert [(p["position"], p["kind"]) for p in report["problems"]] == [
        (3, "changed"),
        (3, "changed"),
        (10, "gap"),
        (11, "changed"),
    ]
    assert error.startswith("4 problem(s)")


# --- a tampered event store ------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"), [("actor", "mallory"), ("display_name", "Someone else")]
)
def test_an_event_altered_in_the_store_is_reported(shift, floor_app, field, value):
    """Who recorded it, or what it says: either differs from its journal row."""
    row = row_of("Player.Registered")
    state = stored_state(floor_app, row.position)
    assert state["actor"] == "jaime"
    state[field] = value
    tamper_stored(floor_app, row.position, state=json.dumps(state).encode())
    ok, out, _ = verify_log()
    assert not ok
    differs_in = "actor" if field == "actor" else "data"
    assert lines(out) == [
        f"position {row.position}: changed: the journal row and the stored event "
        f"differ in {differs_in}"
    ]


def test_an_event_stripped_of_its_author_in_the_store_is_unattributable(shift, floor_app):
    position = shift // 2
    state = stored_state(floor_app, position)
    del state["actor"]
    state["command_id"] = ""
    tamper_stored(floor_app, position, state=json.dumps(state).encode())
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out) == [
        f"position {position}: unattributable: no actor, command_id",
        f"position {position}: changed: the journal row and the stored event differ in "
        "actor, command_id",
    ]


def test_an_unreadable_event_in_the_store_is_reported(shift, floor_app):
    position = shift // 2
    tamper_stored(floor_app, position, state=b"{not json")
    ok, out, _ = verify_log()
    assert not ok
    [line] = lines(out)
    assert line.startswith(f"position {position}: changed: the stored event cannot be decoded: ")


def test_an_event_moved_in_its_aggregate_is_reported(shift, floor_app):
    position = row_of("Player.Registered").position
    tamper_stored(floor_app, position, sql="originator_version = originator_version + 100")
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out) == [
        f"position {position}: changed: the journal row and the stored event differ in "
        "originator_version"
    ]


def test_an_event_deleted_from_the_store_is_reported_as_a_gap(shift, floor_app):
    position = shift // 2
    tamper_stored(floor_app, position, sql="DELETE")
    ok, out, _ = verify_log("--batch-size", "5")
    assert not ok
    assert lines(out) == [f"position {position}: gap: the store has no event for this journal row"]


def test_an_event_deleted_with_its_journal_row_breaks_the_chain(shift, floor_app):
    position = shift // 2
    tamper_stored(floor_app, position, sql="DELETE")
    EventJournalEntry.objects.filter(position=position).delete()
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out) == [
        f"position {position}: gap: the store has no event at {position}",
        f"position {position + 1}: changed: the journal row does not chain from row "
        f"{position - 1} {CHAIN_BROKEN}",
    ]


# --- the migration and the pure check --------------------------------------------


def test_the_migration_chains_a_journal_written_before_it(shift):
    before = list(EventJournalEntry.objects.values_list("position", "previous_digest", "digest"))
    EventJournalEntry.objects.update(previous_digest="", digest="")
    ok, out, _ = verify_log()
    assert not ok
    # Every digest is wrong; of the links only the first (to genesis): "" follows "".
    assert len(lines(out)) == shift + 1
    migration = importlib.import_module("floor.migrations.0010_journal_hash_chain")
    migration.chain_existing_rows(apps, None)
    after = list(EventJournalEntry.objects.values_list("position", "previous_digest", "digest"))
    assert after == before
    assert verify_log()[0]


def content(position: int) -> dict:
    return {
        "position": position,
        "topic": "t:E",
        "originator_id": "00000000-0000-0000-0000-000000000001",
        "originator_version": position,
        "occurred_at": "2026-11-22T20:00:00+00:00",
        "actor": "jaime",
        "actor_role": "jefe_sector",
        "command_id": f"c{position}",
        "rule_profile": "CM",
        "data": {},
    }


def chained(positions: list[int]) -> list[JournalRow]:
    rows, previous = [], GENESIS
    for position in positions:
        digest = chain_digest(previous, content(position))
        rows.append(JournalRow(content(position), digest, previous))
        previous = digest
    return rows


@pytest.mark.parametrize(("ids_may_skip", "problems", "notes"), [(False, 1, 0), (True, 0, 1)])
def test_a_hole_in_both_the_store_and_an_intact_chain(ids_may_skip, problems, notes):
    """PostgreSQL burns an id when an insert rolls back: the projector never saw
    it, so the chain runs across it. SQLite never skips one."""
    positions = [1, 2, 4, 5]
    stored = [StoredEntry(p, content(p)) for p in positions]
    summary = Summary()
    found = list(
        verify(
            stored, chained(positions), projected_to=5, ids_may_skip=ids_may_skip, summary=summary
        )
    )
    assert [p.line() for p in found] == ["position 3: gap: the store has no event at 3"][:problems]
    assert [n.line() for n in summary.notes] == [
        "position 3: note: ids 3 were never used (a rolled-back insert)"
    ][:notes]
    assert (summary.events, summary.problems) == (4, problems)


def test_an_anchor_past_the_journal_is_a_gap():
    stored = [StoredEntry(p, content(p)) for p in (1, 2, 3)]
    rows = chained([1, 2, 3])
    anchors = {3: rows[-1].digest, 9: rows[-1].digest}
    found = list(verify(stored, rows, projected_to=3, anchors=anchors))
    assert [p.line() for p in found] == ["position 9: gap: the journal has no row at this anchor"]


def test_a_log_cut_short_below_the_projector_is_a_gap():
    stored = [StoredEntry(p, content(p)) for p in (1, 2, 3)]
    found = list(verify(stored, chained([1, 2, 3]), projected_to=6))
    assert [p.line() for p in found] == [
        "position 6: gap: the log ends at 3 but the projector had reached 6"
    ]
