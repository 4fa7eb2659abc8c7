"""A schema per casino (DESIGN.md, "Scale": one event store per casino, by schema
or database): two casinos sharing one PostgreSQL database, each with its own
FLOOR_DB_SCHEMA, keep their read models, users and event logs apart, and
``migrate`` makes the schema it needs and the event store's tables in it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from floor.management.commands.load_demo_floor import DEMO_USERS
from tests.support.processes import ROOT
from tests.support.scratch_pg import connected, scratch_database

pytestmark = pytest.mark.integration


def run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, f"manage.py {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def casino_env(url: str, schema: str, var_dir) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("FLOOR_", "POSTGRES_", "DJANGO_")) and key != "DATABASE_URL"
    }
    env.update(
        DATABASE_URL=url,
        FLOOR_DB_SCHEMA=schema,
        FLOOR_VAR_DIR=str(var_dir),
        PYTHONPATH=str(ROOT),
    )
    return env


def count(connection, schema: str, table: str) -> int:
    return connection.execute(f'SELECT count(*) FROM "{schema}"."{table}"').fetchone()[0]


def test_two_casinos_in_one_database_keep_their_floors_apart(tmp_path):
    with scratch_database("floor_schema") as url:
        vigo = casino_env(url, "casino_vigo", tmp_path / "vigo")
        porto = casino_env(url, "casino_porto", tmp_path / "porto")
        run(vigo, "migrate", "--noinput")
        run(porto, "migrate", "--noinput")
        run(vigo, "load_demo_floor")  # events, users and groups in Vigo only
        run(vigo, "run_projector", "--once")
        # Porto's event store was made by its migrate (no process raced to make it).

        with connected(url) as connection:
            schemas = {
                row[0]
                for row in connection.execute(
                    "SELECT DISTINCT schemaname FROM pg_tables "
                    "WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
                )
            }
            assert schemas == {"casino_vigo", "casino_porto"}  # nothing in public
            assert count(connection, "casino_vigo", "floorapplication_events") > 0
            assert count(connection, "casino_porto", "floorapplication_events") == 0
            assert count(connection, "casino_vigo", "floor_sectorview") == 2
            assert count(connection, "casino_porto", "floor_sectorview") == 0
            # The demo's users (the director, a jefe, a cajero, three crupiers, an inspector).
            assert count(connection, "casino_vigo", "auth_user") == len(DEMO_USERS)
            assert count(connection, "casino_porto", "auth_user") == 0

        # Migrating again finds its schema and changes nothing.
        assert "No migrations to apply" in run(porto, "migrate", "--noinput")
