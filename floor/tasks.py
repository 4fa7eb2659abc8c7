"""Celery tasks of the floor. Thin: each calls the application or a projector."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from floor.audit_files import anchor_head
from floor.compliance.retention import purge
from floor.logins import sweep_expired_tokens
from floor.models import PendingTimer, SchedulerHeartbeat
from floor.notifications.delivery import deliver, sweep_outbox
from floor.runtime import floor_projector
from floor.timers import fire_by_key, sweep_timers

logger = logging.getLogger(__name__)


@shared_task(name="floor.tasks.heartbeat")
def heartbeat(name: str) -> str:
    """Records that a task named ``name`` ran now (and thus that a worker lives)."""
    SchedulerHeartbeat.objects.update_or_create(name=name, defaults={"last_run_at": timezone.now()})
    return name


@shared_task(name="floor.tasks.sweep")
def sweep() -> int:
    """Beat's sweep: catches the read models up with the log, fires the overdue
    timers (those whose ETA message was lost or whose worker died), and records
    that it ran."""
    applied = floor_projector().catch_up()
    fired = sweep_timers()
    heartbeat("sweep")
    if applied or fired:
        logger.info("sweep projected %d events, fired %d timers", applied, fired)
    return applied


@shared_task(name="floor.tasks.anchor_audit_log")
def anchor_audit_log() -> int:
    """Beat's anchor, every FLOOR_AUDIT_ANCHOR_SECONDS: appends the journal
    chain's head to the anchor file, outside the database, so a tail removed
    or a chain rewritten since shows to ``verify_log`` (docs/reporting.md).
    Returns the position anchored (0: nothing new)."""
    record = anchor_head()
    return record["position"] if record else 0


@shared_task(name="floor.tasks.sweep_tokens")
def sweep_tokens() -> int:
    """Beat's token sweep, every FLOOR_TOKEN_SWEEP_SECONDS: deletes the expired
    API tokens, which requests no longer sweep themselves (floor.logins)."""
    return sweep_expired_tokens()


@shared_task(name="floor.tasks.fire_timer", bind=True, max_retries=None)
def fire_timer(self, key: str) -> str:
    """A timer's own task, queued with ``eta`` at its deadline for precision.
    Early (clocks differ): it asks to run again at the deadline."""
    done = fire_by_key(key)
    if done == "early":
        raise self.retry(eta=PendingTimer.objects.get(key=key).due_at)
    return done


@shared_task(name="floor.tasks.deliver_notification")
def deliver_notification(position: int) -> str:
    """An outbox row's send, queued once the projector's batch committed, or
    at a retry's time (floor.notifications.delivery): it never raises, a
    failure is the row's next attempt."""
    return deliver(position)


@shared_task(name="floor.tasks.sweep_notifications")
def sweep_notifications() -> int:
    """Beat's outbox sweep, every FLOOR_NOTIFY_SWEEP_SECONDS: sends the rows
    whose task was lost (a broker down when queued, a worker that died)."""
    return sweep_outbox()


@shared_task(name="floor.tasks.purge_personal_data")
def purge_personal_data() -> int:
    """Beat's retention purge, every FLOOR_PURGE_SECONDS (a day): erases the
    identity documents and the superseded list rows past the profile's
    retention (issue 25, item 4; floor.compliance.retention). Returns how
    many identities it erased."""
    found = purge()
    if found.erased or found.rows_deleted:
        logger.info(
            "retention purge erased %d identities, %d list rows",
            found.erased,
            found.rows_deleted,
        )
    return found.erased
