"""The timer read model: the deadlines the floor's events record, pending until
they fire or the state moves on (DESIGN.md, Time and timers).

A suspension records when its table closes [PT 24]; a call records when its
window ends [CM-6]; the action clock when its last minute starts and when the
hand is dead [CM-21, CM-22]. Each becomes a ``PendingTimer`` row; the events that end it
early (the table resumes or closes, the player sits or leaves the list) cancel
it. Creating one also sends its ETA task, once the transaction commits: the
task gives precision, the sweeper catches whatever the broker lost.
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import current_app
from django.db import transaction
from django.utils import timezone
from eventsourcing.domain import DomainEventProtocol

from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList
from floor.models import PendingTimer

logger = logging.getLogger(__name__)

FIRE_TASK = "floor.tasks.fire_timer"


def send_eta(key: str, due_at: datetime) -> None:
    """Queues the timer's task for its deadline; a broker that does not answer
    only costs precision, since the sweeper claims overdue timers."""
    try:
        # No publishing retries: a request must not hang on a broken broker.
        current_app.send_task(FIRE_TASK, args=[key], eta=due_at, retry=False)
    except Exception:  # the broker is down: the sweeper will fire it
        logger.warning("could not queue timer %s; the sweeper will fire it", key, exc_info=True)


def _add(key: str, kind: str, subject, due_at: datetime, command: str, arguments: dict) -> None:
    _, created = PendingTimer.objects.get_or_create(
        key=key,
        defaults={
            "kind": kind,
            "subject": subject,
            "due_at": due_at,
            "command": command,
            "arguments": arguments,
        },
    )
    if created and due_at > timezone.now():
        # A deadline already past (a rebuild, a late projection) is the
        # sweeper's: it fires within a sweep.
        transaction.on_commit(lambda: send_eta(key, due_at))


def _cancel(**match: object) -> None:
    PendingTimer.objects.filter(state=PendingTimer.PENDING, **match).update(
        state=PendingTimer.CANCELLED
    )


def apply_timer_event(event: DomainEventProtocol) -> None:
    """Adds or cancels the timers one event starts or ends."""
    if isinstance(event, Table.Suspended) and event.closes_at is not None:
        table_id = event.originator_id
        _add(
            f"suspension:{table_id}:{event.closes_at.isoformat()}",
            "suspension_close",
            table_id,
            event.closes_at,
            "expire_suspension",
            {"table_id": str(table_id), "closes_at": event.closes_at.isoformat()},
        )
    elif isinstance(event, (Table.Resumed, Table.Closed)):
        _cancel(subject=event.originator_id, kind="suspension_close")
        if isinstance(event, Table.Closed):
            _cancel(subject=event.originator_id, kind__startswith="action_clock_")
    elif isinstance(event, Table.ActionClockStarted):
        table_id = event.originator_id
        for kind, command, field, when in (
            ("action_clock_warning", "warn_action_clock", "extra_at", event.extra_at),
            ("action_clock_expiry", "expire_action_clock", "dead_at", event.dead_at),
        ):
            _add(
                f"{kind}:{table_id}:{when.isoformat()}",
                kind,
                table_id,
                when,
                command,
                {"table_id": str(table_id), field: when.isoformat()},
            )
    elif isinstance(event, Table.ActionClockWarned):
        _cancel(subject=event.originator_id, kind="action_clock_warning")
    elif isinstance(event, (Table.ActionClockStopped, Table.HandDeclaredDead, Table.HandEnded)):
        _cancel(subject=event.originator_id, kind__startswith="action_clock_")
    elif isinstance(event, WaitingList.Called) and event.ends_at is not None:
        list_id = event.originator_id
        _add(
            f"call:{list_id}:{event.table_id}:{event.player_id}:{event.ends_at.isoformat()}",
            "call_window",
            list_id,
            event.ends_at,
            "expire_call",
            {
                "waiting_list_id": str(list_id),
                "player_id": str(event.player_id),
                "ends_at": event.ends_at.isoformat(),
            },
        )
    elif isinstance(event, WaitingList.Registered) and event.relisted:
        # Registering again while called ends the call: last on the list [CM-6].
        _cancel(
            subject=event.originator_id,
            kind="call_window",
            arguments__player_id=str(event.player_id),
        )
    elif isinstance(event, WaitingList.Removed):
        _cancel(
            subject=event.originator_id,
            kind="call_window",
            arguments__player_id=str(event.player_id),
        )
    elif isinstance(event, WaitingList.CallsCancelled):  # that table's calls only
        _cancel(key__startswith=f"call:{event.originator_id}:{event.table_id}:")
