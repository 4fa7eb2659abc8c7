"""The projector process keeps, from one batch to the next, the rows the
consoles' scopes read (issue 23: the open tables, who sits where, the lists,
the groups' tables), and knows where its last batch left its position. Held
rows are used only while the position is where its own last batch left it:
another projector's batches, or a batch that failed, make it read them again,
and the read models and the consoles' marks are those of a projection applied
one event at a time."""

import pytest

from floor import runtime
from floor.kernel.web.projector import CatchUpProjector
from floor.kernel.web.shadow_rebuild import ShadowRebuild
from floor.models import LiveMark, ProjectionPosition, TableView
from floor.projections import live_marks
from floor.projections.floor_views import FloorProjection
from tests.support.read_models import differences, read_models
from tests.support.shift import JEFE, Shift

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_app(make_app):
    app = make_app("CM", house_buy_in=True)
    runtime.install(app)
    yield app
    runtime.install(None)


@pytest.fixture
def shift(floor_app) -> Shift:
    shift = Shift(floor_app, seed=5)
    shift.open(2)
    return shift


def projector(hold_rows: bool, batch_size: int = 100) -> CatchUpProjector:
    projection = FloorProjection(runtime.floor_app, hold_rows=hold_rows)
    return CatchUpProjector(projection, runtime.floor_app, ProjectionPosition, batch_size)


def one_event_at_a_time() -> dict[str, list]:
    """The read models (and marks) of the log applied one event at a time."""
    one = projector(hold_rows=False, batch_size=1)
    one.reset()
    one.catch_up()
    return read_models()


def open_a_table_of_the_game_of_the_first(shift: Shift) -> None:
    """A third table, in the game of the shift's first (tests.support.shift:
    texas hold'em no limit, 3 to 10 EUR): the first table's events then touch
    its scopes too."""
    shift.do(
        JEFE,
        "open_table",
        must=True,
        sector_id=shift.sectors[0],
        variant="texas_holdem",
        limit="no_limit",
        minimum_cents=300,
        maximum_cents=1000,
        seats=10,
    )


def test_held_rows_go_on_while_the_position_is_the_projectors_own(shift):
    live = projector(hold_rows=True, batch_size=9)
    live.catch_up()
    held = live.projection._held
    assert held is not None and held[0] == live.position()
    for _ in range(4):
        shift.round()
    assert live.catch_up() > 9  # several batches
    assert live.projection._held[1] is held[1]  # the same rows, not read again
    assert live.projection._held[0] == live.position()

    assert differences(read_models(), one_event_at_a_time()) == {}


def test_rows_are_read_again_after_another_projector_moved_the_position(shift):
    live = projector(hold_rows=True, batch_size=9)
    live.catch_up()
    rows = live.projection._held[1]
    # Another projector applies a table opened in the first table's game: the
    # open tables the held rows know are no longer the database's.
    open_a_table_of_the_game_of_the_first(shift)
    assert projector(hold_rows=False).catch_up() > 0
    for _ in range(3):
        shift.round()  # the first table's events touch the new table's scopes
    live.catch_up()
    assert live.projection._held[1] is not rows

    assert differences(read_models(), one_event_at_a_time()) == {}


def test_a_failed_batch_drops_the_held_rows(shift):
    class Failing(FloorProjection):
        fail_at: int | None = None

        def apply(self, event, position):
            super().apply(event, position)
            if position == self.fail_at:
                raise RuntimeError("the batch fails halfway")

    live = CatchUpProjector(
        Failing(runtime.floor_app, hold_rows=True), runtime.floor_app, ProjectionPosition, 9
    )
    live.catch_up()
    assert live.projection._held is not None
    open_a_table_of_the_game_of_the_first(shift)
    shift.round()
    live.projection.fail_at = live.position() + 5
    with pytest.raises(RuntimeError):
        live.run_once()
    assert live.projection._held is None and live.reached is None
    live.projection.fail_at = None
    live.catch_up()
    assert differences(read_models(), one_event_at_a_time()) == {}


def test_a_projection_not_long_lived_holds_nothing(shift):
    other = projector(hold_rows=False, batch_size=9)
    other.catch_up()
    assert other.projection._held is None
    assert runtime.floor_projector().projection.hold_rows is False
    assert runtime.floor_projector(long_lived=True).projection.hold_rows is True


@pytest.mark.django_db(transaction=True)
def test_the_position_reached_is_known_without_reading_it_back(shift):
    """Committed (no transaction of the caller's around it), a batch knows
    where it left the position: the projector process waits from there."""
    first, second = projector(hold_rows=True, batch_size=5), projector(hold_rows=True)
    assert first.run_once() == 5
    assert first.reached == first.position() == 5
    second.batch_size = 7
    assert second.run_once() == 7
    # ``first`` starts from where it left the position, unread: its
    # compare-and-set finds it moved, so it reads it and goes on from there.
    assert first.run_once() == 5
    assert first.reached == second.position() == 5 + 7 + 5
    second.catch_up()
    assert first.run_once() == 0
    assert first.reached == second.position()
    assert differences(read_models(), one_event_at_a_time()) == {}


def test_the_position_reached_is_not_told_inside_a_callers_transaction(shift):
    """Inside a transaction of its caller's (a test's, a request's), the batch
    is not committed yet: the position it reached is not told as known."""
    first = projector(hold_rows=True, batch_size=5)
    assert first.run_once() == 5
    assert first.reached is None


def test_marks_are_moved_and_made_in_one_statement(django_assert_num_queries):
    LiveMark.objects.create(scope="cage", position=3)
    with django_assert_num_queries(1):
        live_marks.stamp_all({"cage": 7, "all": 7, "table:x": 5})
    assert dict(LiveMark.objects.values_list("scope", "position")) == {
        "cage": 7,
        "all": 7,
        "table:x": 5,
    }
    live_marks.stamp({"cage"}, 9)
    assert LiveMark.objects.get(scope="cage").position == 9


def test_a_rebuilds_switch_drops_the_held_rows(shift):
    """A rebuild's switch puts rebuilt read models in place and leaves the
    position where it was: the projector process's rows held from before
    (here a table shown in the wrong game, which the rebuild repairs) are
    read again, or the consoles' marks would follow the old rows."""
    open_a_table_of_the_game_of_the_first(shift)
    projector(hold_rows=False).catch_up()
    # The new table, where nobody plays (no event of its own rewrites its
    # row), shown in another game than the first table's.
    (wrong,) = TableView.objects.filter(occupied_seats__isnull=True).values_list("id", flat=True)
    TableView.objects.filter(id=wrong).update(minimum_cents=12345)
    live = projector(hold_rows=True, batch_size=9)
    shift.round()
    live.catch_up()
    held = live.projection._held
    assert held is not None and 12345 in held[1].tables[wrong][2]  # the wrong row, held

    assert ShadowRebuild(runtime.floor_projector(), batch_size=1000).run() == live.position()
    assert TableView.objects.get(id=wrong).minimum_cents != 12345  # repaired
    for _ in range(3):
        shift.round()
    live.catch_up()
    assert live.projection._held[1] is not held[1]  # read again after the switch
    assert differences(read_models(), one_event_at_a_time()) == {}
