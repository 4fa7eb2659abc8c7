"""A room may switch compression on (floor.kernel.compression): the states
written before still read, those written after are zlib streams, and the
aggregates are the same whichever way their events were stored."""

from __future__ import annotations

import sqlite3
import zlib
from uuid import UUID

import pytest

from floor.application.floor_app import FloorApplication
from floor.kernel.compression import ZlibOrPlain
from games.profiles import CM
from tests.support.floor import DIRECTOR, HOLDEM, JEFE, new_id

COMPRESSED = {"COMPRESSOR_TOPIC": "floor.kernel.compression:ZlibOrPlain"}


def test_zlib_streams_are_inflated_and_plain_json_passes_through():
    compressor = ZlibOrPlain()
    state = b'{"name":"Sector A","seats":10}'
    assert compressor.compress(state) == zlib.compress(state)
    assert compressor.decompress(compressor.compress(state)) == state
    assert compressor.decompress(state) == state
    with pytest.raises(zlib.error):
        compressor.decompress(b"x not a zlib stream")


@pytest.mark.django_db
def test_a_log_written_plain_reads_on_after_compression_is_switched_on(tmp_path):
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "e.db")}
    plain = FloorApplication(env=store, profile=CM)
    sector_id = plain.open_sector(DIRECTOR, new_id(), name="Sector Z").result["sector_id"]
    written_plain = plain.last_position()
    before = vars(plain.repository.get(UUID(sector_id)))
    plain.close()

    compressing = FloorApplication(env={**store, **COMPRESSED}, profile=CM)
    assert vars(compressing.repository.get(UUID(sector_id))) == before
    table_id = compressing.open_table(JEFE, new_id(), sector_id=sector_id, **HOLDEM).result[
        "table_id"
    ]
    assert compressing.repository.get(UUID(table_id)).sector_id == UUID(sector_id)
    notifications = compressing.recorder.select_notifications(1, 1000)
    events = [compressing.mapper.to_domain_event(n) for n in notifications]
    assert len(events) == compressing.last_position() > written_plain
    compressing.close()

    with sqlite3.connect(tmp_path / "e.db") as db:
        states = [s for (s,) in db.execute("SELECT state FROM stored_events ORDER BY rowid")]
    assert all(s[:1] == b"{" for s in states[:written_plain])
    assert all(s[:1] == b"x" for s in states[written_plain:])
    plain_bytes = sum(len(zlib.decompress(s)) for s in states[written_plain:])
    assert sum(len(s) for s in states[written_plain:]) < plain_bytes
