"""Audit (issue 9, item 4; issue 18): every event names who, in which role,
under which command and profile, and ``manage.py verify_log`` shows that the log
and its journal are complete and unaltered, against a short shift built through
the real commands, then tampered with in the journal and in the event store,
with the database's own credentials: the chain is keyed with a key kept outside
the database, and anchored outside it."""

from __future__ import annotations

import hashlib
import hmac
import importlib
import io
import itertools
import json
import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from floor import runtime
from floor.audit import (
    GENESIS,
    UNKEYED,
    Anchor,
    JournalRow,
    Keyring,
    StoredEntry,
    Summary,
    chain_digest,
    key_id,
    verify,
)
from floor.audit_files import keyring
from floor.kernel.compression import inflate
from floor.models import EventJournalEntry, ProjectionPosition
from floor.projections.journal import journal
from floor.selectors.journal import entries
from floor.tasks import anchor_audit_log
from tests.support.room import Room

pytestmark = pytest.mark.django_db

CHAIN_BROKEN = "(a row before it was removed, added or rewritten)"
NO_ANCHOR = "no anchor: a removed tail would not show (see FLOOR_AUDIT_ANCHOR_FILE)"
DIGEST_WRONG = (
    "changed: the journal row's digest does not match its content with its stored event's "
    "data (the row or the stored event was edited)"
)


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
    return json.loads(inflate(notification.state))  # stored compressed, by default


# --- an intact log ----------------------------------------------------------------


@pytest.mark.parametrize("options", [[], ["--batch-size", "7"]])
def test_an_intact_log_verifies(shift, options):
    assert shift > 80
    assert EventJournalEntry.objects.count() == shift
    ok, out, _ = verify_log(*options)
    assert ok
    assert out == f"{shift} events, chain intact\n{NO_ANCHOR}\n"


def test_the_journal_rows_form_a_chain_only_the_key_holder_can_recompute(shift, audit_files):
    # The data each link covers is the stored event's (the row keeps no copy).
    rows = list(entries().order_by("position"))
    assert [r.position for r in rows] == list(range(1, shift + 1))
    assert rows[0].previous_digest == GENESIS
    for before, row in itertools.pairwise(rows):
        assert row.previous_digest == before.digest
    assert all(re.fullmatch("[0-9a-f]{64}", r.digest) for r in rows)
    assert len({r.digest for r in rows}) == shift
    # The key was made once, outside the database, readable by its owner only.
    keys = audit_files["keys"]
    assert keys.stat().st_mode & 0o777 == 0o600
    [(kid, secret)] = [line.split() for line in keys.read_text().splitlines()]
    assert {r.key_id for r in rows} == {kid} == {key_id(secret.encode())}
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
    message = (GENESIS + text).encode()
    assert first.digest == hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()
    # Without the key, the plain sha256 of the same message is no link.
    assert first.digest != hashlib.sha256(message).hexdigest()


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
    assert out == f"{shift} events, chain intact (2 newer events not journaled yet)\n{NO_ANCHOR}\n"


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
        "head_key_id": keyring().current_id,
        "anchors": 0,
        "anchors_held": 0,
        "problems": [],
        "notes": [],
    }


# --- a tampered journal ----------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "differ"),
    [
        # (The row keeps no data to edit: an edited event's data is tested below.)
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
        f"position {row.position}: {DIGEST_WRONG}",
        f"position {row.position}: changed: the journal row and the stored event differ in "
        f"{differ}",
    ]
    assert error == f"2 problem(s) in {shift} events: the log is not intact"


def edit_digest_in_sql(position: int, text: str) -> None:
    """Sets a row's digest to ``text`` in raw SQL, with the database's own
    credentials: on SQLite the BLOB column takes the text as text (SQLite does
    not enforce a column's type), as an old-version process writing hex would."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE floor_eventjournalentry SET digest = %s WHERE position = %s", [text, position]
        )


def test_a_digest_edited_to_text_is_reported_at_its_position(shift):
    """The digests are bytes (migration 0023); a row edited to text must be a
    finding at its position, not a traceback of the reading (it was one)."""
    middle = shift // 2
    edit_digest_in_sql(middle, "deadbeef")
    ok, out, error = verify_log()
    assert not ok
    assert lines(out) == [
        f"position {middle}: {DIGEST_WRONG}",
        f"position {middle + 1}: changed: the journal row does not chain from row {middle} "
        f"{CHAIN_BROKEN}",
    ]
    assert error == f"2 problem(s) in {shift} events: the log is not intact"


@pytest.mark.parametrize("text", ["deadbeef", "not a digest"])
def test_a_head_edited_to_text_neither_stops_the_projector_nor_the_anchor(
    shift, floor_app, audit_files, text
):
    """The head's digest is what the next row chains from and what beat
    anchors: read back as it stands, it is chained from and anchored (each run
    crashed on it), and verify_log names the edited row."""
    edit_digest_in_sql(shift, text)
    Room(floor_app, tag="AT")
    runtime.floor_projector().catch_up()
    assert EventJournalEntry.objects.get(position=shift + 1).previous_digest in (
        text,  # SQLite keeps the text
        text.encode().hex(),  # PostgreSQL's bytea took the text's bytes
    )
    assert anchor_audit_log() == shift + 2
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out)[0] == f"position {shift}: {DIGEST_WRONG}"


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
    """A forger without the key who rechains every row after the one they
    edit with the recipe of sha256: no link of theirs holds, and the stored
    events give them away."""
    row = row_of("Player.Registered")
    EventJournalEntry.objects.filter(position=row.position).update(actor="mallory")
    rechain_from(row.position)
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out) == [
        f"position {row.position}: {DIGEST_WRONG}",
        f"position {row.position}: changed: the journal row and the stored event differ in actor",
    ] + [f"position {p}: {DIGEST_WRONG}" for p in range(row.position + 1, shift + 1)]


def rechain_from(position: int, digest=chain_digest, *, key_id: str | None = None) -> None:
    """What a forger who knows the recipe does after editing a row: every
    link from ``position`` on again (plain sha256 unless given the key's
    ``digest``), the rows' key ids kept, or set to ``key_id``."""
    before = EventJournalEntry.objects.filter(position__lt=position).last()
    previous = before.digest if before is not None else GENESIS
    for entry in entries().filter(position__gte=position):
        entry.previous_digest = previous
        entry.digest = previous = digest(previous, {**vars(entry), "data": entry.data})
        if key_id is not None:
            entry.key_id = key_id
        entry.save()


def test_a_forgery_with_the_key_shows_against_the_anchors(shift, floor_app, audit_files):
    """Someone holding the key, the store and the journal, who rechains, is
    caught by the anchor written outside the database before their change."""
    assert anchor_audit_log() == shift
    assert verify_log()[1] == f"{shift} events, chain intact\n1 anchor(s) hold, the last at " + (
        f"position {shift} ({anchor_lines(audit_files)[0]['at']})\n"
    )
    row = row_of("Player.Registered")
    state = stored_state(floor_app, row.position)
    state["actor"] = "mallory"
    tamper_stored(floor_app, row.position, state=json.dumps(state).encode())
    EventJournalEntry.objects.filter(position=row.position).update(actor="mallory")
    rechain_from(row.position, keyring().digest)
    audit_files["anchors"].rename(audit_files["anchors"].with_suffix(".kept"))
    assert verify_log()[0], "a forgery with the key passes without the anchors"

    audit_files["anchors"].with_suffix(".kept").rename(audit_files["anchors"])
    ok, out, _ = verify_log()
    assert not ok
    at = anchor_lines(audit_files)[0]["at"]
    assert lines(out) == [
        f"position {shift}: changed: the journal row's digest is not the one of the head "
        f"anchor of {at} (audit_anchors.jsonl line 1): a row after 0 was rewritten"
    ]


def test_a_kept_head_can_be_given_by_hand(shift):
    """A head kept elsewhere (printed on a close report) is given with
    ``--anchor POSITION:DIGEST``."""
    report = json.loads(verify_log("--json")[1])
    head = f"{report['head_position']}:{report['head']}"
    assert verify_log("--anchor", head)[0]
    rechain_from(shift - 2, keyring().digest)  # unchanged rows: the same links
    assert verify_log("--anchor", head)[0]
    EventJournalEntry.objects.filter(position=shift - 2).update(actor_role="director")
    rechain_from(shift - 2, keyring().digest)
    ok, out, _ = verify_log("--anchor", head)
    assert not ok
    assert lines(out) == [
        f"position {shift - 2}: changed: the journal row and the stored event differ in actor_role",
        f"position {shift}: changed: the journal row's digest is not the one of the given "
        "anchor (--anchor): "
        "a row after 0 was rewritten",
    ]


def anchor_lines(audit_files) -> list[dict]:
    return [json.loads(line) for line in audit_files["anchors"].read_text().splitlines()]


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
    """Who recorded it, or what it says: either differs from its journal row
    (what it says, its data, by the row's digest: the row covers it, keeping
    no copy)."""
    row = row_of("Player.Registered")
    state = stored_state(floor_app, row.position)
    assert state["actor"] == "jaime"
    state[field] = value
    tamper_stored(floor_app, row.position, state=json.dumps(state).encode())
    ok, out, _ = verify_log()
    assert not ok
    if field == "actor":
        assert lines(out) == [
            f"position {row.position}: changed: the journal row and the stored event "
            "differ in actor"
        ]
    else:
        assert lines(out) == [f"position {row.position}: {DIGEST_WRONG}"]


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


def test_a_journal_chained_before_the_key_verifies_up_to_where_the_migration_recorded(
    shift, floor_app, audit_files
):
    """Migration 0011: the rows chained with plain sha256 (migration 0010) stay
    as they are, and where they end is recorded once, outside the database;
    the keyed chain goes on from their last link."""
    EventJournalEntry.objects.update(previous_digest="", digest="", key_id=UNKEYED)
    # What migration 0010 did when the rows kept their data: every link from
    # the genesis, plain sha256 (its function reads the column, gone since 0021).
    rechain_from(1, key_id=UNKEYED)
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out)[0] == (
        "position 1: changed: the journal row is chained without a key, past the unkeyed rows "
        "(up to 0)"
    )
    keyed = importlib.import_module("floor.migrations.0011_journal_audit_key")
    keyed.record_unkeyed_end(apps, None)
    [line] = anchor_lines(audit_files)
    assert (line["kind"], line["position"], line["key_id"]) == ("unkeyed_until", shift, "")
    assert verify_log()[0]

    Room(floor_app, tag="AW")  # two more events, chained with the key
    runtime.floor_projector().catch_up()
    new = list(EventJournalEntry.objects.filter(position__gt=shift))
    assert [r.key_id for r in new] == [keyring().current_id] * 2
    assert new[0].previous_digest == EventJournalEntry.objects.get(position=shift).digest
    assert verify_log()[0]

    # Chaining a keyed row again without the key is a rewrite.
    rechain_from(shift + 1, key_id=UNKEYED)
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out) == [
        f"position {p}: changed: the journal row is chained without a key, past the unkeyed "
        f"rows (up to {shift})"
        for p in (shift + 1, shift + 2)
    ]


# --- issue 18: a rewrite with the database's own credentials ----------------------


def amount_row() -> EventJournalEntry:
    """The first journal row of a buy-in: it moves an amount."""
    for row in entries().filter(topic__endswith=":Transaction.Posted"):
        if row.data.get("kind") == "buy_in":
            return row
    raise AssertionError("the shift has no buy-in")


def change_amount(app, row: EventJournalEntry) -> None:
    """Doubles a buy-in's amounts in the stored event (its journal row keeps
    no copy of them to change alike)."""
    state = stored_state(app, row.position)
    state["postings"] = {name: 2 * cents for name, cents in state["postings"].items()}
    tamper_stored(app, row.position, state=json.dumps(state).encode())


def cut_tail(app, count: int, last: int) -> None:
    """Deletes the last ``count`` events and their rows, and moves the
    projector's position back to the new end, as if they had never been."""
    for position in range(last - count + 1, last + 1):
        tamper_stored(app, position, sql="DELETE")
    EventJournalEntry.objects.filter(position__gt=last - count).delete()
    ProjectionPosition.objects.filter(name="floor").update(position=last - count)


def tail_gap(audit_files, kept: int, anchored: int, line: int = 1) -> str:
    at = anchor_lines(audit_files)[line - 1]["at"]
    return (
        f"position {kept + 1}: gap: the journal ends at {kept} but the head anchor of {at} "
        f"(audit_anchors.jsonl line {line}) recorded a chain up to {anchored}: rows "
        f"{kept + 1}-{anchored} were removed"
    )


@pytest.mark.parametrize("key_ids", ["kept", "cleared"])
def test_a_rewritten_amount_rechained_and_a_cut_tail_are_found(
    shift, floor_app, audit_files, key_ids
):
    """The issue's report: an amount changed in a stored event and its row,
    every later digest recomputed with sha256 (the rows' key ids kept, or
    cleared to pass for rows from before the key), the last twenty events and
    their rows deleted and the projector's position moved back. The first
    position that differs is the changed row's; the cut shows against the
    anchor beat wrote before."""
    assert anchor_audit_log() == shift
    row = amount_row()
    change_amount(floor_app, row)
    rechain_from(row.position, key_id=None if key_ids == "kept" else UNKEYED)
    cut_tail(floor_app, 20, shift)
    ok, out, error = verify_log()
    assert not ok
    found = lines(out)
    if key_ids == "kept":
        first = f"position {row.position}: {DIGEST_WRONG}"
    else:
        first = (
            f"position {row.position}: changed: the journal row is chained without a key, "
            "past the unkeyed rows (up to 0)"
        )
    assert found[0] == first
    assert found[-1] == tail_gap(audit_files, shift - 20, shift)
    assert len(found) == shift - 20 - row.position + 2
    assert error.endswith("the log is not intact")


def test_a_cut_tail_is_found_from_its_first_missing_position(shift, floor_app, audit_files):
    """The last twenty events and rows deleted and the projector moved back:
    what is left is a whole chain, shorter than the anchor beat wrote."""
    anchor_audit_log()
    cut_tail(floor_app, 20, shift)
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out) == [tail_gap(audit_files, shift - 20, shift)]


def test_one_forged_row_is_found_at_its_position(shift, floor_app):
    """One event forged in the store and its row alike, the links after it
    recomputed with sha256: with no anchor at all, the key alone shows it."""
    row = amount_row()
    change_amount(floor_app, row)
    rechain_from(row.position)
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out)[0] == f"position {row.position}: {DIGEST_WRONG}"
    assert lines(out)[1:] == [
        f"position {p}: {DIGEST_WRONG}" for p in range(row.position + 1, shift + 1)
    ]


def test_a_missing_event_with_its_row_and_a_rechained_journal_is_found(shift, floor_app):
    position = shift // 2
    tamper_stored(floor_app, position, sql="DELETE")
    EventJournalEntry.objects.filter(position=position).delete()
    rechain_from(position + 1)
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out)[:2] == [
        f"position {position}: gap: the store has no event at {position}",
        f"position {position + 1}: {DIGEST_WRONG}",
    ]


def test_a_forged_anchor_line_is_a_problem(shift, audit_files):
    anchor_audit_log()
    record = anchor_lines(audit_files)[0]
    record["position"] = 5  # moved to hide a later change
    audit_files["anchors"].write_text(json.dumps(record) + "\n")
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out) == [
        "position 0: anchor: audit_anchors.jsonl line 1: its MAC does not match "
        "(the line was edited or forged)"
    ]


def test_beat_anchors_the_head_outside_the_database(shift, floor_app, audit_files):
    """The task beside the sweep, every FLOOR_AUDIT_ANCHOR_SECONDS: one line a
    head, nothing while the head stands, each line signed with the key."""
    assert settings.CELERY_BEAT_SCHEDULE["audit-anchor"] == {
        "task": "floor.tasks.anchor_audit_log",
        "schedule": settings.FLOOR_AUDIT_ANCHOR_SECONDS,
        "options": {"expires": settings.FLOOR_AUDIT_ANCHOR_SECONDS},
    }
    assert anchor_audit_log() == shift
    assert anchor_audit_log() == 0  # the head has not moved
    Room(floor_app, tag="AX")
    runtime.floor_projector().catch_up()
    assert anchor_audit_log() == shift + 2
    first, second = anchor_lines(audit_files)
    head = EventJournalEntry.objects.get(position=shift + 2)
    assert {k: second[k] for k in ("v", "kind", "position", "digest", "key_id", "mac_key_id")} == {
        "v": 1,
        "kind": "head",
        "position": shift + 2,
        "digest": head.digest,
        "key_id": keyring().current_id,
        "mac_key_id": keyring().current_id,
    }
    assert re.fullmatch("[0-9a-f]{64}", second["mac"])
    assert first["position"] == shift
    ok, out, _ = verify_log()
    assert ok
    assert lines(out)[-1] == f"2 anchor(s) hold, the last at position {shift + 2} ({second['at']})"


def test_a_rotated_key_chains_from_the_next_row_and_both_verify(shift, floor_app, audit_files):
    """A rotation appends a key to the key file; the next row is chained with
    it, earlier rows keep theirs, and verify_log knows both."""
    old = keyring().current_id
    call_command("rotate_audit_key", stdout=io.StringIO())
    new = keyring().current_id
    assert new != old
    rotation = anchor_lines(audit_files)[-1]
    assert (rotation["kind"], rotation["position"], rotation["key_id"]) == ("rotation", shift, old)
    assert (rotation["new_key_id"], rotation["mac_key_id"]) == (new, new)
    Room(floor_app, tag="AY")
    runtime.floor_projector().catch_up()
    ids = list(EventJournalEntry.objects.order_by("position").values_list("key_id", flat=True))
    assert ids == [old] * shift + [new] * 2
    assert verify_log()[0]
    # A key ring without the old key cannot vouch for its rows.
    kept = audit_files["keys"].read_text().splitlines()
    audit_files["keys"].write_text(kept[-1] + "\n")
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out)[0] == (
        f"position 1: changed: the journal row is chained with key {old}, which is not in the "
        "key ring"
    )


def test_the_key_from_the_environment_and_retired_keys(shift, floor_app, settings, audit_files):
    """FLOOR_AUDIT_KEY takes over from the file's key; the file's keys (or
    FLOOR_AUDIT_KEYS) still verify the rows chained before."""
    old = keyring().current_id
    settings.FLOOR_AUDIT_KEY = "e" * 43
    assert keyring().current_id == key_id(b"e" * 43)
    Room(floor_app, tag="AZ")
    runtime.floor_projector().catch_up()
    assert verify_log()[0]
    old_secret = audit_files["keys"].read_text().split()[1]
    audit_files["keys"].unlink()
    assert not verify_log()[0]
    settings.FLOOR_AUDIT_KEYS = old_secret
    assert old in keyring().keys
    assert verify_log()[0]
    with pytest.raises(CommandError, match="FLOOR_AUDIT_KEY"):
        call_command("rotate_audit_key", stdout=io.StringIO())


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


RING = Keyring.of([], b"k" * 32)


def chained(positions: list[int]) -> list[JournalRow]:
    rows, previous = [], GENESIS
    for position in positions:
        digest = RING.digest(previous, content(position))
        rows.append(JournalRow(content(position), digest, previous, RING.current_id))
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
            stored,
            chained(positions),
            projected_to=5,
            keyring=RING,
            ids_may_skip=ids_may_skip,
            summary=summary,
        )
    )
    assert [p.line() for p in found] == ["position 3: gap: the store has no event at 3"][:problems]
    assert [n.line() for n in summary.notes] == [
        "position 3: note: ids 3 were never used (a rolled-back insert)"
    ][:notes]
    assert (summary.events, summary.problems) == (4, problems)


def test_an_anchor_past_the_journal_is_a_gap_from_the_first_row_missing():
    stored = [StoredEntry(p, content(p)) for p in (1, 2, 3)]
    rows = chained([1, 2, 3])
    anchors = [Anchor(3, rows[-1].digest), Anchor(9, rows[-1].digest, at="T", source="f line 2")]
    found = list(verify(stored, rows, projected_to=3, keyring=RING, anchors=anchors))
    assert [p.line() for p in found] == [
        "position 4: gap: the journal ends at 3 but the head anchor of T (f line 2) recorded "
        "a chain up to 9: rows 4-9 were removed"
    ]


def test_a_log_cut_short_below_the_projector_is_a_gap():
    stored = [StoredEntry(p, content(p)) for p in (1, 2, 3)]
    found = list(verify(stored, chained([1, 2, 3]), projected_to=6, keyring=RING))
    assert [p.line() for p in found] == [
        "position 4: gap: the log ends at 3 but the projector had reached 6"
    ]


def test_unkeyed_rows_hold_up_to_where_the_keyed_chain_began():
    """Rows chained before the key keep their sha256 links up to the position
    the migration recorded; past it, a row without a key is a rewrite."""
    rows, previous = [], GENESIS
    for position in (1, 2, 3, 4):
        if position <= 2:
            digest, kid = chain_digest(previous, content(position)), UNKEYED
        else:
            digest, kid = RING.digest(previous, content(position)), RING.current_id
        rows.append(JournalRow(content(position), digest, previous, kid))
        previous = digest
    stored = [StoredEntry(p, content(p)) for p in (1, 2, 3, 4)]
    assert list(verify(stored, rows, projected_to=4, keyring=RING, unkeyed_until=2)) == []
    found = list(verify(stored, rows, projected_to=4, keyring=RING, unkeyed_until=1))
    assert [p.line() for p in found] == [
        "position 2: changed: the journal row is chained without a key, past the unkeyed rows "
        "(up to 1)"
    ]
    other = Keyring.of([], b"o" * 32)
    found = list(verify(stored, rows, projected_to=4, keyring=other, unkeyed_until=2))
    assert [p.line() for p in found] == [
        f"position {p}: changed: the journal row is chained with key {RING.current_id}, "
        "which is not in the key ring"
        for p in (3, 4)
    ]


def test_journaling_an_event_reads_one_row_and_writes_one(
    shift, floor_app, django_assert_num_queries
):
    """The journal is on every event's path: the key adds no query (the key
    file is stat'ed, not read, while it stands), and a replayed position (a
    rebuild) is skipped, never written again."""
    Room(floor_app, tag="BA")  # two events, not projected yet
    [notification] = floor_app.recorder.select_notifications(shift + 1, 1)
    event = floor_app.mapper.to_domain_event(notification)
    keyring()  # the first read of the key file is once per process
    with django_assert_num_queries(2):
        written = journal(event, notification.id)
    assert written.key_id == keyring().current_id
    before = EventJournalEntry.objects.get(position=1).digest
    with django_assert_num_queries(1):
        assert journal(event, 1) is None
    assert EventJournalEntry.objects.get(position=1).digest == before


# --- issue 23, item 6: the journal keeps no copy of the events' data ----------------


def without_data(rows: list[JournalRow]) -> list[JournalRow]:
    """The rows as the journal reads them now: every field but the data."""
    return [
        JournalRow(
            {k: v for k, v in r.content.items() if k != "data"},
            r.digest,
            r.previous_digest,
            r.key_id,
        )
        for r in rows
    ]


def test_a_row_without_its_data_is_checked_with_the_stored_events():
    """The link covers the data; the row has none: the stored event's at the
    same position stands in for it, so an edited event's data breaks the link,
    and a row whose event is gone or unreadable has its link alone checked."""
    stored = [StoredEntry(p, content(p)) for p in (1, 2, 3)]
    rows = without_data(chained([1, 2, 3]))
    assert list(verify(stored, rows, projected_to=3, keyring=RING)) == []

    edited = [*stored[:1], StoredEntry(2, {**content(2), "data": {"amount": 9}}), stored[2]]
    found = list(verify(edited, rows, projected_to=3, keyring=RING))
    assert [p.line() for p in found] == [f"position 2: {DIGEST_WRONG}"]

    unreadable = [stored[0], StoredEntry(2, None, "ValueError: no"), stored[2]]
    found = list(verify(unreadable, rows, projected_to=3, keyring=RING))
    assert [p.line() for p in found] == [
        "position 2: changed: the stored event cannot be decoded: ValueError: no"
    ]


@pytest.mark.django_db(transaction=True)
def test_a_journal_written_with_its_data_verifies_once_the_column_is_dropped(
    shift, floor_app, audit_files
):
    """Rows written before migration 0021, each with its data in the column
    and its link over that copy (as the projection chained them then), verify
    the same once the migration dropped the column: the link is recomputed
    with the stored event's data, and the digest's formula did not change."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from tests.floor.test_migration_0021 import latest

    def migrate(target: str):
        executor = MigrationExecutor(connection)
        executor.migrate([("floor", target)])
        executor.loader.build_graph()
        return executor.loader.project_state([("floor", target)]).apps

    try:
        old = migrate("0020_report_rows_read_back")
        entry = old.get_model("floor", "EventJournalEntry")
        ring = keyring()
        rows = list(entry.objects.order_by("position"))
        assert len(rows) == shift
        for row in rows:
            # The column as the projection wrote it: its link, chained when the
            # event was projected, is over exactly this data (not recomputed).
            assert ring.digest(row.previous_digest, vars(row)) == row.digest, row.position
        kept = next(row for row in rows if row.topic.endswith("Player.Registered"))
        assert kept.data["display_name"] == "AU-0001"
        head = rows[-1].digest
    finally:
        migrate(latest())  # 0021 dropped the column; the later ones applied too
    assert "data" not in {f.name for f in EventJournalEntry._meta.get_fields()}
    assert EventJournalEntry.objects.order_by("position").last().digest == head
    ok, out, _ = verify_log("--anchor", f"{shift}:{head}")
    assert ok, out
    assert lines(out)[0] == f"{shift} events, chain intact"

    # Once it is gone, an edited stored event shows at its position.
    row = row_of("Player.Registered")
    state = stored_state(floor_app, row.position)
    state["display_name"] = "Someone else"
    tamper_stored(floor_app, row.position, state=json.dumps(state).encode())
    ok, out, _ = verify_log()
    assert not ok
    assert lines(out) == [f"position {row.position}: {DIGEST_WRONG}"]


def test_a_journal_row_passes_full_clean_and_a_digest_must_be_hex(shift):
    """The digests are validated as the 64 hex digits callers see, not held to
    a BinaryField's 32-byte max_length, which refused every row."""
    row = EventJournalEntry.objects.get(position=shift)
    row.full_clean()
    row.digest = "deadbeef"
    with pytest.raises(ValidationError) as refused:
        row.full_clean()
    assert list(refused.value.message_dict) == ["digest"]
