"""A rebuild disturbs no one (issue 23, item 3): the read models are rebuilt in
a shadow database while a client reads the live ones, switched in one
transaction, and the events recorded meanwhile are there after the tail. Runs on
the lane's backend: a shadow file on SQLite, a shadow schema on PostgreSQL."""

from __future__ import annotations

import contextlib
import gc
import io
import json
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.utils import load_backend
from django.utils import timezone
from django.utils.connection import ConnectionDoesNotExist

from floor import runtime
from floor import timers as sweeper
from floor.kernel.clock import ManualClock
from floor.kernel.web import shadow_db
from floor.kernel.web.shadow_rebuild import REBUILD_GC_THRESHOLD, ShadowRebuild, fewer_collections
from floor.models import EventJournalEntry, PendingTimer, ProjectionPosition, TableView
from floor.projections import timers
from tests.support.floor import open_sector, open_tables
from tests.support.room import Room

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock() -> ManualClock:
    """Today, not the suite's fixed date: a deadline the floor records is then
    still ahead, and the live projection queues its ETA task (which a rebuild
    must not queue again)."""
    return ManualClock(timezone.now().replace(microsecond=0))


@pytest.fixture
def etas(monkeypatch) -> list[str]:
    """The timer tasks queued, by key, instead of sending them to a broker."""
    sent: list[str] = []
    monkeypatch.setattr(timers, "send_eta", lambda key, due_at: sent.append(key))
    return sent


def read_models() -> dict[str, list[str]]:
    """Every read model's rows, comparable across a rebuild (surrogate ids out,
    as bench/soak.py compares them)."""
    rows = {}
    for model in runtime.floor_projector().projection.read_models():
        fields = [
            f.attname
            for f in model._meta.concrete_fields
            if not (f.primary_key and f.get_internal_type() in ("AutoField", "BigAutoField"))
        ]
        rows[model._meta.label] = sorted(
            json.dumps(row, sort_keys=True, default=str) for row in model.objects.values(*fields)
        )
    return rows


def journal() -> list[tuple]:
    return list(EventJournalEntry.objects.order_by("position").values_list("position", "digest"))


def shadow_left() -> bool:
    """Whether a shadow file or schema outlived its rebuild."""
    if connection.vendor == "sqlite":
        return Path(f"{connection.settings_dict['NAME']}-shadow").exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_namespace WHERE nspname LIKE %s", ["%shadow"])
        return cursor.fetchone() is not None


@pytest.fixture
def floor(floor_app, etas, django_capture_on_commit_callbacks) -> dict:
    """A room of three sectors and 8 tables, one of them running with four
    players on the ledger's books, then suspended (a pending timer); projected
    live."""
    room = Room(floor_app)
    table_id, cards = room.drawn_table(4)
    room.leave(table_id, cards[3])  # suspended: its closing deadline is recorded
    open_tables(floor_app, room.sector_id, 1)
    sectors = [room.sector_id]
    for name in ("Sector D", "Sector E"):
        sectors.append(open_sector(floor_app, name))
        open_tables(floor_app, sectors[-1], 3)
    # The test's transaction never commits: its commit hooks run here.
    with django_capture_on_commit_callbacks(execute=True):
        runtime.floor_projector().catch_up()
    (pending,) = PendingTimer.objects.filter(state=PendingTimer.PENDING)
    assert etas == [pending.key]  # the live projection queued its task
    return {"room": room, "sectors": sectors}


def test_a_client_reading_during_a_rebuild_sees_the_whole_floor_and_then_the_new_events(
    floor_app, floor, api_as, etas, django_capture_on_commit_callbacks
):
    reader = api_as("jaime", "jefe_sector")
    a, b, c = floor["sectors"]

    def shown() -> dict[str, int]:
        """What the console's API shows: the tables of each sector."""
        return {s: len(reader.get(f"/api/sectors/{s}/tables/").json()) for s in (a, b, c)}

    assert shown() == {a: 2, b: 3, c: 3}
    etas.clear()
    journal_before = journal()
    seen: list[dict] = []
    shadow_tables: list[int] = []

    def between_batches(done: int, total: int) -> None:
        if len(seen) == 0:
            # A table is opened and the live projector (still running) shows it.
            open_tables(floor_app, a, 1)
            runtime.floor_projector().catch_up()
        if len(seen) == 1:
            # Another, which no live projector shows before the switch: the tail's.
            open_tables(floor_app, b, 1)
        with contextlib.suppress(ConnectionDoesNotExist):  # none left in the tail
            shadow_tables.append(TableView.objects.using(shadow_db.ALIAS).count())
        seen.append(shown())

    rebuild = ShadowRebuild(runtime.floor_projector(), batch_size=10, progress=between_batches)
    with django_capture_on_commit_callbacks(execute=True):
        position = rebuild.run()

    # The shadow was partial while the client read: the client never was.
    assert min(shadow_tables) < 8
    # Before the switch: the whole floor the live projector showed; after the
    # switch and the tail, the tail's table too.
    live, tail = {a: 3, b: 3, c: 3}, {a: 3, b: 4, c: 3}
    assert seen == [live] * (len(seen) - seen.count(tail)) + [tail] * seen.count(tail)
    assert len(seen) > 3 and seen[-1] == shown() == tail
    after = read_models()
    assert position == floor_app.last_position() == runtime.floor_projector().position()
    # The suspended table's deadline was not queued again by the rebuild.
    assert etas == []
    assert not shadow_left()
    runtime.floor_projector().reset()
    runtime.floor_projector().catch_up()
    assert after == read_models()  # what projecting the log from scratch shows
    # The journal was kept: the old rows as they were, the new events once each.
    assert journal()[: len(journal_before)] == journal_before
    assert [p for p, _ in journal()] == list(range(1, floor_app.last_position() + 1))


def test_the_switch_applies_what_the_live_projector_did_meanwhile_exactly_once(floor_app, floor):
    projector = runtime.floor_projector()
    rebuild = ShadowRebuild(projector, batch_size=1000)
    rebuild.shadow.open()
    try:
        rebuild.build(projector.position())
        # Between the last shadow batch and the switch, the live projector moves.
        open_tables(floor_app, floor["sectors"][0], 2)
        projector.catch_up()
        live = read_models()
        assert rebuild.shadow_position() < projector.position()
        assert rebuild.switch() == projector.position() == floor_app.last_position()
    finally:
        rebuild.shadow.close()
    assert read_models() == live
    assert TableView.objects.filter(sector_id=floor["sectors"][0]).count() == 4


def table_oids() -> dict[str, int]:
    """PostgreSQL: each read model's table by name in the live schema -> its oid."""
    tables = [m._meta.db_table for m in runtime.floor_projector().projection.read_models()]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, oid::bigint FROM pg_class WHERE relnamespace = "
            "current_schema()::regnamespace AND relname = ANY(%s)",
            [tables],
        )
        return dict(cursor.fetchall())


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_switch_copies_each_table_in_one_statement(
    floor_app, floor, monkeypatch
):
    """As ``rebuild_projections`` runs it (no live transaction open: the other
    tests run in one), the switch on SQLite attaches the shadow file and
    copies each table with one ``INSERT ... SELECT`` (issue 23): the read
    models are the same, nothing goes through Python, nothing stays attached.
    On PostgreSQL no row is copied: the shadow's tables take the live ones'
    place (new tables under the same names), and the next events' rows get
    ids after the rebuilt ones."""
    live = read_models()
    oids = table_oids() if connection.vendor == "postgresql" else {}
    through_python: list[str] = []
    copy = shadow_db.ShadowDatabase._copy_sqlite

    def counted(self, cursor, table, columns):
        through_python.append(table)
        return copy(self, cursor, table, columns)

    monkeypatch.setattr(shadow_db.ShadowDatabase, "_copy_sqlite", counted)
    inserts: list[str] = []

    def seen(execute, sql, params, many, context):
        copied_from_shadow = sql.startswith("INSERT INTO") and "_shadow" in sql  # PostgreSQL
        if sql.startswith("INSERT INTO main.") or copied_from_shadow:
            inserts.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(seen):
        rebuilt = ShadowRebuild(runtime.floor_projector(), batch_size=7).run()
    assert rebuilt == floor_app.last_position()
    assert read_models() == live
    assert through_python == []
    if connection.vendor == "postgresql":
        assert inserts == []
        swapped = table_oids()
        assert swapped.keys() == oids.keys() and len(oids) > 10
        assert all(swapped[name] != oids[name] for name in oids)
        open_tables(floor_app, floor["sectors"][1], 1)  # ids go on after the rebuilt rows
        runtime.floor_projector().catch_up()
        assert TableView.objects.filter(sector_id=floor["sectors"][1]).count() == 4
    if connection.vendor == "sqlite":
        # A table whose columns lie in the shadow's order (the journal's
        # mentions, the largest: made by one migration) is copied as it is
        # stored (``SELECT *``, SQLite's transfer); one migrated column by
        # column (the tables' rows) by name.
        copies = {sql.split('"')[1]: " SELECT * FROM " in sql for sql in inserts}
        assert copies["floor_journalmention"] and not copies["floor_tableview"]
    assert not shadow_left()
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA database_list")
            assert shadow_db.ATTACHED not in [row[1] for row in cursor.fetchall()]


def _mentions_shape(cursor, schema: str | None) -> list[str]:
    """The mentions' table as the database describes it: its SQL and its
    indexes' (SQLite; ``schema`` an attached one), or its key's and indexes'
    definitions, schema left out (PostgreSQL)."""
    if connection.vendor == "sqlite":
        cursor.execute(
            f"SELECT type, sql FROM {schema or 'main'}.sqlite_master "
            "WHERE tbl_name = 'floor_journalmention' ORDER BY name"
        )
        return [f"{kind}: {sql}" for kind, sql in cursor.fetchall()]
    cursor.execute(
        "SELECT schemaname, indexdef FROM pg_indexes WHERE tablename = 'floor_journalmention' "
        "AND schemaname = COALESCE(%s, current_schema()) ORDER BY indexname",
        [schema],
    )
    return [index.replace(f"{name}.", "SCHEMA.") for name, index in cursor.fetchall()]


def test_the_shadow_makes_the_mentions_table_as_the_migration_made_the_live_one(floor_app, floor):
    """Keyed by (subject, position) alone, once (issue 23, item 6): on SQLite
    a ``WITHOUT ROWID`` table, which Django's ``create_model`` would not make;
    a shadow made the ordinary way would copy into the live table row by
    row, and swap in (PostgreSQL) a table of another shape."""
    rebuild = ShadowRebuild(runtime.floor_projector(), batch_size=5)
    rebuild.shadow.open()
    try:
        if connection.vendor == "sqlite":
            with rebuild.shadow.connection.cursor() as cursor:
                shadow = _mentions_shape(cursor, None)
            with connection.cursor() as cursor:
                live = _mentions_shape(cursor, None)
            assert live[0].endswith("WITHOUT ROWID") and len(live) == 1, live
        else:
            with connection.cursor() as cursor:
                live = _mentions_shape(cursor, None)
                shadow = _mentions_shape(cursor, rebuild.shadow.schema)
            assert live == [
                "CREATE UNIQUE INDEX floor_journalmention_pkey ON SCHEMA.floor_journalmention "
                'USING btree (subject, "position")'
            ]
        assert shadow == live
    finally:
        rebuild.shadow.close()


def test_an_attached_table_whose_columns_lie_in_another_order_is_copied_by_name(tmp_path):
    """``SELECT *`` takes the columns in their order: a live table migrated
    column by column may hold them in another order than the shadow made
    from the model, and is then copied column by column, by name. (The
    shadow is attached on SQLite only: asked of two SQLite files whatever
    this lane's database.)"""
    import sqlite3

    shadow = shadow_db.ShadowDatabase([], ProjectionPosition)
    live = sqlite3.connect(tmp_path / "live.sqlite3")
    try:
        cursor = live.cursor()
        cursor.execute('CREATE TABLE "t_order" ("a" integer, "b" text)')
        cursor.execute('CREATE TABLE "t_same" ("a" integer, "b" text)')
        cursor.execute(f"ATTACH DATABASE ? AS {shadow_db.ATTACHED}", [str(tmp_path / "shadow")])
        for table, columns in (("t_order", '"b" text, "a" integer'), ("t_same", None)):
            columns = columns or '"a" integer, "b" text'
            cursor.execute(f'CREATE TABLE {shadow_db.ATTACHED}."{table}" ({columns})')
            cursor.execute(
                f'INSERT INTO {shadow_db.ATTACHED}."{table}" ("a", "b") VALUES (1, ?)', ["x"]
            )
        by_name = shadow._attached_copy(cursor, "t_order", '"a", "b"')
        as_stored = shadow._attached_copy(cursor, "t_same", '"a", "b"')
        assert "SELECT *" not in by_name and "SELECT *" in as_stored
        cursor.execute(by_name)
        cursor.execute(as_stored)
        for table in ("t_order", "t_same"):
            cursor.execute(f'SELECT "a", "b" FROM main."{table}"')
            assert cursor.fetchall() == [(1, "x")]
    finally:
        live.close()


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_switch_still_applies_what_the_live_projector_did(
    floor_app, floor
):
    """The events the live projector applied between the last shadow batch and
    the switch are applied to the shadow by the switch, which then copies it,
    as the test above; here with no live transaction open, as
    ``rebuild_projections`` runs it (the shadow is written while the switch
    holds the live lock, so it copies through Python: the shadow's own
    connection could not write the shadow file attached)."""
    projector = runtime.floor_projector()
    rebuild = ShadowRebuild(projector, batch_size=1000)
    rebuild.shadow.open()
    try:
        rebuild.build(projector.position())
        open_tables(floor_app, floor["sectors"][0], 2)
        projector.catch_up()
        live = read_models()
        assert rebuild.shadow_position() < projector.position()
        assert rebuild.switch() == projector.position() == floor_app.last_position()
    finally:
        rebuild.shadow.close()
    assert read_models() == live
    assert TableView.objects.filter(sector_id=floor["sectors"][0]).count() == 4


def test_a_rebuild_behind_a_lagging_live_projector_journals_the_rest_once(floor_app, etas):
    sector = open_sector(floor_app, "Sector A")
    open_tables(floor_app, sector, 2)
    runtime.floor_projector().catch_up()
    open_tables(floor_app, sector, 2)  # not projected yet: the tail projects them
    call_command("rebuild_projections", "--no-progress", stdout=io.StringIO())
    assert TableView.objects.count() == 4
    assert [p for p, _ in journal()] == list(range(1, floor_app.last_position() + 1))
    assert not shadow_left()


def test_the_progress_bar_shows_events_per_second_and_the_time_left(floor_app, floor):
    err = io.StringIO()
    call_command("rebuild_projections", "--batch-size", "5", stdout=io.StringIO(), stderr=err)
    bar = err.getvalue()
    assert "100%" in bar and "event/s" in bar and "<00:00" in bar


def test_a_rebuild_collects_garbage_less_often_and_puts_the_collector_back(floor_app, floor):
    """Its batches run with the young generation's threshold raised and what
    the process held before frozen out of the collector's walks (issue 23,
    seventh pass); after it, the collector is as it was."""
    before, seen = gc.get_threshold(), []

    def between_batches(done: int, total: int) -> None:
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))

    ShadowRebuild(runtime.floor_projector(), batch_size=5, progress=between_batches).run()
    assert seen and set(seen) == {(REBUILD_GC_THRESHOLD, True)}
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    assert not shadow_left()


def test_a_rebuild_that_fails_puts_the_collector_back(floor_app, floor):
    """Its progress callback raising in the middle of the shadow's batches:
    the threshold and the freeze are as they were (one rebuild only: on
    PostgreSQL a second one in the test's transaction would wait on the
    first's shadow schema)."""
    before = (gc.get_threshold(), gc.get_freeze_count())
    during = []

    def failing(done: int, total: int) -> None:
        during.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))
        raise RuntimeError("the operator's terminal went away")

    with pytest.raises(RuntimeError, match="terminal went away"):
        ShadowRebuild(runtime.floor_projector(), batch_size=5, progress=failing).run()
    assert during == [(REBUILD_GC_THRESHOLD, True)]  # it raised once, inside the window
    assert (gc.get_threshold(), gc.get_freeze_count()) == before


@contextlib.contextmanager
def collector(threshold: int, *, frozen: bool) -> Iterator[None]:
    """The collector set as a caller may have it, put back after."""
    was = gc.get_threshold()
    gc.set_threshold(threshold, *was[1:])
    if frozen:
        gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*was)


def test_the_gc_window_leaves_a_callers_freeze_frozen():
    with collector(700, frozen=True):
        frozen = gc.get_freeze_count()
        with fewer_collections():
            assert gc.get_freeze_count() == frozen
        assert gc.get_freeze_count() == frozen


@pytest.mark.parametrize("threshold", [0, 50_000])
def test_the_gc_window_keeps_a_callers_threshold_when_off_or_higher(threshold):
    with collector(threshold, frozen=False):
        with fewer_collections():
            assert gc.get_threshold()[0] == threshold
        assert gc.get_threshold()[0] == threshold


def test_the_gc_window_does_not_freeze_young_garbage():
    """A cycle dropped just before the rebuild is collected, not frozen for
    its whole length (automatic collection off, so none comes between)."""

    class Node:
        pass

    with collector(0, frozen=False):
        node = Node()
        node.itself = node
        gone = weakref.ref(node)
        del node
        with fewer_collections():
            assert gone() is None


def test_a_shadow_left_by_a_rebuild_that_died_is_dropped_by_the_next(floor_app, floor):
    projector = runtime.floor_projector()
    live = read_models()
    dead = ShadowRebuild(projector, batch_size=5)
    dead.shadow.open()
    dead.build(7)  # the process dies here: the shadow stays behind
    connection_of_the_dead = dead.shadow.connection
    connection_of_the_dead.close()
    dead.shadow.unlock()  # as the end of its process does
    assert ShadowRebuild(projector, batch_size=5).run() == floor_app.last_position()
    assert read_models() == live
    assert not shadow_left()


def test_a_second_rebuild_while_one_runs_is_refused_and_leaves_its_shadow_alone(floor_app, floor):
    projector = runtime.floor_projector()
    live = read_models()
    first = ShadowRebuild(projector, batch_size=5)
    first.shadow.open()
    try:
        first.build(7)
        built = (TableView.objects.using(shadow_db.ALIAS).count(), first.shadow_position())
        with pytest.raises(CommandError, match="already under way"):
            call_command("rebuild_projections", "--no-progress", stdout=io.StringIO())
        # A projector starting with outdated read models leaves it to the first.
        ProjectionPosition.objects.filter(name=projector.name).update(version=1)
        assert projector.outdated()
        out = io.StringIO()
        call_command("rebuild_projections", "--if-outdated", "--no-progress", stdout=out)
        assert "another rebuild is already under way" in out.getvalue()
        assert (TableView.objects.using(shadow_db.ALIAS).count(), first.shadow_position()) == built
        assert first.switch() == floor_app.last_position()
    finally:
        first.shadow.close()
    assert read_models() == live
    assert not projector.outdated()
    assert not shadow_left()
    # Its end released the lock: the next rebuild may take it.
    following = ShadowRebuild(projector).shadow
    following.lock()
    following.unlock()


def suspended_table(room: Room, minimum: int, sector: str) -> PendingTimer:
    """A new table, suspended by one of its four players' leaving: its
    closing deadline, projected live. Each its own game (``minimum`` cents), or its
    draw would first complete the suspended tables of the same game."""
    room.sector_id = sector  # a sector with room for one more table
    table_id, cards = room.drawn_table(4, minimum_cents=minimum)
    room.leave(table_id, cards[3])
    runtime.floor_projector().catch_up()
    return PendingTimer.objects.get(subject=table_id, kind="suspension_close")


def test_the_timers_the_sweeper_claimed_or_fired_stay_so_across_a_rebuild(floor_app, floor):
    fired = PendingTimer.objects.get(state=PendingTimer.PENDING)
    claimed = suspended_table(floor["room"], 250, floor["sectors"][0])
    left = suspended_table(floor["room"], 300, floor["sectors"][1])  # pending, and left so
    now = timezone.now()
    assert sweeper.claim(claimed, now)
    # What floor.timers.run_command writes once the firing command answered.
    PendingTimer.objects.filter(key=fired.key).update(
        state=PendingTimer.FIRED, fired_at=now, outcome={"recorded": ["TableClosed"]}
    )
    before = {t.key: t for t in PendingTimer.objects.all()}
    made: list[PendingTimer] = []

    def between_batches(done: int, total: int) -> None:
        if not made:  # a table suspended while the rebuild runs
            made.append(suspended_table(floor["room"], 400, floor["sectors"][2]))

    position = ShadowRebuild(
        runtime.floor_projector(), batch_size=5, progress=between_batches
    ).run()

    assert position == floor_app.last_position()
    after = {t.key: t for t in PendingTimer.objects.all()}
    assert set(after) == {*before, made[0].key}
    assert (after[fired.key].state, after[fired.key].fired_at) == (PendingTimer.FIRED, now)
    assert after[fired.key].outcome == {"recorded": ["TableClosed"]}
    assert (after[claimed.key].state, after[claimed.key].claimed_at) == (PendingTimer.CLAIMED, now)
    assert after[left.key].state == after[made[0].key].state == PendingTimer.PENDING


@contextlib.contextmanager
def reading_the_tables() -> Iterator[None]:
    """Another session in the middle of reading the live tables (a long report):
    its transaction holds what it read until the block ends."""
    reader = load_backend(connection.settings_dict["ENGINE"]).DatabaseWrapper(
        {**connection.settings_dict, "OPTIONS": {}}, "long_reader"
    )
    reader.set_autocommit(False)
    try:
        with reader.cursor() as cursor:
            cursor.execute(f"SELECT count(*) FROM {TableView._meta.db_table}")
            cursor.fetchone()
            yield
    finally:
        reader.rollback()
        reader.close()


def test_a_long_read_holds_the_switch_back_a_bounded_time_then_it_goes_through(floor_app, floor):
    """PostgreSQL swaps the tables, so a switch waits for a reader still
    reading one; each wait is bounded (the readers queued behind it wait no
    longer), and when a reader outlasts every attempt the switch gives up with
    the live read models untouched, to go through once the read is done.
    SQLite copies rows under WAL, where a reader never holds a writer back."""
    projector = runtime.floor_projector()
    live = read_models()
    rebuild = ShadowRebuild(projector, batch_size=1000)
    rebuild.shadow.lock_timeout_ms, rebuild.shadow.swap_attempts = 50, 2
    rebuild.shadow.open()
    try:
        rebuild.build(projector.position())
        with reading_the_tables():
            if connection.vendor == "postgresql":
                with pytest.raises(shadow_db.TablesBusy, match="lock timeout"):
                    rebuild.switch()
                assert read_models() == live
                assert shadow_left()  # the rebuilt tables wait in the shadow
            else:
                assert rebuild.switch() == projector.position()
        assert rebuild.switch() == projector.position()
    finally:
        rebuild.shadow.close()
    assert read_models() == live
    assert not shadow_left()
