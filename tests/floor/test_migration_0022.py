"""Migration 0022 keys the reports' mentions by (subject, position) itself
(issue 23, item 6): the rows a store already has are kept, both ways, and the
table is kept once (SQLite: ``WITHOUT ROWID``; PostgreSQL: the pair's primary
key in place of the id and the unique index that repeated the table)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection

from floor import runtime
from floor.kernel.web.rows import insert_plain
from floor.models import JournalMention
from tests.floor.test_migration_0021 import latest, migrate
from tests.support.room import Room

BEFORE, KEYED = "0021_journal_data_from_the_store", "0022_journalmention_keyed_by_itself"


def shape() -> tuple[set[str], list[str]]:
    """The table's columns, and its SQL (SQLite) or its indexes (PostgreSQL)."""
    table = JournalMention._meta.db_table
    with connection.cursor() as cursor:
        columns = {c.name for c in connection.introspection.get_table_description(cursor, table)}
        if connection.vendor == "sqlite":
            cursor.execute("SELECT sql FROM sqlite_master WHERE tbl_name = %s", [table])
        else:
            cursor.execute(
                "SELECT indexdef FROM pg_indexes "
                "WHERE tablename = %s AND schemaname = current_schema()",
                [table],
            )
        return columns, sorted(str(row[0]) for row in cursor.fetchall())


@pytest.mark.django_db(transaction=True)
def test_the_mentions_are_kept_both_ways_and_the_table_once(floor_app, clock):
    room = Room(floor_app, tag="MK")
    table_id, _ = room.drawn_table(4)
    clock.advance(timedelta(minutes=5))
    room.played(table_id)
    runtime.floor_projector().catch_up()
    mentions = sorted(JournalMention.objects.values_list("subject", "position"))
    assert len(mentions) > 20
    try:
        old = migrate(BEFORE).get_model("floor", "JournalMention")
        assert sorted(old.objects.values_list("subject", "position")) == mentions
        columns, described = shape()
        assert columns == {"id", "subject", "position"}
        assert len(described) == 2  # the table and its unique index (SQLite: its NULL sql)

        keyed = migrate(KEYED).get_model("floor", "JournalMention")  # subjects as text then
        assert sorted(keyed.objects.values_list("subject", "position")) == mentions
        columns, described = shape()
        assert columns == {"subject", "position"}
        if connection.vendor == "sqlite":
            assert len(described) == 1 and described[0].endswith("WITHOUT ROWID"), described
        else:
            assert described == [
                "CREATE UNIQUE INDEX floor_journalmention_pkey ON "
                f"{described[0].split(' ON ')[1].split('.')[0]}.floor_journalmention "
                'USING btree (subject, "position")'
            ]
        # Still a key: a mention written again is skipped, not repeated.
        insert_plain(keyed, ("subject", "position"), mentions[:3], ignore_conflicts=True)
        assert keyed.objects.count() == len(mentions)
    finally:
        migrate(latest())
