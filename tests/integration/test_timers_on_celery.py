"""Timers on a real Celery worker and beat, with the TEST profile's short
durations (a suspension closes its table after 3 s instead of 15 min):

- the suspension's ETA task closes the table on time;
- a worker killed with SIGKILL while the timer is pending: after a restart the
  timer still fires (beat's sweeper claims it, or its ETA message comes back);
- a player's action clock (2 s, then 1 s more with a small pot) warns, then
  declares the hand dead, each on time [CM-22].
"""

from __future__ import annotations

import signal
import uuid
from datetime import datetime, timedelta

import pytest

from floor import runtime
from floor.application.clocks import CLOCK_ACTOR
from floor.kernel.clock import SystemClock
from floor.models import PendingTimer, SchedulerHeartbeat
from tests.support.floor import CRUPIER, new_id
from tests.support.processes import celery, running, service_env
from tests.support.room import Room, events_of
from tests.support.wait import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def clock():
    """Real time: the worker fires by the wall clock, so the test's app must too."""
    return SystemClock()


@pytest.fixture
def app(make_app):
    built = make_app("TEST")
    runtime.install(built)
    yield built
    runtime.install(None)


@pytest.fixture
def worker_env(tmp_path, app):
    return service_env(
        tmp_path / "events.sqlite3", FLOOR_SWEEP_SECONDS="1", FLOOR_RULE_PROFILE="TEST"
    )


def suspend_a_table(app) -> tuple[Room, str]:
    room = Room(app)
    table_id, cards = room.drawn_table(4)
    room.leave(table_id, cards[3])  # three left: suspended, closing in 3 s
    runtime.floor_projector().catch_up()  # the timer row, and its ETA task queued
    return room, table_id


def closed(app, table_id: str) -> bool:
    return app.repository.get(uuid.UUID(table_id)).status == "closed"


def test_a_suspension_closes_its_table_on_time_on_the_worker(worker_env, tmp_path, app):
    worker = celery("worker", "--pool", "solo", "-l", "info", "-n", f"t-{tmp_path.name}@%h")
    with running(worker, worker_env, tmp_path / "worker.log"):
        before = app.clock.now()
        _room, table_id = suspend_a_table(app)
        timer = PendingTimer.objects.get(kind="suspension_close")
        assert timedelta(seconds=3) <= timer.due_at - before < timedelta(seconds=10)
        assert not closed(app, table_id)
        wait_until(lambda: closed(app, table_id), timeout=60, what="the table to close")
    timer.refresh_from_db()
    assert timer.state == PendingTimer.FIRED and timer.outcome["fired"] is True
    lateness = timer.fired_at - timer.due_at
    assert timedelta(0) <= lateness < timedelta(seconds=30), lateness


def test_a_timer_pending_when_the_worker_is_killed_fires_after_the_restart(
    worker_env, tmp_path, app
):
    name = f"k-{tmp_path.name}@%h"
    worker = celery("worker", "--concurrency", "1", "-l", "info", "-n", name)
    with running(worker, worker_env, tmp_path / "worker-1.log") as first:
        _room, table_id = suspend_a_table(app)
        first.send_signal(signal.SIGKILL)  # the ETA message dies with it
        first.wait(timeout=30)
    assert not closed(app, table_id)
    beat = celery("beat", "-l", "info", "--schedule", str(tmp_path / "beat-schedule"))
    with (
        running(worker, worker_env, tmp_path / "worker-2.log"),
        running(beat, worker_env, tmp_path / "beat.log"),
    ):
        wait_until(lambda: closed(app, table_id), timeout=90, what="the table to close")
    assert PendingTimer.objects.get(kind="suspension_close").state == PendingTimer.FIRED


# How late a timer may fire on a worker that is up: its ETA task fires it at
# the deadline; the sweeper (every second here) only catches what the ETA missed.
ON_TIME = timedelta(seconds=5)


def test_the_action_clock_warns_then_declares_the_hand_dead_on_time_on_the_worker(
    worker_env, tmp_path, app
):
    room = Room(app)
    table_id, _cards = room.drawn_table(4)
    room.start(table_id)
    slow = room.get(table_id).occupied()[1]
    worker = celery("worker", "--pool", "solo", "-l", "info", "-n", f"a-{tmp_path.name}@%h")
    beat = celery("beat", "-l", "info", "--schedule", str(tmp_path / "beat-schedule"))
    with (
        running(worker, worker_env, tmp_path / "worker.log"),
        running(beat, worker_env, tmp_path / "beat.log"),
    ):
        # A sweep that ran proves worker and beat are up, so what follows
        # measures the timers, not the processes starting.
        wait_until(
            lambda: SchedulerHeartbeat.objects.filter(name="sweep").exists(),
            timeout=90,
            what="beat's sweep to run on the worker",
        )
        started = app.start_action_clock(
            CRUPIER, new_id(), table_id=table_id, seat=slow, pot_cents=200_00
        ).result
        runtime.floor_projector().catch_up()  # the timer rows, and their ETA tasks queued
        timers = {t.kind: t for t in PendingTimer.objects.filter(subject=table_id)}
        warning, expiry = timers["action_clock_warning"], timers["action_clock_expiry"]
        assert warning.due_at.isoformat() == started["extra_at"]
        assert expiry.due_at.isoformat() == started["dead_at"]
        # The TEST profile reads CM's minutes as seconds: 2 s with at most
        # 200 EUR in the pot, then 1 s more.
        assert warning.due_at - datetime.fromisoformat(started["started_at"]) == timedelta(
            seconds=2
        )
        assert expiry.due_at - warning.due_at == timedelta(seconds=1)
        wait_until(
            lambda: slow in (room.get(table_id).hand or {}).get("dead", []),
            timeout=60,
            what="the clock to declare the hand dead",
        )
    table = room.get(table_id)
    assert table.action_clock is None and table.hand["dead"] == [slow]
    names = [type(e).__name__ for e in events_of(app, table_id)]
    assert names[-3:] == ["ActionClockStarted", "ActionClockWarned", "HandDeclaredDead"]
    (warned,) = events_of(app, table_id, "ActionClockWarned")
    (dead,) = events_of(app, table_id, "HandDeclaredDead")
    assert warned.seat == dead.seat == slow
    for event, timer in ((warned, warning), (dead, expiry)):
        timer.refresh_from_db()
        assert event.actor == CLOCK_ACTOR.username
        assert timer.state == PendingTimer.FIRED and timer.outcome["fired"] is True
        # Decided no earlier than the deadline, and recorded soon after it.
        assert timer.due_at <= event.timestamp <= timer.fired_at
        assert timer.fired_at - timer.due_at < ON_TIME, (timer.kind, timer.fired_at - timer.due_at)
