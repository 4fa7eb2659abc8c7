"""Starting the service's own processes (projector, Celery worker and beat) from
a test, pointed at the test's databases, and stopping them for sure."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connections

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def service_env(event_store_path: Path | None, **extra: str) -> dict[str, str]:
    """The environment that makes a child process use this test's stores."""
    env = dict(os.environ)
    db = connections["default"].settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        env["FLOOR_SQLITE_PATH"] = str(db["NAME"])
    else:
        env["DATABASE_URL"] = (
            f"postgresql://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}"
        )
    if settings.EVENT_STORE_BACKEND == "sqlite" and event_store_path is not None:
        env["FLOOR_EVENT_STORE_PATH"] = str(event_store_path)
    env["PYTHONPATH"] = str(ROOT)
    # No projector process runs beside what a test starts unless the test starts
    # one and says so (FLOOR_READ_MODELS="projector" in ``extra``): a worker's
    # timer applies its own command's events, as under the test client.
    env["FLOOR_READ_MODELS"] = "inline"
    env.update(extra)
    return env


@contextmanager
def running(command: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen]:
    """Runs ``command`` for the duration of the block, logging to ``log``."""
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            yield process
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=15)


def manage(*args: str) -> list[str]:
    return [sys.executable, str(ROOT / "manage.py"), *args]


def celery(*args: str) -> list[str]:
    return [str(BIN / "celery"), "-A", "config", *args]
