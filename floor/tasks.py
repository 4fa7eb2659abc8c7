"""Celery tasks of the floor. Thin: each calls the application or a projector."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from floor.models import SchedulerHeartbeat
from floor.runtime import floor_projector

logger = logging.getLogger(__name__)


@shared_task(name="floor.tasks.heartbeat")
def heartbeat(name: str) -> str:
    """Records that a task named ``name`` ran now (and thus that a worker lives)."""
    SchedulerHeartbeat.objects.update_or_create(name=name, defaults={"last_run_at": timezone.now()})
    return name


@shared_task(name="floor.tasks.sweep")
def sweep() -> int:
    """Beat's sweep: catches the read models up with the log and records that it
    ran. The clocks issue adds the firing of overdue timers here."""
    applied = floor_projector().catch_up()
    heartbeat("sweep")
    if applied:
        logger.info("sweep projected %d events", applied)
    return applied
