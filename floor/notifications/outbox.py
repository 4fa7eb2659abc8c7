"""The outbox rows the projection writes (issue 24, item 3): a message for
each event that calls for one, in the projector's batch transaction.

``WaitingList.Called`` is a call (kind "called": the game, the table, the seat,
when it was made and the call's end [CM-6]; the end as it stands when the
message goes is read then, floor.notifications.delivery); ``WaitingList.Removed`` with reason
"remote_expired" (issue 24, item 2) tells the player their remote entry
expired. Each row is keyed by its event's position and inserted only if
absent, and only when the journal writes the event's row for the first time
(FloorProjection._apply passes what the journal wrote): a rebuild, which
replays events the journal has, writes none, and a batch applied twice writes
one. The send is queued once the batch commits (``transaction.on_commit``, as
the timers' ETA tasks): a batch rolled back queues nothing, and a broker
down costs only time (beat's outbox sweep sends it).

Not a read model: FloorProjection.read_models does not list it, so a rebuild
neither empties nor refills it, like the journal.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from uuid import UUID

from celery import current_app
from django.db import transaction
from django.utils import timezone
from eventsourcing.domain import DomainEventProtocol

from floor.domain.waiting_list import REMOTE_EXPIRED, WaitingList
from floor.kernel.web.rows import insert_rows
from floor.models import Notification

logger = logging.getLogger(__name__)

DELIVER_TASK = "floor.tasks.deliver_notification"


def queue(position: int, eta=None) -> None:
    """Queues the send of the outbox row at ``position`` (at ``eta``, a retry's
    time); a broker that does not answer only delays it: beat's sweep sends it."""
    try:
        # No publishing retries: neither a request nor the projector may hang on a broker.
        current_app.send_task(DELIVER_TASK, args=[position], eta=eta, retry=False)
    except Exception:  # the broker is down: the sweep will send it
        logger.warning("could not queue notification %s; the sweep will send it", position,
                       exc_info=True)  # fmt: skip


def message_of(event: DomainEventProtocol, state: Callable) -> tuple[str, dict] | None:
    """The kind and context of the message ``event`` calls for, or None."""
    if isinstance(event, WaitingList.Called):
        return "called", {
            "game": state(event).game_key,
            "table_id": UUID(str(event.table_id)).hex,
            "seat": event.seat,
            # Which call (a deadline moved later is read when sent:
            # floor.notifications.delivery.current_call).
            "called_at": event.at.isoformat(),
            "ends_at": event.ends_at.isoformat() if event.ends_at else None,
        }
    if isinstance(event, WaitingList.Removed) and event.reason == REMOTE_EXPIRED:
        return REMOTE_EXPIRED, {"game": state(event).game_key}
    return None


class OutboxBatch:
    """The outbox rows of a batch of events, written at its end."""

    def __init__(self) -> None:
        self.rows: dict[int, Notification] = {}

    def write(self, event: DomainEventProtocol, position: int, state: Callable) -> None:
        """Holds the row ``event`` calls for (``state``: the aggregate's state
        right after it, for the list's game)."""
        if not isinstance(event, (WaitingList.Called, WaitingList.Removed)):
            return
        message = message_of(event, state)
        if message is None or position in self.rows:
            return
        now = timezone.now()
        self.rows[position] = Notification(
            position=position,
            kind=message[0],
            player_id=UUID(str(event.player_id)),
            context=message[1],
            created_at=now,
            next_attempt_at=now,
        )

    def flush(self) -> None:
        """Inserts the rows the outbox lacks, and queues their sends on commit."""
        if not self.rows:
            return
        there = set(
            Notification.objects.filter(position__in=list(self.rows)).values_list(
                "position", flat=True
            )
        )
        created = [row for position, row in self.rows.items() if position not in there]
        insert_rows(Notification, created)
        for row in created:
            transaction.on_commit(lambda p=row.position: queue(p))
        self.rows = {}
