"""GET /metrics (issue 20, Observability; floor.monitoring; docs/operations.md):
commands counted by outcome and timed, timers' lateness observed as they fire,
the database's gauges read at the scrape; staff and the scraper's token only."""

from __future__ import annotations

import math
from datetime import timedelta
from uuid import uuid4

import pytest
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from floor import runtime
from floor.kernel.errors import DomainError
from floor.kernel.web.gateway import perform
from floor.models import PendingTimer, ProcessRestart, SchedulerHeartbeat
from floor.timers import sweep_timers
from tests.support.floor import new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db

TOKEN = "scraper-" + "x" * 40


@pytest.fixture
def scraper(settings) -> Client:
    """A Prometheus server: no user, the metrics token."""
    settings.FLOOR_METRICS_TOKEN = TOKEN
    return Client(HTTP_AUTHORIZATION=f"Bearer {TOKEN}")


def scrape(client: Client) -> dict[tuple[str, frozenset], float]:
    response = client.get("/metrics")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("text/plain; version=")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_commands_are_counted_by_outcome_and_timed(floor_app, make_user, scraper):
    dora, jaime = make_user("dora", "director"), make_user("jaime", "jefe_sector")
    before = scrape(scraper)
    command_id = new_id()
    perform("open_sector", dora, command_id, name="Sector K")
    perform("open_sector", dora, command_id, name="Sector K")  # the same request again
    with pytest.raises(DomainError):
        perform("open_sector", jaime, new_id(), name="Sector J")  # a jefe opens none
    with pytest.raises(DomainError):
        perform("open_sector", dora, new_id(), name="Sector K")  # it exists
    after = scrape(scraper)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    total = "floor_commands_total"
    assert moved(total, command="open_sector", outcome="done") == 1
    assert moved(total, command="open_sector", outcome="repeat") == 1
    assert moved(total, command="open_sector", outcome="refused_forbidden") == 1
    assert moved(total, command="open_sector", outcome="refused_conflict") == 1
    assert moved("floor_command_seconds_count", command="open_sector") == 4
    assert moved("floor_command_seconds_sum", command="open_sector") > 0
    assert moved("floor_command_seconds_bucket", command="open_sector", le="+Inf") == 4


def test_the_database_gauges(floor_app, scraper):
    now = timezone.now()

    def timer(due_in: float, state: str = PendingTimer.PENDING) -> None:
        PendingTimer.objects.create(
            key=f"t-{uuid4()}",
            kind="suspension_close",
            subject=uuid4(),
            due_at=now + timedelta(seconds=due_in),
            command="close_suspended_table",
            state=state,
        )

    timer(-120)  # two minutes late
    timer(-1)  # just due: not late yet
    timer(600)  # later
    timer(-300, PendingTimer.FIRED)
    ProcessRestart.objects.create(process="worker", reason="exited with -9", at=now)
    ProcessRestart.objects.create(
        process="worker", reason="exited with 1", at=now - timedelta(hours=2)
    )
    SchedulerHeartbeat.objects.create(name="worker:celery@here", last_run_at=now)
    Room(floor_app)  # some events recorded, none projected yet
    behind = floor_app.last_position() - runtime.floor_projector().position()

    samples = scrape(scraper)
    assert value(samples, "floor_timers_pending") == 3
    assert value(samples, "floor_timers_late") == 1
    assert 120 <= value(samples, "floor_timers_overdue_seconds") < 180
    assert behind > 0
    assert value(samples, "floor_read_model_lag_events") == behind
    assert value(samples, "floor_process_restarts_total", process="worker") == 2
    assert value(samples, "floor_process_restarts_total", process="beat") == 0
    assert value(samples, "floor_process_restarts_last_hour", process="worker") == 1
    assert value(samples, "floor_process_seconds_since_seen", process="worker") < 60
    assert math.isinf(value(samples, "floor_process_seconds_since_seen", process="beat"))
    assert math.isinf(value(samples, "floor_process_seconds_since_seen", process="projector"))
    assert all(
        value(samples, "floor_metrics_source_up", source=source) == 1
        for source in ("projections", "timers", "liveness", "notifications")
    )
    assert value(samples, "floor_notifications", state="failed") == 0

    runtime.floor_projector().catch_up()
    assert value(scrape(scraper), "floor_read_model_lag_events") == 0


def test_a_source_that_does_not_answer_is_said_not_a_500(floor_app, monkeypatch, scraper):
    def broken(*_a, **_k):
        raise OSError("database gone")

    monkeypatch.setattr("floor.monitoring.liveness", broken)
    samples = scrape(scraper)
    assert value(samples, "floor_metrics_source_up", source="liveness") == 0
    assert value(samples, "floor_metrics_source_up", source="timers") == 1
    assert ("floor_process_restarts_total", frozenset({("process", "worker")})) not in samples


def test_a_timer_fired_late_is_observed(floor_app, clock, scraper):
    room = Room(floor_app)
    table_id, cards = room.drawn_table(4)
    room.leave(table_id, cards[3])  # suspended: it closes in 15 minutes [PT 24]
    runtime.floor_projector().catch_up()
    before = scrape(scraper)
    clock.advance(timedelta(minutes=15))
    assert sweep_timers(clock.now()) == 1
    after = scrape(scraper)
    count = "floor_timer_lateness_seconds_count"
    assert value(after, count) - value(before, count) == 1
    assert value(after, "floor_timer_lateness_seconds_sum") >= value(
        before, "floor_timer_lateness_seconds_sum"
    )


def test_who_may_scrape(make_user, api_as, settings):
    settings.FLOOR_METRICS_TOKEN = TOKEN
    nobody = Client().get("/metrics")
    assert (nobody.status_code, nobody.json()["code"]) == (401, "not_authenticated")
    assert nobody["WWW-Authenticate"].startswith("Bearer")
    wrong = Client(HTTP_AUTHORIZATION="Bearer not-the-token").get("/metrics")
    assert (wrong.status_code, wrong.json()["code"]) == (401, "authentication_failed")
    bad_token = Client(HTTP_AUTHORIZATION="Token nonsense").get("/metrics")
    assert bad_token.status_code == 401
    assert Client(HTTP_AUTHORIZATION=f"Bearer {TOKEN}").get("/metrics").status_code == 200

    roleless = Client()
    roleless.force_login(make_user("visitor"))
    refused = roleless.get("/metrics")
    assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")
    for role in ("director", "inspector", "jefe_sector", "cajero", "crupier"):
        assert api_as(f"api-{role}", role).get("/metrics").status_code == 200, role
        session = Client()
        session.force_login(make_user(f"console-{role}", role))
        assert session.get("/metrics").status_code == 200, role
    assert Client().post("/metrics").status_code == 405


def test_no_scraper_token_set_lets_no_bearer_in(settings):
    settings.FLOOR_METRICS_TOKEN = ""
    for header in ("Bearer ", "Bearer", "bearer x"):
        response = Client(HTTP_AUTHORIZATION=header).get("/metrics")
        assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")
