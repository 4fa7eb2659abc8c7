"""The reports' indexed read models (issue 23, item 4): what the history,
occupancy and waiting reports used to find by scanning or replaying the
journal, projected once, as each event is applied.

- ``JournalMention``: which events concern which subject. An aggregate's own
  events and every event whose data names its id (as hex or with dashes: in a
  field, as a key, inside an account's name) mention it, as the history
  report's text match found them; the contexts declare more (the books: the
  accounts a transaction posts to, ReadModelPart.mentions).
- ``OccupancyStep``: each moment a table's count of occupied seats changed.
- ``SeatSession``: each player's stay in a seat, with its pauses and money
  (issue 26: floor.projections.seat_sessions).
- ``ListMove``: each registration, call and removal of a waiting list, with
  the wait a removal ended. A remote entry's wait begins at its check-in
  (issue 24, item 2), which moves its registration's ``since``.

Each is worked out from the event's data as the journal records it
(floor.projections.journal.entry_content), by the same rules the reports
replayed with, so their answers stay what they were. They are read models:
a rebuild empties and refills them (FloorProjection.read_models).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from itertools import repeat
from typing import Any
from uuid import UUID

from django.db import connections, router
from django.db.models.sql import Query
from eventsourcing.domain import DomainEventProtocol

from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList
from floor.kernel.composition import ROOM
from floor.kernel.web.rows import insert_dicts, insert_plain
from floor.models import JournalMention, ListMove, OccupancyStep, SeatSession, subject_bytes
from floor.projections.journal import METADATA, entry_data
from floor.projections.route import Route
from floor.projections.seat_sessions import SessionBatch, apply_seat_sessions

READ_MODELS = (JournalMention, OccupancyStep, ListMove, SeatSession)

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
LIST_EVENTS = (
    WaitingList.Registered,
    WaitingList.CheckedIn,
    WaitingList.Called,
    WaitingList.Removed,
)
_REPORTED = Route(SEAT_CHANGES, LIST_EVENTS)


class ReportBatch:
    """What a batch of events adds to the reports' read models, written once at
    its end (issue 23, item 2: a rebuild spent a third of its time inserting
    them event by event). No event of the batch reads the rows back but
    through this: each table's last count of occupied seats and each list's
    open registrations are read once from the rows, then followed here. It
    lives as long as the batch's transaction: a batch that fails leaves it
    behind, and the next one reads the rows again."""

    def __init__(self) -> None:
        self.mentions: list[tuple[str, int]] = []  # (subject, position)
        self.steps: list[dict[str, Any]] = []  # OccupancyStep's fields
        self.seated: dict[UUID, int] = {}  # a table -> its last count
        self.moves: list[dict[str, Any]] = []  # ListMove's fields
        # (list, player) -> its open registrations, oldest first: rows already
        # written, as {"position", "since"} (their position the row's key),
        # and the batch's own moves (their fields, "open" among them); rows
        # to close at the end.
        self.open: dict[tuple[UUID, str], list[dict[str, Any]]] = {}
        self.closed: list[int] = []
        # Rows already written whose wait begins later: a remote entry's
        # check-in (position -> the new ``since``).
        self.restarted: dict[int, datetime] = {}
        self.lists_read: set[UUID] = set()  # lists whose open registrations are in ``open``
        # The players' seat sessions (issue 26: floor.projections.seat_sessions).
        self.sessions = SessionBatch()

    def last_seated(self, table_id: UUID) -> int:
        if table_id not in self.seated:
            self.seated[table_id] = _last_seated(table_id) or 0
        return self.seated[table_id]

    def still_open(self, list_id: UUID, player: str) -> list[dict[str, Any]]:
        key = (list_id, player)
        if key not in self.open and list_id not in self.lists_read:
            # The list's open registrations at once (one a player waiting): a
            # player not among them has none.
            told = set(self.open)  # the batch's own are newer than the rows
            for position, player_id, since in _open_registrations(list_id):
                held = (list_id, player_id)
                if held not in told:
                    self.open.setdefault(held, []).append({"position": position, "since": since})
            self.lists_read.add(list_id)
        return self.open.setdefault(key, [])

    def close(self, list_id: UUID, player: str) -> None:
        """Ends every open registration of the player on the list."""
        for move in self.still_open(list_id, player):
            if "open" in move:  # the batch's own
                move["open"] = False
            else:
                self.closed.append(move["position"])
        self.open[(list_id, player)] = []

    def restart(self, list_id: UUID, player: str, since: datetime) -> None:
        """The player's open registration on the list waits from ``since``
        on: the remote entry's player checked in (issue 24, item 2)."""
        for move in self.still_open(list_id, player)[-1:]:
            move["since"] = since
            if "open" not in move:  # a row written already
                self.restarted[move["position"]] = since

    def flush(self) -> None:
        # In the order of their unique index, (subject, position): each row's
        # index entry then goes next to the one before it, not to a page
        # anywhere in the index for a random subject (issue 23, sixth pass:
        # a fifth less CPU to insert a 40,000-event log's 140,000 mentions,
        # throwaway script). The pair is the table's key, and on SQLite the
        # table itself (WITHOUT ROWID, migration 0022): no id, no second copy.
        # As the table stores the subjects (an id as its 16 bytes:
        # floor.models.subject_bytes), sorted as stored.
        mentions = sorted((subject_bytes(subject), position) for subject, position in self.mentions)
        insert_plain(JournalMention, ("subject", "position"), mentions, ignore_conflicts=True)
        insert_dicts(OccupancyStep, self.steps)
        for position, since in self.restarted.items():
            ListMove.objects.filter(pk=position).update(since=since)
        if self.closed:
            ListMove.objects.filter(pk__in=self.closed).update(open=False)
        insert_dicts(ListMove, self.moves)
        self.sessions.flush()
        self.__init__()


# The statement that reads a table's last step, by backend: the ORM's (which
# its index serves, the test of the read-backs' plans says), compiled once
# and run with each table's id, not built and compiled again for every table
# of every batch (issue 23, sixth pass: 3 to 5 ms each under cProfile).
_LAST_SEATED: dict[str, str] = {}


def _last_seated_sql(connection) -> str:
    if connection.vendor not in _LAST_SEATED:
        query = (
            OccupancyStep.objects.using(connection.alias)
            .filter(table_id=UUID(int=0))
            .order_by("-position")
            .values_list("seated", flat=True)[:1]
        )
        sql, params = query.query.get_compiler(using=connection.alias).as_sql()
        if len(params) != 1:  # the table's id alone: anything else, not this way
            raise RuntimeError(f"unexpected statement for a table's last step: {sql}")
        _LAST_SEATED[connection.vendor] = sql
    return _LAST_SEATED[connection.vendor]


# The statement that reads a list's open registrations, by backend, compiled
# once and run with each list's id, as the last step's (issue 23, seventh
# pass: 159 statements built, compiled and made into ListMove instances on a
# 40,000-event log). With it, its query and selected columns, which belong to
# no connection: each call takes their converters (the rows' values into
# Python's, a moment as the ORM gives it) from the connection it reads on. A
# compiler held here would stay tied to the first connection that compiled it,
# a shadow's closed and dropped since, say.
_OPEN_REGISTRATIONS: dict[str, tuple[str, Query, list[Any]]] = {}


def _open_registrations(list_id: UUID) -> list[tuple[int, str, datetime | None]]:
    """A list's open registrations, oldest first: (position, player, since)."""
    connection = connections[router.db_for_read(ListMove)]
    if connection.vendor not in _OPEN_REGISTRATIONS:
        query = (
            ListMove.objects.using(connection.alias)
            .filter(list_id=UUID(int=0), open=True)
            .order_by("position")
            .values_list("position", "player_id", "since")
        ).query
        compiler = query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        if len(params) != 1:  # the list's id alone (``open`` written as is)
            raise RuntimeError(f"unexpected statement for a list's open registrations: {sql}")
        columns = [column for column, _, _ in compiler.select[: compiler.col_count]]
        _OPEN_REGISTRATIONS[connection.vendor] = (sql, query, columns)
    sql, query, columns = _OPEN_REGISTRATIONS[connection.vendor]
    key = ListMove._meta.get_field("list_id").get_db_prep_value(list_id, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        rows = cursor.fetchall()
    # A compiler of this connection, for its converters alone: made, it
    # compiles nothing (60 to 90 us a list with the conversion, as the cached
    # compiler's results_iter took, timeit at load 14).
    compiler = query.get_compiler(connection=connection)
    converters = compiler.get_converters(columns)
    if converters:
        rows = compiler.apply_converters(rows, converters)
    return [tuple(row) for row in rows]


def _last_seated(table_id: UUID) -> int | None:
    """The count of a table's last occupancy step, None if it has none."""
    connection = connections[router.db_for_read(OccupancyStep)]
    table = OccupancyStep._meta.get_field("table_id").get_db_prep_value(table_id, connection)
    with connection.cursor() as cursor:
        cursor.execute(_last_seated_sql(connection), [table])
        row = cursor.fetchone()
    return None if row is None else row[0]


def apply_report_views(
    event: DomainEventProtocol, position: int, batch: ReportBatch | None = None
) -> None:
    """Updates the reports' read models for one event of the log: into the
    batch's rows, or written at once when it comes on its own."""
    alone = batch is None
    batch = ReportBatch() if alone else batch
    _mentions(event, position, batch)
    apply_seat_sessions(event, position, batch.sessions)
    matched = _REPORTED(event)
    if matched is SEAT_CHANGES:
        _occupancy(event, position, entry_data(event), batch)
    elif matched is LIST_EVENTS:
        _list_move(event, position, entry_data(event), batch)
    if alone:
        batch.flush()


# --- mentions --------------------------------------------------------------------------


def subject_of(some_id: Any) -> str:
    """The mention key of an aggregate id: its hex."""
    return some_id.hex if isinstance(some_id, UUID) else UUID(str(some_id)).hex


def mentioned_ids(data: dict[str, Any] | str) -> set[str]:
    """The ids the journal's data of an event names, anywhere, as hex (the
    data, or its JSON text)."""
    text = data if isinstance(data, str) else json.dumps(data)
    # What UUID(found).hex gives, for 32 hex digits with or without dashes.
    return {found.replace("-", "").lower() for found in UUID_TEXT.findall(text)}


# The shortest text that can hold an id: 32 hex digits.
_SHORTEST = 32
# Integers whose decimal digits alone can make an id's 32 (JSON writes them bare).
_LONG_INT = 10 ** (_SHORTEST - 1)


def _json_string(text: str) -> str:
    """A string as JSON text holds it, without its quotes: itself, unless
    JSON escapes one of its characters (``\\u00e9`` puts hex digits in the
    text)."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return text
    return json.dumps(text)[1:-1]


# The ids found in each long string seen lately: the same ones come back
# event after event (a player's id, a seat's account name), and the pattern
# and the JSON escaping cost a few microseconds a string (issue 23, sixth
# pass). Bounded: emptied when full.
_FOUND: dict[str, tuple[str, ...]] = {}
_FOUND_MAX = 50_000


_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _search(text: str, found: set[str]) -> None:
    ids = _FOUND.get(text)
    if ids is None:
        if _HEX_DIGITS.issuperset(text):
            # Hex digits alone (a command's fingerprint, a digest): its JSON
            # text is itself, so it is an id if it is exactly 32 digits long
            # and holds none otherwise (the pattern takes no run of hex
            # longer than an id). Each digest comes once: remembering them
            # filled the memory of ids and emptied it every 50,000 strings
            # (issue 23, seventh pass).
            if len(text) == _SHORTEST:
                found.add(text.lower())
            return
        json_text = _json_string(text)
        ids = ()
        if len(json_text) >= _SHORTEST:
            ids = tuple(match.replace("-", "").lower() for match in UUID_TEXT.findall(json_text))
        if len(_FOUND) >= _FOUND_MAX:
            _FOUND.clear()
        _FOUND[text] = ids
    found.update(ids)


def _may_hold_an_id(text: str) -> bool:
    """Whether a string's JSON text can be 32 characters long: a string of
    printable ASCII gains only backslashes (no hex, nor a dash) there, so
    one shorter than an id holds none; an escape (``\\u00e9``, ``\\b``)
    is at most six characters for one."""
    size = len(text)
    return size >= _SHORTEST or (
        size * 6 >= _SHORTEST and not (text.isascii() and text.isprintable())
    )


# A string this short holds no id, even escaped (six characters a character).
_NO_ID = (_SHORTEST - 1) // 6


def _walk(value: Any, found: set[str]) -> None:
    """The ids ``value`` holds, as ``mentioned_ids`` finds them in
    ``entry_text``'s JSON (where each string, key and number stands between
    characters that are not hex, so a match never spans two of them): the
    values walked instead of the text made, and the pattern run only on the
    strings whose JSON text is long enough to hold an id (most of an
    event's are not)."""
    kind = type(value)
    if kind is str:
        if _may_hold_an_id(value):
            _search(value, found)
    elif kind is UUID:
        found.add(value.hex)
    elif kind is dict or kind is list or kind is tuple:
        if kind is dict:
            for key in value:
                if type(key) is str:
                    if len(key) > _NO_ID and _may_hold_an_id(key):
                        _search(key, found)
                elif type(key) is UUID:
                    found.add(key.hex)
                elif isinstance(key, str):
                    _search(key, found)
                else:  # JSON's text of a number, or the plain copy's str()
                    _search(str(key), found)
            value = value.values()
        for item in value:
            # The scalars (most items: seats' amounts, short names) seen here,
            # without a further call.
            item_kind = type(item)
            if item_kind is str:
                size = len(item)
                # ``_may_hold_an_id`` without its call: the most common item.
                if size >= _SHORTEST or (
                    size > _NO_ID and not (item.isascii() and item.isprintable())
                ):
                    _search(item, found)
            elif item_kind is int:
                if not -_LONG_INT < item < _LONG_INT:
                    _search(str(item), found)
            elif item is not None and item_kind is not bool and item_kind is not float:
                _walk(item, found)
    elif kind is int or kind is bool or kind is float or value is None:
        if kind is int and not -_LONG_INT < value < _LONG_INT:
            _search(str(value), found)
    elif isinstance(value, str):
        _search(value, found)
    elif isinstance(value, dict):
        _walk(dict(value), found)
    elif isinstance(value, (list, tuple)):
        _walk(list(value), found)
    elif isinstance(value, (int, float)):  # JSON writes int and float subclasses bare
        _search((float if isinstance(value, float) else int).__repr__(value), found)
    else:  # what JSON's ``default=str`` (or the plain copy) writes
        _search(str(value), found)


def event_mentioned_ids(event: DomainEventProtocol) -> set[str]:
    """``mentioned_ids(entry_text(event))``, found by walking the event's
    fields (issue 23: the JSON text and the pattern over all of it were a
    sixth of a rebuild)."""
    found: set[str] = set()
    for name, value in vars(event).items():
        kind = type(value)
        # The most common fields at once, without a call (a rebuild's every event).
        if kind is str:
            if len(value) > _NO_ID and name not in METADATA and _may_hold_an_id(value):
                _search(value, found)
        elif kind is UUID:
            if name not in METADATA:
                found.add(value.hex)
        elif kind is int or value is None or kind is bool:
            if kind is int and not -_LONG_INT < value < _LONG_INT and name not in METADATA:
                _search(str(value), found)
        elif name not in METADATA:
            _walk(value, found)
    return found


def _mentions(event: DomainEventProtocol, position: int, batch: ReportBatch) -> None:
    subjects = event_mentioned_ids(event)
    subjects.add(subject_of(event.originator_id))
    for part in ROOM.read_model_parts_for(type(event)):
        if part.mentions is not None:
            subjects.update(part.mentions(event))
    batch.mentions.extend(zip(sorted(subjects), repeat(position)))


# --- occupancy -------------------------------------------------------------------------


def _occupancy(
    event: DomainEventProtocol, position: int, data: dict[str, Any], batch: ReportBatch
) -> None:
    """The table's new count of occupied seats, from its last one, as the
    occupancy report counted them: a draw seats its assignment, a player
    sitting down or leaving counts one, a close empties the table."""
    table_id = event.originator_id
    seated = batch.last_seated(table_id)
    if isinstance(event, Table.SeatsDrawn):
        seated += len(data.get("assignment") or {})
    elif isinstance(event, SITTING_DOWN):
        seated += 1
    elif isinstance(event, LEAVING):
        seated -= 1
    else:
        seated = 0
    batch.seated[table_id] = seated
    batch.steps.append(
        {"position": position, "table_id": table_id, "at": event.timestamp, "seated": seated}
    )


# --- waiting lists ---------------------------------------------------------------------


def _list_move(
    event: DomainEventProtocol, position: int, data: dict[str, Any], batch: ReportBatch
) -> None:
    """A registration opens a wait (ending the player's one still open: a new
    registration starts a new wait [CM-6]); a removal ends the open one and
    keeps how long it lasted.

    A remote ("called in") entry's wait begins when the jefe checks the
    player in (WaitingList.CheckedIn, issue 24 item 2), not when the phone
    registered it: until then the player was not in the room, not waiting at
    the floor, and could not be called [PT 12; CM-5]. The check-in moves the
    open registration's ``since`` and adds no move of its own. A remote entry
    never checked in ends as "remote_expired" (or withdrawn), never
    "seated", so it counts among no waits."""
    list_id, player = event.originator_id, str(data.get("player_id") or "")
    # ListMove's fields (its defaults for those left out), not an instance.
    move = {
        "position": position,
        "list_id": list_id,
        "occurred_at": event.timestamp,
        "player_id": player,
    }
    if isinstance(event, WaitingList.CheckedIn):
        batch.restart(list_id, player, datetime.fromisoformat(data["at"]))
        return
    if isinstance(event, WaitingList.Registered):
        batch.close(list_id, player)
        move["kind"], move["open"] = ListMove.REGISTERED, True
        move["since"] = datetime.fromisoformat(data["at"])
        batch.open[(list_id, player)] = [move]
    elif isinstance(event, WaitingList.Called):
        move["kind"] = ListMove.CALLED
    else:
        move["kind"], move["reason"] = ListMove.REMOVED, str(data.get("reason") or "")
        still_open = batch.still_open(list_id, player)
        if still_open:
            opened = still_open[-1]
            batch.close(list_id, player)
            move["wait_seconds"] = int((event.timestamp - opened["since"]).total_seconds())
    batch.moves.append(move)
