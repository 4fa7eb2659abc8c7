"""Which background processes live (floor.liveness), what /healthz makes of it
(floor.health: each degradation cause, ?strict=1) and the consoles' banner
while the timers are stopped (issue 20: runs for a week unattended)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from floor import health, runtime
from floor.liveness import heartbeat, liveness, record_restart, timers_stopped
from floor.models import ProcessRestart, SchedulerHeartbeat
from tests.support.floor import open_sector

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)
BANNER = b'data-testid="timers-stopped"'


def ago(seconds: float, now: datetime = NOW) -> datetime:
    return now - timedelta(seconds=seconds)


def beats(now: datetime, **seconds_ago: float) -> None:
    """Heartbeats ``seconds_ago`` before ``now``; ``worker_x`` is ``worker:x``."""
    for name, seconds in seconds_ago.items():
        name = name.replace("worker_", "worker:", 1) if name.startswith("worker_") else name
        heartbeat(name, now=ago(seconds, now))


# --- liveness() --------------------------------------------------------------------


def test_liveness_says_how_long_ago_each_process_was_seen_and_counts_restarts():
    beats(NOW, sweep=1.5, beat=3, worker_a=2, worker_b=40, projector=0.5)
    record_restart("worker", "killed by SIGKILL", now=ago(600))
    record_restart("worker", "exited with 1", now=ago(300))
    record_restart("beat", "killed by SIGKILL", now=ago(1200))
    record_restart("worker", "killed by SIGKILL", now=ago(3601))  # over an hour ago
    assert liveness(now=NOW) == {
        "sweep_seconds_ago": 1.5,
        "last_sweep_at": ago(1.5).isoformat(),
        "beat_seconds_ago": 3.0,
        "worker_seconds_ago": 2.0,  # the most recent worker
        "projector_seconds_ago": 0.5,
        "workers": {"a": 2.0, "b": 40.0},
        "restarts_last_hour": {"worker": 2, "beat": 1},
        "restarting": [],  # both seen since they came back
    }


def test_liveness_of_a_floor_whose_processes_never_ran():
    assert liveness(now=NOW) == {
        "sweep_seconds_ago": None,
        "last_sweep_at": None,
        "beat_seconds_ago": None,
        "worker_seconds_ago": None,
        "projector_seconds_ago": None,
        "workers": {},
        "restarts_last_hour": {},
        "restarting": [],
    }


def test_a_restarted_worker_is_restarting_until_it_beats_again():
    beats(NOW, sweep=1, beat=1, worker_a=5)
    record_restart("worker", "killed by SIGKILL", now=ago(2))  # after its last beat
    assert liveness(now=NOW)["restarting"] == ["worker"]
    heartbeat("worker:a", now=ago(0.5))  # the new worker is consuming
    seen = liveness(now=NOW)
    assert seen["restarting"] == []
    assert seen["restarts_last_hour"] == {"worker": 1}


def test_a_restarted_beat_is_restarting_until_it_beats_again():
    beats(NOW, sweep=1, beat=5, worker_a=1)
    record_restart("beat", "killed by SIGKILL", now=ago(2))
    assert liveness(now=NOW)["restarting"] == ["beat"]
    heartbeat("beat", now=ago(0.5))
    assert liveness(now=NOW)["restarting"] == []


def test_a_process_restarted_and_never_seen_is_restarting():
    record_restart("worker", "exited with 1", now=ago(1))
    assert liveness(now=NOW)["restarting"] == ["worker"]


# --- /healthz's causes ----------------------------------------------------------------


@pytest.fixture
def stale(settings) -> float:
    """Seconds after which a heartbeat is too old (well past the setting)."""
    return settings.FLOOR_HEALTH_STALE_SECONDS + 5


@pytest.fixture
def live(floor_app):
    """Everything live a moment ago, the read models caught up: ``ok``."""
    runtime.floor_projector().catch_up()
    beats(timezone.now(), sweep=0, beat=0, **{"worker_celery@test": 0})


def causes(query: str = "") -> tuple[int, dict]:
    response = Client().get("/healthz" + query)
    return response.status_code, response.json()


def test_all_live_is_ok(live):
    assert causes() == (200, {"status": "ok", "causes": []})


def test_no_sweep_for_a_while_means_the_timers_stopped(live, stale):
    beats(timezone.now(), sweep=stale)
    assert causes() == (200, {"status": "degraded", "causes": ["timers_stopped"]})


def test_a_worker_not_seen_for_a_while_is_not_answering(live, stale):
    beats(timezone.now(), **{"worker_celery@test": stale})
    assert causes() == (200, {"status": "degraded", "causes": ["worker_not_answering"]})


def test_a_worker_restarted_and_not_yet_seen_is_not_answering(live):
    record_restart("worker", "killed by SIGKILL", now=timezone.now() + timedelta(seconds=1))
    assert causes() == (200, {"status": "degraded", "causes": ["worker_not_answering"]})


def test_beat_not_seen_for_a_while_is_not_running(live, stale):
    beats(timezone.now(), beat=stale)
    assert causes() == (200, {"status": "degraded", "causes": ["beat_not_running"]})


def test_a_worker_restarted_again_and_again_is_worker_restarting(live, settings):
    settings.FLOOR_HEALTH_MAX_RESTARTS = 2
    now = timezone.now()
    record_restart("worker", "killed by SIGKILL", now=now - timedelta(minutes=50))
    assert causes()[1]["status"] == "ok"  # once is not again and again
    record_restart("worker", "killed by SIGKILL", now=now - timedelta(minutes=10))
    # Both before its last heartbeat: it is back, but it keeps dying.
    assert causes() == (200, {"status": "degraded", "causes": ["worker_restarting"]})
    ProcessRestart.objects.filter(at__lt=now - timedelta(minutes=30)).update(
        at=now - timedelta(minutes=61)
    )
    assert causes()[1]["status"] == "ok"  # the older one is out of the hour


def test_a_broker_that_does_not_answer_is_unreachable(live, monkeypatch):
    monkeypatch.setattr(
        health, "broker_state", lambda: {"ok": False, "url": "embedded://", "error": "gone"}
    )
    assert causes() == (200, {"status": "degraded", "causes": ["broker_unreachable"]})


def test_events_not_projected_put_the_read_models_behind(live, floor_app, settings):
    settings.FLOOR_HEALTH_MAX_LAG = 0
    assert causes()[1]["status"] == "ok"
    open_sector(floor_app)  # written to the log, not projected
    assert causes() == (200, {"status": "degraded", "causes": ["read_models_behind"]})
    runtime.floor_projector().catch_up()
    assert causes()[1]["status"] == "ok"


def test_several_causes_are_named_together(live, stale, monkeypatch):
    beats(timezone.now(), sweep=stale, beat=stale)
    monkeypatch.setattr(health, "broker_state", lambda: {"ok": False, "url": "x", "error": "x"})
    assert causes()[1]["causes"] == ["timers_stopped", "beat_not_running", "broker_unreachable"]


def test_strict_answers_503_when_degraded_and_200_when_ok(live, stale):
    assert causes("?strict=1") == (200, {"status": "ok", "causes": []})
    beats(timezone.now(), sweep=stale)
    assert causes("?strict=1") == (503, {"status": "degraded", "causes": ["timers_stopped"]})
    assert causes("?strict=0")[0] == 200  # not strict: the consoles still serve
    assert causes()[0] == 200


# --- the consoles' banner -------------------------------------------------------------


@pytest.fixture
def inspector(make_user) -> Client:
    client = Client()
    client.force_login(make_user("ines", "inspector"))
    return client


def test_the_banner_shows_on_a_console_page_while_the_sweep_is_stale(live, stale, inspector):
    page = inspector.get("/")
    assert page.status_code == 200 and BANNER not in page.content
    assert timers_stopped() is False
    beats(timezone.now(), sweep=stale)
    assert timers_stopped() is True
    page = inspector.get("/")
    assert page.status_code == 200 and BANNER in page.content
    heartbeat("sweep")  # the timers run again
    assert BANNER not in inspector.get("/").content


def test_the_banner_shows_while_the_worker_restarts(live, inspector):
    record_restart("worker", "killed by SIGKILL", now=timezone.now() + timedelta(seconds=1))
    assert BANNER in inspector.get("/").content


def test_the_banner_never_shows_to_anonymous_pages(live, stale):
    beats(timezone.now(), sweep=stale)
    assert timers_stopped() is True
    page = Client().get("/accounts/login/")
    assert page.status_code == 200 and BANNER not in page.content


def test_a_page_renders_even_when_liveness_cannot_be_read(live, inspector, monkeypatch):
    def broken(*_args, **_kwargs):
        raise OSError("database gone")

    monkeypatch.setattr(SchedulerHeartbeat.objects, "all", broken)
    assert timers_stopped() is False
    assert inspector.get("/").status_code == 200
