"""Starts the web server, the Celery worker, beat and the projector, and keeps them up.

What ``make run`` ends with, for a room that runs the embedded default for days
unattended (issue 20). Each child runs in its own process group; when one dies
it is logged, recorded (``floor.liveness.record_restart``: ``/healthz`` and the
consoles show it) and started again after a backoff (1 s, doubling to 30 s,
back to 1 s once it has stayed up a minute), while the others keep running: the
consoles stay up while the worker comes back. Ctrl-C (or SIGTERM) stops all
four. The projector (``run_projector``) is a child since issue 23: it alone
applies events to the read models, and the web's requests wait for it. The
children's process ids are in ``var/runfloor.json``.

On the embedded broker the worker runs without remote control, mingle and
gossip (config.settings: a broker in files has no broadcast to trust). The
four inherit this process's environment, so ``FLOOR_RULE_PROFILE`` (an
accelerated twin such as ``TEST_PT`` included) is the same profile in each.
A deployment on several machines uses the units in ``deploy/`` instead, with
systemd doing this supervision.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from floor.audit_files import anchor_head
from floor.liveness import liveness, record_restart, supervised_alive
from floor.runtime import floor_projector

logger = logging.getLogger("floor.runfloor")

FIRST_BACKOFF = 1.0
MAX_BACKOFF = 30.0
# A child that stayed up this long is healthy again: its next restart is quick.
STABLE_AFTER = 60.0
STOP_GRACE = 10.0
# A worker whose heartbeat is this old (seconds) while its process lives is hung.
HUNG_AFTER = 30.0
HUNG_CHECK_EVERY = 5.0


@dataclass
class Child:
    """One supervised process: how to start it and how it has fared."""

    name: str
    command: list[str]
    process: subprocess.Popen | None = None
    started_at: float = 0.0
    restart_at: float | None = None
    backoff: float = FIRST_BACKOFF
    restarts: int = 0
    history: list[str] = field(default_factory=list)

    def start(self) -> None:
        # Its own process group: a worker's pool children go with it. On Linux
        # it also hears SIGTERM if runfloor dies without stopping it.
        self.process = subprocess.Popen(
            self.command, start_new_session=True, preexec_fn=stop_with_parent
        )
        self.started_at = time.monotonic()
        self.restart_at = None

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal_group(self, signum: int) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signum)


def stop_with_parent() -> None:
    """In the child, before it runs: SIGTERM when runfloor dies (Linux's
    PR_SET_PDEATHSIG); elsewhere nothing."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def exit_reason(returncode: int) -> str:
    """'exited with 1' or 'killed by SIGKILL'."""
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exited with {returncode}"


class Command(BaseCommand):
    help = (
        "Runs web (gunicorn), Celery worker, Celery beat and the projector, "
        "restarting any that dies."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default=os.environ.get("FLOOR_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("FLOOR_PORT", "8000")))
        parser.add_argument("--web-workers", type=int, default=2)

    def commands(self, host: str, port: int, web_workers: int) -> dict[str, list[str]]:
        bin_dir = os.path.dirname(sys.executable)
        celery = os.path.join(bin_dir, "celery")
        worker = [celery, "-A", "config", "worker", "-l", "warning", "--concurrency", "2"]
        if settings.EMBEDDED_BROKER:
            worker += ["--without-mingle", "--without-gossip", "--without-heartbeat"]
        return {
            "web": [
                os.path.join(bin_dir, "gunicorn"),
                "config.wsgi",
                "--bind",
                f"{host}:{port}",
                "--workers",
                str(web_workers),
                "--timeout",
                "60",
                "--access-logfile",
                "-",
            ],
            "worker": worker,
            "beat": [
                celery,
                "-A",
                "config",
                "beat",
                "-l",
                "warning",
                "--schedule",
                settings.CELERY_BEAT_SCHEDULE_FILENAME,
            ],
            # The one process applying events to the read models (issue 23): the
            # web workers' requests wait for it (floor.read_models).
            "projector": [sys.executable, str(settings.BASE_DIR / "manage.py"), "run_projector"],
        }

    def handle(self, *args, host: str, port: int, web_workers: int, **options) -> None:
        self.refuse_if_running()
        # The audit chain's head as the service starts, outside the database
        # (the anchor file; beat anchors it again every FLOOR_AUDIT_ANCHOR_SECONDS).
        floor_projector().catch_up()
        anchor_head()
        close_old_connections()
        # Every process counting metrics on this machine starts here: the files of
        # the last run's processes go (prometheus_client's multiprocess mode).
        for stale in Path(settings.FLOOR_METRICS_DIR).glob("*.db"):
            stale.unlink(missing_ok=True)
        commands = self.commands(host, port, web_workers)
        children = [Child(name, cmd) for name, cmd in commands.items()]
        stopping = False
        self.last_hung_check = 0.0

        def stop(*_: object) -> None:
            nonlocal stopping
            stopping = True

        # Ctrl-C, a stop, or the terminal closed: the children are in their own
        # sessions, so they hear none of it but from here.
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, stop)
        try:
            for child in children:
                child.start()
            self.write_pids(children)
            self.stdout.write(
                self.style.SUCCESS(
                    f"\nFloor service running at http://{host}:{port}/ "
                    "(web, worker, beat and projector; "
                    f"rule profile {settings.FLOOR_RULE_PROFILE}). "
                    "Press Ctrl-C to stop.\n"
                )
            )
            while not stopping:
                now = time.monotonic()
                for child in children:
                    if child.restart_at is not None:
                        if now >= child.restart_at:
                            child.start()
                            self.write_pids(children)
                            self.stderr.write(f"{child.name} restarted (restart {child.restarts}).")
                        continue
                    if child.running():
                        if child.name == "worker" and self.hung(child, now):
                            child.signal_group(signal.SIGKILL)  # restarted below, next turn
                        continue
                    self.schedule_restart(child, now)
                time.sleep(0.2)
        finally:
            # Whatever ended the loop, nothing is left running behind it.
            self.stop_all(children)
        self.stdout.write("Floor service stopped.")

    def hung(self, child: Child, now: float) -> bool:
        """A worker that lives but has not written its heartbeat for
        HUNG_AFTER seconds (a deadlock, a stopped process): the timers do not run,
        so it is killed and restarted like one that died. Asked every
        HUNG_CHECK_EVERY seconds, and never in a worker's first minute."""
        if now - child.started_at < STABLE_AFTER or now - self.last_hung_check < HUNG_CHECK_EVERY:
            return False
        self.last_hung_check = now
        try:
            seen = liveness()["worker_seconds_ago"]
        except Exception:  # noqa: BLE001 - the database may be what is down
            return False
        finally:
            close_old_connections()
        if seen is None or seen <= HUNG_AFTER:
            return False
        self.stderr.write(f"worker has not answered for {seen:g} s; killing it to restart it.")
        return True

    def refuse_if_running(self) -> None:
        """Another runfloor on this var directory still lives (or its children
        do, left by one killed outright): a second would fight it for the port
        and run a second beat."""
        recorded = Path(settings.VAR_DIR, "runfloor.json")
        alive = supervised_alive()
        if alive:
            raise CommandError(
                f"The floor service already runs from {settings.VAR_DIR}: "
                f"{', '.join(alive)}. Stop it first (Ctrl-C where it runs, or kill those pids)."
            )
        recorded.unlink(missing_ok=True)

    def schedule_restart(self, child: Child, now: float) -> None:
        """Logs and records the death of ``child``; starts it again after its backoff."""
        reason = exit_reason(child.process.returncode)
        # What it left behind in its group (a worker's pool) goes too.
        child.signal_group(signal.SIGKILL)
        if now - child.started_at >= STABLE_AFTER:
            child.backoff = FIRST_BACKOFF
        child.restarts += 1
        child.restart_at = now + child.backoff
        self.stderr.write(
            f"{child.name} {reason}; restarting in {child.backoff:g} s (restart {child.restarts})."
        )
        try:
            record_restart(child.name, reason)
        except Exception:  # the database may be what failed
            logger.exception("restart of %s not recorded", child.name)
        finally:
            close_old_connections()
        child.backoff = min(MAX_BACKOFF, child.backoff * 2)

    def stop_all(self, children: list[Child]) -> None:
        # SIGTERM to each child's main process only: signalled as a group, a
        # worker's pool processes die under it and its warm shutdown waits for
        # them until STOP_GRACE runs out. Whatever is left of a group after the
        # grace (the pool, if the main process did not take it along) is killed.
        for child in children:
            if child.running():
                with contextlib.suppress(ProcessLookupError):
                    child.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE
        for child in children:
            if child.process is None:
                continue
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            child.signal_group(signal.SIGKILL)
        Path(settings.VAR_DIR, "runfloor.json").unlink(missing_ok=True)

    def write_pids(self, children: list[Child]) -> None:
        """``var/runfloor.json``: this supervisor's and each child's process id."""
        pids = {"runfloor": os.getpid()}
        pids.update({c.name: c.process.pid for c in children if c.running()})
        target = Path(settings.VAR_DIR, "runfloor.json")
        temporary = target.with_suffix(".tmp")
        temporary.write_text(json.dumps(pids))
        os.replace(temporary, target)
