"""Migration 0021 drops the journal's copy of each event's data only once it
has checked the copy against the event store (issue 23, item 6): a row whose
data the store does not hold stops it, with the column kept and the
differences written to a file; unapplied, the column is filled again from the
store, never left empty."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from floor import runtime
from floor.models import EventJournalEntry
from tests.support.room import Room

BEFORE, DROPPED = "0020_report_rows_read_back", "0021_journal_data_from_the_store"


def latest() -> str:
    """The floor app's last migration: where a test leaves the schema."""
    executor = MigrationExecutor(connection)
    return next(name for app, name in executor.loader.graph.leaf_nodes() if app == "floor")


def migrate(target: str):
    """The floor app migrated to ``target``; its models' state there."""
    executor = MigrationExecutor(connection)
    executor.migrate([("floor", target)])
    executor.loader.build_graph()
    return executor.loader.project_state([("floor", target)]).apps


def columns() -> set[str]:
    with connection.cursor() as cursor:
        described = connection.introspection.get_table_description(
            cursor, EventJournalEntry._meta.db_table
        )
    return {column.name for column in described}


@pytest.fixture
def hand(floor_app, clock) -> int:
    """A table drawn among four players and a hand played, all projected."""
    room = Room(floor_app, tag="MG")
    table_id, _ = room.drawn_table(4)
    clock.advance(timedelta(minutes=5))
    room.played(table_id)
    runtime.floor_projector().catch_up()
    return floor_app.last_position()


@pytest.mark.django_db(transaction=True)
def test_a_row_whose_data_differs_from_the_store_stops_the_migration(
    hand, settings, tmp_path, audit_files
):
    settings.VAR_DIR = tmp_path
    try:
        old = migrate(BEFORE)
        entry = old.get_model("floor", "EventJournalEntry")
        # Unapplied, every row's data came back from the store, none missing.
        assert entry.objects.count() == hand
        assert not [row.position for row in entry.objects.all() if "_missing" in row.data]
        registered = entry.objects.filter(topic__endswith="Player.Registered").first()
        assert set(registered.data) >= {"display_name"}

        # The inspectors' copy differs from the stored event: not dropped.
        edited = {**registered.data, "display_name": "Someone else"}
        entry.objects.filter(position=registered.position).update(data=edited)
        with pytest.raises(RuntimeError) as refused:
            migrate(DROPPED)
        assert "data" in columns()
        written = list(tmp_path.glob("journal-data-differences-*.jsonl"))
        assert len(written) == 1
        assert str(written[0]) in str(refused.value)
        assert "verify_log" in str(refused.value) and "keep that file" in str(refused.value)
        found = [json.loads(line) for line in written[0].read_text().splitlines()]
        assert found == [
            {"position": registered.position, "journal": edited, "store": registered.data}
        ]

        # A row at a position the store has no event at: found as well.
        entry.objects.filter(position=registered.position).update(data=registered.data)
        stray = entry.objects.get(position=registered.position)
        stray.position, stray.data = hand + 100, {"display_name": "Nobody"}
        stray.save(force_insert=True)
        with pytest.raises(RuntimeError):
            migrate(DROPPED)
        assert "data" in columns()
        written = sorted(tmp_path.glob("journal-data-differences-*.jsonl"))
        assert [json.loads(line) for line in written[-1].read_text().splitlines()] == [
            {
                "position": hand + 100,
                "journal": {"display_name": "Nobody"},
                "store": "no stored event at this position",
            }
        ]
        entry.objects.filter(position=hand + 100).delete()
    finally:
        migrate(latest())
    assert "data" not in columns()
    assert EventJournalEntry.objects.count() == hand


@pytest.mark.django_db(transaction=True)
def test_on_an_empty_journal_the_check_is_a_no_op(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    try:
        migrate(BEFORE)
        assert "data" in columns()
    finally:
        migrate(latest())
    assert "data" not in columns()
    assert list(tmp_path.iterdir()) == []
