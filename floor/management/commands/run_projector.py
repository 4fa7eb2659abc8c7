"""Runs the floor projector: the one process that applies events to the read models.

Issue 23, item 1: a command's request no longer projects; it waits until this
process's position passes its command (floor.read_models). So the projector is
its own process: a child of ``runfloor`` (``make run``), the
deploy/floor-projector.service unit in a deployment. Idle, it wakes as soon as
the log grows (floor.projector_wakeup): on PostgreSQL on the store's NOTIFY,
with ``--idle-seconds`` as the safety net; on SQLite by polling the log's last
id every ``--poll-seconds``, or sooner when a request nudges it (floor.nudges).
After each batch it nudges the requests waiting for it, so they answer at once
rather than at their next poll. Several may run, since each batch moves the
projector's position with a compare-and-set (floor.kernel.web.projector).
While it runs it writes the ``projector`` heartbeat (floor.liveness), so
/healthz says when it is gone. SIGTERM (systemd's stop) ends it between
batches, with exit status 0. Beat's sweep still catches up too, as a backstop.

Read models an earlier release built (the projection's shape is older,
CatchUpProjector.outdated) are rebuilt in a shadow by a ``rebuild_projections
--if-outdated`` process it starts beside its loop, so the live read models keep
following the log meanwhile (``--once`` rebuilds first, in this process). A
database error (a lock held too long, a connection lost, a deadlock) is logged
and the loop goes on after a short pause on a fresh connection: the position
row is the record, so nothing is applied twice nor skipped.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import threading
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import DatabaseError, connections

from floor import nudges
from floor.liveness import PROJECTOR, start_heartbeat
from floor.projector_wakeup import wakeup_for
from floor.runtime import floor_app, floor_projector

logger = logging.getLogger(__name__)

# The pause after a database error, doubling up to the longest (seconds).
FIRST_ERROR_PAUSE = 0.5
LONGEST_ERROR_PAUSE = 10.0


def start_rebuild() -> subprocess.Popen:
    """``rebuild_projections --if-outdated`` in a process of its own, beside the
    live loop (it takes the rebuild lock: a second projector's finds it taken)."""
    manage = Path(settings.BASE_DIR) / "manage.py"
    command = [sys.executable, str(manage), "rebuild_projections", "--if-outdated", "--no-progress"]
    return subprocess.Popen(command)


class Command(BaseCommand):
    help = "Applies new events to the read models as they arrive."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--batch-size", type=int, default=100)
        parser.add_argument(
            "--idle-seconds",
            type=float,
            default=1.0,
            help="Longest idle wait before looking at the log anyway.",
        )
        parser.add_argument(
            "--poll-seconds",
            type=float,
            default=0.01,
            help="Without notifications (SQLite): how often the log's last id is read.",
        )
        parser.add_argument("--once", action="store_true", help="Catch up, then stop.")

    def handle(
        self,
        *args,
        batch_size: int,
        idle_seconds: float,
        poll_seconds: float,
        once: bool,
        **options,
    ):
        projector = floor_projector(long_lived=True)
        projector.batch_size = batch_size
        # Its commits need not wait for the disk (PostgreSQL): the log they
        # project is durable, and a lost batch is applied again.
        projector.relax_commits()
        stop = threading.Event()
        previous = None
        if threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
        # A release whose read models hold more than the last one's: built again
        # in a shadow, while the old ones keep serving and following the log.
        rebuild = None
        if projector.outdated():
            if once:
                call_command("rebuild_projections", if_outdated=True, stdout=self.stdout)
            else:
                rebuild = start_rebuild()
        wakeup = wakeup_for(floor_app().recorder, poll_seconds)
        heartbeat = None if once else start_heartbeat(PROJECTOR)
        pause = FIRST_ERROR_PAUSE
        batches = events = 0  # told at the end: how large the batches grew
        try:
            while not stop.is_set():
                if rebuild is not None and rebuild.poll() is not None:
                    logger.info("the read models' rebuild ended (%s)", rebuild.returncode)
                    rebuild = None
                try:
                    applied = projector.run_once()
                    if applied:
                        batches, events = batches + 1, events + applied
                        # Committed: the requests waiting for it need not poll.
                        nudges.nudge_waiters()
                    if applied >= projector.batch_size or (once and applied):
                        continue  # a full batch: more may be there already
                    if not applied and once and projector.lag() == 0:
                        break
                    # The log as read is applied: wait for it to grow (at once
                    # when it grew meanwhile), rather than read it again for
                    # nothing after every short batch.
                    # (Where the last batch left it, unless it does not know.)
                    reached = projector.reached
                    if reached is None:
                        reached = projector.position()
                    wakeup.wait(reached, idle_seconds, stop)
                except DatabaseError:
                    logger.exception("the projector's database did not answer; trying again")
                    connections.close_all()
                    stop.wait(pause)
                    pause = min(LONGEST_ERROR_PAUSE, pause * 2)
                    continue
                pause = FIRST_ERROR_PAUSE
        finally:
            if rebuild is not None and rebuild.poll() is None:
                rebuild.terminate()  # the next start begins it again, the shadow dropped
                rebuild.wait()
            wakeup.close()
            if heartbeat is not None:
                heartbeat.stopped.set()
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
        told = f"{projector.name} at event {projector.position()}"
        if batches:
            told += f"; {events} events applied in {batches} batches ({events / batches:.1f} each)"
        self.stdout.write(told)
