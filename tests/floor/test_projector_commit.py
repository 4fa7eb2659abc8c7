"""The projector process's batches commit without waiting for the disk on
PostgreSQL (``SET LOCAL synchronous_commit TO off`` in each batch's own
transaction: the read models are the durable log's projection, and a batch a
crash takes back is applied again), except a batch whose commit sets off
something outside the database (``transaction.on_commit``), which sends
nothing and commits as the server says. The setting never outlives the
batch's transaction (behind PgBouncer's transaction pooling a session's
setting would reach other clients' transactions, the event store's saves).
Any other projector (a request's, the beat sweep's, a rebuild's) and a batch
inside a caller's transaction keep the server's setting, and SQLite is left
as it is (its read models' connection is already WAL with synchronous=NORMAL)."""

from collections.abc import Iterable
from datetime import timedelta

import pytest
from django.db import connection, models, transaction
from django.test.utils import CaptureQueriesContext

from floor import runtime
from floor.kernel.web.projector import CatchUpProjector
from floor.models import ProjectionPosition
from tests.support.shift import Shift

pytestmark = pytest.mark.django_db

POSTGRES = connection.vendor == "postgresql"


class Hooked:
    """A projection that writes nothing, and registers a hook on commit when
    told to (as the timers' ETA tasks and the day's anchor do)."""

    name = "commit-test"

    def __init__(self, hook: bool) -> None:
        self.hook = hook
        self.applied = 0

    def read_models(self) -> Iterable[type[models.Model]]:
        return ()

    def apply(self, event, position: int) -> None:
        self.applied += 1
        if self.hook:
            transaction.on_commit(lambda: None)


@pytest.fixture
def floor_app(make_app):
    app = make_app("CM")
    runtime.install(app)
    Shift(app, seed=3).open(1)
    yield app
    runtime.install(None)


def batch(relaxed: bool, hook: bool) -> tuple[list[str], Hooked]:
    """One batch of a projector (relaxed or not); the statements it sent."""
    projection = Hooked(hook)
    projector = CatchUpProjector(projection, runtime.floor_app, ProjectionPosition)
    if relaxed:
        projector.relax_commits()
    with CaptureQueriesContext(connection) as queries:
        assert projector.run_once() > 0
    return [query["sql"] for query in queries.captured_queries], projection


def commit_settings(statements: list[str]) -> list[str]:
    return [sql for sql in statements if "synchronous_commit" in sql]


def show_synchronous_commit() -> str:
    """The session's commit setting: PostgreSQL's synchronous_commit, or
    SQLite's synchronous pragma (which the relaxed projector leaves alone)."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit" if POSTGRES else "PRAGMA synchronous")
        return str(cursor.fetchone()[0])


@pytest.mark.django_db(transaction=True)
def test_the_relaxed_projectors_batch_commits_without_the_flush(floor_app):
    statements, projection = batch(relaxed=True, hook=False)
    assert projection.applied > 0
    expected = ["SET LOCAL synchronous_commit TO off"] if POSTGRES else []
    assert commit_settings(statements) == expected
    if POSTGRES:  # the last statement of the batch's transaction, after its writes
        assert statements[-2:] == [expected[0], "COMMIT"]


@pytest.mark.django_db(transaction=True)
def test_a_relaxed_batch_leaves_the_sessions_setting_as_the_server_has_it(floor_app):
    """Outside the batch's transaction the session still commits as the
    server says: a pooled server connection passed on to another client
    (PgBouncer, transaction pooling) carries nothing of the projector's."""
    servers = show_synchronous_commit()
    batch(relaxed=True, hook=False)
    assert show_synchronous_commit() == servers


@pytest.mark.django_db(transaction=True)
def test_a_batch_with_a_hook_on_commit_commits_as_the_server_says(floor_app):
    statements, _ = batch(relaxed=True, hook=True)
    assert commit_settings(statements) == []


@pytest.mark.django_db(transaction=True)
def test_any_other_projector_keeps_the_servers_setting(floor_app):
    statements, _ = batch(relaxed=False, hook=False)
    assert commit_settings(statements) == []


def test_a_batch_inside_a_callers_transaction_leaves_the_callers_commit_alone(floor_app):
    """SET LOCAL would last to the caller's commit (the test's transaction
    here): the relaxed projector sends it only in a transaction of its own."""
    statements, _ = batch(relaxed=True, hook=False)
    assert commit_settings(statements) == []


@pytest.mark.django_db(transaction=True)
def test_a_batch_that_queues_a_timers_eta_task_commits_as_the_server_says(
    make_app, clock, monkeypatch
):
    """The real floor projection: a suspended table's closing deadline, ahead
    of the (real) time the projection compares it with, is queued with an ETA
    once the batch commits, a hook the timers' batch context registers as it
    closes (floor/projections/timers.py). That batch sends nothing: a task
    must never follow a commit a crash could take back."""
    from floor.projections import timers
    from tests.support.room import Room

    queued: list[str] = []
    monkeypatch.setattr(timers, "send_eta", lambda key, due_at: queued.append(key))
    clock.advance(timedelta(days=3650))  # the deadline ahead of the wall clock
    app = make_app()
    runtime.install(app)
    try:
        room = Room(app)
        table_id, cards = room.drawn_table(4)
        projector = runtime.floor_projector(long_lived=True)
        projector.relax_commits()
        with CaptureQueriesContext(connection) as queries:
            projector.catch_up()
        assert queued == []  # the table's events set no deadline: relaxed
        unhooked = commit_settings([query["sql"] for query in queries.captured_queries])
        assert unhooked == (["SET LOCAL synchronous_commit TO off"] if POSTGRES else [])

        room.leave(table_id, cards[3])  # suspended: closes in 15 minutes
        with CaptureQueriesContext(connection) as queries:
            projector.catch_up()
        assert len(queued) == 1
        assert commit_settings([query["sql"] for query in queries.captured_queries]) == []
    finally:
        runtime.install(None)


@pytest.mark.django_db(transaction=True)
def test_the_batch_commits_on_the_positions_database(floor_app):
    """The batch's transaction, and its relaxed commit, are those of the
    database the positions are read from (a rebuild routes them to its
    shadow), not the default alias's: here a second connection to the same
    database, which the positions are routed to."""
    from django.db import connections
    from django.db.utils import load_backend

    from floor.kernel.web.shadow_db import routing_to

    alias = "positions_elsewhere"
    connections[alias] = load_backend(connection.settings_dict["ENGINE"]).DatabaseWrapper(
        {**connection.settings_dict}, alias
    )
    projector = CatchUpProjector(Hooked(False), runtime.floor_app, ProjectionPosition)
    projector.relax_commits()
    try:
        with (
            routing_to(alias, [ProjectionPosition]),
            CaptureQueriesContext(connections[alias]) as elsewhere,
            CaptureQueriesContext(connection) as default,
        ):
            assert projector.run_once() > 0
    finally:
        connections[alias].close()
        del connections[alias]
    sent = [query["sql"] for query in elsewhere.captured_queries]
    if POSTGRES:
        assert sent[-2:] == ["SET LOCAL synchronous_commit TO off", "COMMIT"]
    else:
        assert sent[-1] == "COMMIT"
    assert commit_settings([query["sql"] for query in default.captured_queries]) == []
    assert projector.reached == projector.position()
