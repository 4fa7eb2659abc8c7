"""The catch-up projector: exactly once, crash-safe, rebuildable."""

import io

import pytest
from django.core.management import call_command

from floor import runtime
from floor.kernel.web.projector import CatchUpProjector
from floor.models import EventJournalEntry, ProjectionPosition, SectorView, TableView
from floor.projections.floor_views import FloorProjection
from tests.support.floor import open_sector, open_tables

pytestmark = pytest.mark.django_db


def floor_state() -> dict:
    """Everything the floor's read models show, comparable across rebuilds."""
    return {
        "sectors": list(SectorView.objects.order_by("id").values()),
        "tables": list(TableView.objects.order_by("id").values()),
        "journal": list(EventJournalEntry.objects.order_by("position").values()),
    }


def build_floor(app, sectors: int = 2, tables: int = 4) -> None:
    for index in range(sectors):
        sector_id = open_sector(app, f"Sector {index}")
        open_tables(app, sector_id, tables)


class CrashingProjection(FloorProjection):
    """Dies on the n-th event it is given, like a projector killed mid-batch."""

    def __init__(self, crash_at: int) -> None:
        super().__init__(runtime.floor_app)
        self.crash_at = crash_at
        self.seen = 0

    def apply(self, event, position):
        self.seen += 1
        if self.seen == self.crash_at:
            raise KeyboardInterrupt("projector killed")
        super().apply(event, position)


def test_catch_up_applies_every_event_once(floor_app):
    build_floor(floor_app)
    projector = runtime.floor_projector()
    assert projector.lag() == floor_app.last_position() > 0
    assert projector.catch_up() == floor_app.last_position()
    assert projector.lag() == 0
    assert projector.catch_up() == 0
    assert list(SectorView.objects.values_list("name", "table_count")) == [
        ("Sector 0", 4),
        ("Sector 1", 4),
    ]
    assert TableView.objects.count() == 8
    assert EventJournalEntry.objects.count() == floor_app.last_position()


def test_a_projector_killed_mid_batch_applies_nothing_of_it_and_resumes_exactly_once(floor_app):
    build_floor(floor_app)
    crashing = CatchUpProjector(
        CrashingProjection(crash_at=7), runtime.floor_app, ProjectionPosition, batch_size=10
    )
    with pytest.raises(KeyboardInterrupt):
        crashing.catch_up()
    assert crashing.position() == 0
    assert EventJournalEntry.objects.count() == 0
    assert SectorView.objects.count() == 0

    # A second crash later in the log: the first batch stays, the second is undone.
    crashing = CatchUpProjector(
        CrashingProjection(crash_at=15), runtime.floor_app, ProjectionPosition, batch_size=10
    )
    with pytest.raises(KeyboardInterrupt):
        crashing.catch_up()
    assert crashing.position() == 10
    assert EventJournalEntry.objects.count() == 10

    runtime.floor_projector().catch_up()
    fresh = floor_state()
    assert [s["table_count"] for s in fresh["sectors"]] == [4, 4]
    assert len(fresh["journal"]) == floor_app.last_position()
    assert [e["position"] for e in fresh["journal"]] == list(
        range(1, floor_app.last_position() + 1)
    )


class StaleProjector(CatchUpProjector):
    """Read its position just before another projector moved it."""

    def position(self) -> int:
        return 0


def test_a_projector_that_lost_the_race_applies_nothing(floor_app):
    build_floor(floor_app, sectors=1)
    winner = CatchUpProjector(
        FloorProjection(runtime.floor_app), runtime.floor_app, ProjectionPosition, batch_size=4
    )
    assert winner.run_once() == 4
    loser = StaleProjector(
        FloorProjection(runtime.floor_app), runtime.floor_app, ProjectionPosition, batch_size=4
    )
    assert loser.run_once() == 0  # its compare-and-set from 0 found 4
    assert EventJournalEntry.objects.count() == 4
    winner.catch_up()
    assert SectorView.objects.get().table_count == 4
    assert EventJournalEntry.objects.count() == floor_app.last_position()


def test_rebuild_projections_reaches_the_same_state(floor_app):
    build_floor(floor_app, sectors=3)
    runtime.floor_projector().catch_up()
    live = floor_state()
    SectorView.objects.filter(name="Sector 0").update(table_count=0)  # damage a read model
    out, err = io.StringIO(), io.StringIO()
    call_command("rebuild_projections", "--batch-size", "7", stdout=out, stderr=err)
    assert floor_state() == live
    assert f"rebuilt up to event {floor_app.last_position()}" in out.getvalue()
    assert "100%" in err.getvalue()  # the progress bar ran to the end


def test_rebuild_of_an_empty_log_leaves_empty_read_models(floor_app):
    call_command("rebuild_projections", "--no-progress", stdout=io.StringIO())
    assert floor_state() == {"sectors": [], "tables": [], "journal": []}
