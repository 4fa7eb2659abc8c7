"""Writes tests/fixtures/store-before-issue-21.sqlite3: a room's event store as the
code before issue 21's Table split wrote it, so tests/floor/test_legacy_store.py
can prove that events (and snapshots) stored before a restructuring still load.

The room is driven through the application's own commands, on an SQLite event
store and a manual clock: tables opened and dealt, seats drawn, players seated,
a seat change, rests, an absence clock, an action clock, a session clock, hands
ended with rake, rebuys, chips off for a tip, a suspension and its resumption,
players leaving and cashing out at the cage, and a closed table. One table plays
enough hands (more than 50 events) to be snapshotted.

Regenerate it (only at a commit whose stored shapes the fixture must pin down):

    env -u DATABASE_URL FLOOR_EXPECT_BACKEND=sqlite LEGACY_STORE_OUT=tests/fixtures/x.sqlite3 \
      .venv/bin/python -m pytest tests/support/legacy_store.py -q -p no:cacheprovider

The file is not collected by a plain run of the suite (its name is no test_*.py).
"""

from __future__ import annotations

import os
import random
import sqlite3
from contextlib import closing
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from floor import runtime
from floor.application.floor_app import FloorApplication
from floor.kernel.clock import ManualClock
from games.profile_rules import BuyInRules
from games.profiles import get_profile
from tests.support.floor import CRUPIER, JEFE, new_id
from tests.support.money import CAJERO
from tests.support.room import Room

# The moment the room opens; the test reopens it at the same moment.
OPENED_AT = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)
PROFILE = "CM"


def sqlite_env(path: Path) -> dict[str, str]:
    """The eventsourcing library's environment for an SQLite store at ``path``."""
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "20",
    }


def profile(code: str = PROFILE):
    """CM's rules, with the table minimum and maximum bounding buy-ins (as the
    suite's make_app does) so the hands' arithmetic stays small."""
    return replace(get_profile(code), buy_in=BuyInRules())


def rake_allowed(app: FloorApplication, table_id: str, put_in: dict) -> int:
    """The most rake the profile allows on this hand's pots (the preview says it)."""
    preview = app.preview_settlement(CRUPIER, table_id=table_id, contributions=put_in)
    return preview["rake_cents"]


def rebuy_poorest(room: Room, table_id: str) -> None:
    """The poorest player rebuys the minimum, if the maximum leaves room [CM-2]."""
    seats = room.seats(table_id)
    table = room.get(table_id)
    poorest = min(seats, key=lambda s: room.state(table_id, seat=s)["stack"])
    if room.state(table_id, seat=poorest)["stack"] + table.minimum_cents <= table.maximum_cents:
        room.buy(table_id, seats[poorest], table.minimum_cents)


def drive_room(app: FloorApplication, ga_app: FloorApplication, clock: ManualClock) -> dict:
    """Plays a night at the room through the application's commands; returns
    what the test checks again after loading the store."""
    runtime.install(app)
    room = Room(app, seed=21, tag="L")
    app.random = random.Random(21)
    # A table playing hands with rake, rests, rebuys, the clocks.
    main, cards = room.drawn_table(6, buy_in=800)
    for _ in range(3):
        room.played(main)
    # Hands ended with rake, each won by another seat.
    for number in range(4):
        started = room.start(main)
        seats = [str(s) for s in started["dealt_in"]]
        put_in = {s: 100 for s in seats}
        put_in[seats[0]] += sum(started["dead_blinds"].values())
        pot = sum(put_in.values())
        rake = rake_allowed(app, main, put_in)
        room.end(main, put_in, {seats[number % len(seats)]: pot - rake}, rake_cents=rake)
        rebuy_poorest(room, main)
        clock.advance(timedelta(minutes=3))
    # Rests: one ends, one still running.
    app.start_rest(JEFE, new_id(), table_id=main, player=cards[2])
    room.played(main)
    app.end_rest(JEFE, new_id(), table_id=main, player=cards[2])
    app.start_rest(JEFE, new_id(), table_id=main, player=cards[3])
    # The absence clock: one player steps away, is warned and comes back.
    app.start_absence(CRUPIER, new_id(), table_id=main, player=cards[4])
    clock.advance(timedelta(minutes=20))
    app.end_absence(CRUPIER, new_id(), table_id=main, player=cards[4])
    # The action clock during a hand, stopped, and the hand ends.
    started = room.start(main)
    app.start_action_clock(
        CRUPIER, new_id(), table_id=main, seat=started["dealt_in"][0], pot_cents=500
    )
    app.stop_action_clock(CRUPIER, new_id(), table_id=main, seat=started["dealt_in"][0])
    room.end(main)
    # A rebuy, a tip off the table, a seat change.
    rebuy_poorest(room, main)
    app.take_chips_off(
        CRUPIER, new_id(), table_id=main, player=cards[0], amount_cents=50, purpose="tip"
    )
    free = room.get(main).free_seats()[0]
    app.request_seat_change(JEFE, new_id(), table_id=main, player=cards[1])
    app.change_seat(JEFE, new_id(), table_id=main, player=cards[1], seat=free)
    # More hands: past 50 events, the table is snapshotted.
    for _ in range(6):
        room.played(main)
    # Somebody leaves and cashes out at the cage.
    room.leave(main, cards[5])
    app.cash_out(CAJERO, new_id(), player=cards[5])

    # A table charging time by the session, under GA on the same store [GA art. 18.3b].
    runtime.install(ga_app)
    ga_room = Room(ga_app, seed=22, tag="G")
    timed, _timed_cards = ga_room.drawn_table(5, rake_model="per_session", session_percent="10")
    first = room.get(timed).occupied()[0]
    ga_room.played(timed, button=first)  # GA art. 23.1: the jefe draws the button
    clock.advance(timedelta(minutes=10))
    ga_room.played(timed)
    runtime.install(app)

    # A table suspended below four players, resumed, then closed.
    small, small_cards = room.drawn_table(4, buy_in=600, variant="omaha")
    room.played(small)
    room.leave(small, small_cards[0])
    late = room.new_player()
    clock.advance(timedelta(minutes=2))
    room.sit(small, late, None if room.get(small).draw_open else room.get(small).free_seats()[0])
    room.buy(small, late, 500)
    room.played(small)
    room.leave(small, small_cards[1])
    app.close_table(JEFE, new_id(), table_id=small)
    for card in [small_cards[2], small_cards[3], late]:
        app.cash_out(CAJERO, new_id(), player=card)
    runtime.install(None)
    return {"main": main, "timed": timed, "small": small}


@pytest.mark.django_db
def test_write_legacy_store(django_db_setup):
    out = os.environ.get("LEGACY_STORE_OUT")
    if not out:
        pytest.skip("set LEGACY_STORE_OUT to write the fixture")
    path = Path(out)
    if path.exists():
        path.unlink()
    env = sqlite_env(path)
    clock = ManualClock(OPENED_AT)
    app = FloorApplication(env=env, profile=profile(), clock=clock)
    ga_app = FloorApplication(env=env, profile=profile("GA"), clock=clock)
    try:
        drive_room(app, ga_app, clock)
    finally:
        app.close()
        ga_app.close()
    # One file, no write-ahead log beside it.
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA journal_mode=DELETE")
        db.execute("VACUUM")
    print(path, path.stat().st_size)
