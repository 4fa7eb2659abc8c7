"""Migration 0023 stores the journal's digests as their bytes (issue 23, item
6): on a store with rows, every row reads back the same hex digests, both
ways, ``verify_log`` passes on the migrated journal and still finds an edited
row; a digest that is not hex stops the migration."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from floor import runtime
from floor.models import EventJournalEntry
from tests.floor.test_migration_0021 import latest, migrate
from tests.support.room import Room

BEFORE, AS_BYTES = "0022_journalmention_keyed_by_itself", "0023_journal_digests_as_bytes"


def stored() -> dict[str, str]:
    """Each digest column's declared type and a stored value's type, as the
    database holds them."""
    table = EventJournalEntry._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f'SELECT typeof("digest") FROM "{table}" LIMIT 1')
            value = cursor.fetchone()[0]
            cursor.execute(f'PRAGMA table_info("{table}")')
            declared = {row[1]: row[2].lower() for row in cursor.fetchall()}
        else:
            cursor.execute(f'SELECT pg_typeof("digest")::text FROM "{table}" LIMIT 1')
            value = cursor.fetchone()[0]
            cursor.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = %s AND table_schema = current_schema()",
                [table],
            )
            declared = dict(cursor.fetchall())
    return {"digest": declared["digest"], "previous": declared["previous_digest"], "value": value}


def indexed() -> set[tuple[str, ...]]:
    """The columns of the table's indexes other than its primary key's."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, EventJournalEntry._meta.db_table)
    return {tuple(c["columns"]) for c in found.values() if c["index"] and not c["primary_key"]}


def text() -> str:
    """A text value's type, as ``stored`` names it."""
    return "text" if connection.vendor == "sqlite" else "character varying"


def verify() -> tuple[bool, str]:
    out = io.StringIO()
    try:
        call_command("verify_log", stdout=out)
    except CommandError as error:
        return False, str(error)
    return True, out.getvalue()


@pytest.fixture
def played(floor_app, clock) -> list[tuple]:
    room = Room(floor_app, tag="DG")
    table_id, _ = room.drawn_table(4)
    clock.advance(timedelta(minutes=5))
    room.played(table_id)
    runtime.floor_projector().catch_up()
    rows = list(
        EventJournalEntry.objects.order_by("position").values_list(
            "position", "previous_digest", "digest", "key_id"
        )
    )
    assert len(rows) > 20 and all(len(row[2]) == 64 for row in rows)
    return rows


@pytest.mark.django_db(transaction=True)
def test_the_digests_read_the_same_both_ways_and_the_chain_holds(played, audit_files):
    try:
        old = migrate(BEFORE).get_model("floor", "EventJournalEntry")
        as_text = list(
            old.objects.order_by("position").values_list(
                "position", "previous_digest", "digest", "key_id"
            )
        )
        assert as_text == played
        assert stored()["value"] == text()
        assert indexed() >= {("originator_id",), ("command_id",)}

        migrate(AS_BYTES)
        kinds = stored()
        if connection.vendor == "sqlite":
            assert kinds == {"digest": "blob", "previous": "blob", "value": "blob"}
        else:
            assert kinds == {"digest": "bytea", "previous": "bytea", "value": "bytea"}
        with connection.cursor() as cursor:
            cursor.execute('SELECT length("digest") FROM floor_eventjournalentry')
            assert {row[0] for row in cursor.fetchall()} == {32}
        again = list(
            EventJournalEntry.objects.order_by("position").values_list(
                "position", "previous_digest", "digest", "key_id"
            )
        )
        assert again == played
        assert indexed() >= {("originator_id",), ("command_id",)}
        ok, said = verify()
        assert ok, said

        # An edited row still shows.
        edited = EventJournalEntry.objects.filter(position=played[len(played) // 2][0])
        actor = edited.get().actor
        edited.update(actor="mallory")
        ok, said = verify()
        assert not ok and "not intact" in said
        edited.update(actor=actor)
        # Each row's link reads as the digest of the row before.
        assert EventJournalEntry.objects.get(position=played[1][0]).previous_digest == played[0][2]
    finally:
        migrate(latest())
    assert verify()[0]


@pytest.mark.django_db(transaction=True)
def test_a_digest_that_is_not_hex_stops_the_migration(played):
    try:
        old = migrate(BEFORE).get_model("floor", "EventJournalEntry")
        position = played[3][0]
        old.objects.filter(position=position).update(digest="not a digest")
        with pytest.raises(RuntimeError, match=rf"positions \[{position}\].*verify_log"):
            migrate(AS_BYTES)
        assert stored()["value"] == text()
        old.objects.filter(position=position).update(digest=played[3][2])
    finally:
        migrate(latest())
    assert EventJournalEntry.objects.get(position=position).digest == played[3][2]
