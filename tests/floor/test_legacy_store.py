"""A store written before issue 21's Table split still loads and rebuilds.

tests/fixtures/store-before-issue-21.sqlite3 was written by
tests/support/legacy_store.py at the commit before the split: a night at a room
(rake, rests, rebuys, the absence, action and session clocks, a suspension, a
closed table, cash-outs at the cage, a table snapshot). Restructuring moves
classes and changes how the domain holds a seat; old events and snapshots must
still resolve to their classes, replay to the same state and rebuild the same
read models, and the books must still balance.
"""

from __future__ import annotations

import shutil
import sqlite3
import uuid
from contextlib import closing
from pathlib import Path

import pytest

from floor import runtime
from floor.application.floor_app import FloorApplication
from floor.domain.player import Player
from floor.domain.sector import Sector
from floor.domain.table import Table
from floor.kernel.clock import ManualClock
from floor.models import SeatView, TableView
from tests.support.books import Books
from tests.support.legacy_store import OPENED_AT, profile, sqlite_env

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "store-before-issue-21.sqlite3"

# (sector, number) -> status, hands played, {seat: (card, stack, resting)}.
TABLES = {
    ("Sector L", 1): (
        "running",
        15,
        {
            1: ("L-0002", 1000, False),
            5: ("L-0004", 1200, True),
            7: ("L-0005", 1200, False),
            8: ("L-0001", 550, False),
            10: ("L-0003", 600, False),
        },
    ),
    ("Sector L", 2): ("closed", 2, {}),
    ("Sector G", 1): (
        "running",
        2,
        {
            s: (c, 900, False)
            for s, c in [(1, "G-0002"), (2, "G-0004"), (3, "G-0003"), (6, "G-0001"), (7, "G-0005")]
        },
    ),
}


@pytest.fixture
def legacy_app(tmp_path):
    """A floor application on a copy of the old store (the fixture stays as
    written). The store is SQLite whatever the lane's backend: the read models
    it rebuilds are the lane's own database."""
    copy = tmp_path / "legacy.sqlite3"
    shutil.copy(FIXTURE, copy)
    app = FloorApplication(env=sqlite_env(copy), profile=profile(), clock=ManualClock(OPENED_AT))
    runtime.install(app)
    yield app, copy
    runtime.install(None)
    app.close()


def originator_ids(path: Path) -> list[uuid.UUID]:
    with closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT DISTINCT originator_id FROM stored_events").fetchall()
    return [uuid.UUID(str(row[0])) for row in rows]


def replayed(app: FloorApplication, originator_id: uuid.UUID):
    """The aggregate from its events alone, no snapshot."""
    aggregate = None
    for stored in app.repository.event_store.get(originator_id):
        aggregate = stored.mutate(aggregate)
    return aggregate


def test_the_fixture_is_small_and_holds_a_snapshot():
    assert FIXTURE.stat().st_size < 1_000_000
    with closing(sqlite3.connect(FIXTURE)) as db:
        (snapshots,) = db.execute("SELECT COUNT(*) FROM stored_snapshots").fetchone()
    assert snapshots >= 1


def test_every_stored_event_resolves_and_every_aggregate_loads(legacy_app):
    app, path = legacy_app
    notifications = app.recorder.select_notifications(1, 100_000)
    assert len(notifications) > 500
    for notification in notifications:
        app.mapper.to_domain_event(notification)  # its topic resolves, its state decodes
    tables = {}
    for originator_id in originator_ids(path):
        loaded = app.repository.get(originator_id)  # from the snapshot where one was taken
        again = replayed(app, originator_id)
        assert type(loaded) is type(again)
        assert loaded.version == again.version
        assert vars(loaded) == vars(again), type(loaded).__name__
        if isinstance(loaded, Table):
            sector = app.repository.get(loaded.sector_id)
            assert isinstance(sector, Sector)
            tables[(sector.name, loaded.number)] = loaded
    assert set(tables) == set(TABLES)
    for key, (status, hands, seats) in TABLES.items():
        table = tables[key]
        assert (table.status, table.hands_played) == (status, hands), key
        found = {}
        for seat in table.occupied():
            state = table.occupant(seat)
            player = app.repository.get(uuid.UUID(state["player_id"]))
            assert isinstance(player, Player)
            found[seat] = (player.card_number, state["stack"], state["resting"])
        assert found == seats, key
    timed = tables[("Sector G", 1)]
    assert (timed.session["number"], timed.sessions_started) == (1, 1)


def test_the_read_models_rebuild_from_the_old_store_and_the_books_balance(legacy_app):
    app, _path = legacy_app
    projector = runtime.floor_projector()
    projector.reset()
    while projector.run_once():
        pass
    assert projector.lag() == 0
    assert TableView.objects.count() == len(TABLES)
    for view in TableView.objects.all():
        table = app.repository.get(view.id)
        assert view.status == table.status
        seats = {
            s.seat: (str(s.player_id), s.stack_cents, s.resting, s.must_rebuy)
            for s in SeatView.objects.filter(table_id=view.id)
        }
        assert seats == {
            seat: (
                str(uuid.UUID(table.occupant(seat)["player_id"])),
                table.occupant(seat)["stack"],
                table.occupant(seat)["resting"],
                table.occupant(seat)["must_rebuy"],
            )
            for seat in table.occupied()
        }
    Books(app).check()  # the accounts sum to zero and hold the tables' stacks
