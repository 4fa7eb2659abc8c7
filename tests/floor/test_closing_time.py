"""The last hands of the night [CM-24], moved by the injected clock: fifteen
minutes before the casino closes, each table deals three more hands and closes;
a table not dealing closes then."""

from __future__ import annotations

from datetime import timedelta

import pytest

from floor import runtime
from floor.application.clocks import CLOCK_ACTOR
from floor.models import PendingTimer
from games.profiles import CM, GA
from tests.support.floor import HOLDEM, JEFE, new_id
from tests.support.room import Room, events_of, refused
from tests.support.timers import fire_due

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app)


def announce(room: Room, closes_at) -> dict:
    result = room.app.announce_closing(
        JEFE, new_id(), sector_id=room.sector_id, closes_at=closes_at.isoformat()
    ).result
    runtime.floor_projector().catch_up()
    return result


def test_fifteen_minutes_before_closing_each_table_deals_three_more_hands(room, clock):
    table_id, cards = room.drawn_table(5)
    announced = announce(room, clock.now() + timedelta(hours=1))
    assert announced["last_hands_at"] == (clock.now() + timedelta(minutes=45)).isoformat()
    assert PendingTimer.objects.get(kind="last_hands").due_at == clock.now() + timedelta(minutes=45)
    clock.advance(timedelta(minutes=44, seconds=59))
    assert fire_due(clock) == 0
    clock.advance(timedelta(seconds=1))
    assert fire_due(clock) == 1
    assert room.get(table_id).last_hands == {"left": 3}
    room.played(table_id)
    room.played(table_id)
    assert room.get(table_id).status == "running"
    ended = room.played(table_id)  # the last hand of the night
    assert ended["number"] == 3
    table = room.get(table_id)
    assert table.status == "closed"
    assert events_of(room.app, table_id, "Closed")[-1].reason == "closing_time"
    assert all(room.player(card).seated_at is None for card in cards)


def test_a_hand_in_progress_at_the_moment_is_not_one_of_the_three(room, clock):
    table_id, _cards = room.drawn_table(5)
    announce(room, clock.now() + timedelta(minutes=20))
    room.start(table_id)
    clock.advance(timedelta(minutes=5))
    assert fire_due(clock) == 1
    room.end(table_id)
    assert room.get(table_id).last_hands == {"left": 3}


def test_tables_not_dealing_close_when_the_last_hands_start(room, clock):
    registering = room.table()
    suspended, cards = room.drawn_table(4)
    room.leave(suspended, cards[0])
    announce(room, clock.now() + timedelta(minutes=15))  # the last hands start now
    assert fire_due(clock) == 1
    for table_id in (registering, suspended):
        assert room.get(table_id).status == "closed"
        assert events_of(room.app, table_id, "Closed")[-1].reason == "closing_time"
    # No table opens in the sector any more, and no new closing time is set.
    refused(
        room.app, "sector_closing", room.app.open_table, JEFE, new_id(),
        sector_id=room.sector_id, **HOLDEM,
    )  # fmt: skip
    refused(
        room.app, "sector_closing", room.app.announce_closing, JEFE, new_id(),
        sector_id=room.sector_id, closes_at=(clock.now() + timedelta(hours=1)).isoformat(),
    )  # fmt: skip


def test_a_new_announcement_moves_the_time_and_the_old_deadline_does_nothing(room, clock):
    table_id, _cards = room.drawn_table(5)
    first = announce(room, clock.now() + timedelta(minutes=30))
    announce(room, clock.now() + timedelta(hours=2))
    pending = PendingTimer.objects.filter(kind="last_hands", state=PendingTimer.PENDING)
    assert [t.due_at for t in pending] == [clock.now() + timedelta(minutes=105)]
    clock.advance(timedelta(minutes=20))
    outcome = room.app.start_last_hands(
        CLOCK_ACTOR, new_id(), sector_id=room.sector_id, last_hands_at=first["last_hands_at"]
    )
    assert outcome.result["fired"] is False
    assert room.get(table_id).last_hands is None


def test_a_closing_time_in_the_past_is_refused(room, clock):
    refused(
        room.app, "closing_time_past", room.app.announce_closing, JEFE, new_id(),
        sector_id=room.sector_id, closes_at=clock.now().isoformat(),
    )  # fmt: skip
    refused(
        room.app, "deadline_invalid", room.app.announce_closing, JEFE, new_id(),
        sector_id=room.sector_id, closes_at="tonight",
    )  # fmt: skip


def test_banked_games_announce_their_own_last_hands():
    assert CM.closing.lead == timedelta(minutes=15)
    assert CM.closing.hands_for("texas_holdem") == 3
    assert GA.closing.hands_for("sen_descarte") == 5  # GA art. 7
    assert GA.closing.hands_for("trijoker") == 3  # GA art. 15.3


def test_a_table_falling_below_four_in_its_last_hands_closes_instead_of_waiting(room, clock):
    table_id, cards = room.drawn_table(4)
    announce(room, clock.now() + timedelta(minutes=15))
    assert fire_due(clock) == 1
    room.played(table_id)
    left = room.leave(table_id, cards[0])
    assert left["status"] == "closed"
    assert events_of(room.app, table_id, "Closed")[-1].reason == "closing_time"
    assert not events_of(room.app, table_id, "Suspended")


def test_announcing_the_same_time_again_keeps_its_timer(room, clock):
    table_id, _ = room.drawn_table(5)
    closes_at = clock.now() + timedelta(hours=1)
    announce(room, closes_at)
    announce(room, closes_at)
    pending = PendingTimer.objects.filter(kind="last_hands", state=PendingTimer.PENDING)
    assert pending.count() == 1
    clock.advance(timedelta(minutes=45))
    assert fire_due(clock) == 1
    assert room.get(table_id).last_hands == {"left": 3}


def test_a_closing_ends_with_its_night(room, clock):
    announce(room, clock.now() + timedelta(minutes=15))
    assert fire_due(clock) == 1
    clock.advance(timedelta(minutes=15))  # the casino has closed
    room.table()  # the next day opens tables again
    announce(room, clock.now() + timedelta(hours=10))
