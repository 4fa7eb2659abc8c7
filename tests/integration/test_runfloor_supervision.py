"""``runfloor`` keeps the embedded default up (issue 20: runs for a week
unattended): a real ``runfloor`` on a scratch var folder (SQLite, the embedded
broker, the TEST profile), its worker killed with SIGKILL. The web keeps
answering, /healthz says the worker is not answering and then ok again, the
worker is back under a new pid with its restart recorded, the timers due
meanwhile fire within seconds of its return (one pending, one claimed by the
worker that died), and SIGTERM stops every child and removes runfloor.json.

It starts its own stack whatever the lane's services are: the lane's
DATABASE_URL, CELERY_BROKER_URL and FLOOR_* are not passed on.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from floor.management.commands.runfloor import FIRST_BACKOFF
from floor.timers import CLAIM_LEASE
from tests.support.processes import ROOT
from tests.support.wait import wait_until

pytestmark = pytest.mark.integration

# How late a timer may fire once the worker is back (issue 20: within 5 s).
ON_TIME = timedelta(seconds=5)
# Bounds on the waits: the machine may be busy.
UP = 60
BACK = 30
# The worker back and /healthz ok again after a kill (issue 20: within ~20 s).
RECOVERED = 20
# The lane's services and this test run's own paths: never the child's.
NOT_PASSED_ON = ("FLOOR_", "DATABASE_", "POSTGRES", "CELERY_", "PG")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def embedded_env(var: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(NOT_PASSED_ON)}
    env.update(
        FLOOR_VAR_DIR=str(var),
        FLOOR_RULE_PROFILE="TEST",
        FLOOR_SWEEP_SECONDS="1",
        FLOOR_HEARTBEAT_SECONDS="1",
        PYTHONPATH=str(ROOT),
    )
    return env


def manage(*args: str) -> list[str]:
    return [sys.executable, str(ROOT / "manage.py"), *args]


def get(url: str) -> tuple[int, bytes]:
    """The status and body, 5xx included; a refused connection raises."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def health(base: str) -> dict:
    return json.loads(get(base + "/healthz")[1])


def alive(pid: int) -> bool:
    """Whether ``pid``'s process group has any process left (each child of
    runfloor leads its own). A zombie is not left: a killed worker's pool
    processes are reparented to PID 1, which reaps them when it gets round to
    it (slowly, in a container on a busy machine), and until then the kernel
    still counts them in the group."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # gone meanwhile
        state, group = fields[0], int(fields[2])
        if group == pid and state != "Z":
            return True
    return False


class Stack:
    """A runfloor on ``var``, and what the test reads of it."""

    def __init__(self, var: Path, log: Path) -> None:
        self.var = var
        self.env = embedded_env(var)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.process: subprocess.Popen | None = None
        self.seen_pids: set[int] = set()

    def prepare(self) -> None:
        """What ``make run`` does before runfloor."""
        for step in (("migrate", "--noinput"), ("load_demo_floor",)):
            subprocess.run(
                manage(*step),
                cwd=ROOT,
                env=self.env,
                check=True,
                capture_output=True,
                timeout=180,
            )

    def start(self) -> None:
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                manage("runfloor", "--port", str(self.port), "--web-workers", "1"),
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def pids(self) -> dict[str, int]:
        try:
            pids = json.loads((self.var / "runfloor.json").read_text())
        except (FileNotFoundError, ValueError):
            return {}
        self.seen_pids.update(pid for name, pid in pids.items() if name != "runfloor")
        return pids

    def db(self) -> sqlite3.Connection:
        return sqlite3.connect(self.var / "floor.sqlite3", timeout=20)

    def query(self, sql: str, *args: object) -> list[tuple]:
        with self.db() as db:
            return db.execute(sql, args).fetchall()

    def stop(self) -> None:
        """SIGTERM to runfloor; whatever is left after that is killed."""
        self.pids()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        for pid in self.seen_pids:
            if alive(pid):
                os.killpg(pid, signal.SIGKILL)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""


@pytest.fixture
def stack(tmp_path):
    built = Stack(tmp_path / "var", tmp_path / "runfloor.log")
    built.prepare()
    built.start()
    yield built
    built.stop()


def stored(moment: datetime) -> str:
    """A moment as Django's SQLite backend stores it (UTC, naive)."""
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(sep=" ")


def read(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text).replace(tzinfo=UTC)


def add_timer(stack: Stack, key: str, table_id: str, due_at: datetime, claimed_at=None) -> None:
    """A suspension's deadline on a running table: a real clock command the
    worker runs (and finds nothing to close, so the floor stays as it was)."""
    state = "pending" if claimed_at is None else "claimed"
    with stack.db() as db:
        db.execute(
            "INSERT INTO floor_pendingtimer (key, kind, subject, due_at, command, arguments,"
            " state, claimed_at, fired_at, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)",
            (
                key,
                "suspension_close",
                table_id,
                stored(due_at),
                "expire_suspension",
                json.dumps({"table_id": str(uuid.UUID(table_id)), "closes_at": due_at.isoformat()}),
                state,
                None if claimed_at is None else stored(claimed_at),
            ),
        )


def fired_at(stack: Stack, key: str) -> datetime | None:
    rows = stack.query("SELECT state, fired_at FROM floor_pendingtimer WHERE key = ?", key)
    return read(rows[0][1]) if rows and rows[0][0] == "fired" else None


def test_runfloor_brings_a_killed_worker_back_while_the_web_keeps_serving(stack):
    try:
        wait_until(
            lambda: stack.process.poll() is None and health_ok(stack),
            timeout=UP,
            what="runfloor's /healthz to be ok",
            interval=0.25,
        )
    except AssertionError as error:
        raise AssertionError(f"{error}\n{stack.tail()}") from None
    before = stack.pids()
    assert set(before) == {"runfloor", "web", "worker", "beat", "projector"}
    assert before["runfloor"] == stack.process.pid
    (table_id,) = stack.query("SELECT id FROM floor_tableview WHERE status = 'running' LIMIT 1")[0]

    # A deadline that comes right after the kill, and a timer the dying
    # worker holds (claimed a moment ago, its lease never renewed).
    now = datetime.now(UTC)
    add_timer(stack, "supervise:pending", table_id, now + timedelta(seconds=1))
    add_timer(stack, "supervise:claimed", table_id, now - timedelta(seconds=1), claimed_at=now)
    os.kill(before["worker"], signal.SIGKILL)

    statuses: list[dict] = []

    def back() -> bool:
        # The web answers throughout: its health and its login page.
        statuses.append(health(stack.base))
        assert get(stack.base + "/accounts/login/")[0] == 200
        went_down = any("worker_not_answering" in s["causes"] for s in statuses)
        return went_down and statuses[-1]["status"] == "ok"

    try:
        wait_until(back, timeout=RECOVERED, what="degraded, then ok again", interval=0.1)
    except AssertionError as error:
        raise AssertionError(f"{error}: {statuses[-5:]}\n{stack.tail()}") from None
    assert {"status": "degraded", "causes": ["worker_not_answering"]} in statuses

    after = stack.pids()
    assert after["worker"] != before["worker"]
    assert {k: after[k] for k in ("runfloor", "web", "beat")} == {
        k: before[k] for k in ("runfloor", "web", "beat")
    }
    # Its pool went with it (runfloor kills the dead worker's process group).
    wait_until(lambda: not alive(before["worker"]), timeout=5, what="the old worker's pool to go")
    ((process, reason, at),) = stack.query("SELECT process, reason, at FROM floor_processrestart")
    assert (process, reason) == ("worker", "killed by SIGKILL")
    worker_back = read(at) + timedelta(seconds=FIRST_BACKOFF)

    pending = wait_until(
        lambda: fired_at(stack, "supervise:pending"), timeout=BACK, what="the pending timer"
    )
    claimed = wait_until(
        lambda: fired_at(stack, "supervise:claimed"), timeout=BACK, what="the claimed timer"
    )
    assert pending - max(now + timedelta(seconds=1), worker_back) <= ON_TIME
    assert claimed - max(now + CLAIM_LEASE, worker_back) <= ON_TIME
    (outcome,) = stack.query(
        "SELECT outcome FROM floor_pendingtimer WHERE key = 'supervise:pending'"
    )[0]
    assert json.loads(outcome)["fired"] is False  # a running table: nothing to close

    # SIGTERM stops them all, and runfloor.json goes with them.
    stack.process.send_signal(signal.SIGTERM)
    assert stack.process.wait(timeout=40) == 0
    gone = [pid for pid in stack.seen_pids if alive(pid)]
    assert gone == [], stack.tail()
    assert not (stack.var / "runfloor.json").exists()
    leftovers = subprocess.run(
        ["pgrep", "-f", str(stack.var)], capture_output=True, text=True, check=False
    )
    assert leftovers.stdout == ""


def health_ok(stack: Stack) -> bool:
    try:
        return health(stack.base)["status"] == "ok"
    except (OSError, ValueError):
        return False  # not listening yet
