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

    monkeypatch.setattr(read_models.time, "sleep", projector_runs)
    response = director.post(
        "/api/sectors/", {"command_id": str(uuid.uuid4()), "name": "B"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert [s["name"] for s in director.get("/api/sectors/").json()] == ["B"]
