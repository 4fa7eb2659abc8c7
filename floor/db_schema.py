"""The casino's PostgreSQL schema, made by ``migrate`` when it is missing.

DESIGN.md, "Scale": a chain keeps one event store per casino, by schema or by
database. With ``FLOOR_DB_SCHEMA`` set, the read models live in that schema
(``search_path``, config.env) and so does the event log (eventsourcing's
``POSTGRES_SCHEMA``, floor.runtime); neither Django nor eventsourcing creates a
schema, so ``migrate`` does before its first table. Its existence is looked up
first: a role that owns its schema but may not create one in the database (a
locked-down production role) migrates all the same.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connections


def ensure_schema(using: str = "default", **_kwargs: object) -> bool:
    """Creates the casino's schema if it is missing; True when it made it."""
    schema = getattr(settings, "FLOOR_DB_SCHEMA", "")
    connection = connections[using]
    if not schema or connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", [schema])
        if cursor.fetchone():
            return False
        # The name was checked to be a plain identifier (config.env.SCHEMA_NAME).
        cursor.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    return True


# The event store's tables (eventsourcing's PostgreSQL recorder).
EVENT_STORE_TABLES = ("floorapplication_events", "floorapplication_snapshots")


def ensure_event_store(using: str = "default", **_kwargs: object) -> bool:
    """Creates the PostgreSQL event store's tables at ``migrate``, if missing.

    No other process creates them (floor.runtime.event_store_env): the units
    started together (web, workers, beat, projector: docs/deploy.md) would race
    on the library's ``CREATE ... IF NOT EXISTS``, which PostgreSQL does not make
    safe. ``migrate`` runs first and alone.
    """
    from floor.runtime import build_floor_app  # the app registry is ready by now

    connection = connections[using]
    if using != "default" or settings.EVENT_STORE_BACKEND != "postgres":
        return False
    if set(EVENT_STORE_TABLES) <= set(connection.introspection.table_names()):
        return False
    build_floor_app(create_tables=True).close()  # its recorder creates the tables
    return True
