"""A room may switch compression on (floor.kernel.compression), and it is on
by default, with a preset dictionary: the states written before still read,
those written after are zlib streams, and the aggregates are the same whichever
way their events were stored."""

from __future__ import annotations

import hashlib
import sqlite3
import zlib
from uuid import UUID

import pytest
from django.conf import settings

from floor import runtime
from floor.application.floor_app import FloorApplication
from floor.kernel.compression import (
    DEFAULT_TOPIC,
    DICTIONARIES,
    DICTIONARY,
    DICTIONARY_1,
    DICTIONARY_ID,
    ZlibOrPlain,
    ZlibWithDictionary,
)
from games.profiles import CM
from tests.support.floor import DIRECTOR, HOLDEM, JEFE, new_id

COMPRESSED = {"COMPRESSOR_TOPIC": "floor.kernel.compression:ZlibOrPlain"}
PLAIN = {"COMPRESSOR_TOPIC": ""}
STATE = (
    b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-11-27T09:15:16.463560+00:00"},'
    b'"actor":"ana","actor_role":"crupier","command_id":"488734a4-bc4b-40df-b1c6-9eedefebdbe0",'
    b'"rule_profile":"CM","transaction_id":"faf63adcd4d54e72a1761badf648ccf0","amount":400,'
    b'"balance":16000}'
)


def test_zlib_streams_are_inflated_and_plain_json_passes_through():
    compressor = ZlibOrPlain()
    state = b'{"name":"Sector A","seats":10}'
    assert compressor.compress(state) == zlib.compress(state)
    assert compressor.decompress(compressor.compress(state)) == state
    assert compressor.decompress(state) == state
    with pytest.raises(zlib.error):
        compressor.decompress(b"x not a zlib stream")


def test_a_state_compressed_with_the_dictionary_names_it_and_every_kind_reads():
    """A standard zlib stream whose header names the dictionary by its adler32
    (zlib itself inflates it, given the dictionary); every compressor reads it,
    plain zlib and plain JSON alike."""
    stream = ZlibWithDictionary().compress(STATE)
    assert stream[:1] == b"x" and stream[1] & 0x20
    assert int.from_bytes(stream[2:6], "big") == DICTIONARY_ID == zlib.adler32(DICTIONARY)
    assert zlib.decompressobj(zdict=DICTIONARY).decompress(stream) == STATE
    # The point of the dictionary: a small state shrinks to much less than alone.
    assert len(stream) < len(zlib.compress(STATE)) * 2 / 3
    for reader in (ZlibOrPlain(), ZlibWithDictionary()):
        assert reader.decompress(stream) == STATE
        assert reader.decompress(zlib.compress(STATE)) == STATE
        assert reader.decompress(STATE) == STATE


# STATE compressed with dictionary 1 when it was committed (2026-11-27): the
# bytes stored states hold. Written out, not computed here, so a dictionary
# regenerated in place (other bytes, another adler32) cannot pass.
STORED_WITH_DICTIONARY_1 = bytes.fromhex(
    "78bba33494789dd6cb0d84301003d08a82186226813a68603e99e376b0bd133881b8205a78966c7f"
    "52397fe3362e2bcd2bf100cebd349f2af2939724a8b56408921ab4c7e791948cd3726c7a34756daf"
    "494282b3b8397c462b93506152f16054b3b892e02ed281c6ff0ec3d9533b"
)


def test_dictionary_1_is_pinned_and_still_reads_what_it_compressed():
    """Stored states name their dictionary by its adler32: dictionary 1 may
    never change, only have another added beside it (floor.kernel.compression)."""
    assert zlib.adler32(DICTIONARY_1) == 0xA3349478
    assert hashlib.sha256(DICTIONARY_1).hexdigest() == (
        "c042066bfe9cc765a9b29618b3c1019210f0df80535ef40d5d46013929ecf674"
    )
    assert DICTIONARIES[0xA3349478] is DICTIONARY_1
    assert int.from_bytes(STORED_WITH_DICTIONARY_1[2:6], "big") == 0xA3349478
    for reader in (ZlibOrPlain(), ZlibWithDictionary()):
        assert reader.decompress(STORED_WITH_DICTIONARY_1) == STATE
    # zlib itself, given the dictionary, reads it too: a standard stream.
    assert zlib.decompressobj(zdict=DICTIONARY_1).decompress(STORED_WITH_DICTIONARY_1) == STATE


def test_a_stream_of_an_unknown_dictionary_or_cut_short_is_refused():
    other = zlib.compressobj(zdict=b'{"another":"dictionary"}')
    foreign = other.compress(STATE) + other.flush()
    with pytest.raises(zlib.error, match="unknown dictionary"):
        ZlibWithDictionary().decompress(foreign)
    stream = ZlibWithDictionary().compress(STATE)
    with pytest.raises(zlib.error):
        ZlibWithDictionary().decompress(stream[:-3])
    with pytest.raises(zlib.error, match="checksum"):
        ZlibWithDictionary().decompress(stream[:-1] + bytes([stream[-1] ^ 1]))


def test_every_application_compresses_with_the_dictionary_by_default(tmp_path):
    """The settings' default, given to every process's application, and the
    kernel's for an application built without them (a bench, a tool)."""
    assert settings.EVENT_COMPRESSOR_TOPIC == DEFAULT_TOPIC
    assert runtime.event_store_env()["COMPRESSOR_TOPIC"] == DEFAULT_TOPIC
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "e.db")}
    app = FloorApplication(env=store, profile=CM)
    assert isinstance(app.mapper.compressor, ZlibWithDictionary)
    app.open_sector(DIRECTOR, new_id(), name="Sector D")
    app.close()
    with sqlite3.connect(tmp_path / "e.db") as db:
        states = [s for (s,) in db.execute("SELECT state FROM stored_events ORDER BY rowid")]
    assert states and all(s[:1] == b"x" and s[1] & 0x20 for s in states)


@pytest.mark.django_db
def test_a_log_written_plain_reads_on_after_compression_is_switched_on(tmp_path):
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "e.db")}
    plain = FloorApplication(env={**store, **PLAIN}, profile=CM)
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
