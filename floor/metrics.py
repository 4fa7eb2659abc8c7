"""What the processes count for Prometheus (issue 20, Observability; docs/operations.md).

Counted where it happens: every command in the gateway (:func:`command_done`),
every timer's lateness where it fires (:func:`timer_fired`, floor.timers). The
web server's gunicorn workers and the Celery worker's children are separate
processes, so prometheus_client runs in its multiprocess mode: each process
writes its counts to files of its own in ``PROMETHEUS_MULTIPROC_DIR``
(``var/metrics/`` unless set; config.settings sets it before this module is
imported), and ``/metrics`` (floor.monitoring) adds up the files of every
process of the machine. The floor's state (timers pending and late, the read
models' lag, the background processes' liveness) is not counted here but read
from the database at each scrape.
"""

from __future__ import annotations

import logging
from datetime import datetime

from prometheus_client import Counter, Histogram

logger = logging.getLogger(__name__)

COMMANDS = Counter(
    "floor_commands",
    "Commands run, by command and outcome: done, repeat (a command id seen before: "
    "nothing recorded), refused_<kind> (invalid, conflict, forbidden, not_found), "
    "unavailable (the stores did not answer), lagging (recorded, read models behind), error.",
    ["command", "outcome"],
)
COMMAND_SECONDS = Histogram(
    "floor_command_seconds",
    "Time a command took, read models caught up included (what its caller waits).",
    ["command"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
TIMER_LATENESS = Histogram(
    "floor_timer_lateness_seconds",
    "How long after its due time a timer fired (fired_at - due_at).",
    buckets=(0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0, 300.0),
)


def command_done(command: str, outcome: str, seconds: float) -> None:
    """Counts a command and its time; a metrics file that cannot be written
    never fails the command."""
    try:
        COMMANDS.labels(command=command, outcome=outcome).inc()
        COMMAND_SECONDS.labels(command=command).observe(seconds)
    except Exception:  # counting is never worth a refusal
        logger.exception("command %s not counted", command)


def timer_fired(due_at: datetime, fired_at: datetime) -> None:
    """Observes how late a timer fired (0 when early, as a sweep can be)."""
    try:
        TIMER_LATENESS.observe(max(0.0, (fired_at - due_at).total_seconds()))
    except Exception:
        logger.exception("timer lateness not observed")
