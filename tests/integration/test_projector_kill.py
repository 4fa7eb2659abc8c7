"""A projector killed with SIGKILL mid-stream loses nothing and doubles nothing."""

import signal

import pytest
from django.db.models import Sum

from floor import runtime
from floor.domain.sector import Sector
from floor.models import EventJournalEntry, ProjectionPosition, SectorView, TableView
from tests.support.floor import open_sector, open_tables
from tests.support.processes import manage, running, service_env
from tests.support.wait import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SECTORS = 150  # 150 sectors of 4 tables: 2,100 events
BATCH = 25  # a batch is a transaction of 25 events: the kill lands inside one


def position() -> int:
    row = ProjectionPosition.objects.filter(name="floor").first()
    return row.position if row else 0


def table_added_up_to(app, last: int) -> int:
    notifications = app.recorder.select_notifications(1, last)
    added = Sector.TableAdded.__qualname__
    return sum(1 for n in notifications if n.topic.endswith(added))


def test_killed_projector_restarts_and_applies_every_event_exactly_once(floor_app, tmp_path):
    for index in range(SECTORS):
        open_tables(floor_app, open_sector(floor_app, f"Sector {index}"), 4)
    total = floor_app.last_position()
    env = service_env(tmp_path / "events.sqlite3")

    projector = manage("run_projector", "--batch-size", str(BATCH))
    with running(projector, env, tmp_path / "p1.log") as p:
        wait_until(lambda: position() >= 2 * BATCH, timeout=60, what="the projector to start")
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=10)
    killed_at = position()
    assert 2 * BATCH <= killed_at < total, "the kill must land mid-stream"
    assert EventJournalEntry.objects.count() % BATCH == 0, "only whole batches are applied"
    # What the read models show is exactly the events up to the position.
    assert EventJournalEntry.objects.count() == killed_at
    shown_tables = SectorView.objects.aggregate(n=Sum("table_count"))["n"] or 0
    assert shown_tables == table_added_up_to(floor_app, killed_at)

    # A bound against a hang, not a time: 600 tables of one game mark each
    # other's consoles (live marks), ~2 minutes on PostgreSQL on a busy CI box.
    with running(manage("run_projector", "--once"), env, tmp_path / "p2.log") as p:
        assert p.wait(timeout=360) == 0
    assert position() == total
    assert list(EventJournalEntry.objects.values_list("position", flat=True)) == list(
        range(1, total + 1)
    )
    assert set(SectorView.objects.values_list("table_count", flat=True)) == {4}
    assert TableView.objects.count() == SECTORS * 4

    before = list(TableView.objects.order_by("id").values())
    runtime.floor_projector().reset()
    runtime.floor_projector().catch_up()
    assert list(TableView.objects.order_by("id").values()) == before
