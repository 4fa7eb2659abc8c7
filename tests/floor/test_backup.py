"""Backups (issue 20; docs/backup.md): a floor backed up and restored elsewhere
passes ``verify_log`` and its read models answer the same.

Each deployment here is its own processes on its own FLOOR_VAR_DIR (or its own
scratch PostgreSQL database), as an operator runs the commands, whatever
backend the suite itself runs on. The floor is built with the suite's helpers
(tests/support/room.py) through the real commands, projected and anchored.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from uuid import uuid4

import pytest

from tests.support.processes import ROOT, manage
from tests.support.require import require

# The environment that would point a child elsewhere than its FLOOR_VAR_DIR.
FOREIGN = (
    "DATABASE_URL",
    "POSTGRES_DB",
    "POSTGRES_USER",
    "POSTGRES_PASSWORD",
    "POSTGRES_HOST",
    "POSTGRES_PORT",
    "CELERY_BROKER_URL",
    "FLOOR_SQLITE_PATH",
    "FLOOR_SQLITE_TEST_PATH",
    "FLOOR_EVENT_STORE",
    "FLOOR_EVENT_STORE_PATH",
    "FLOOR_AUDIT_KEY",
    "FLOOR_AUDIT_KEYS",
    "FLOOR_AUDIT_KEY_FILE",
    "FLOOR_AUDIT_ANCHOR_FILE",
    "DJANGO_SECRET_KEY",
    "DJANGO_SETTINGS_MODULE",
)

# A small floor: a table drawn among four players who bought in, two hands, one
# player gone, a user, every read model caught up, the journal's head anchored.
BUILD = """
from dataclasses import replace
from django.contrib.auth.models import Group, User
from floor import runtime
from floor.audit_files import anchor_head
from games.profile_rules import BuyInRules
from tests.support.room import Room

app = runtime.build_floor_app()
app.profile = replace(app.profile, buy_in=BuyInRules())
runtime.install(app)
room = Room(app, tag="BK")
table_id, cards = room.drawn_table(4)
room.played(table_id)
room.played(table_id)
room.leave(table_id, cards[0])
runtime.floor_projector().catch_up()
jefe = User.objects.create_user("jorge", password="jorge-pass-123")
jefe.groups.set([Group.objects.get(name="jefe_sector")])
assert anchor_head()
"""

# What the read models answer: the floor, the books, the journal, the users.
SUMMARY = """
import json
from django.contrib.auth.models import User
from floor.models import EventJournalEntry, PlayerView, SeatView, SectorView, TableView
from ledger.models import AccountView
from floor.runtime import floor_projector

def rows(queryset, *fields):
    return sorted([str(v) for v in row] for row in queryset.values_list(*fields))

print(json.dumps({
    "sectors": rows(SectorView.objects, "id", "name", "jefes"),
    "tables": rows(TableView.objects, "id", "number", "status", "dealer"),
    "seats": rows(SeatView.objects, "table_id", "seat", "player_id", "stack_cents"),
    "players": rows(PlayerView.objects, "id", "card_number"),
    "accounts": rows(AccountView.objects, "name", "balance_cents"),
    "journal": rows(EventJournalEntry.objects, "position", "digest"),
    "users": rows(User.objects, "username", "password"),
    "position": floor_projector().position(),
}))
"""


def child_env(var_dir: Path, database_url: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in FOREIGN}
    env.update(FLOOR_VAR_DIR=str(var_dir), PYTHONPATH=str(ROOT))
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


def run(command: list[str], env: dict[str, str], *, ok: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    if ok:
        assert done.returncode == 0, f"{command}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def script(code: str, env: dict[str, str]) -> str:
    """Runs ``code`` with Django set up in a child process; its output."""
    prelude = "import django, os\nos.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'\n"
    return run([sys.executable, "-c", f"{prelude}django.setup()\n{code}"], env).stdout


def summary(env: dict[str, str]) -> dict:
    return json.loads(script(SUMMARY, env).strip().splitlines()[-1])


def built_floor(env: dict[str, str]) -> dict:
    run(manage("migrate", "--noinput", "-v", "0"), env)
    script(BUILD, env)
    floor = summary(env)
    assert floor["journal"] and floor["seats"] and floor["users"]
    return floor


# --- the embedded default ----------------------------------------------------------


def test_the_embedded_floor_is_backed_up_and_restored_elsewhere(tmp_path):
    live = child_env(tmp_path / "live")
    before = built_floor(live)
    backup = tmp_path / "backup"
    out = run(manage("backup_floor", str(backup)), live).stdout
    assert "events; backup in" in out
    names = {p.name for p in backup.iterdir()}
    assert names == {
        "manifest.json",
        "floor.sqlite3",
        "events.sqlite3",
        "audit_keys",
        "audit_anchors.jsonl",
        "secret_key",
    }
    assert not any(name.startswith("broker") for name in names)

    fresh = child_env(tmp_path / "fresh")
    out = run(manage("restore_floor", str(backup)), fresh).stdout
    assert "restored" in out
    checked = run(manage("verify_log"), fresh).stdout
    assert "chain intact" in checked and "anchor(s) hold" in checked
    assert summary(fresh) == before
    # The read models rebuilt from the restored events answer the same.
    run(manage("rebuild_projections"), fresh)
    rebuilt = summary(fresh)
    assert {k: rebuilt[k] for k in ("sectors", "tables", "seats", "players", "accounts")} == {
        k: before[k] for k in ("sectors", "tables", "seats", "players", "accounts")
    }
    assert run(manage("verify_log"), fresh).returncode == 0


def test_a_restore_over_a_floor_is_refused_without_force(tmp_path):
    live = child_env(tmp_path / "live")
    built_floor(live)
    backup = tmp_path / "backup"
    run(manage("backup_floor", str(backup)), live)

    refused = run(manage("restore_floor", str(backup)), live, ok=False)
    assert refused.returncode == 1
    assert "the store is not empty" in refused.stderr and "--force" in refused.stderr

    again = run(manage("backup_floor", str(backup)), live, ok=False)
    assert again.returncode == 1 and "is not empty" in again.stderr

    keys = tmp_path / "other" / "audit_keys"
    keys.parent.mkdir()
    keys.write_text("another store's keys\n")
    other = run(manage("restore_floor", str(backup)), child_env(keys.parent), ok=False)
    assert "other audit keys or anchors" in other.stderr
    (backup / "audit_keys").write_text("tampered\n")
    changed = run(
        manage("restore_floor", str(backup), "--force"), child_env(tmp_path / "x"), ok=False
    )
    assert "changed since the backup" in changed.stderr
    missing = run(manage("restore_floor", str(tmp_path)), live, ok=False)
    assert "holds no backup" in missing.stderr


def test_a_restore_is_refused_while_the_service_runs_even_with_force(tmp_path):
    """runfloor's processes still live on this var directory (its pid file
    names this test's own process, which lives): restoring under them would
    have the projector and the timers write over the restored stores."""
    live = child_env(tmp_path / "live")
    built_floor(live)
    backup = tmp_path / "backup"
    run(manage("backup_floor", str(backup)), live)
    fresh_dir = tmp_path / "fresh"
    fresh_dir.mkdir()
    (fresh_dir / "runfloor.json").write_text(json.dumps({"runfloor": os.getpid()}))
    refused = run(manage("restore_floor", str(backup), "--force"), child_env(fresh_dir), ok=False)
    assert refused.returncode == 1
    assert "The floor service runs from" in refused.stderr and str(os.getpid()) in refused.stderr
    assert not (fresh_dir / "events.sqlite3").exists()
    # Stopped (its pid file names no live process): the restore goes ahead.
    (fresh_dir / "runfloor.json").write_text(json.dumps({"runfloor": 2**22 + 1}))
    assert "restored" in run(manage("restore_floor", str(backup)), child_env(fresh_dir)).stdout


def test_a_backup_taken_while_the_floor_is_written_is_whole(tmp_path):
    """Commands keep recording (and the projector following) while the backup
    runs: the copy still passes verify_log, newer events counted as pending."""
    live = child_env(tmp_path / "live")
    built_floor(live)
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import django, os\nos.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'\n"
            "django.setup()\n"
            "from floor import runtime\nfrom tests.support.room import Room\n"
            "app = runtime.floor_app()\n"
            "for n in range(40):\n"
            "    Room(app, tag=f'W{n}').new_players(3)\n"
            "    runtime.floor_projector().catch_up()\n",
        ],
        cwd=ROOT,
        env=live,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        backups = []
        while writer.poll() is None and len(backups) < 5:
            backups.append(tmp_path / f"backup-{len(backups)}")
            run(manage("backup_floor", str(backups[-1])), live)
    finally:
        _, errors = writer.communicate(timeout=300)
    assert writer.returncode == 0, errors
    final = tmp_path / "backup-final"
    run(manage("backup_floor", str(final)), live)
    taken = [json.loads((b / "manifest.json").read_text())["events"] for b in backups]
    total = json.loads((final / "manifest.json").read_text())["events"]
    assert len(backups) >= 2 and min(taken) < total, (taken, total)  # taken mid-way
    for number, backup in enumerate(backups):
        restored = child_env(tmp_path / f"restored-{number}")
        run(manage("restore_floor", str(backup)), restored)
        assert "chain intact" in run(manage("verify_log"), restored).stdout


# --- PostgreSQL --------------------------------------------------------------------


def server_url() -> str:
    """The PostgreSQL server the suite uses (its role ``floor`` has CREATEDB)."""
    url = os.environ.get("DATABASE_URL") or "postgresql://floor:floor@127.0.0.1:5432/floor"
    return url.rsplit("/", 1)[0]


def admin_sql(statement: str) -> None:
    import psycopg

    with psycopg.connect(f"{server_url()}/floor", autocommit=True, connect_timeout=5) as conn:
        conn.execute(statement)


@pytest.fixture
def scratch_databases():
    """Two scratch databases on the suite's server, dropped afterwards."""
    try:
        admin_sql("SELECT 1")
        reachable = True
    except Exception:  # noqa: BLE001 - any failure to connect: no server here
        reachable = False
    require(reachable, f"a PostgreSQL server at {server_url()} (bash .ci/services postgres)")
    names = [f"floor_backup_{kind}_{uuid4().hex[:8]}" for kind in ("live", "restored")]
    for name in names:
        admin_sql(f'CREATE DATABASE "{name}"')
    yield [f"{server_url()}/{name}" for name in names]
    for name in names:
        admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_postgresql_is_dumped_and_restored_and_verify_log_passes(tmp_path, scratch_databases):
    for tool in ("pg_dump", "pg_restore"):
        if shutil.which(tool) is None:
            pytest.fail(
                f"{tool} is not installed: apt-get install postgresql-client (docs/backup.md)"
            )
    live_url, restored_url = scratch_databases
    live = child_env(tmp_path / "live", live_url)
    before = built_floor(live)
    dump = tmp_path / "floor.dump"
    # As docs/backup.md says: the keys and anchors, then the database.
    files = tmp_path / "files"
    run(manage("backup_floor", str(files)), live)
    run(["pg_dump", "-Fc", "--no-owner", "-f", str(dump), "-d", live_url], live)

    restored = child_env(tmp_path / "restored", restored_url)
    run(["pg_restore", "--no-owner", "--exit-on-error", "-d", restored_url, str(dump)], restored)
    run(manage("restore_floor", str(files)), restored)
    checked = run(manage("verify_log"), restored).stdout
    assert "chain intact" in checked and "anchor(s) hold" in checked
    assert summary(restored) == before
