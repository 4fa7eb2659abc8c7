"""A rebuild disturbs no one (issue 23, item 3): the read models are rebuilt in
a shadow database while a client reads the live ones, switched in one
transaction, and the events recorded meanwhile are there after the tail. Runs on
the lane's backend: a shadow file on SQLite, a shadow schema on PostgreSQL."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from django.utils.connection import ConnectionDoesNotExist

from floor import runtime
from floor.kernel.clock import ManualClock
from floor.kernel.web import shadow_db
from floor.kernel.web.shadow_rebuild import ShadowRebuild
from floor.models import EventJournalEntry, PendingTimer, TableView
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


def test_a_shadow_left_by_a_rebuild_that_died_is_dropped_by_the_next(floor_app, floor):
    projector = runtime.floor_projector()
    live = read_models()
    dead = ShadowRebuild(projector, batch_size=5)
    dead.shadow.open()
    dead.build(7)  # the process dies here: the shadow stays behind
    connection_of_the_dead = dead.shadow.connection
    connection_of_the_dead.close()
    assert ShadowRebuild(projector, batch_size=5).run() == floor_app.last_position()
    assert read_models() == live
    assert not shadow_left()
