"""Read-your-writes without projecting in the request (issue 23, item 1):
under FLOOR_READ_MODELS="projector" a command's request waits for the
projector's position and applies nothing itself; on timeout the command is
recorded and answered 202 read_models_lagging, as before."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from floor import read_models, runtime
from floor.kernel.web.projector import ProjectionLagging
from floor.models import ProjectionPosition

pytestmark = pytest.mark.django_db


class FakeTime:
    """A monotonic clock that only sleeps move (no real sleeping)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.pauses: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds

    def monotonic(self) -> float:
        return self.now


def test_wait_for_reads_the_position_with_a_doubling_pause_until_it_is_reached():
    positions = iter([3, 3, 3, 3, 3, 9])
    time = FakeTime()
    reads = read_models.wait_for(
        lambda: next(positions), 7, 5.0, sleep=time.sleep, monotonic=time.monotonic
    )
    assert reads == 6
    assert time.pauses == [0.001, 0.002, 0.004, 0.008, 0.010]


def test_wait_for_answers_at_once_when_the_projector_is_already_there():
    time = FakeTime()
    assert read_models.wait_for(lambda: 7, 7, 5.0, sleep=time.sleep, monotonic=time.monotonic) == 1
    assert time.pauses == []


def test_wait_for_pauses_before_its_first_read_when_told_the_position_cannot_be_there():
    positions = iter([3, 9])
    time = FakeTime()
    reads = read_models.wait_for(
        lambda: next(positions),
        7,
        5.0,
        sleep=time.sleep,
        monotonic=time.monotonic,
        first=0.010,
        read_first=False,
    )
    assert reads == 2
    assert time.pauses == [0.010, 0.010]


def test_wait_for_gives_up_after_its_timeout():
    time = FakeTime()
    with pytest.raises(ProjectionLagging):
        read_models.wait_for(lambda: 3, 7, 0.1, sleep=time.sleep, monotonic=time.monotonic)
    assert 0.1 <= time.now < 0.12


@pytest.fixture
def director(api_as) -> APIClient:
    return api_as("dora", "director")


def test_under_the_projector_a_request_applies_nothing_and_answers_202_when_it_lags(
    floor_app, settings, director
):
    """No projector process here: the command is recorded, the read models stay
    where they were (the request projected nothing), the answer is the lagging 202;
    once a projector catches up, the sector shows."""
    settings.FLOOR_READ_MODELS = "projector"
    settings.FLOOR_READ_YOUR_WRITES_SECONDS = 0.05
    response = director.post(
        "/api/sectors/", {"command_id": str(uuid.uuid4()), "name": "A"}, format="json"
    )
    assert response.status_code == 202, response.content
    assert response.json()["code"] == "read_models_lagging"
    assert floor_app.last_position() > 0
    assert not ProjectionPosition.objects.filter(position__gt=0).exists()
    assert director.get("/api/sectors/").json() == []

    runtime.floor_projector().catch_up()
    assert [s["name"] for s in director.get("/api/sectors/").json()] == ["A"]


def test_under_the_projector_a_request_answers_as_soon_as_the_position_passes_it(
    floor_app, settings, director, monkeypatch
):
    """The projector (stood for by the wait's first pause) moves the position:
    the request answers 201 with its own effect, as inline."""
    settings.FLOOR_READ_MODELS = "projector"

    def projector_runs(seconds: float) -> None:
        runtime.floor_projector().catch_up()

    monkeypatch.setattr(read_models, "pause", projector_runs)
    response = director.post(
        "/api/sectors/", {"command_id": str(uuid.uuid4()), "name": "B"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert [s["name"] for s in director.get("/api/sectors/").json()] == ["B"]


def test_under_the_projector_a_repeated_command_answers_as_the_first_did(
    floor_app, settings, director
):
    """A client's retry, a double click: the repeat's outcome has no position
    of its own (it recorded nothing), so it waits for the log's end as it is,
    and answers as the first did, never the lagging 202 (seen: a TypeError
    turned into 202 on every repeat)."""
    settings.FLOOR_READ_MODELS = "projector"
    settings.FLOOR_READ_YOUR_WRITES_SECONDS = 0.05
    command = {"command_id": str(uuid.uuid4()), "name": "C"}
    first = director.post("/api/sectors/", command, format="json")
    assert first.status_code == 202, first.content  # no projector process here
    runtime.floor_projector().catch_up()  # the projector process, between the two

    again = director.post("/api/sectors/", command, format="json")

    assert again.status_code == 200, again.content  # a repeat: the first outcome
    assert again.json()["id"] == director.get("/api/sectors/").json()[0]["id"]


def test_under_the_projector_a_command_nobody_reads_does_not_wait_for_it(
    floor_app, settings, monkeypatch, director, django_user_model
):
    """Nobody reads the clock's answer (floor.timers fires through ``record_as``):
    the command is recorded without waiting for the projector, which would
    otherwise hold every due timer up to the wait's bound, one after another."""
    from floor.kernel.web import gateway

    settings.FLOOR_READ_MODELS = "projector"
    settings.FLOOR_READ_YOUR_WRITES_SECONDS = 30  # a wait would hang the test

    def never(*args, **kwargs):
        raise AssertionError("the clock waited for the projector")

    monkeypatch.setattr(read_models, "wait_for", never)
    dora = gateway.actor_for(django_user_model.objects.get(username="dora"))
    outcome = gateway.record_as(dora, "open_sector", str(uuid.uuid4()), name="R")

    assert outcome.position and floor_app.last_position() >= outcome.position
    assert not ProjectionPosition.objects.filter(position__gt=0).exists()
