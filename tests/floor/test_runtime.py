"""One application per process, built after any fork; snapshots; settings."""

import multiprocessing
import os
import subprocess
import sys
import uuid

import pytest

from floor import runtime
from floor.domain.sector import Sector
from tests.support.floor import open_sector, open_tables
from tests.support.processes import ROOT

pytestmark = pytest.mark.django_db


def child_builds_its_own(parent_app_id: int, queue) -> None:
    """In a forked child: the parent's application must not be reused."""
    try:
        app = runtime.floor_app()
        queue.put((id(app) != parent_app_id, app.last_position() >= 0))
    except Exception as error:  # noqa: BLE001 - report to the parent
        queue.put(("error", repr(error)))


def test_a_forked_child_builds_its_own_application(floor_app):
    assert runtime.floor_app() is floor_app
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=child_builds_its_own, args=(id(floor_app), queue))
    child.start()
    child.join(timeout=60)
    assert queue.get(timeout=5) == (True, True)
    assert runtime.floor_app() is floor_app  # the parent keeps its own


def test_long_lived_aggregates_are_snapshotted_and_load_the_same(make_app, monkeypatch):
    monkeypatch.setattr(type(make_app()), "snapshotting_intervals", {Sector: 2})
    app = make_app()
    sector_id = uuid.UUID(open_sector(app))
    open_tables(app, str(sector_id), 4)  # sector versions 1..5: snapshots at 2 and 4
    snapshots = list(app.snapshots.get(sector_id))
    assert [s.originator_version for s in snapshots] == [2, 4]
    fresh = make_app()
    assert fresh.repository.get(sector_id).tables == app.repository.get(sector_id).tables
    assert len(fresh.repository.get(sector_id).tables) == 4


def test_an_unknown_rule_profile_stops_the_service_at_start():
    env = {**os.environ, "FLOOR_RULE_PROFILE": "XX", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "FLOOR_RULE_PROFILE='XX' is not a rule profile" in result.stderr


@pytest.mark.parametrize("code", ["TEST_GA", "test_pt"])
def test_an_accelerated_twin_is_chosen_as_any_profile(code):
    """FLOOR_RULE_PROFILE picks the twin for every process of the service (web,
    worker, beat, the demo loader, runfloor's children inherit it)."""
    env = {**os.environ, "FLOOR_RULE_PROFILE": code, "PYTHONPATH": str(ROOT)}
    script = (
        "from django.conf import settings; from floor.runtime import get_profile; "
        "p = get_profile(settings.FLOOR_RULE_PROFILE); "
        "print(p.code, p.rake.per_session.session_length.total_seconds())"
    )
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].split() == [code.upper(), "6.0"]


@pytest.mark.parametrize("code", ["TEST_GA", "TEST_PT"])
def test_the_demo_floor_loads_under_each_twin(make_app, code):
    import io

    from django.core.management import call_command

    from floor.models import SeatView

    app = make_app(code, house_buy_in=True)
    runtime.install(app)
    try:
        out = io.StringIO()
        call_command("load_demo_floor", stdout=out)
        runtime.floor_projector().catch_up()
        assert "Demo floor ready" in out.getvalue()
        assert SeatView.objects.count() == 10
        events = [app.mapper.to_domain_event(n) for n in app.recorder.select_notifications(1, 500)]
        assert {getattr(e, "rule_profile", code) for e in events} == {code}
    finally:
        runtime.install(None)
