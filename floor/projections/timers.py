"""The timer read model: the deadlines the floor's events record, pending until
they fire or the state moves on (DESIGN.md, Time and timers).

A suspension records when its table closes [PT 24]; a call records when its
window ends [CM-6]; the action clock when its last minute starts and when the
hand is dead [CM-21, CM-22]; the absence clock when the player is warned and
when the courtesy ends [CM-18]; a time-charged session when its hour strikes
[GA art. 18.3b; PT 7b]; a sector's closing when its last hands start [CM-24].
Each becomes a ``PendingTimer`` row; the events that end it early (the table
resumes or closes, the player sits, acts, comes back or leaves) cancel it.
Creating one also sends its ETA task, once the transaction commits: the task
gives precision, the sweeper catches whatever the broker lost.
"""

from __future__ import annotations

import logging
from datetime import datetime
from uuid import UUID

from celery import current_app
from django.db import transaction
from django.utils import timezone
from eventsourcing.domain import DomainEventProtocol

from floor.domain.sector import Sector
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


def _table_timer(event, kind: str, command: str, field: str, when: datetime, **more) -> None:
    """A deadline of the table that recorded ``event``, keyed by its moment."""
    table_id = event.originator_id
    who = f":{more['player_id']}" if "player_id" in more else ""
    _add(
        f"{kind}:{table_id}{who}:{when.isoformat()}",
        kind,
        table_id,
        when,
        command,
        {"table_id": str(table_id), **more, field: when.isoformat()},
    )


def _player_uuid(event) -> str:
    return str(UUID(event.player_id))


def _apply_table_event(event: DomainEventProtocol) -> None:
    table_id = event.originator_id
    if isinstance(event, Table.Suspended) and event.closes_at is not None:
        _table_timer(event, "suspension_close", "expire_suspension", "closes_at", event.closes_at)
    elif isinstance(event, Table.Resumed):
        _cancel(subject=table_id, kind="suspension_close")
    elif isinstance(event, Table.Closed):
        _cancel(subject=table_id)  # whatever the table was waiting for
    elif isinstance(event, Table.ActionClockStarted):
        _table_timer(event, "action_clock_warning", "warn_action_clock", "extra_at", event.extra_at)
        _table_timer(event, "action_clock_expiry", "expire_action_clock", "dead_at", event.dead_at)
    elif isinstance(event, Table.ActionClockWarned):
        _cancel(subject=table_id, kind="action_clock_warning")
    elif isinstance(event, (Table.ActionClockStopped, Table.HandDeclaredDead, Table.HandEnded)):
        _cancel(subject=table_id, kind__startswith="action_clock_")
    elif isinstance(event, Table.AbsenceStarted):
        player = _player_uuid(event)
        _table_timer(
            event, "absence_warning", "warn_absence", "warn_at", event.warn_at, player_id=player
        )
        _table_timer(
            event,
            "absence_expiry",
            "expire_absence",
            "expires_at",
            event.expires_at,
            player_id=player,
        )
    elif isinstance(event, Table.AbsenceWarned):
        _cancel(subject=table_id, kind="absence_warning", arguments__player_id=_player_uuid(event))
    elif isinstance(
        event,
        (Table.AbsenceExpired, Table.AbsenceEnded, Table.PlayerLeft, Table.PlayerMovedOut),
    ):
        player = _player_uuid(event)
        _cancel(subject=table_id, kind__startswith="absence_", arguments__player_id=player)
    elif isinstance(event, Table.SessionStarted):
        _table_timer(event, "session_hour", "strike_session_hour", "hour_at", event.hour_at)
    elif isinstance(event, Table.SessionEnded):
        _cancel(subject=table_id, kind="session_hour")


def _apply_list_event(event: DomainEventProtocol) -> None:
    list_id = event.originator_id
    if isinstance(event, WaitingList.Called) and event.ends_at is not None:
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
        _cancel(subject=list_id, kind="call_window", arguments__player_id=str(event.player_id))
    elif isinstance(event, WaitingList.Removed):
        _cancel(subject=list_id, kind="call_window", arguments__player_id=str(event.player_id))
    elif isinstance(event, WaitingList.CallsCancelled):  # that table's calls only
        _cancel(key__startswith=f"call:{list_id}:{event.table_id}:")


def _apply_sector_event(event: DomainEventProtocol) -> None:
    sector_id = event.originator_id
    if isinstance(event, Sector.ClosingAnnounced):
        # A new announcement replaces the one before [CM-24]; the same time
        # announced again keeps its timer.
        key = f"last_hands:{sector_id}:{event.last_hands_at.isoformat()}"
        PendingTimer.objects.filter(
            subject=sector_id, kind="last_hands", state=PendingTimer.PENDING
        ).exclude(key=key).update(state=PendingTimer.CANCELLED)
        _add(
            key,
            "last_hands",
            sector_id,
            event.last_hands_at,
            "start_last_hands",
            {"sector_id": str(sector_id), "last_hands_at": event.last_hands_at.isoformat()},
        )


def apply_timer_event(event: DomainEventProtocol) -> None:
    """Adds or cancels the timers one event starts or ends."""
    if isinstance(event, Table.Event):
        _apply_table_event(event)
    elif isinstance(event, WaitingList.Event):
        _apply_list_event(event)
    elif isinstance(event, Sector.Event):
        _apply_sector_event(event)
