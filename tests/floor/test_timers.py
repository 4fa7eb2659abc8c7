"""The deadlines the floor records, fired by the sweeper as the injected clock
moves (issue 5 items 1, 2 and 5): a suspended table closes after 15 minutes
[PT 24], a called player who does not come is removed and the next is called
[CM-6]; and the races: the fourth player sits as the suspension expires, the
player sits as the call lapses, two sweepers fire the same timer."""

from __future__ import annotations

import threading
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from floor import runtime, timers
from floor.application.clocks import CLOCK_ACTOR
from floor.models import PendingTimer
from floor.timers import (
    CLAIM_LEASE,
    LEASE_RENEWAL,
    LeaseKeeper,
    claim,
    due,
    fire,
    fire_by_key,
    sweep_timers,
)
from tests.support.floor import JEFE, new_id
from tests.support.room import Room, pid, refused
from tests.support.wait import wait_until

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app)


def project() -> None:
    runtime.floor_projector().catch_up()


def suspended_table(room: Room) -> tuple[str, list[str]]:
    """A running table of four whose fourth player just left: suspended."""
    table_id, cards = room.drawn_table(4)
    room.leave(table_id, cards[3])
    project()
    assert room.get(table_id).status == "suspended"
    return table_id, cards


def the_timer(kind: str) -> PendingTimer:
    (timer,) = PendingTimer.objects.filter(kind=kind)
    return timer


def test_a_suspension_records_its_timer_and_closes_the_table_when_it_comes(room, clock):
    table_id, cards = suspended_table(room)
    timer = the_timer("suspension_close")
    assert timer.due_at == clock.now() + timedelta(minutes=15)  # PT 24 (CM: service default)
    assert timer.state == PendingTimer.PENDING

    clock.advance(timedelta(minutes=14, seconds=59))
    assert sweep_timers(clock.now()) == 0
    assert room.get(table_id).status == "suspended"

    clock.advance(timedelta(seconds=1))
    assert sweep_timers(clock.now()) == 1
    table = room.get(table_id)
    assert table.status == "closed"
    assert all(room.player(card).seated_at is None for card in cards)
    timer.refresh_from_db()
    assert (timer.state, timer.outcome["fired"]) == (PendingTimer.FIRED, True)
    closed = [e for e in room.app.repository.event_store.get(table.id)][-1]
    assert (type(closed).__name__, closed.reason, closed.actor) == (
        "Closed",
        "suspension_expired",
        CLOCK_ACTOR.username,
    )


def test_the_fourth_player_back_in_time_cancels_the_close(room, clock):
    table_id, _cards = suspended_table(room)
    newcomer = room.new_player()
    clock.advance(timedelta(minutes=14, seconds=59))
    room.sit(table_id, newcomer)  # the draw is open: the seat is drawn [CM-3]
    project()
    assert room.get(table_id).status == "running"
    assert the_timer("suspension_close").state == PendingTimer.CANCELLED
    clock.advance(timedelta(seconds=1))
    assert sweep_timers(clock.now()) == 0
    assert room.get(table_id).status == "running"


def test_the_fourth_player_as_the_suspension_expires_finds_the_table_closed(room, clock):
    """Whichever is recorded first wins, and the other sees it: here the close."""
    table_id, _cards = suspended_table(room)
    clock.advance(timedelta(minutes=15))
    assert sweep_timers(clock.now()) == 1
    newcomer = room.new_player()
    refused(
        room.app, "table_closed", room.app.seat_player, JEFE, new_id(),
        table_id=table_id, player=newcomer, seat=4,
    )  # fmt: skip


def test_a_stale_deadline_does_nothing_once_the_state_moved_on(room, clock):
    """The timer names the deadline it expects; a table suspended again later
    has a new deadline, and the old one fires into nothing."""
    table_id, cards = suspended_table(room)
    old = the_timer("suspension_close")
    room.sit(table_id, cards[3])  # back (a drawn seat, CM-3): resumed
    clock.advance(timedelta(minutes=1))
    room.leave(table_id, cards[3])  # suspended again, closing 15 minutes from now
    project()
    before = room.app.recorder.max_notification_id()
    outcome = room.app.expire_suspension(
        CLOCK_ACTOR, new_id(), table_id=table_id, closes_at=old.arguments["closes_at"]
    )
    assert outcome.result["fired"] is False
    assert room.get(table_id).status == "suspended"
    # Only the firing's own record was written: nothing of the floor changed.
    assert room.app.recorder.max_notification_id() == before + 1


def test_a_deadline_is_not_fired_before_it_comes(room, clock):
    _table_id, _cards = suspended_table(room)
    timer = the_timer("suspension_close")
    refused(
        room.app, "timer_not_due", room.app.expire_suspension, CLOCK_ACTOR, new_id(),
        **timer.arguments,
    )  # fmt: skip
    assert fire_by_key(timer.key, clock.now()) == "early"


def test_only_the_clock_fires_deadlines(room, clock):
    _table_id, _cards = suspended_table(room)
    timer = the_timer("suspension_close")
    clock.advance(timedelta(minutes=15))
    refused(
        room.app, "role_not_allowed", room.app.expire_suspension, JEFE, new_id(),
        **timer.arguments,
    )  # fmt: skip


def test_two_sweepers_fire_the_same_timer_once(room, clock):
    table_id, _cards = suspended_table(room)
    clock.advance(timedelta(minutes=15))
    first, second = due(clock.now()), due(clock.now())  # both saw it pending
    assert claim(first[0], clock.now()) is True
    assert claim(second[0], clock.now()) is False
    fire(first[0])
    # Even a second firing (a claim taken back after a crash) changes nothing:
    # the command id is the timer's, so it replays the first outcome.
    before = room.app.recorder.max_notification_id()
    fire(second[0])
    assert room.app.recorder.max_notification_id() == before
    assert room.get(table_id).status == "closed"


def test_a_claim_left_by_a_dead_worker_is_taken_back(room, clock):
    table_id, _cards = suspended_table(room)
    clock.advance(timedelta(minutes=15))
    (timer,) = due(clock.now())
    assert claim(timer, clock.now())  # and the worker dies before firing
    assert due(clock.now()) == []
    clock.advance(timedelta(seconds=31))
    assert sweep_timers(clock.now()) == 1
    assert room.get(table_id).status == "closed"


def test_a_claim_whose_lease_lapsed_is_fired_again_and_one_within_it_is_not(room, clock):
    """A worker killed mid-firing stops renewing its lease: the next sweep
    after CLAIM_LEASE fires the timer again (issue 20: within seconds)."""
    table_id, _cards = suspended_table(room)
    clock.advance(timedelta(minutes=15))
    (timer,) = due(clock.now())
    assert claim(timer, clock.now())  # and the worker dies
    clock.advance(CLAIM_LEASE)  # the lease just runs out: still the worker's
    assert due(clock.now()) == []
    assert sweep_timers(clock.now()) == 0
    assert room.get(table_id).status == "suspended"
    clock.advance(timedelta(milliseconds=500))  # lapsed
    assert [t.key for t in due(clock.now())] == [timer.key]
    assert sweep_timers(clock.now()) == 1
    assert room.get(table_id).status == "closed"
    timer.refresh_from_db()
    assert (timer.state, timer.outcome["fired"]) == (PendingTimer.FIRED, True)


def lease_row(key: str, state: str, claimed_at) -> PendingTimer:
    return PendingTimer.objects.create(
        key=key,
        kind="suspension_close",
        subject=new_id(),
        due_at=claimed_at,
        command="close_suspended",
        state=state,
        claimed_at=claimed_at,
    )


def claimed_at(key: str):
    return PendingTimer.objects.get(key=key).claimed_at


@pytest.mark.django_db(transaction=True)
def test_the_lease_keeper_renews_the_claim_while_it_runs():
    """Committed rows, another connection: the keeper's thread renews the
    claim every LEASE_RENEWAL, leaves other states alone and stops on exit."""
    long_ago = timezone.now() - timedelta(minutes=1)
    lease_row("held", PendingTimer.CLAIMED, long_ago)
    lease_row("done", PendingTimer.FIRED, long_ago)
    with LeaseKeeper("held") as keeper:
        wait_until(
            lambda: claimed_at("held") > long_ago,
            timeout=LEASE_RENEWAL.total_seconds() + 2,
            what="the lease to be renewed",
        )
        first = claimed_at("held")
        wait_until(
            lambda: claimed_at("held") > first,
            timeout=LEASE_RENEWAL.total_seconds() + 2,
            what="the lease to be renewed again",
        )
        assert timezone.now() - claimed_at("held") < CLAIM_LEASE
    assert not keeper.is_alive()
    assert claimed_at("done") == long_ago  # not a claim: not renewed
    # Renewed, the claim is not taken back by a sweep.
    assert "held" not in [t.key for t in due(timezone.now())]


@pytest.mark.django_db(transaction=True)
def test_fire_keeps_the_lease_while_the_command_runs(monkeypatch):
    """A command slower than the lease (a stalled database, say) does not let
    a sweep take the timer back while its worker still works on it."""
    start = timezone.now()
    timer = lease_row("slow", PendingTimer.CLAIMED, start)

    def slow_command(actor, command, command_id, **arguments):
        wait_until(
            lambda: claimed_at("slow") > start,
            timeout=LEASE_RENEWAL.total_seconds() + 2,
            what="the lease renewed during the command",
        )
        return SimpleNamespace(result={"fired": True})

    monkeypatch.setattr(timers, "record_as", slow_command)
    assert fire(timer) == {"fired": True}
    timer.refresh_from_db()
    assert (timer.state, timer.outcome) == (PendingTimer.FIRED, {"fired": True})
    assert [t for t in threading.enumerate() if t.name == "lease slow"] == []


def test_ga_has_no_closing_deadline(make_app):
    app = make_app("GA")
    runtime.install(app)
    try:
        room = Room(app)
        table_id, cards = room.drawn_table(4)
        room.leave(table_id, cards[3])
        project()
        assert room.get(table_id).suspension["closes_at"] is None
        assert not PendingTimer.objects.exists()
    finally:
        runtime.install(None)


# --- the waiting-list call [CM-6] -------------------------------------------------------


def called_player(room: Room) -> tuple[str, str, str, int]:
    """A full table, two players waiting; one leaves and the first is called."""
    table_id, cards = room.drawn_table(5, seats=5)
    first, second = room.new_players(2)
    room.join(first, table_id)
    room.join(second, table_id)
    seat = room.leave(table_id, cards[0])["seat"]
    project()
    return table_id, first, second, seat


def test_a_called_player_who_does_not_come_is_removed_and_the_next_is_called(room, clock):
    table_id, first, second, seat = called_player(room)
    timer = the_timer("call_window")
    assert timer.due_at == clock.now() + timedelta(minutes=5)
    clock.advance(timedelta(minutes=5))
    assert sweep_timers(clock.now()) == 1
    project()
    assert room.listed(table_id) == [second]
    entry = room.waiting(table_id).entries[0]
    assert (entry["status"], entry["call"]["seat"]) == ("called", seat)
    assert room.player(first).waiting_lists == []
    timer.refresh_from_db()
    assert timer.outcome == {
        "fired": True,
        "removed": pid(first),
        "offered": {"called": pid(second), "reservation": entry["reservation"]},
    }
    # The next player's own window is now pending.
    assert PendingTimer.objects.filter(
        kind="call_window", state=PendingTimer.PENDING, arguments__player_id=pid(second)
    ).exists()


def test_a_called_player_who_sits_in_the_last_second_keeps_the_seat(room, clock):
    table_id, first, second, seat = called_player(room)
    clock.advance(timedelta(minutes=4, seconds=59))
    room.sit(table_id, first, seat)
    project()
    assert the_timer("call_window").state == PendingTimer.CANCELLED
    clock.advance(timedelta(seconds=1))
    assert sweep_timers(clock.now()) == 0
    assert room.seats(table_id)[seat] == first
    assert room.listed(table_id) == [second]


@pytest.mark.django_db
def test_a_batch_reads_every_pending_timer_at_once_and_follows_them():
    """``TimerBatch(read_all=True)`` (a projector's batch, issue 23 sixth
    pass): each subject's timers read apart for its first few subjects (a
    command's batch), then every other pending timer in one statement; a
    subject with none holds none; what the batch did to a subject before
    stays done; adds and cancels as the subject-by-subject reads gave them."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from floor.projections.timers import TimerBatch

    due = timezone.now() - timedelta(minutes=1)
    table, other, quiet = new_id(), new_id(), new_id()
    for key, subject, state in (
        ("a", table, PendingTimer.PENDING),
        ("b", other, PendingTimer.PENDING),
        ("c", table, PendingTimer.FIRED),
    ):
        PendingTimer.objects.create(
            key=key, kind="session_hour", subject=subject, due_at=due, command="x", state=state
        )
    batch = TimerBatch(read_all=True)
    batch.READ_ALL_AFTER = 2
    with CaptureQueriesContext(connection) as queries:
        assert set(batch.held(table)) == {"a"}
        batch.cancel(table)  # held: not read back by the batch's read of all
        assert batch.held(table) == {}
        assert set(batch.held(str(other))) == {"b"}  # a subject by its text too
    assert len(queries) == 2 and "subject" in queries[1]["sql"]  # one subject at a time
    with CaptureQueriesContext(connection) as queries:
        assert batch.held(quiet) == {} and set(batch.held(other)) == {"b"}
        assert batch.held(table) == {}
    assert len(queries) == 1 and batch.all_read  # the rest at once, then nothing
    batch.add("d", "session_hour", quiet, due, "x", {})
    batch.add("c", "session_hour", table, due, "x", {})  # fired already: not made again
    batch.cancel(other)
    batch.flush()
    states = dict(PendingTimer.objects.values_list("key", "state"))
    assert states == {
        "a": PendingTimer.CANCELLED,
        "b": PendingTimer.CANCELLED,
        "c": PendingTimer.FIRED,
        "d": PendingTimer.PENDING,
    }
    assert batch.read_all and not batch.all_read  # the next batch reads them again
