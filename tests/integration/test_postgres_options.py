"""The libpq options of DATABASE_URL reach the event store's real connections
(issue 20: "today ``?sslmode=`` is dropped"), not only the read models'."""

from __future__ import annotations

from types import SimpleNamespace

import psycopg
import pytest
from eventsourcing.persistence import OperationalError as StoreUnavailable

from config.env import postgres_from_env
from floor import runtime
from floor.postgres_store import FloorPostgresFactory
from tests.support.scratch_pg import scratch_database

pytestmark = pytest.mark.integration


@pytest.fixture
def store_for(settings, monkeypatch):
    """Builds the event store a process gets from this environment."""
    factories: list[FloorPostgresFactory] = []

    def build(environ: dict[str, str]) -> FloorPostgresFactory:
        db = postgres_from_env(environ)
        settings.EVENT_STORE_BACKEND = "postgres"
        settings.FLOOR_DB_SCHEMA = environ.get("FLOOR_DB_SCHEMA", "")
        monkeypatch.setattr(runtime, "connections", {"default": SimpleNamespace(settings_dict=db)})
        factory = FloorPostgresFactory(runtime.event_store_env())
        factories.append(factory)
        return factory

    yield build
    for factory in factories:
        factory.close()


def ask(factory: FloorPostgresFactory, query: str):
    with factory.datastore.get_connection() as connection:
        return next(iter(connection.execute(query).fetchone().values()))


def test_the_event_store_connects_with_the_urls_options(store_for):
    with scratch_database("floor_options") as url:
        store = store_for(
            {
                "DATABASE_URL": f"{url}?application_name=floor_event_store&sslmode=disable",
                "FLOOR_DB_SCHEMA": "casino_vigo",
            }
        )
        assert ask(store, "SELECT current_setting('application_name')") == "floor_event_store"
        assert ask(store, "SELECT current_setting('search_path')") == "casino_vigo"
        assert ask(store, "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()") is False


def test_sslmode_require_is_obeyed_by_the_event_store(store_for):
    """On a server with TLS the connection is encrypted; on one without, it is
    refused: either way the option was not dropped."""
    with scratch_database("floor_ssl") as url:
        store = store_for({"DATABASE_URL": f"{url}?sslmode=require"})
        try:
            encrypted = ask(store, "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        except StoreUnavailable:
            # The pool only says it got no connection: the server's own answer
            # to a libpq client asking for TLS tells why.
            with pytest.raises(psycopg.OperationalError, match="SSL"):
                psycopg.connect(f"{url}?sslmode=require", connect_timeout=5).close()
        else:
            assert encrypted is True
