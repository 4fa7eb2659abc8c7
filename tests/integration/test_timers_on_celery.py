"""Timers on a real Celery worker and beat, with the TEST profile's short
durations (a suspension closes its table after 3 s instead of 15 min):

- the suspension's ETA task closes the table on time;
- a worker killed with SIGKILL while the timer is pending: after a restart the
  timer still fires (beat's sweeper claims it, or its ETA message comes back).
"""

from __future__ import annotations

import signal
import uuid
from datetime import timedelta

import pytest

from floor import runtime
from floor.domain.clock import SystemClock
from floor.models import PendingTimer
from tests.support.processes import celery, running, service_env
from tests.support.room import Room
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
