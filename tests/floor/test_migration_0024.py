"""Migration 0024 stores a mention's subject as bytes (issue 23, item 6): an
aggregate's id as its 16 bytes, an account's name as its text after a NUL;
the subjects read back the same, both ways, on a store with mentions."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.db import connection

from floor import runtime
from floor.models import (
    HexDigestField,
    JournalMention,
    SubjectField,
    subject_bytes,
    subject_text,
)
from tests.floor.test_migration_0021 import latest, migrate
from tests.support.room import Room

BEFORE, AS_BYTES = "0023_journal_digests_as_bytes", "0024_journalmention_subject_as_bytes"


@pytest.mark.parametrize(
    "subject",
    [
        uuid.uuid4().hex,
        "0" * 32,
        uuid.uuid4().hex.upper(),  # not an id's hex as the mentions write it: kept as text
        str(uuid.uuid4()),
        "",
        "cage:float",
        "a" * 15,  # 15 bytes: two NULs, or it would read back as an id
        "é" * 7 + "a",  # 15 bytes of UTF-8
        "a" * 16,
    ],
)
def test_a_subject_comes_back_whole_and_only_an_id_is_16_bytes(subject):
    stored = subject_bytes(subject)
    assert subject_text(stored) == subject
    assert (len(stored) == 16) == _is_id(subject)


def _is_id(subject: str) -> bool:
    return len(subject) == 32 and subject == subject.lower() and uuid.UUID(subject).hex == subject


def test_a_subject_with_a_nul_is_refused():
    with pytest.raises(ValueError, match="NUL"):
        subject_bytes("cage\x00float")


@pytest.mark.django_db(transaction=True)
def test_the_subjects_read_the_same_both_ways(floor_app, clock):
    room = Room(floor_app, tag="SB")
    table_id, _ = room.drawn_table(4)
    clock.advance(timedelta(minutes=5))
    room.played(table_id)
    runtime.floor_projector().catch_up()
    mentions = sorted(JournalMention.objects.values_list("subject", "position"))
    names = {subject for subject, _ in mentions if not _is_id(subject)}
    assert names and len(names) < len(mentions) / 2  # accounts' names, and mostly ids
    try:
        old = migrate(BEFORE).get_model("floor", "JournalMention")
        assert sorted(old.objects.values_list("subject", "position")) == mentions
        migrate(AS_BYTES)
        assert sorted(JournalMention.objects.values_list("subject", "position")) == mentions
        with connection.cursor() as cursor:
            cursor.execute(
                'SELECT "subject" FROM floor_journalmention WHERE "position" = %s',
                [mentions[0][1]],
            )
            assert {len(bytes(row[0])) for row in cursor.fetchall()} >= {16}
        # A history's lookup finds them by their text, an id's or a name's.
        wanted = (uuid.UUID(str(table_id)).hex, sorted(names)[0])
        found = JournalMention.objects.filter(subject__in=wanted)
        assert found.count() == sum(1 for s, _ in mentions if s in wanted) > 1
    finally:
        migrate(latest())
    assert sorted(JournalMention.objects.values_list("subject", "position")) == mentions


@pytest.mark.parametrize("field", [SubjectField(), HexDigestField()])
def test_text_the_database_gives_back_is_read_as_it_stands(field):
    """SQLite does not enforce a column's type: a row edited to text, or
    written by a process of the previous version, is read as it stands
    (a report or the chain check then sees it) rather than raise."""
    assert field.from_db_value("mallory", None, connection) == "mallory"
    assert field.to_python("mallory") == "mallory"


@pytest.mark.django_db(transaction=True)
def test_a_subject_too_long_for_the_old_column_stops_the_reversal():
    """0022's column was varchar(120); a longer subject is storable since.
    Unapplying names its position instead of failing half-way (PostgreSQL)
    or leaving a row the old column did not admit (SQLite)."""
    JournalMention.objects.bulk_create(
        [
            JournalMention(subject="n" * 121, position=7),
            JournalMention(subject="é" * 100, position=8),  # 200 bytes, 100 characters: fits
            JournalMention(subject=uuid.uuid4().hex, position=9),
        ]
    )
    try:
        with pytest.raises(RuntimeError, match=r"longer than 120 characters, at positions \[7\]"):
            migrate(BEFORE)
        assert JournalMention.objects.count() == 3  # nothing changed
        JournalMention.objects.filter(position=7).delete()
        old = migrate(BEFORE).get_model("floor", "JournalMention")
        assert sorted(old.objects.values_list("position", flat=True)) == [8, 9]
    finally:
        migrate(latest())
        JournalMention.objects.all().delete()
