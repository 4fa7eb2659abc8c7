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
