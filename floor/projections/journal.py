"""The event journal: one audit row per event, whatever the aggregate.

Each row also carries a link of the journal's keyed hash chain (floor.audit):
its digest is an HMAC, under the audit key kept outside the database
(floor.audit_files), of its content and the previous row's digest, so
``manage.py verify_log`` can show that no row was edited, added or removed
since. The close of a gaming day anchors the chain's head outside the database:
which command closes a day, and where its report keeps the anchor, the books
declare (floor.kernel.composition, DayCloseAnchor), so the floor imports
nothing of the ledger.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.utils import get_topic

from floor.audit import GENESIS
from floor.audit_files import append_anchor, keyring, now_text
from floor.kernel.command_record import CommandRecord
from floor.kernel.composition import ROOM
from floor.kernel.web.rows import insert_rows
from floor.models import EventJournalEntry

logger = logging.getLogger("floor.audit")

METADATA = {
    "originator_id",
    "originator_version",
    "originator_topic",
    "timestamp",
    "actor",
    "actor_role",
    "command_id",
    "rule_profile",
}


def entry_content(event: DomainEventProtocol, position: int) -> dict[str, Any]:
    """What the journal records of an event at ``position`` (floor.audit's
    CONTENT_FIELDS): shared by the projection and by the check that compares a
    row with its stored event."""
    attributes = vars(event)
    return {
        "position": position,
        # The library's topic: the one it stored and resolves, declared where a
        # class moved (floor.kernel.command_record), else module:qualname.
        "topic": get_topic(type(event)),
        "originator_id": event.originator_id,
        "originator_version": event.originator_version,
        "occurred_at": event.timestamp,
        "actor": attributes.get("actor", ""),
        "actor_role": attributes.get("actor_role", ""),
        "command_id": attributes.get("command_id", ""),
        "rule_profile": attributes.get("rule_profile", ""),
        "data": entry_data(event),
    }


def entry_data(event: DomainEventProtocol) -> dict[str, Any]:
    """The journal's ``data`` of an event: its own fields, made plain."""
    return {k: _plain(v) for k, v in vars(event).items() if k not in METADATA}


def entry_text(event: DomainEventProtocol) -> str:
    """``entry_data`` as JSON text, for what searches it rather than stores
    it: the same text but for a moment's (a space where the data has a
    ``T``), made without copying the fields first. Keys JSON cannot take as
    they are (an id) take the plain copy. The reports' mentions are those
    found in this text (``report_views.mentioned_ids``), though found by
    walking the fields (``report_views.event_mentioned_ids``, tested
    against this)."""
    fields = {k: v for k, v in vars(event).items() if k not in METADATA}
    try:
        return json.dumps(fields, default=str)
    except TypeError:
        return json.dumps(entry_data(event))


class JournalBatch:
    """The audit rows of a batch of events, written together (issue 23, item 2).

    Events come in position order, inside the projector's batch transaction,
    so the row before each one is the journal's last: the batch reads the
    journal's head once, then keeps the chain's previous digest in memory and
    links each row to the one before it exactly as one row at a time did
    (floor.audit); ``flush`` inserts them in one statement, before the batch
    commits. Per event this was a query and an insert, 38 % of a rebuild.
    """

    def __init__(self) -> None:
        self.head: tuple[int, str] | None = None
        self.read = False
        self.rows: list[EventJournalEntry] = []
        self.ring = None  # the audit keys, looked up once per batch (a stat of the key file)

    def write(self, event: DomainEventProtocol, position: int) -> EventJournalEntry | None:
        """The audit row of one event, chained to the row before it (not saved
        until ``flush``); None when the journal already has the position (a
        rebuild of the read models replays the log: the audit trail is kept,
        never rewritten)."""
        if not self.read:
            self.head = (
                EventJournalEntry.objects.order_by("-position")
                .values_list("position", "digest")
                .first()
            )
            self.read = True
            self.ring = keyring()
        if self.head is not None and self.head[0] >= position:
            return None
        previous = self.head[1] if self.head is not None else GENESIS
        content = entry_content(event, position)
        # The data is chained but not stored: the event store keeps it at
        # the same position (floor.selectors.journal.data_at reads it back).
        columns = {name: value for name, value in content.items() if name != "data"}
        row = EventJournalEntry(
            **columns,
            previous_digest=previous,
            digest=self.ring.digest(previous, content),
            key_id=self.ring.current_id,
        )
        row.data = content["data"]
        self.rows.append(row)
        self.head = (position, row.digest)
        return row

    def flush(self) -> None:
        """Inserts the rows written since the last flush, in one statement."""
        if self.rows:
            insert_rows(EventJournalEntry, self.rows)
            self.rows = []


def journal(event: DomainEventProtocol, position: int) -> EventJournalEntry | None:
    """Writes the audit row of one event on its own (JournalBatch.write, then
    saved at once) and returns it; None when the journal already has it."""
    batch = JournalBatch()
    row = batch.write(event, position)
    batch.flush()
    return row


def anchor_close(
    event: DomainEventProtocol, position: int, written: EventJournalEntry | None
) -> None:
    """At a gaming day's close (the record of its command, the close's last
    event): the chain's head is appended to the anchor file and kept on the
    day's report, which is printed for the inspector to keep. A replayed close
    (``written`` None: a rebuild) only puts the anchor back on the report."""
    close = ROOM.day_close_anchor()
    if not (
        close is not None
        and isinstance(event, CommandRecord.Recorded)
        and event.command == close.command
    ):
        return
    day = close.gaming_day(event.result or {})
    row = written or EventJournalEntry.objects.filter(position=position).first()
    if not day or row is None:
        return
    anchor = {
        "kind": "close",
        "gaming_day": day,
        "position": row.position,
        "digest": row.digest,
        "key_id": row.key_id,
        "at": now_text(event.timestamp),
    }
    close.keep(day, anchor)
    if written is None:
        return

    def write_the_anchor() -> None:
        try:
            append_anchor(
                "close", row.position, row.digest, row.key_id, at=anchor["at"], gaming_day=day
            )
        except OSError:
            # The floor goes on (the anchor is on the report, and beat's next one
            # covers the close); the operator is told, loudly.
            logger.exception("the close of %s could not be anchored in the anchor file", day)

    # Only once the row is committed: a batch rolled back must leave no anchor
    # of a digest the database never held.
    transaction.on_commit(write_the_anchor)


def _plain(value: object) -> object:
    """A JSON-friendly copy of an event attribute."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)
