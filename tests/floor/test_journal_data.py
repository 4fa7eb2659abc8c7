"""The journal keeps no copy of each event's data (issue 23, item 6): its rows
get it from the event store, at the same position, one read for a page of rows,
never one per row, and exactly as the journal recorded it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings

from floor.audit import CONTENT_FIELDS
from floor.audit_files import keyring
from floor.models import EventJournalEntry
from floor.selectors import journal
from tests.floor.test_verify_log import shift  # noqa: F401 - the fixture
from tests.support.floor import JEFE, new_id

pytestmark = pytest.mark.django_db


@pytest.fixture
def store_reads(monkeypatch) -> list[int]:
    """How many positions each read of the store asked for."""
    reads: list[int] = []
    real = journal.stored_at

    def counted(recorder, positions):
        reads.append(len(positions))
        return real(recorder, positions)

    monkeypatch.setattr(journal, "stored_at", counted)
    return reads


def test_each_row_gets_its_events_data_from_the_store_in_one_read(shift, store_reads):  # noqa: F811
    rows = list(journal.entries().order_by("position"))
    assert len(rows) == shift
    assert store_reads == [shift]
    # The truth is not the read path's own decoding but what the projection
    # chained when it wrote each row: its keyed digest covers the event's data
    # as the journal recorded it then (floor.audit), so a read back that
    # differs by one value breaks it.
    ring = keyring()
    for row in rows:
        content = {name: getattr(row, name) for name in CONTENT_FIELDS}
        assert ring.digest(row.previous_digest, content) == row.digest, row.position
    assert any(row.data for row in rows)
    registered = next(row for row in rows if row.topic.endswith("Player.Registered"))
    assert registered.data["display_name"] == "AU-0001"


def test_the_api_refuses_to_show_a_row_read_without_its_data(shift):  # noqa: F811
    """DRF drops the key of a field not required that a row lacks: a row read
    without the store's data would be shown without ``data``, silently."""
    from floor.api.serializers.journal import JournalSerializer

    with_data = journal.entries().order_by("position").first()
    assert "data" in JournalSerializer(with_data).data
    bare = EventJournalEntry.objects.order_by("position").first()
    with pytest.raises(RuntimeError, match="read without its data"):
        JournalSerializer(bare).data  # noqa: B018 - the access is the test


def test_a_page_reads_the_store_once_and_an_iteration_once_a_chunk(
    shift,  # noqa: F811
    store_reads,
):
    page = journal.entries().order_by("position")[10:30]
    assert [row.position for row in page] == list(range(11, 31))
    assert store_reads == [20]
    store_reads.clear()
    assert len(list(journal.entries().iterator(chunk_size=25))) == shift
    assert store_reads == [25] * (shift // 25) + ([shift % 25] if shift % 25 else [])
    store_reads.clear()
    # Rows that do not ask for it, or only their columns, read nothing of the store.
    assert EventJournalEntry.objects.count() == shift
    list(journal.entries().values_list("position", flat=True))
    last = EventJournalEntry.objects.last()
    assert journal.last_event_until(last.originator_id, datetime(2100, 1, 1, tzinfo=UTC))
    assert store_reads == []


def test_a_row_read_without_its_data_says_where_the_data_is(shift):  # noqa: F811
    row = EventJournalEntry.objects.first()
    with pytest.raises(AttributeError, match="read from the event store"):
        row.data  # noqa: B018 - the access is the test


def test_data_at_reads_positions_scattered_over_the_log(shift, floor_app, store_reads, caplog):  # noqa: F811
    wanted = [shift, 1, shift // 2, 1, shift + 50]  # unordered, repeated, one past the log
    found = journal.data_at(wanted)
    assert sorted(found) == sorted({1, shift // 2, shift, shift + 50})
    assert len(store_reads) == 1  # one read, whatever the positions
    assert journal.data_at([]) == {}
    # Past the log: the explicit marker, logged, not {} nor an exception.
    assert found[shift + 50] == {
        "_missing": f"position {shift + 50}: no stored event",
        "_position": shift + 50,
    }
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("ERROR", f"journal data at position {shift + 50}: no stored event there")
    ]


def test_stored_at_reads_the_lanes_store_by_its_own_query(shift, floor_app, monkeypatch):  # noqa: F811
    """On the lane's store (SQLite or PostgreSQL), the positions are read by
    one query of their own: never the range they span, which a scattered page
    of an old history would make the whole log."""
    from eventsourcing.postgres import PostgresApplicationRecorder
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    recorder = floor_app.recorder
    expected = {"sqlite": SQLiteApplicationRecorder, "postgres": PostgresApplicationRecorder}
    assert isinstance(recorder, expected[settings.EVENT_STORE_BACKEND])

    def no_range(*args, **kwargs):
        raise AssertionError("stored_at read the range, not the positions")

    monkeypatch.setattr(recorder, "select_notifications", no_range)
    found = journal.stored_at(recorder, [shift, 1, shift // 2])
    assert [n.id for n in found] == [1, shift // 2, shift]
    assert all(n.state for n in found)


def test_stored_at_reads_the_in_memory_store_by_range_and_refuses_another():
    from eventsourcing.popo import POPOApplicationRecorder

    from floor.application.floor_app import FloorApplication

    app = FloorApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    assert isinstance(app.recorder, POPOApplicationRecorder)
    for number in range(3):
        app.register_player(JEFE, new_id(), card_number=f"MEM-{number}", display_name="M")
    last = app.recorder.max_notification_id()
    found = journal.stored_at(app.recorder, [last, 1])
    assert [n.id for n in found] == [1, last] and last > 2

    class Elsewhere:
        def select_notifications(self, *args, **kwargs):
            raise AssertionError("not read")

    with pytest.raises(TypeError, match="cannot be read from a"):
        journal.stored_at(Elsewhere(), [1])
