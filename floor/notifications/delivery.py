"""Sending the outbox's rows: by their task after the projector's commit, by
their retry, or by beat's sweep (issue 24, item 3: "a delivery failure is
retried and never blocks the floor").

A row is claimed with a compare-and-set update of its state (as a timer is,
floor.timers), so the task and the sweep never both send it. A failure of the
backend (a relay or a provider down, a 500, a timeout) puts the row back to
pending with its next attempt FLOOR_NOTIFY_RETRY_SECONDS later, doubling each
time up to FLOOR_NOTIFY_RETRY_MAX_SECONDS, and queues the retry for then;
after FLOOR_NOTIFY_MAX_ATTEMPTS attempts the row is "failed" and the failure
logged for the operator. A claim is a lease: a worker that died mid-send
leaves the row "sending", and the sweep takes it again once the lease (longer
than any backend's time limit) lapsed; a message is thus sent at least once,
and twice only if a worker died between the provider's answer and the row's
update.

A call's message is pointless once the call is over [CM-6]: a row first tried
after its deadline is "stale", not sent. The deadline is the call's as the
list holds it when the row is tried (``current_call``), not the copy the row
took when the call was made: a house whose "five_more" moves the deadline
(WaitingListRules.call_extension, issue 24 item 3) has the message say the
moved one, and not go stale at the first; a call already ended (the player
seated, gone, or called anew) is stale too. The floor never waits on any of
it: only workers run this, never a command or the projector.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from floor.models import Notification, WaitingEntryView
from floor.notifications.outbox import queue
from floor.notifications.sending import NOTHING, send
from floor.notifications.texts import CALLED

logger = logging.getLogger(__name__)

SWEEP_BATCH = 100


def max_attempts() -> int:
    return max(1, int(settings.FLOOR_NOTIFY_MAX_ATTEMPTS))


def backoff(attempts: int) -> timedelta:
    """The wait before the next attempt after ``attempts`` failed ones."""
    first = float(settings.FLOOR_NOTIFY_RETRY_SECONDS)
    ceiling = float(settings.FLOOR_NOTIFY_RETRY_MAX_SECONDS)
    return timedelta(seconds=min(ceiling, first * 2 ** max(0, attempts - 1)))


def lease() -> timedelta:
    """How long a claim lasts: past any backend's time limit, with room."""
    limit = max(float(settings.EMAIL_TIMEOUT or 0), float(settings.FLOOR_SMS_TIMEOUT))
    return timedelta(seconds=2 * limit + 30)


def claim(row: Notification, now: datetime) -> bool:
    """Takes the row for sending, unless someone else did first."""
    taken = Notification.objects.filter(
        position=row.position, state=row.state, claimed_at=row.claimed_at, attempts=row.attempts
    ).update(state=Notification.SENDING, claimed_at=now)
    return taken == 1


def _lapsed(row: Notification, now: datetime) -> bool:
    return (
        row.state == Notification.SENDING
        and row.claimed_at is not None
        and row.claimed_at < now - lease()
    )


def current_call(row: Notification) -> dict | None:
    """A call's message context with the call's deadline as the list's read
    model holds it now (the projector writes it in the batch that wrote the
    row, and every answer's after), or None when that call is over: the
    entry no longer called to that table and seat (seated, removed, its call
    cancelled), or called again since (``called_at``, on rows written since
    it was kept)."""
    context = row.context
    try:
        table_id = UUID(str(context.get("table_id")))
    except ValueError:
        return None
    entry = (
        WaitingEntryView.objects.filter(
            waiting_list__game=str(context.get("game", "")),
            player_id=row.player_id,
            status="called",
            call_table=table_id,
            call_seat=context.get("seat"),
        )
        .only("called_at", "call_ends_at")
        .first()
    )
    if entry is None:
        return None
    called_at = context.get("called_at")
    if called_at and entry.called_at != datetime.fromisoformat(called_at):
        return None
    ends_at = entry.call_ends_at
    return {**context, "ends_at": ends_at.isoformat() if ends_at else None}


def deliver(position: int, now: datetime | None = None) -> str:
    """Sends the outbox row at ``position`` if it is due; returns what became
    of it: sent, skipped (nothing to send), stale, retry, failed, or why
    nothing was done (gone, early, taken, or the state it is already in)."""
    now = now or timezone.now()
    row = Notification.objects.filter(position=position).first()
    if row is None:
        return "gone"
    if row.state != Notification.PENDING and not _lapsed(row, now):
        return row.state
    if row.state == Notification.PENDING and row.next_attempt_at > now:
        return "early"
    if not claim(row, now):
        return "taken"
    attempts = row.attempts + 1
    context = row.context
    if row.kind == CALLED:
        context = current_call(row)
        ends_at = context and context["ends_at"]
        if context is None or (ends_at and datetime.fromisoformat(ends_at) <= now):
            _finish(row, Notification.STALE, attempts=row.attempts)
            return Notification.STALE
    try:
        channel = send(row.player_id, row.kind, context)
    except Exception as error:  # noqa: BLE001 - a backend failed, or anything: retried
        return _failed(row, attempts, error, now)
    state = Notification.SKIPPED if channel == NOTHING else Notification.SENT
    # The context the message was composed from: the deadline it said.
    _finish(row, state, attempts=attempts, channel=channel, sent_at=timezone.now(),
            context=context)  # fmt: skip
    return state


def _finish(row: Notification, state: str, **fields) -> None:
    Notification.objects.filter(position=row.position, state=Notification.SENDING).update(
        state=state, **fields
    )


def _failed(row: Notification, attempts: int, error: Exception, now: datetime) -> str:
    what = str(error)[:200] if error.args else type(error).__name__
    if attempts >= max_attempts():
        _finish(row, Notification.FAILED, attempts=attempts, last_error=what)
        logger.error(
            "notification %s (%s) failed after %d attempts: %s", row.position, row.kind,
            attempts, what,
        )  # fmt: skip
        return Notification.FAILED
    next_at = now + backoff(attempts)
    Notification.objects.filter(position=row.position, state=Notification.SENDING).update(
        state=Notification.PENDING, attempts=attempts, last_error=what,
        next_attempt_at=next_at, claimed_at=None,
    )  # fmt: skip
    logger.warning(
        "notification %s (%s) not delivered (attempt %d): %s; retried at %s",
        row.position, row.kind, attempts, what, next_at.isoformat(),
    )  # fmt: skip
    queue(row.position, eta=next_at)
    return "retry"


def due(now: datetime) -> list[int]:
    """The rows a sweep sends: pending and due (their task lost, or their
    retry's), or claimed by a worker whose lease lapsed; oldest first."""
    return list(
        Notification.objects.filter(
            Q(state=Notification.PENDING, next_attempt_at__lte=now)
            | Q(state=Notification.SENDING, claimed_at__lt=now - lease())
        )
        .order_by("next_attempt_at")
        .values_list("position", flat=True)[:SWEEP_BATCH]
    )


def sweep_outbox(now: datetime | None = None) -> int:
    """Beat's outbox sweep: sends what is due; returns how many it sent or
    settled (a retry queued counts as not settled)."""
    injected = now is not None
    settled = 0
    for position in due(now or timezone.now()):
        outcome = deliver(position, now if injected else None)
        settled += outcome in (Notification.SENT, Notification.SKIPPED, Notification.STALE,
                               Notification.FAILED)  # fmt: skip
    return settled
