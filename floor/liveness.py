"""Which of the floor's background processes live, read from the database.

Every clock of the floor (suspension, call window, action clock, absence) ends
by a timer that a Celery worker fires and beat's sweep catches up (DESIGN.md,
Time and timers). When either process is gone the clocks stop silently, so each
proves it lives in the database, where the web server (``/healthz``, the
consoles' banner, the metrics) can see it on any machine:

- the worker's main process writes ``worker:<node name>`` every
  ``FLOOR_HEARTBEAT_SECONDS`` from a thread it starts when it is ready;
- beat writes ``beat`` the same way from the moment it starts;
- each sweep, a task beat sends and a worker runs, writes ``sweep``: the proof
  that the two work together (``floor.tasks.sweep``);
- the projector process (``manage.py run_projector``), which alone applies
  events to the read models (issue 23), writes ``projector`` the same way;
- ``runfloor``, which supervises the embedded default's processes, records each
  restart of a child (:class:`floor.models.ProcessRestart`).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from floor.models import ProcessRestart, SchedulerHeartbeat

logger = logging.getLogger(__name__)

WORKER_PREFIX = "worker:"
BEAT = "beat"
SWEEP = "sweep"
PROJECTOR = "projector"


def heartbeat(name: str, now: datetime | None = None) -> None:
    """Records that the process or task ``name`` lives now."""
    SchedulerHeartbeat.objects.update_or_create(
        name=name, defaults={"last_run_at": now or timezone.now()}
    )


class HeartbeatThread(threading.Thread):
    """Writes ``name``'s heartbeat every ``interval`` seconds until its process ends.

    A daemon thread: it dies with the process, which is the point. A database
    that does not answer is logged and tried again at the next beat.
    """

    def __init__(self, name: str, interval: float) -> None:
        super().__init__(name=f"heartbeat {name}", daemon=True)
        self.heartbeat_name = name
        self.interval = interval
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                close_old_connections()
                heartbeat(self.heartbeat_name)
            except Exception:  # never let the heartbeat die of a blip
                logger.exception("heartbeat %s not written", self.heartbeat_name)
                connection.close()
            self.stopped.wait(self.interval)
        connection.close()


def start_heartbeat(name: str) -> HeartbeatThread:
    """Starts ``name``'s heartbeat thread in this process."""
    thread = HeartbeatThread(name, settings.FLOOR_HEARTBEAT_SECONDS)
    thread.start()
    return thread


def worker_heartbeat(sender=None, **_: object) -> None:
    """The worker is consuming: it beats as ``worker:<its node name>``."""
    start_heartbeat(WORKER_PREFIX + getattr(sender, "hostname", "worker"))


def beat_heartbeat(sender=None, **_: object) -> None:
    """Beat is scheduling: it beats as ``beat``."""
    start_heartbeat(BEAT)


def supervised_alive(var_dir: Path | str | None = None) -> list[str]:
    """The processes of a ``runfloor`` on this var directory that still live,
    as "name (pid N)", from ``var/runfloor.json`` (empty: none, or no record).
    ``runfloor`` refuses to start a second service over them, and
    ``restore_floor`` to replace the stores under them."""
    recorded = Path(var_dir or settings.VAR_DIR, "runfloor.json")
    try:
        pids = json.loads(recorded.read_text())
    except (OSError, ValueError):
        return []
    alive = []
    for name, pid in sorted(pids.items()):
        try:
            os.kill(int(pid), 0)
        except (ProcessLookupError, ValueError, TypeError):
            continue
        except PermissionError:
            pass
        alive.append(f"{name} (pid {pid})")
    return alive


def record_restart(process: str, reason: str, now: datetime | None = None) -> None:
    """``runfloor`` restarted ``process`` (which exited for ``reason``)."""
    ProcessRestart.objects.create(process=process, reason=reason, at=now or timezone.now())


def seconds_since(moment: datetime | None, now: datetime) -> float | None:
    return None if moment is None else round((now - moment).total_seconds(), 1)


def liveness(now: datetime | None = None) -> dict[str, object]:
    """How long ago each background process was last seen, and the restarts
    of the last hour; what ``/healthz`` and the metrics read."""
    now = now or timezone.now()
    beats = {row.name: row.last_run_at for row in SchedulerHeartbeat.objects.all()}
    workers = {
        name.removeprefix(WORKER_PREFIX): seconds_since(at, now)
        for name, at in beats.items()
        if name.startswith(WORKER_PREFIX)
    }
    hour_ago = now - timedelta(hours=1)
    restarts: dict[str, int] = {}
    last_restart: dict[str, datetime] = {}
    for process, at in ProcessRestart.objects.filter(at__gte=hour_ago).values_list("process", "at"):
        restarts[process] = restarts.get(process, 0) + 1
        last_restart[process] = max(at, last_restart.get(process, at))
    last_worker = max(
        (at for name, at in beats.items() if name.startswith(WORKER_PREFIX)), default=None
    )
    return {
        "sweep_seconds_ago": seconds_since(beats.get(SWEEP), now),
        "last_sweep_at": beats[SWEEP].isoformat() if SWEEP in beats else None,
        "beat_seconds_ago": seconds_since(beats.get(BEAT), now),
        "worker_seconds_ago": seconds_since(last_worker, now),
        "projector_seconds_ago": seconds_since(beats.get(PROJECTOR), now),
        "workers": workers,
        "restarts_last_hour": restarts,
        # Restarted and not yet seen since: coming back, not yet working.
        "restarting": sorted(
            process
            for process, seen_at in (("worker", last_worker), (BEAT, beats.get(BEAT)))
            if process in last_restart and (seen_at is None or last_restart[process] > seen_at)
        ),
    }


def timers_stopped() -> bool:
    """Whether the consoles should say that the clocks are not running: no
    sweep for FLOOR_HEALTH_STALE_SECONDS, or the worker restarting."""
    try:
        seen = liveness()
    except Exception:  # noqa: BLE001 - a page must render even then
        return False
    ago = seen["sweep_seconds_ago"]
    late = ago is None or ago > settings.FLOOR_HEALTH_STALE_SECONDS
    return late or "worker" in seen["restarting"]
