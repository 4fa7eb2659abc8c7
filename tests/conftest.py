"""Fixtures shared by the whole suite.

Each test gets a fresh event store on the backend the run is configured for
(SQLite file on the embedded default, the test database on PostgreSQL) and a
manual clock. Under CI=true nothing may be skipped: a skip is a failure.
"""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from django.conf import settings

from floor import runtime
from floor.application.floor_app import FloorApplication
from floor.kernel.clock import ManualClock
from games.profile_rules import BuyInRules
from games.profiles import RuleProfile, get_profile

IN_CI = os.environ.get("CI", "").lower() == "true"

EVENT_TABLES = ("floorapplication_events", "floorapplication_snapshots")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI a skipped test fails: a missing browser or database is a failure."""
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped under CI, which is a failure: {report.longrepr}"


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing():
    """Tests make hundreds of users: hash their passwords with a cheap hasher, not
    the production one's million rounds (a second each on a small machine). The
    live server of the browser tests runs in this process and checks them alike."""
    from django.contrib.auth import hashers

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()


@pytest.fixture(autouse=True)
def no_request_left_in_the_log_fields():
    """A request served through a WSGI test client that never closes its answer
    (schemathesis's, tests/floor/test_openapi.py) never sends request_finished,
    so its id would stay in the log fields of every later test's lines
    (floor.logs). A real server closes every answer (PEP 3333)."""
    yield
    from floor import logs

    logs._request_token.set(None)
    logs._current.set(None)


@pytest.fixture(autouse=True)
def read_models_inline(settings):
    """No projector process runs beside Django's test client: each request
    applies its own command's events (FLOOR_READ_MODELS="inline", the seam of
    floor.read_models). A test of the projector path sets "projector" itself;
    the processes the integration tests start get the default from the
    environment, since this changes only this process's settings."""
    settings.FLOOR_READ_MODELS = "inline"


@pytest.fixture(autouse=True)
def fresh_login_throttle():
    """The token endpoint's throttle counts in the cache, which outlives a test:
    each test starts with none of another's requests counted (axes' counts are
    rows, rolled back with the test)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def audit_files(tmp_path_factory, settings) -> dict:
    """Each test its own audit key file and anchor file (docs/reporting.md,
    "Audit: verify_log"): an anchor one test writes is no other test's."""
    where = tmp_path_factory.mktemp("audit")
    settings.FLOOR_AUDIT_KEY = ""
    settings.FLOOR_AUDIT_KEYS = ""
    settings.FLOOR_AUDIT_KEY_FILE = str(where / "audit_keys")
    settings.FLOOR_AUDIT_ANCHOR_FILE = str(where / "audit_anchors.jsonl")
    return {"keys": where / "audit_keys", "anchors": where / "audit_anchors.jsonl"}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2026, 11, 22, 20, 0, tzinfo=UTC))


def scratch_event_store_env(tmp_path) -> dict[str, str]:
    """An empty event store on the configured backend."""
    env = runtime.event_store_env()
    if settings.EVENT_STORE_BACKEND == "sqlite":
        env["SQLITE_DBNAME"] = str(tmp_path / "events.sqlite3")
    return env


def empty_postgres_store(app: FloorApplication) -> None:
    """Truncates the shared PostgreSQL event tables (ids restart at 1)."""
    with app.recorder.datastore.transaction(commit=True) as cursor:
        cursor.execute(f"TRUNCATE {', '.join(EVENT_TABLES)} RESTART IDENTITY")


@pytest.fixture
def make_app(tmp_path, clock, django_db_setup, django_db_blocker):
    """Builds floor applications on one scratch store (several may share it)."""
    env = None
    built: list[FloorApplication] = []

    def make(
        profile: str | RuleProfile | None = None, *, house_buy_in: bool = False
    ) -> FloorApplication:
        """``house_buy_in``: keep the amounts the profile fixes for a first
        buy-in and rebuys (CM's Hold'em tables: 100 to 1,000 EUR, CM-2). The
        suite's tables are 2/10 EUR Hold'em tables bought in for a few euros to
        keep the hand arithmetic small, so by default a floor built here leaves
        them out and the table's minimum and maximum bound a buy-in, as under
        GA; the tests of CM-2 ask for them (tests/floor/test_buy_in_bounds.py)."""
        nonlocal env
        with django_db_blocker.unblock():
            if env is None:
                env = scratch_event_store_env(tmp_path)
            rules = (
                profile
                if isinstance(profile, RuleProfile)
                else get_profile(profile or settings.FLOOR_RULE_PROFILE)
            )
            if not house_buy_in:
                rules = replace(rules, buy_in=BuyInRules())
            app = FloorApplication(env=env, profile=rules, clock=clock)
            if not built and settings.EVENT_STORE_BACKEND == "postgres":
                empty_postgres_store(app)
        built.append(app)
        return app

    yield make
    for app in built:
        app.close()


@pytest.fixture
def floor_app(make_app):
    """This test's floor application, installed as the process's own."""
    app = make_app()
    runtime.install(app)
    yield app
    runtime.install(None)


@pytest.fixture
def make_user(db):
    """Creates a user holding the given floor roles (groups)."""
    from django.contrib.auth.models import Group, User

    def make(username: str, *roles: str, password: str = "s3cret-pass") -> User:
        user = User.objects.create_user(username=username, password=password)
        # get_or_create: a transactional test flushes the groups the migration made.
        user.groups.set([Group.objects.get_or_create(name=role)[0] for role in roles])
        return user

    return make


@pytest.fixture
def api_as(make_user):
    """An API client authenticated by token as a new user of the given roles."""
    from rest_framework.test import APIClient

    from floor.logins import issue_token

    def client_for(username: str, *roles: str) -> APIClient:
        user = make_user(username, *roles)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(user)[1]}")
        return client

    return client_for
