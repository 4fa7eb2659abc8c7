"""The reports' indexed read models (issue 23, item 4): what the history,
occupancy and waiting reports used to find by scanning or replaying the
journal, projected once, as each event is applied.

- ``JournalMention``: which events concern which subject. An aggregate's own
  events and every event whose data names its id (as hex or with dashes: in a
  field, as a key, inside an account's name) mention it, as the history
  report's text match found them; the contexts declare more (the books: the
  accounts a transaction posts to, ReadModelPart.mentions).
- ``OccupancyStep``: each moment a table's count of occupied seats changed.
- ``ListMove``: each registration, call and removal of a waiting list, with
  the wait a removal ended.

Each is worked out from the event's data as the journal records it
(floor.projections.journal.entry_content), by the same rules the reports
replayed with, so their answers stay what they were. They are read models:
a rebuild empties and refills them (FloorProjection.read_models).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import DomainEventProtocol

from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList
from floor.kernel.composition import ROOM
from floor.models import JournalMention, ListMove, OccupancyStep
from floor.projections.journal import entry_content

READ_MODELS = (JournalMention, OccupancyStep, ListMove)

# A UUID as the journal's data writes one: 32 hex digits, or with dashes; never
# part of a longer run of hex (a digest names no aggregate).
_HEX = "[0-9a-fA-F]"
UUID_TEXT = re.compile(
    rf"(?<!{_HEX})(?:{_HEX}{{32}}|{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}})(?![-0-9a-fA-F])"
)

# The occupancy report's seat changes (floor.reports.occupancy).
SITTING_DOWN = (Table.PlayerSeated, Table.PlayerMovedIn)
LEAVING = (Table.PlayerLeft, Table.PlayerMovedOut)
SEAT_CHANGES = (Table.SeatsDrawn, *SITTING_DOWN, *LEAVING, Table.Closed)
# The waiting report's list events (floor.reports.waiting).
LIST_EVENTS = (WaitingList.Registered, WaitingList.Called, WaitingList.Removed)


def apply_report_views(event: DomainEventProtocol, position: int) -> None:
    """Updates the reports' read models for one event of the log."""
    data = entry_content(event, position)["data"]
    _mentions(event, position, data)
    if isinstance(event, SEAT_CHANGES):
        _occupancy(event, position, data)
    elif isinstance(event, LIST_EVENTS):
        _list_move(event, position, data)


# --- mentions --------------------------------------------------------------------------


def subject_of(some_id: Any) -> str:
    """The mention key of an aggregate id: its hex."""
    return UUID(str(some_id)).hex


def mentioned_ids(data: dict[str, Any]) -> set[str]:
    """The ids the journal's data of an event names, anywhere, as hex."""
    text = json.dumps(data)
    return {UUID(found).hex for found in UUID_TEXT.findall(text)}


def _mentions(event: DomainEventProtocol, position: int, data: dict[str, Any]) -> None:
    subjects = {subject_of(event.originator_id)} | mentioned_ids(data)
    for part in ROOM.read_model_parts():
        if part.mentions is not None and isinstance(event, part.events):
            subjects |= set(part.mentions(event))
    JournalMention.objects.bulk_create(
        [JournalMention(subject=s, position=position) for s in sorted(subjects)],
        ignore_conflicts=True,
    )


# --- occupancy -------------------------------------------------------------------------


def _occupancy(event: DomainEventProtocol, position: int, data: dict[str, Any]) -> None:
    """The table's new count of occupied seats, from its last one, as the
    occupancy report counted them: a draw seats its assignment, a player
    sitting down or leaving counts one, a close empties the table."""
    table_id = event.originator_id
    last = (
        OccupancyStep.objects.filter(table_id=table_id)
        .order_by("-position")
        .values_list("seated", flat=True)
        .first()
    )
    seated = last or 0
    if isinstance(event, Table.SeatsDrawn):
        seated += len(data.get("assignment") or {})
    elif isinstance(event, SITTING_DOWN):
        seated += 1
    elif isinstance(event, LEAVING):
        seated -= 1
    else:
        seated = 0
    OccupancyStep.objects.create(
        position=position, table_id=table_id, at=event.timestamp, seated=seated
    )


# --- waiting lists ---------------------------------------------------------------------


def _list_move(event: DomainEventProtocol, position: int, data: dict[str, Any]) -> None:
    """A registration opens a wait (ending the player's one still open: a new
    registration starts a new wait [CM-6]); a removal ends the open one and
    keeps how long it lasted."""
    list_id, player = event.originator_id, str(data.get("player_id") or "")
    move = ListMove(
        position=position, list_id=list_id, occurred_at=event.timestamp, player_id=player
    )
    still_open = ListMove.objects.filter(list_id=list_id, player_id=player, open=True)
    if isinstance(event, WaitingList.Registered):
        still_open.update(open=False)
        move.kind, move.open = ListMove.REGISTERED, True
        move.since = datetime.fromisoformat(data["at"])
    elif isinstance(event, WaitingList.Called):
        move.kind = ListMove.CALLED
    else:
        move.kind, move.reason = ListMove.REMOVED, str(data.get("reason") or "")
        opened = still_open.order_by("-position").first()
        if opened is not None:
            still_open.update(open=False)
            move.wait_seconds = int((event.timestamp - opened.since).total_seconds())
    move.save(force_insert=True)
