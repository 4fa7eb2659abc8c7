"""A rebuild in a casino's schema (FLOOR_DB_SCHEMA) builds in that casino's own
shadow schema and switches only its read models: the other casino sharing the
database is not touched, and no shadow schema is left (issue 23, item 3)."""

from __future__ import annotations

import pytest

from tests.integration.test_db_schema import casino_env, run
from tests.support.scratch_pg import connected, scratch_database

pytestmark = pytest.mark.integration

TABLES = ("floor_sectorview", "floor_tableview", "floor_seatview", "floor_playerview")


def rows(connection, schema: str) -> dict[str, list]:
    """Each read model's rows (its columns, sorted), in one casino's schema;
    not a seat's surrogate id, which a rebuild numbers anew. Columns by name:
    a switch swaps in tables made from the models, whose columns may lie in
    another order than the migrated ones'."""
    found = {}
    for table in TABLES:
        columns = [
            name
            for (name,) in connection.execute(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = %s AND table_name = %s ORDER BY column_name",
                [schema, table],
            ).fetchall()
            if not (table == "floor_seatview" and name == "id")
        ]
        shown = ", ".join(f'"{c}"' for c in columns)
        query = f'SELECT {shown} FROM "{schema}"."{table}"'
        found[table] = sorted(map(repr, connection.execute(query).fetchall()))
    return found


def test_a_rebuild_in_a_casinos_schema_uses_its_own_shadow_and_leaves_the_other(tmp_path):
    with scratch_database("floor_shadow") as url:
        vigo = casino_env(url, "casino_vigo", tmp_path / "vigo")
        porto = casino_env(url, "casino_porto", tmp_path / "porto")
        for casino in (vigo, porto):
            run(casino, "migrate", "--noinput")
            run(casino, "load_demo_floor")
            run(casino, "run_projector", "--once")
        with connected(url) as connection:
            before = {s: rows(connection, s) for s in ("casino_vigo", "casino_porto")}
            assert len(before["casino_vigo"]["floor_tableview"]) > 0
            connection.execute('DELETE FROM "casino_vigo"."floor_seatview"')  # damage Vigo's
            connection.commit()

        out = run(vigo, "rebuild_projections", "--no-progress")
        assert "rebuilt up to event" in out

        with connected(url) as connection:
            after = {s: rows(connection, s) for s in ("casino_vigo", "casino_porto")}
            shadows = connection.execute(
                "SELECT nspname FROM pg_namespace WHERE nspname LIKE '%shadow%'"
            ).fetchall()
        assert after == before
        assert shadows == []
