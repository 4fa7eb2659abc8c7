"""Firing the floor's timers: by their ETA task, or by the sweeper that claims
the overdue ones (DESIGN.md, Time and timers).

A timer is claimed with a compare-and-set update of its state, so two sweepers
(or a sweeper and the ETA task) never both fire it; and its firing command's id
is the timer's key, so even a timer fired twice after a crash has its effect
once. A claim left by a worker that died is taken back after ``STALE_CLAIM``.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from floor.application.clocks import CLOCK_ACTOR
from floor.domain.errors import DomainError
from floor.gateway import perform_as
from floor.models import PendingTimer

logger = logging.getLogger(__name__)

# A claim older than this belongs to a worker that died mid-firing.
STALE_CLAIM = timedelta(seconds=30)
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


def fire(timer: PendingTimer) -> dict:
    """Runs the timer's command as the clock; records what it did."""
    try:
        outcome = perform_as(
            CLOCK_ACTOR, timer.command, command_id_for(timer.key), **timer.arguments
        )
        result = outcome.result
    except DomainError as refused:
        # The deadline was named wrong or is not due: keep it visible, not pending.
        result = {"refused": refused.code}
        logger.warning("timer %s refused: %s", timer.key, refused.code)
    PendingTimer.objects.filter(key=timer.key).update(
        state=PendingTimer.FIRED, fired_at=timezone.now(), outcome=result
    )
    return result


def due(now: datetime) -> list[PendingTimer]:
    """Overdue timers, and claims gone stale, oldest first."""
    return list(
        PendingTimer.objects.filter(
            Q(state=PendingTimer.PENDING, due_at__lte=now)
            | Q(state=PendingTimer.CLAIMED, claimed_at__lt=now - STALE_CLAIM)
        ).order_by("due_at")[:SWEEP_BATCH]
    )


def sweep_timers(now: datetime | None = None) -> int:
    """Claims and fires every overdue timer; returns how many this call fired."""
    now = now or timezone.now()
    fired = 0
    for timer in due(now):
        if claim(timer, now):
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
