"""Firing the floor's timers: by their ETA task, or by the sweeper that claims
the overdue ones (DESIGN.md, Time and timers).

A timer is claimed with a compare-and-set update of its state, so two sweepers
(or a sweeper and the ETA task) never both fire it; and its firing command's id
is the timer's key, so even a timer fired twice after a crash has its effect
once.

A claim is a lease: it lasts ``CLAIM_LEASE`` and the process firing the timer
renews it every ``LEASE_RENEWAL`` while it works (:class:`LeaseKeeper`). A worker
killed mid-firing stops renewing, so its claim lapses within ``CLAIM_LEASE`` and
the next sweep fires the timer again: every due timer fires within a few
seconds of a worker's death, not after a fixed half minute (issue 20). A lease
that lapses while its process still works (a database stalled for longer than
the lease) lets a second process fire the timer too; the command id makes that
second firing a repeat that records nothing.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from datetime import datetime, timedelta

from django.db import close_old_connections, connection
from django.db.models import Q
from django.utils import timezone

from floor import metrics
from floor.application.clocks import CLOCK_ACTOR
from floor.kernel.errors import DomainError
from floor.kernel.web.gateway import ReadModelsBehind, record_as
from floor.models import PendingTimer

logger = logging.getLogger(__name__)

# A claim not renewed for this long belongs to a process that died mid-firing.
CLAIM_LEASE = timedelta(seconds=3)
LEASE_RENEWAL = timedelta(seconds=1)
SWEEP_BATCH = 100


def command_id_for(key: str) -> str:
    """The firing command's id: the timer's own, whoever fires it."""
    return "timer:" + hashlib.sha256(key.encode()).hexdigest()[:48]


def claim(timer: PendingTimer, now: datetime) -> bool:
    """Takes the timer for firing, unless someone else did first."""
    taken = PendingTimer.objects.filter(
        key=timer.key, state=timer.state, claimed_at=timer.claimed_at
    ).update(state=PendingTimer.CLAIMED, claimed_at=now)
    return taken == 1


class LeaseKeeper(threading.Thread):
    """Renews a claimed timer's lease every ``LEASE_RENEWAL`` until stopped."""

    def __init__(self, key: str) -> None:
        super().__init__(name=f"lease {key}", daemon=True)
        self.key = key
        self.done = threading.Event()

    def run(self) -> None:
        try:
            while not self.done.wait(LEASE_RENEWAL.total_seconds()):
                close_old_connections()
                PendingTimer.objects.filter(key=self.key, state=PendingTimer.CLAIMED).update(
                    claimed_at=timezone.now()
                )
        except Exception:  # a lease not renewed only lets a repeat in
            logger.exception("lease of timer %s not renewed", self.key)
        finally:
            connection.close()

    def __enter__(self) -> LeaseKeeper:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.done.set()
        self.join()


def fire(timer: PendingTimer) -> dict:
    """Runs the timer's command as the clock, keeping its lease; records what it did.

    Inside a transaction (a test's) the claim is not yet visible to any other
    process, so there is no lease to keep, and a renewal from another
    connection would only wait on this one's lock."""
    if connection.in_atomic_block:
        return run_command(timer)
    with LeaseKeeper(timer.key):
        return run_command(timer)


def run_command(timer: PendingTimer) -> dict:
    """The timer's command, and its outcome recorded on the timer."""
    try:
        # Nobody waits on the clock's answer: recorded is fired (issue 23).
        outcome = record_as(
            CLOCK_ACTOR, timer.command, command_id_for(timer.key), **timer.arguments
        )
        result = outcome.result
    except ReadModelsBehind as behind:
        # Recorded, not yet projected (the projector process is behind, issue
        # 23): the timer fired all the same; a refire would only repeat it.
        result = behind.outcome.result
    except DomainError as refused:
        # The deadline was named wrong or is not due: keep it visible, not pending.
        result = {"refused": refused.code}
        logger.warning("timer %s refused: %s", timer.key, refused.code)
    fired_at = timezone.now()
    PendingTimer.objects.filter(key=timer.key).update(
        state=PendingTimer.FIRED, fired_at=fired_at, outcome=result
    )
    metrics.timer_fired(timer.due_at, fired_at)  # docs/operations.md, "Metrics"
    return result


def due(now: datetime) -> list[PendingTimer]:
    """Overdue timers, and claims whose lease lapsed, oldest first."""
    return list(
        PendingTimer.objects.filter(
            Q(state=PendingTimer.PENDING, due_at__lte=now)
            | Q(state=PendingTimer.CLAIMED, claimed_at__lt=now - CLAIM_LEASE)
        ).order_by("due_at")[:SWEEP_BATCH]
    )


def sweep_timers(now: datetime | None = None) -> int:
    """Claims and fires every overdue timer; returns how many this call fired.

    Each claim's lease runs from its own moment, not from the sweep's start: a
    sweep firing several timers must not claim the later ones already lapsed
    (``now``, injected by tests, stands for every moment)."""
    injected = now is not None
    now = now or timezone.now()
    fired = 0
    for timer in due(now):
        if claim(timer, now if injected else timezone.now()):
            fire(timer)
            fired += 1
    return fired


def fire_by_key(key: str, now: datetime | None = None) -> str:
    """The ETA task's work: fire this timer if it is due and still pending."""
    now = now or timezone.now()
    timer = PendingTimer.objects.filter(key=key).first()
    if timer is None or timer.state != PendingTimer.PENDING:
        return "gone"
    if timer.due_at > now:
        return "early"
    if not claim(timer, now):
        return "taken"
    fire(timer)
    return "fired"
