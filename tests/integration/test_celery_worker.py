"""A real Celery worker and beat on the configured broker: an ETA task runs at
its time, and beat's sweep runs and catches the read models up."""

from datetime import timedelta

import pytest
from django.utils import timezone

from floor.models import ProjectionPosition, SchedulerHeartbeat, SectorView
from floor.tasks import heartbeat
from tests.support.floor import open_sector, open_tables
from tests.support.processes import celery, running, service_env
from tests.support.wait import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker_env(tmp_path, floor_app):
    return service_env(tmp_path / "events.sqlite3", FLOOR_SWEEP_SECONDS="1")


def beat_seen(name: str):
    return SchedulerHeartbeat.objects.filter(name=name).first()


def test_a_task_scheduled_with_an_eta_runs_on_the_worker_at_its_time(worker_env, tmp_path):
    worker = celery("worker", "--pool", "solo", "-l", "info", "-n", f"eta-{tmp_path.name}@%h")
    with running(worker, worker_env, tmp_path / "worker.log"):
        eta = timezone.now() + timedelta(seconds=2)
        probe = f"eta-probe-{tmp_path.name}"
        heartbeat.apply_async(args=[probe], eta=eta)
        ran = wait_until(lambda: beat_seen(probe), timeout=90, what="the ETA task to run")
    assert ran.last_run_at >= eta


def test_beat_runs_the_sweep_which_projects_events_written_elsewhere(
    worker_env, tmp_path, floor_app
):
    open_tables(floor_app, open_sector(floor_app), 4)  # written, not projected
    assert SectorView.objects.count() == 0
    # The prefork pool: the application is built anew in each forked child.
    worker = celery("worker", "--concurrency", "2", "-l", "info", "-n", f"sweep-{tmp_path.name}@%h")
    beat = celery("beat", "-l", "info", "--schedule", str(tmp_path / "beat-schedule"))
    with (
        running(worker, worker_env, tmp_path / "worker.log"),
        running(beat, worker_env, tmp_path / "beat.log"),
    ):
        wait_until(lambda: beat_seen("sweep"), timeout=90, what="beat's sweep to run")
        wait_until(
            lambda: ProjectionPosition.objects.filter(
                name="floor", position=floor_app.last_position()
            ).exists(),
            timeout=60,
            what="the sweep to project the log",
        )
    assert SectorView.objects.get().table_count == 4
