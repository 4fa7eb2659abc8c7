"""The batched, in-memory projection (issue 23, item 2): aggregate states folded
in memory equal the store's, and a projection in large batches writes exactly
the read models and the journal that one event at a time did."""

import io
from uuid import UUID

import pytest
from django.core.management import call_command

from floor import runtime
from floor.domain.table import Table
from floor.kernel.web.projector import CatchUpProjector
from floor.models import (
    EventJournalEntry,
    JournalMention,
    ListMove,
    OccupancyStep,
    ProjectionPosition,
)
from floor.projections.floor_views import FloorProjection
from floor.projections.states import AggregateStates
from tests.support.read_models import differences, read_models
from tests.support.room import all_events
from tests.support.shift import Shift

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_app(make_app):
    """A CM floor that keeps the house's buy-ins (the shift buys in 100 EUR),
    installed as the process's own."""
    app = make_app("CM", house_buy_in=True)
    runtime.install(app)
    yield app
    runtime.install(None)


@pytest.fixture
def shift_log(floor_app) -> Shift:
    """A table's shift through the floor's commands: hands, rests, players
    leaving and cashing out, newcomers called from the list, rebuys at the
    cage; long enough for the table to be snapshotted."""
    shift = Shift(floor_app, seed=3)
    shift.open(1)
    for _ in range(70):
        shift.round()
    return shift


def journal_rows() -> list[dict]:
    return list(EventJournalEntry.objects.order_by("position").values())


def test_states_folded_in_memory_equal_the_store_at_every_version(floor_app, shift_log):
    table_id = shift_log.tables[0]
    snapshots = list(floor_app.snapshots.get(UUID(table_id)))
    assert snapshots, "the shift is too short for the table to have a snapshot"
    events = all_events(floor_app)
    # Room for every aggregate: none is read from the store, each is made from
    # the event that creates it and folded from there. Four at most: the
    # players and the table push each other out, so states are loaded again
    # after an eviction, folded between.
    for maxsize in (10_000, 4):
        states = AggregateStates(lambda: floor_app, maxsize=maxsize)
        for event in events:
            states.observe(event)
            held = states(event)
            stored = floor_app.repository.get(event.originator_id, version=event.originator_version)
            assert held == stored, f"{type(event).__qualname__} v{event.originator_version}"
        assert states.loads + states.folds == len(events)
        aggregates = len({e.originator_id for e in events})
        assert len(states.cache.cache) == min(maxsize, aggregates)
        if maxsize > aggregates:
            assert states.loads == 0 and states.folds == len(events)
        else:
            assert states.loads > 0
    assert states.folds > 0  # even evicted, the table's states were folded between loads


def test_a_state_held_past_a_gap_is_loaded_again(floor_app, shift_log):
    """Events this projection did not see (another process projected them, or
    a batch rolled back and is read again): the state is the store's."""
    table_events = [e for e in all_events(floor_app) if isinstance(e, Table.Event)]
    states = AggregateStates(lambda: floor_app)
    states(table_events[3])
    later = table_events[9]  # six events of the table never observed
    assert states(later) == floor_app.repository.get(later.originator_id, version=9 + 1)
    earlier = table_events[5]  # and back: a batch read again
    assert states(earlier) == floor_app.repository.get(earlier.originator_id, version=5 + 1)
    assert states.loads == 3 and states.folds == 0


def test_large_batches_write_what_one_event_at_a_time_wrote(floor_app, shift_log):
    last = floor_app.last_position()
    one_by_one = CatchUpProjector(
        FloorProjection(runtime.floor_app), runtime.floor_app, ProjectionPosition, batch_size=1
    )
    assert one_by_one.catch_up() == last
    live, live_journal = read_models(), journal_rows()

    # The journal written again from nothing, in batches of 500 and by a
    # projection that holds no state yet.
    EventJournalEntry.objects.all().delete()
    batched = CatchUpProjector(
        FloorProjection(runtime.floor_app), runtime.floor_app, ProjectionPosition, batch_size=500
    )
    batched.reset()
    assert batched.catch_up() == last
    assert differences(live, read_models()) == {}
    assert journal_rows() == live_journal
    assert batched.projection.states.loads < last / 5
    out = io.StringIO()
    call_command("verify_log", stdout=out)
    assert f"{last} events, chain intact" in out.getvalue()


def test_a_rebuild_in_batches_of_odd_sizes_equals_the_live_read_models(floor_app, shift_log):
    """The live projector's batches (of 100, caught up between commands) and a
    rebuild's cut the log at other places: the read models are the same, the
    journal is kept as it was."""
    runtime.floor_projector().catch_up()
    live, live_journal = read_models(), journal_rows()
    call_command("rebuild_projections", "--batch-size", "37", "--no-progress", stdout=io.StringIO())
    assert differences(live, read_models()) == {}
    assert journal_rows() == live_journal


def test_a_failed_batch_writes_no_journal_row_and_is_applied_again(floor_app, shift_log):
    class Failing(FloorProjection):
        def apply(self, event, position):
            super().apply(event, position)
            if position == 150:
                raise RuntimeError("the batch fails after 50 of its events")

    failing = CatchUpProjector(
        Failing(runtime.floor_app), runtime.floor_app, ProjectionPosition, batch_size=100
    )
    assert failing.run_once() == 100
    with pytest.raises(RuntimeError):
        failing.run_once()
    assert EventJournalEntry.objects.count() == 100
    assert failing.position() == 100
    # The same projection (its states folded past the failure) goes on right.
    failing.projection.__class__ = FloorProjection
    failing.catch_up()
    fresh = CatchUpProjector(
        FloorProjection(runtime.floor_app), runtime.floor_app, ProjectionPosition
    )
    live = read_models()
    fresh.reset()
    fresh.catch_up()
    assert differences(live, read_models()) == {}
    assert [row["position"] for row in journal_rows()] == list(
        range(1, floor_app.last_position() + 1)
    )


def report_rows() -> dict[str, list]:
    """The reports' read models, mentions included (read_models leaves out
    anything named like the journal)."""
    return {
        "mentions": list(
            JournalMention.objects.order_by("position", "subject").values_list(
                "position", "subject"
            )
        ),
        "steps": list(OccupancyStep.objects.order_by("position").values()),
        "moves": list(ListMove.objects.order_by("position").values()),
    }


def test_reports_rows_gathered_per_batch_survive_a_failed_batch(floor_app, shift_log):
    """The reports' rows are gathered in memory and written at a batch's end,
    reading each table's last count and each list's open registrations once
    (floor.projections.report_views.ReportBatch): a batch that fails mid-way
    leaves nothing behind, and the retried one writes what one event at a
    time did."""
    one_by_one = CatchUpProjector(
        FloorProjection(runtime.floor_app), runtime.floor_app, ProjectionPosition, batch_size=1
    )
    one_by_one.reset()
    one_by_one.catch_up()
    expected = report_rows()
    assert expected["steps"] and expected["moves"]
    assert any(not move["open"] for move in expected["moves"])

    class Failing(FloorProjection):
        def apply(self, event, position):
            super().apply(event, position)
            if position == 250:
                raise RuntimeError("the batch fails half-way")

    failing = CatchUpProjector(
        Failing(runtime.floor_app), runtime.floor_app, ProjectionPosition, batch_size=100
    )
    failing.reset()
    assert failing.run_once() == 100
    assert failing.run_once() == 100
    with pytest.raises(RuntimeError):
        failing.run_once()
    assert not OccupancyStep.objects.filter(position__gt=200).exists()
    assert not JournalMention.objects.filter(position__gt=200).exists()
    failing.projection.__class__ = FloorProjection
    failing.catch_up()
    assert report_rows() == expected


def test_a_batchs_timers_are_written_in_chunks_of_keys(monkeypatch):
    """A rebuild's large batch may hold more timer keys than one statement
    takes parameters (SQLite 32,766): they are looked up and cancelled in
    chunks, with the rows one statement would have written."""
    from datetime import UTC, datetime, timedelta
    from uuid import uuid4

    from floor.models import PendingTimer
    from floor.projections import timers

    monkeypatch.setattr(timers, "KEYS_PER_STATEMENT", 2)
    subject, due = uuid4(), datetime(2026, 11, 22, 20, tzinfo=UTC)

    def add(batch, n):
        batch.add(f"t{n}", "absence", subject, due + timedelta(minutes=n), "expire_absence", {})

    before = timers.TimerBatch()
    for n in range(7):
        add(before, n)
    before.flush()  # seven pending, written by an earlier batch

    batch = timers.TimerBatch()
    for n in range(5, 12):  # t5, t6 held already; t7..t11 new
        add(batch, n)
    batch.cancel(subject, except_key="t3")  # all pending but t3: five old, five new
    add(batch, 12)
    batch.flush()
    rows = dict(PendingTimer.objects.values_list("key", "state"))
    pending, cancelled = PendingTimer.PENDING, PendingTimer.CANCELLED
    assert rows == {
        **{f"t{n}": cancelled for n in range(12) if n != 3},
        "t3": pending,
        "t12": pending,
    }
