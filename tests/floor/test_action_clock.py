"""The player action clock [CM-20 to CM-22], moved by the injected clock: two
minutes with at most 200 EUR in the pot, four with more, then one more minute,
then the hand is dead; acting stops it, even in the last second."""

from __future__ import annotations

from datetime import timedelta

import pytest

from floor import runtime
from floor.models import PendingTimer
from floor.timers import sweep_timers
from tests.support.floor import CRUPIER, new_id
from tests.support.room import Room, events_of, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app)


def dealing(room: Room) -> tuple[str, list[int]]:
    table_id, _cards = room.drawn_table(4)
    room.start(table_id)
    return table_id, room.get(table_id).occupied()


def start_clock(room: Room, table_id: str, seat: int, pot_cents: int) -> dict:
    outcome = room.app.start_action_clock(
        CRUPIER, new_id(), table_id=table_id, seat=seat, pot_cents=pot_cents
    )
    runtime.floor_projector().catch_up()
    return outcome.result


@pytest.mark.parametrize(("pot", "minutes"), [(200_00, 2), (200_01, 4)])
def test_the_first_period_depends_on_the_pot(room, clock, pot, minutes):
    table_id, seats = dealing(room)
    started = start_clock(room, table_id, seats[0], pot)
    extra_at = clock.now() + timedelta(minutes=minutes)
    assert started["extra_at"] == extra_at.isoformat()
    assert started["dead_at"] == (extra_at + timedelta(minutes=1)).isoformat()
    assert {t.kind: t.due_at for t in PendingTimer.objects.all()} == {
        "action_clock_warning": extra_at,
        "action_clock_expiry": extra_at + timedelta(minutes=1),
    }


def test_the_clock_warns_then_declares_the_hand_dead(room, clock):
    table_id, seats = dealing(room)
    slow = seats[1]
    start_clock(room, table_id, slow, 50_00)
    clock.advance(timedelta(minutes=2))
    assert sweep_timers(clock.now()) == 1
    assert room.get(table_id).action_clock["warned"] is True
    clock.advance(timedelta(seconds=59))
    assert sweep_timers(clock.now()) == 0
    clock.advance(timedelta(seconds=1))
    assert sweep_timers(clock.now()) == 1
    table = room.get(table_id)
    assert table.action_clock is None and table.hand["dead"] == [slow]
    names = [type(e).__name__ for e in events_of(room.app, table_id)]
    assert names[-3:] == ["ActionClockStarted", "ActionClockWarned", "HandDeclaredDead"]
    # A dead hand wins nothing; the hand goes on without it.
    other = seats[0]
    put_in = {str(other): 200, str(slow): 200}
    refused(
        room.app, "seat_hand_dead", room.app.end_hand, CRUPIER, new_id(),
        table_id=table_id, contributions=put_in, winnings={str(slow): 400}, rake_cents=0,
    )  # fmt: skip
    room.end(table_id, put_in, {str(other): 400})


def test_acting_in_the_last_second_stops_the_clock(room, clock):
    table_id, seats = dealing(room)
    start_clock(room, table_id, seats[2], 50_00)
    clock.advance(timedelta(minutes=2, seconds=59))
    sweep_timers(clock.now())  # the warning
    room.app.stop_action_clock(CRUPIER, new_id(), table_id=table_id, seat=seats[2])
    runtime.floor_projector().catch_up()
    clock.advance(timedelta(seconds=1))
    assert sweep_timers(clock.now()) == 0
    table = room.get(table_id)
    assert table.action_clock is None and "dead" not in table.hand
    assert PendingTimer.objects.get(kind="action_clock_expiry").state == PendingTimer.CANCELLED


def test_the_end_of_the_hand_stops_the_clock(room, clock):
    table_id, seats = dealing(room)
    start_clock(room, table_id, seats[0], 50_00)
    room.end(table_id, {str(seats[0]): 200, str(seats[1]): 200}, {str(seats[1]): 400})
    runtime.floor_projector().catch_up()
    clock.advance(timedelta(minutes=5))
    assert sweep_timers(clock.now()) == 0
    assert room.get(table_id).action_clock is None


def test_the_clock_needs_a_hand_a_player_in_it_and_no_other_clock(room):
    table_id, _cards = room.drawn_table(4)
    seats = room.get(table_id).occupied()
    start = room.app.start_action_clock
    refused(room.app, "no_hand_in_progress", start, CRUPIER, new_id(),
            table_id=table_id, seat=seats[0], pot_cents=0)  # fmt: skip
    room.start(table_id, seats[:3])
    refused(room.app, "seat_not_in_hand", start, CRUPIER, new_id(),
            table_id=table_id, seat=seats[3], pot_cents=0)  # fmt: skip
    start_clock(room, table_id, seats[0], 0)
    refused(room.app, "action_clock_running", start, CRUPIER, new_id(),
            table_id=table_id, seat=seats[1], pot_cents=0)  # fmt: skip
    refused(room.app, "no_action_clock", room.app.stop_action_clock, CRUPIER, new_id(),
            table_id=table_id, seat=seats[1])  # fmt: skip


@pytest.mark.parametrize("profile", ["GA", "PT"])
def test_ga_and_pt_only_warn_a_slow_player(make_app, profile):
    room = Room(make_app(profile))
    table_id, _cards = room.drawn_table(4)
    seats = room.get(table_id).occupied()
    room.start(table_id, button=seats[0]) if profile == "GA" else room.start(table_id)
    refused(
        room.app, "action_clock_not_in_profile", room.app.start_action_clock, CRUPIER,
        new_id(), table_id=table_id, seat=seats[0], pot_cents=0,
    )  # fmt: skip
