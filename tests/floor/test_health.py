"""/healthz: the event store, the read models' lag, the broker, the scheduler;
the status for anyone, the details (which can name hosts) for staff only."""

import pytest
from django.test import Client
from django.utils import timezone

from floor import runtime
from floor.health import broker_state
from floor.models import SchedulerHeartbeat
from tests.support.floor import open_sector, open_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def processes_live():
    """The worker, beat and the sweep seen a moment ago (floor.liveness)."""
    now = timezone.now()
    for name in ("sweep", "beat", "worker:celery@test"):
        SchedulerHeartbeat.objects.update_or_create(name=name, defaults={"last_run_at": now})


@pytest.fixture
def staff(make_user) -> Client:
    """A console session of the inspector: staff, who reads the details."""
    client = Client()
    client.force_login(make_user("ines", "inspector"))
    return client


def test_healthz_reports_store_lag_broker_and_scheduler(floor_app, staff):
    open_tables(floor_app, open_sector(floor_app), 2)
    body = staff.get("/healthz").json()
    total = floor_app.last_position()
    assert body["event_store"] == {
        "ok": True,
        "backend": body["event_store"]["backend"],
        "last_position": total,
    }
    assert body["projections"]["floor"] == {"position": 0, "lag": total}
    assert body["broker"]["ok"] is True
    # No worker nor beat has ever run here: the clocks do not run.
    assert body["scheduler"]["last_sweep_at"] is None
    assert body["status"] == "degraded"
    assert body["causes"] == ["timers_stopped", "worker_not_answering", "beat_not_running"]

    runtime.floor_projector().catch_up()
    now = timezone.now()
    for name in ("sweep", "beat", "worker:celery@test"):
        SchedulerHeartbeat.objects.create(name=name, last_run_at=now)
    body = staff.get("/healthz").json()
    assert body["projections"]["floor"]["lag"] == 0
    assert body["scheduler"]["seconds_ago"] < 60
    assert (body["status"], body["causes"]) == ("ok", [])


def test_healthz_answers_503_when_the_event_store_is_down(floor_app, monkeypatch, staff):
    def broken():
        raise OSError("disk gone")

    monkeypatch.setattr(floor_app, "last_position", broken)
    response = staff.get("/healthz")
    assert response.status_code == 503
    assert response.json()["event_store"] == {
        "ok": False,
        "backend": response.json()["event_store"]["backend"],
        "error": "disk gone",
    }


def test_an_unreachable_broker_is_reported_without_its_password():
    state = broker_state("redis://:hunter2@127.0.0.1:1/0")
    assert state["ok"] is False
    assert "hunter2" not in str(state)
    assert state["url"].startswith("redis://") and "127.0.0.1:1" in state["url"]


def test_anonymous_callers_get_the_status_and_no_details(floor_app, monkeypatch, processes_live):
    assert Client().get("/healthz").json() == {"status": "ok", "causes": []}

    def broken():
        raise OSError("could not connect to db.casino.internal:5432")

    monkeypatch.setattr(floor_app, "last_position", broken)
    response = Client().get("/healthz")
    assert (response.status_code, response.json()) == (
        503,
        {"status": "down", "causes": ["event_store_down"]},
    )
    assert b"casino.internal" not in response.content


def test_an_api_token_of_staff_reads_the_details(floor_app, make_user, processes_live):
    from floor.logins import issue_token

    _record, token = issue_token(make_user("dora", "director"))
    body = Client(HTTP_AUTHORIZATION=f"Token {token}").get("/healthz").json()
    assert body["status"] == "ok" and body["event_store"]["ok"] is True
    bad = Client(HTTP_AUTHORIZATION="Token not-a-token").get("/healthz")
    assert bad.json() == {"status": "ok", "causes": []}


def test_a_user_with_no_floor_role_gets_no_details(floor_app, make_user, processes_live):
    client = Client()
    client.force_login(make_user("visitor"))
    assert client.get("/healthz").json() == {"status": "ok", "causes": []}


def test_healthz_says_when_the_projector_process_is_not_running(
    floor_app, settings, staff, processes_live
):
    """Issue 23: under FLOOR_READ_MODELS="projector" the projector process alone
    applies events, so its heartbeat gone is a cause; seen a moment ago, none."""
    settings.FLOOR_READ_MODELS = "projector"
    body = staff.get("/healthz").json()
    assert (body["status"], body["causes"]) == ("degraded", ["projector_not_running"])
    assert body["scheduler"]["projector_seconds_ago"] is None

    SchedulerHeartbeat.objects.create(name="projector", last_run_at=timezone.now())
    body = staff.get("/healthz").json()
    assert (body["status"], body["causes"]) == ("ok", [])
    assert body["scheduler"]["projector_seconds_ago"] < 60
