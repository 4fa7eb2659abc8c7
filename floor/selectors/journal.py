"""The event journal (floor.models.EventJournalEntry), selected by declared
event types: the reports and the API's histories read it here.

A caller names the event classes themselves (``Table.HandEnded``), never a
module path: the topic a class is stored under comes from the library
(eventsourcing's ``get_topic``), and a class moved elsewhere with its old topic
registered (``register_topic``, as the library asks of a moved class) still
selects the events stored under the old one. So moving a class cannot silently
empty a report.

Move an event class by declaring its old topic on it (the library's explicit
``TOPIC``, as floor.kernel.command_record does), not by registering the old
topic alone: the journal and ``verify_log`` record the library's topic of the
class (floor.projections.journal.entry_content), so a class whose topic
changed would make every row written before the move read as altered.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet
from eventsourcing.domain import CanMutateAggregate
from eventsourcing.persistence import Notification
from eventsourcing.popo import POPOApplicationRecorder
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.utils import get_topic, resolve_topic
from psycopg.sql import SQL, Identifier

from floor.models import EventJournalEntry, JournalMention, missing_data
from floor.projections.journal import entry_data
from floor.runtime import floor_app

EventType = type

logger = logging.getLogger(__name__)


# --- the events' data, from the store ---------------------------------------------------


def stored_at(recorder: Any, positions: Sequence[int]) -> list[Notification]:
    """The stored events at ``positions`` (notification ids), in one query:
    a page of a history is scattered over the log, so not a range of it. On
    SQLite the ids go as one JSON array (no limit on the number of
    parameters), on PostgreSQL as one array. The recorder is told by the
    library's classes (a subclass reads as its base); only the in-memory one
    (popo: the tests' and tools') is read over the range the positions span,
    and any other recorder is refused rather than read whole, unnoticed."""
    wanted = sorted(set(positions))
    if not wanted:
        return []
    if isinstance(recorder, SQLiteApplicationRecorder):
        return _sqlite_at(recorder, wanted)
    if isinstance(recorder, PostgresApplicationRecorder):
        return _postgres_at(recorder, wanted)
    if isinstance(recorder, POPOApplicationRecorder):
        first, last, keep = wanted[0], wanted[-1], set(wanted)
        spanned = recorder.select_notifications(start=first, limit=last - first + 1, stop=last)
        return [notification for notification in spanned if notification.id in keep]
    raise TypeError(
        f"the journal's data cannot be read from a {type(recorder).__qualname__}: "
        "floor.selectors.journal.stored_at knows the SQLite, PostgreSQL and in-memory recorders"
    )


def _sqlite_at(recorder: SQLiteApplicationRecorder, wanted: list[int]) -> list[Notification]:
    statement = (
        f"SELECT rowid, originator_id, originator_version, topic, state "
        f"FROM {recorder.events_table_name} "
        "WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid"
    )
    with recorder.datastore.transaction(commit=False) as cursor:
        cursor.execute(statement, (json.dumps(wanted),))
        return [
            Notification(
                id=row["rowid"],
                originator_id=recorder.convert_originator_id(row["originator_id"]),
                originator_version=row["originator_version"],
                topic=row["topic"],
                state=row["state"],
            )
            for row in cursor.fetchall()
        ]


def _postgres_at(recorder: PostgresApplicationRecorder, wanted: list[int]) -> list[Notification]:
    datastore = recorder.datastore
    statement = SQL(
        "SELECT notification_id, originator_id, originator_version, topic, state "
        "FROM {schema}.{table} WHERE notification_id = ANY(%s) ORDER BY notification_id"
    ).format(schema=Identifier(datastore.schema), table=Identifier(recorder.events_table_name))
    with datastore.get_connection() as connection, connection.cursor() as cursor:
        cursor.execute(statement, (wanted,))
        return [
            Notification(
                id=row["notification_id"],
                originator_id=row["originator_id"],
                originator_version=row["originator_version"],
                topic=row["topic"],
                state=bytes(row["state"]),
            )
            for row in cursor.fetchall()
        ]


def data_at(positions: Iterable[int], app: Any = None) -> dict[int, dict]:
    """{position: the journal's data of the event there}, read from the event
    store in one query and decoded with the application's mapper: what the
    journal row once kept as a copy (floor.projections.journal.entry_data).

    Every position asked for has an entry: one with no stored event, or whose
    event cannot be decoded (each is decoded on its own, as verify_log's
    ``stored_entries`` does), gets the explicit marker
    (floor.models.missing_data) and is logged as an error, never ``{}`` nor
    an exception that would fail a whole page."""
    app = app if app is not None else floor_app()
    wanted = list(positions)
    found = {}
    for notification in stored_at(app.recorder, wanted):
        try:
            event = app.mapper.to_domain_event(notification)
            # As the copy read back from its JSON column: plain JSON values.
            found[notification.id] = entry_data(event)
        except Exception as exc:  # noqa: BLE001 - one unreadable event, not the page
            why = f"the stored event cannot be decoded: {type(exc).__name__}: {exc}"
            logger.error("journal data at position %s: %s", notification.id, why)
            found[notification.id] = missing_data(notification.id, why)
    for position in wanted:
        if position not in found:
            logger.error("journal data at position %s: no stored event there", position)
            found[position] = missing_data(position, "no stored event")
    return found


def entries() -> QuerySet:
    """The journal's rows, each with its event's data read from the store
    when a page of them is fetched (one query per page, not per row)."""
    return EventJournalEntry.objects.with_data(data_at)


def topics_of(types: Iterable[EventType]) -> list[str]:
    """The topics the events of ``types`` are stored under: each class's own
    (the library's ``get_topic``) and any older topic registered for it."""
    wanted = list(types)
    topics = [get_topic(t) for t in wanted]
    # The library keeps the topics it resolved or was told (register_topic) in
    # one cache: an older topic of a moved class is there once registered.
    from eventsourcing import utils

    for topic, obj in list(getattr(utils, "_topic_cache", {}).items()):
        if obj in wanted and topic not in topics:
            topics.append(topic)
    return topics


def event_types_of(aggregate: type) -> list[EventType]:
    """Every event class declared on an aggregate class (its ``@event`` methods'
    and its nested ones, inherited ones included): "all of its events"."""
    found = []
    for name in dir(aggregate):
        value = getattr(aggregate, name, None)
        if isinstance(value, type) and issubclass(value, CanMutateAggregate):
            found.append(value)
    return found


def event_type(entry: EventJournalEntry) -> EventType:
    """The event class of a journal row, as the library resolves its topic:
    reports compare it with the classes they declared (``is Table.Closed``)."""
    return resolve_topic(entry.topic)


def _of_types(types: Iterable[EventType]) -> Q:
    return Q(topic__in=topics_of(types))


# --- histories ---------------------------------------------------------------------------


def events_of(originator_id: Any, after: int = 0, most: int = 1000) -> QuerySet:
    """One aggregate's events after log position ``after``, oldest first, at
    most ``most``: the API's table and player histories, a page at a time."""
    found = entries().filter(originator_id=originator_id, position__gt=after)
    return found.order_by("position")[:most]


def mentioning(*subjects: str) -> Q:
    """The events that concern any of ``subjects`` (an aggregate by its id as
    hex, an account by its name: floor.projections.report_views), read by the
    mentions' index rather than by matching the journal's text: a history's
    rows, in a time that does not grow with the log."""
    return Q(position__in=JournalMention.objects.filter(subject__in=subjects).values("position"))


def first_event(event: EventType, originator_id: Any) -> EventJournalEntry | None:
    """An aggregate's first ``event`` (an account's opening names it), or None."""
    return entries().filter(_of_types([event]), originator_id=originator_id).first()


def history(
    concerns: Q,
    left_out: Iterable[EventType] = (),
    start: datetime | None = None,
    end: datetime | None = None,
) -> QuerySet:
    """The events ``concerns`` selects, but those of ``left_out``, in [start,
    end), in log order: the history report of a table, player or account."""
    found = entries().filter(concerns).exclude(_of_types(left_out))
    if start is not None:
        found = found.filter(occurred_at__gte=start)
    if end is not None:
        found = found.filter(occurred_at__lt=end)
    return found.order_by("position")


def hiding(entries: QuerySet, types: Iterable[EventType], but: QuerySet) -> QuerySet:
    """``entries`` without the events of ``types`` whose aggregate is not in
    ``but`` (a subquery of ids): a jefe's history hides the money he does not read."""
    return entries.exclude(_of_types(types) & ~Q(originator_id__in=but))


# --- the reports' replays ---------------------------------------------------------------


def table_events(
    table_ids: Iterable[Any],
    types: Iterable[EventType],
    in_range: Iterable[EventType] = (),
    start: datetime | None = None,
    end: datetime | None = None,
    *,
    data: bool = True,
) -> QuerySet:
    """The events of ``types`` and ``in_range`` of the tables ``table_ids``, in
    log order, before ``end`` (a table's state at the start needs its earlier
    events); those of ``in_range`` only from ``start`` on (what is counted, not
    replayed), so a long journal is not read for them. ``data``: with their
    data from the store (left out, the rows alone)."""
    in_range = topics_of(in_range)
    rows = entries() if data else EventJournalEntry.objects.all()
    events = rows.filter(originator_id__in=table_ids, topic__in=topics_of(types) + in_range)
    if in_range and start is not None:
        events = events.exclude(topic__in=in_range, occurred_at__lt=start)
    if end is not None:
        events = events.filter(occurred_at__lt=end)
    return events.order_by("position")


def events_of_aggregates(
    originator_ids: Iterable[Any], types: Iterable[EventType], end: datetime | None = None
) -> QuerySet:
    """The events of ``types`` of the aggregates ``originator_ids`` before ``end``, in log order."""
    events = entries().filter(originator_id__in=originator_ids).filter(_of_types(types))
    if end is not None:
        events = events.filter(occurred_at__lt=end)
    return events.order_by("position")


def data_of_commands(event: EventType, command_ids: list[str]) -> list[tuple[str, dict]]:
    """(command id, data) of each ``event`` recorded by ``command_ids``: the
    rake report finds the ledger transaction of each raking command."""
    found = EventJournalEntry.objects.filter(_of_types([event]), command_id__in=command_ids)
    rows = list(found.values_list("command_id", "position"))
    data = data_at([position for _, position in rows])
    return [(command_id, data[position]) for command_id, position in rows]


def last_event_until(originator_id: Any, moment: datetime) -> EventJournalEntry | None:
    """An aggregate's last event at or before ``moment`` (a table's past state),
    or None; without its data (the state comes from the aggregate)."""
    return (
        EventJournalEntry.objects.filter(originator_id=originator_id, occurred_at__lte=moment)
        .order_by("-originator_version")
        .first()
    )
