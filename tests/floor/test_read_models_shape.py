"""Read models an earlier release built are rebuilt when the projector starts
(issue 23): a release that adds a read model (the reports' mentions, occupancy
steps and list moves) would otherwise show it empty for every event before the
upgrade. The projection's ``version`` is stamped on its position row; a row
with an older number and events behind it is rebuilt in the shadow, once."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from floor import runtime
from floor.kernel.web import shadow_rebuild
from floor.models import JournalMention, ListMove, OccupancyStep, ProjectionPosition
from tests.support.room import Room

pytestmark = pytest.mark.django_db

REPORT_MODELS = (JournalMention, OccupancyStep, ListMove)


@pytest.fixture
def played(floor_app) -> Room:
    room = Room(floor_app, tag="SH")
    room.drawn_table(4, buy_in=500)
    runtime.floor_projector().catch_up()
    return room


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in REPORT_MODELS}


def as_an_earlier_release_left_it() -> None:
    """Shape 1: the report models did not exist, so they are empty."""
    for model in REPORT_MODELS:
        model.objects.all().delete()
    ProjectionPosition.objects.filter(name="floor").update(version=1)


def test_a_projection_row_carries_the_shape_of_the_code_that_made_it(played):
    projector = runtime.floor_projector()
    row = ProjectionPosition.objects.get(name="floor")
    assert row.version == projector.version >= 2
    assert not projector.outdated()


def test_an_earlier_releases_read_models_are_rebuilt_once(played, monkeypatch):
    filled = counts()
    assert all(filled.values())
    as_an_earlier_release_left_it()
    assert runtime.floor_projector().outdated()

    out = io.StringIO()
    call_command("rebuild_projections", if_outdated=True, no_progress=True, stdout=out)

    assert counts() == filled
    assert ProjectionPosition.objects.get(name="floor").version == runtime.floor_projector().version
    assert "earlier release" in out.getvalue()

    def must_not_run(self) -> int:
        raise AssertionError("current read models rebuilt again")

    monkeypatch.setattr(shadow_rebuild.ShadowRebuild, "run", must_not_run)
    again = io.StringIO()
    call_command("rebuild_projections", if_outdated=True, no_progress=True, stdout=again)
    assert "current" in again.getvalue()


def test_the_projector_process_rebuilds_them_as_it_starts(played):
    filled = counts()
    as_an_earlier_release_left_it()

    call_command("run_projector", once=True, stdout=io.StringIO())

    assert counts() == filled
    assert not runtime.floor_projector().outdated()


def test_read_models_that_show_no_event_are_only_stamped(floor_app):
    ProjectionPosition.objects.create(name="floor", position=0, version=1)

    assert not runtime.floor_projector().outdated()
    assert ProjectionPosition.objects.get(name="floor").version == runtime.floor_projector().version


class StopAfter:
    """The projector's wake-up, standing in for the log's: the loop is
    stopped the first time it would wait (nothing left to apply)."""

    def wait(self, position, idle_seconds, stop) -> None:
        stop.set()

    def close(self) -> None:
        pass


def test_the_running_projector_rebuilds_beside_its_loop(played, monkeypatch):
    """Not ``--once``: the rebuild is a process of its own, started as the
    projector starts, while the loop goes on applying the log (a long rebuild
    must not stop the live read models following it)."""
    from floor.management.commands import run_projector

    as_an_earlier_release_left_it()
    started = []

    class Rebuild:
        returncode = None

        def poll(self):
            return None  # still running when the loop is stopped

        def terminate(self):
            started.append("terminated")

        def wait(self):
            return 0

    monkeypatch.setattr(
        run_projector, "start_rebuild", lambda: started.append("rebuild") or Rebuild()
    )
    monkeypatch.setattr(run_projector, "wakeup_for", lambda recorder, poll: StopAfter())
    monkeypatch.setattr(run_projector, "start_heartbeat", lambda name: None)
    played.table()  # an event the loop applies while the rebuild runs
    behind = runtime.floor_projector().lag()

    call_command("run_projector", stdout=io.StringIO())

    assert behind and runtime.floor_projector().lag() == 0
    assert started == [
        "rebuild",
        "terminated",
    ]  # stopped with the projector: begun again next start


def test_a_database_error_does_not_end_the_projector(played, monkeypatch):
    """A lock held too long, a connection lost: logged, and the loop goes on
    (before, the process died and every command answered 202 until restarted)."""
    from django.db import OperationalError

    from floor.management.commands import run_projector

    monkeypatch.setattr(run_projector, "wakeup_for", lambda recorder, poll: StopAfter())
    monkeypatch.setattr(run_projector, "start_heartbeat", lambda name: None)
    monkeypatch.setattr(run_projector, "FIRST_ERROR_PAUSE", 0)
    monkeypatch.setattr(run_projector.connections, "close_all", lambda: None)  # the test's
    real = run_projector.floor_projector
    failures = []
    made_as = []

    def projector(**options):
        made_as.append(options)
        made = real(**options)
        run_once = made.run_once

        def once_failing():
            if not failures:
                failures.append("locked")
                raise OperationalError("database is locked")
            return run_once()

        made.run_once = once_failing
        return made

    monkeypatch.setattr(run_projector, "floor_projector", projector)
    played.table()

    call_command("run_projector", stdout=io.StringIO())

    assert failures == ["locked"] and runtime.floor_projector().lag() == 0
    assert made_as == [{"long_lived": True}]  # the process's projector holds its rows
