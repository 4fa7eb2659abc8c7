"""An anchor records only a journal head a server crash cannot take back
(floor.audit_files.anchor_head): on PostgreSQL the projector process commits
the journal's rows without waiting for the WAL's flush, so the head is read
with a row lock in a transaction of its own, whose commit waits for the flush
past every commit the read saw."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from floor import runtime
from floor.audit_files import anchor_head
from floor.models import EventJournalEntry
from tests.support.shift import Shift

POSTGRES = connection.vendor == "postgresql"


@pytest.fixture
def journal(make_app, audit_files):
    """A floor whose journal the projector process's relaxed batches wrote."""
    app = make_app("CM")
    runtime.install(app)
    Shift(app, seed=3).open(1)
    projector = runtime.floor_projector(long_lived=True)
    projector.relax_commits()
    projector.catch_up()
    yield app
    runtime.install(None)


@pytest.mark.django_db(transaction=True)
def test_the_head_is_read_under_a_row_lock_in_a_transaction_of_its_own(journal):
    """The lock is WAL-logged and takes a transaction id: the commit after it
    is a synchronous one, which waits for the flush."""
    with CaptureQueriesContext(connection) as queries:
        record = anchor_head()
    head = EventJournalEntry.objects.order_by("-position").first()
    assert record is not None and (record["position"], record["digest"]) == (
        head.position,
        head.digest,
    )
    statements = [query["sql"] for query in queries.captured_queries]
    read = [sql for sql in statements if "floor_eventjournalentry" in sql.lower()]
    assert len(read) == 1
    if POSTGRES:
        assert read[0].endswith("FOR NO KEY UPDATE")
        assert statements[statements.index(read[0]) + 1] == "COMMIT"
    else:  # a plain read: no transaction, so no IMMEDIATE write lock to queue for
        assert statements == read
        assert "FOR" not in read[0]


@pytest.mark.django_db(transaction=True)
def test_the_head_is_anchored_while_another_connection_holds_sqlites_write_lock(journal):
    """On SQLite the anchor reads beside a writer (a rebuild's switch holds the
    write lock for its copy): it takes no write lock of its own. On PostgreSQL
    the WAL is flushed past what the anchor read (other sessions' commits may
    flush it too on a busy server: the statements' test above is the one that
    tells there)."""
    if POSTGRES:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn")
            written = int(cursor.fetchone()[0])
        assert anchor_head(kind="test") is not None
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_flush_lsn() - '0/0'::pg_lsn")
            assert int(cursor.fetchone()[0]) >= written
        return
    import sqlite3

    writer = sqlite3.connect(connection.settings_dict["NAME"], timeout=0.1, uri=True)
    try:
        writer.execute("BEGIN IMMEDIATE")
        record = anchor_head(kind="test")
    finally:
        writer.rollback()
        writer.close()
    head = EventJournalEntry.objects.order_by("-position").first()
    assert record is not None and record["position"] == head.position
