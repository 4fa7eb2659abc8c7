"""A PostgreSQL database of a test's own, made and dropped by the test.

The tests that start the service's processes as a deployment does (migrate,
units) use one on either lane of the suite: the server is the one DATABASE_URL
names (the PostgreSQL lane) or else FLOOR_TEST_POSTGRES_URL, by default the
server CI starts (.ci/services). Under CI a server that does not answer fails
the test (tests.support.require).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import dj_database_url
import psycopg
from psycopg import sql

from tests.support.require import require

DEFAULT_SERVER = "postgresql://floor:floor@127.0.0.1:5432/postgres"


def server_url() -> str:
    """A URL of the test server's maintenance database."""
    url = os.environ.get("DATABASE_URL") or os.environ.get("FLOOR_TEST_POSTGRES_URL")
    return url or DEFAULT_SERVER


def _connect(url: str, dbname: str) -> psycopg.Connection:
    db = dj_database_url.parse(url)
    return psycopg.connect(
        dbname=dbname,
        user=db["USER"],
        password=db["PASSWORD"],
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        autocommit=True,
        connect_timeout=5,
        **db.get("OPTIONS", {}),
    )


@contextmanager
def scratch_database(prefix: str) -> Iterator[str]:
    """Yields the URL of a new, empty database, dropped afterwards."""
    url = server_url()
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    try:
        admin = _connect(url, "postgres")
    except psycopg.OperationalError as error:
        require(False, f"no PostgreSQL server at {dj_database_url.parse(url)['HOST']}: {error}")
        raise  # not reached: require fails or skips
    with admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            db = dj_database_url.parse(url)
            yield (
                f"postgresql://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:"
                f"{db['PORT'] or 5432}/{name}"
            )
        finally:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


@contextmanager
def connected(url: str) -> Iterator[psycopg.Connection]:
    """A plain connection to the database ``url`` names (to look at its tables)."""
    db = dj_database_url.parse(url)
    with _connect(url, db["NAME"]) as connection:
        yield connection
