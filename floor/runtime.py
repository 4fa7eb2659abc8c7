"""The process-wide floor application and projector, built lazily.

Never at import time and once per process: a gunicorn or Celery prefork child
builds its own after the fork (the pid tells), so no database connection is
shared across processes. Tests install their own application (POPO or a scratch
store) with ``install()``.
"""

from __future__ import annotations

import os
import threading

from django.conf import settings
from django.db import connections
from psycopg.conninfo import make_conninfo

from floor.application.floor_app import FloorApplication
from floor.kernel.clock import Clock
from floor.kernel.web.projector import CatchUpProjector
from floor.models import ProjectionPosition
from floor.projections.floor_views import FloorProjection
from games.profiles import get_profile

_lock = threading.Lock()
_built: dict[str, object] = {}


# Django's own keys in a PostgreSQL database's OPTIONS; the others are libpq's.
DJANGO_ONLY_OPTIONS = frozenset(
    {"isolation_level", "server_side_binding", "assume_role", "pool", "cursor_factory"}
)


def libpq_options(options: dict[str, object]) -> str:
    """The libpq options of a Django PostgreSQL connection, as a conninfo string."""
    return make_conninfo(
        **{key: value for key, value in options.items() if key not in DJANGO_ONLY_OPTIONS}
    )


def event_store_env(*, create_tables: bool = False) -> dict[str, str]:
    """The eventsourcing library's environment, from Django settings.

    On PostgreSQL the event store's tables are ``migrate``'s to create
    (floor.db_schema.ensure_event_store, ``create_tables``): a process that
    merely uses them does no DDL. Otherwise every process ran the library's
    ``CREATE ... IF NOT EXISTS`` as it built its application, and the units a
    deployment starts together (web, workers, beat, projector) raced on
    PostgreSQL's catalog ("tuple concurrently updated": the projector died as
    it started, in CI); a database user without DDL rights could not run them
    at all."""
    backend = settings.EVENT_STORE_BACKEND
    compressor = {"COMPRESSOR_TOPIC": settings.EVENT_COMPRESSOR_TOPIC}
    if backend == "popo":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo", **compressor}
    if backend == "sqlite":
        return {
            **compressor,
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": settings.EVENT_STORE_SQLITE_PATH,
            "SQLITE_LOCK_TIMEOUT": "20",
        }
    if backend == "postgres":
        # The same database as the read models (its test copy, under tests), with
        # the same libpq options (sslmode...) and in the same schema.
        db = connections["default"].settings_dict
        env = {
            "PERSISTENCE_MODULE": "floor.postgres_store:FloorPostgresFactory",
            "POSTGRES_DBNAME": db["NAME"],
            "POSTGRES_HOST": str(db.get("HOST") or "127.0.0.1"),
            "POSTGRES_PORT": str(db.get("PORT") or 5432),
            "POSTGRES_USER": db.get("USER") or "postgres",
            "POSTGRES_PASSWORD": db.get("PASSWORD") or "",
            "POSTGRES_POOL_SIZE": "4",
            "POSTGRES_MAX_OVERFLOW": "4",
            "POSTGRES_CONNECT_TIMEOUT": "5",
            "POSTGRES_LOCK_TIMEOUT": "10",
            "CREATE_TABLE": "yes" if create_tables else "no",
            **compressor,
        }
        libpq = libpq_options(db.get("OPTIONS") or {})
        if libpq:
            env["POSTGRES_LIBPQ_OPTIONS"] = libpq
        if settings.FLOOR_DB_SCHEMA:
            env["POSTGRES_SCHEMA"] = settings.FLOOR_DB_SCHEMA
        return env
    raise ValueError(f"Unknown FLOOR_EVENT_STORE {backend!r}: sqlite, postgres or popo")


def build_floor_app(clock: Clock | None = None, *, create_tables: bool = False) -> FloorApplication:
    """A floor application on the configured store and rule profile
    (``create_tables``: on PostgreSQL, its tables too; see event_store_env)."""
    return FloorApplication(
        env=event_store_env(create_tables=create_tables),
        profile=get_profile(settings.FLOOR_RULE_PROFILE),
        clock=clock,
    )


def floor_app() -> FloorApplication:
    """This process's floor application."""
    with _lock:
        if _built.get("pid") != os.getpid() or "app" not in _built:
            _built.clear()
            _built["pid"] = os.getpid()
            _built["app"] = build_floor_app()
        return _built["app"]  # type: ignore[return-value]


def floor_projector(*, long_lived: bool = False) -> CatchUpProjector:
    """The projector of the floor's read models (cheap: no connection of its
    own). ``long_lived``: the projector process's, which keeps rows in memory
    from one batch to the next (FloorProjection, ``hold_rows``); any other
    (a request's, the beat sweep's, a rebuild's) starts each batch afresh."""
    projection = FloorProjection(floor_app, hold_rows=long_lived)
    return CatchUpProjector(projection, floor_app, ProjectionPosition)


def install(app: FloorApplication | None) -> None:
    """Makes ``app`` this process's floor application (None: build on demand)."""
    with _lock:
        _built.clear()
        if app is not None:
            _built["pid"] = os.getpid()
            _built["app"] = app
