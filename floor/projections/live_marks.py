"""Which consoles an event changes: the live marks (issue 22, item 4).

A console's live part answers 204 while nothing it shows has changed. "What
it shows" is a set of scopes: the jefe's console reads ``sector:<id>``, the
dealer's table view ``table:<id>``, the cage ``cage``; every console also
reads ``all``. The floor's projection stamps, for each event it applies and in
the same transaction, the position of that event on every scope the event
touches (``LiveMark``); a console's position is then one small query, the
highest mark among its scopes (floor.selectors.console.live_position).

What an event touches is decided from the event and the read models around
it, before and after it is applied (a player who moves leaves one table for
another; a balancing group may lose a table):

- a sector's event: the sector and its open tables (the closing time and the
  last hands show on each table) [CM-24];
- a table's event: the table, its sector, and the cage (which shows the open
  tables, the seated player's stack, the trays); and the open tables of its
  game (its balancing group) with their sectors, whose cards read this table
  too: the undo of a move reads the table the player left, the draw counts the
  free seats of the game's playing tables, a table change is offered by the
  whole group's counts [CM-8, CM-10, CM-11];
- a player's event: the tables they sit at before and after, their sectors,
  the sectors and tables whose game lists the player is on, and the cage;
- a waiting list's event: the open tables of its game and their sectors (the
  list, and the seats' "call the list" button) [CM-3, CM-6]; a list no open
  table plays, the games asked for (``wanted``), which every jefe's console
  shows (issue 24, item 4), as does a table's opening or closing;
- a balancing group's event: its tables, before and after, and their sectors
  (the proposals, the change requests on the cards) [CM-10];
- a dealer roster's event (issue 26): the sector it names (a clock-in, a
  break), or the table it names and its sector (a push): the dealer box;
- an event of another context's read models (the ledger's books): the tables
  it names (``table_id``, ``table_ids``, on the event or on its aggregate),
  their sectors, and the cage; one that names no table at all may show
  anywhere (a gaming day opened or closed): ``all``;
- an event no read model takes (a command's record; another context's event
  none of its parts declared, such as the ledger's accounts and cage, whose
  balances the books keep from the transactions): nothing, since the consoles
  read only the read models;
- any other floor event (a tournament's): ``all``. Being unknown costs a
  re-render, never a console that misses a change; a new read model says
  here which consoles its events touch.

The timers' liveness banner is not an event: the live part adds it to the
position (floor.hosting.log_position), so it shows on every console.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any
from uuid import UUID

from eventsourcing.domain import DomainEventProtocol

from floor.domain.balance_group import BalanceGroup
from floor.domain.dealer_roster import DealerRoster
from floor.domain.player import Player
from floor.domain.sector import Sector
from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList
from floor.kernel.command_record import CommandRecord
from floor.kernel.composition import ROOM
from floor.kernel.web.live import ALL, CAGE, WANTED, sector_scope, table_scope
from floor.kernel.web.rows import upsert_plain
from floor.models import (
    BalanceGroupView,
    LiveMark,
    PlayerView,
    TableView,
    WaitingEntryView,
    WaitingListView,
)
from floor.projections.route import Route

# The statuses of a table on the floor (as floor.selectors.tables.OPEN, a layer above).
OPEN = ("registering", "running", "suspended")


# A game as the read models name it: a table's or a waiting list's.
GAME = ("variant", "limit", "minimum_cents", "maximum_cents")


class Rows:
    """The rows the consoles' scopes are read from, held in memory for a batch
    (issue 23): each table's sector, status and game, where each player sits,
    each waiting list's game and who is on it. A row is read from the
    database the first time the batch asks for it (the open tables, and every
    list with its entries, in one statement each), and from then on the
    projection tells what it changes (``table``, ``player``, ``waiting_list``)
    as it applies each event, before it writes anything: each answer is the
    one a query would give if every row were written event by event, and the
    rows themselves are written once, at the batch's end. Without it, the
    queries were a fifth of a rebuild's time, asked again whenever a list or
    a table's status changed."""

    def __init__(self) -> None:
        # A table -> (its sector, status, game), None if it has no row.
        self.tables: dict[UUID, tuple | None] = {}
        self.open_read = False  # every open table is in ``tables``
        self.players: dict[UUID, UUID | None] = {}  # a player -> the table they sit at
        self.seated_read = False  # every seated player is in ``players``
        # A waiting list -> (its game, the players on it): read all at once.
        self.lists: dict[UUID, tuple[tuple, frozenset]] | None = None
        self.lists_told: dict[UUID, tuple[tuple, frozenset]] = {}
        # The scopes of a table (its own and its game's) and of a game's open
        # tables, found since a table's row last changed.
        self.found: dict[tuple, frozenset[str]] = {}
        # A balancing group -> the tables it holds (read on a miss).
        self.groups: dict[UUID, frozenset[UUID | None]] = {}

    # --- kept from one batch to the next (FloorProjection.batch, hold_rows) ------------

    # Rows held at most (tables, players, lists and groups): a big room's day
    # fits many times over; past it they are read again, so memory stays flat.
    MOST_HELD = 100_000

    def small(self) -> bool:
        """Whether these rows are few enough to keep for the next batch."""
        lists = len(self.lists or ()) + len(self.lists_told)
        held = len(self.tables) + len(self.players) + len(self.groups) + lists
        return held <= self.MOST_HELD

    def settle(self) -> None:
        """After the batch committed: what it told of the lists is what the
        database holds now."""
        if self.lists is not None:
            self.lists.update(self.lists_told)
            self.lists_told.clear()

    # --- told by the projection --------------------------------------------------------

    def table(self, table_id: UUID, sector_id: UUID | None, status: str, game: tuple) -> None:
        row = (sector_id, status, tuple(game))
        if self.tables.get(table_id) != row:
            self.tables[table_id] = row
            self.found.clear()

    def player(self, player_id: UUID, table_id: UUID | None) -> None:
        self.players[player_id] = table_id

    def waiting_list(self, list_id: UUID, game: tuple, players: Iterable[UUID]) -> None:
        self.lists_told[list_id] = (tuple(game), frozenset(players))

    def group(self, group_id: UUID, table_ids: Iterable[Any]) -> None:
        self.groups[group_id] = frozenset(_uuid(t) for t in table_ids)

    # --- read by the scopes -----------------------------------------------------------

    def table_row(self, table_id: UUID) -> tuple | None:
        if table_id not in self.tables:
            found = TableView.objects.filter(id=table_id).values_list("sector_id", "status", *GAME)
            row = found.first()
            self.tables[table_id] = None if row is None else (row[0], row[1], tuple(row[2:]))
        return self.tables[table_id]

    def open_tables(self) -> list[tuple[UUID, UUID | None, tuple]]:
        """(table, sector, game) of every open table."""
        if not self.open_read:
            found = TableView.objects.filter(status__in=OPEN).order_by()
            for table_id, sector_id, status, *game in found.values_list(
                "id", "sector_id", "status", *GAME
            ):
                # A table the batch told of already is newer than its row.
                self.tables.setdefault(table_id, (sector_id, status, tuple(game)))
            self.open_read = True
        return [
            (table_id, row[0], row[2])
            for table_id, row in self.tables.items()
            if row is not None and row[1] in OPEN
        ]

    def seated_at(self, player_id: UUID) -> UUID | None:
        if player_id not in self.players and not self.seated_read:
            # Every seated player at once: a player not among them sits nowhere.
            seated = PlayerView.objects.filter(table__isnull=False).order_by()
            for seated_id, table_id in seated.values_list("id", "table_id"):
                self.players.setdefault(seated_id, table_id)  # the batch's is newer
            self.seated_read = True
        return self.players.get(player_id)

    def group_tables(self, group_id: UUID) -> frozenset[UUID | None]:
        if group_id not in self.groups:
            found = BalanceGroupView.objects.filter(id=group_id).values_list("table_ids", flat=True)
            self.groups[group_id] = frozenset(_uuid(t) for ids in found for t in ids)
        return self.groups[group_id]

    def all_lists(self) -> dict[UUID, tuple[tuple, frozenset]]:
        if self.lists is None:
            on: dict[UUID, set] = {}
            for list_id, player_id in WaitingEntryView.objects.values_list(
                "waiting_list_id", "player_id"
            ):
                on.setdefault(list_id, set()).add(player_id)
            self.lists = {
                list_id: (tuple(game), frozenset(on.get(list_id, ())))
                for list_id, *game in WaitingListView.objects.values_list("id", *GAME)
            }
        return {**self.lists, **self.lists_told}


_rows: ContextVar[Rows | None] = ContextVar("live_marks_rows", default=None)


@contextmanager
def held(rows: Rows) -> Iterator[None]:
    """Scopes read from ``rows`` within a batch (the projection's, in its
    transaction, which tells ``rows`` what it changes)."""
    token = _rows.set(rows)
    try:
        yield
    finally:
        _rows.reset(token)


def _uuid(value: Any) -> UUID | None:
    return _uuid_of(str(value)) if value else None


@lru_cache(maxsize=16_384)
def _uuid_of(text: str) -> UUID | None:
    """An id's text as a UUID, None if it is none: the same tables come back
    in the books' events one after the other (issue 23, sixth pass), and a
    UUID is immutable, so one is shared."""
    try:
        return UUID(text)
    except ValueError:
        return None


def _scopes(pairs: Iterable[tuple[UUID, UUID | None]]) -> set[str]:
    """The scopes of (table, sector) pairs: each table's and its sector's (a
    table not in the read models has no sector to tell)."""
    scopes = set()
    for table, sector in pairs:
        scopes.add(table_scope(table))
        if sector is not None:
            scopes.add(sector_scope(sector))
    return scopes


def _tables_and_sectors(table_ids: Iterable[UUID | None]) -> set[str]:
    """The tables' scopes and their sectors' (a table not in the read models
    yet has no sector to tell)."""
    ids = {t for t in table_ids if t is not None}
    if not ids:
        return set()
    rows = _rows.get()
    if rows is not None:
        found = [(t, row[0]) for t in ids if (row := rows.table_row(t)) is not None]
    else:
        found = TableView.objects.filter(id__in=ids).order_by().values_list("id", "sector_id")
    return {table_scope(t) for t in ids} | _scopes(found)


def _game_scopes(game: tuple) -> set[str]:
    """The open tables that play ``game``, with their sectors."""
    rows = _rows.get()
    if rows is not None:
        key = ("game", game)
        if key not in rows.found:
            open_tables = rows.open_tables()
            found = _scopes((t, sector) for t, sector, played in open_tables if played == game)
            rows.found[key] = frozenset(found)
        return set(rows.found[key])
    tables = TableView.objects.filter(status__in=OPEN, **dict(zip(GAME, game, strict=True)))
    return _scopes(tables.order_by().values_list("id", "sector_id"))


def _table_scopes(table_id: UUID) -> set[str]:
    """The table, and the open tables of its game (its balancing group), with
    their sectors. The table itself counts even closed: its own card shows it
    closing."""
    scopes = {table_scope(table_id)}
    rows = _rows.get()
    if rows is not None:
        key = ("table", table_id)
        if key not in rows.found:
            row = rows.table_row(table_id)
            if row is not None:
                scopes |= _scopes([(table_id, row[0])]) | _game_scopes(row[2])
            rows.found[key] = frozenset(scopes)
        return set(rows.found[key])
    found = TableView.objects.filter(id=table_id).values_list("sector_id", *GAME)
    for sector_id, *game in found:
        scopes |= _scopes([(table_id, sector_id)]) | _game_scopes(tuple(game))
    return scopes


def _seated_scopes(player_id: UUID) -> set[str]:
    """Where a player sits, with its sector: one statement."""
    rows = _rows.get()
    if rows is not None:
        table_id = rows.seated_at(player_id)
        row = rows.table_row(table_id) if table_id is not None else None
        return set() if row is None else _scopes([(table_id, row[0])])
    seated = PlayerView.objects.filter(id=player_id, table__isnull=False).order_by()
    return _scopes(seated.values_list("table_id", "table__sector_id"))


def _listed_scopes(player_id: UUID) -> set[str]:
    """The open tables of the lists a player is on, with their sectors."""
    rows = _rows.get()
    if rows is not None:
        games = {game for game, on in rows.all_lists().values() if player_id in on}
    else:
        entries = WaitingEntryView.objects.filter(player_id=player_id).order_by()
        games = set(entries.values_list(*(f"waiting_list__{field}" for field in GAME)))
    return set().union(*(_game_scopes(game) for game in games))


def _player_scopes(player_id: UUID) -> set[str]:
    """Where a player sits and the open tables of the lists they are on, with
    their sectors."""
    return _seated_scopes(player_id) | _listed_scopes(player_id)


def _group_tables(group_id: UUID) -> set[UUID | None]:
    rows = _rows.get()
    if rows is not None:
        return set(rows.group_tables(group_id))
    found = BalanceGroupView.objects.filter(id=group_id).values_list("table_ids", flat=True)
    return {_uuid(t) for table_ids in found for t in table_ids}


def _named_tables(source: Any) -> set[UUID | None] | None:
    """The tables an event (or its aggregate) names, or None if it names none."""
    named = None
    if hasattr(source, "table_id"):
        named = {_uuid(source.table_id)}
    if hasattr(source, "table_ids"):
        named = (named or set()) | {_uuid(t) for t in source.table_ids or ()}
    return named


def _list_scopes(list_id: UUID) -> set[str]:
    rows = _rows.get()
    if rows is not None:
        held = rows.all_lists().get(list_id)
        games = [] if held is None else [held[0]]
    else:
        games = WaitingListView.objects.filter(id=list_id).order_by().values_list(*GAME)
    return set().union(*(_game_scopes(game) for game in games))


# The aggregates whose events the consoles' scopes know (floor.projections.route:
# the chains below, worked out once an event class).
_AGGREGATES = Route(
    Sector.Event,
    Table.Event,
    Player.Event,
    WaitingList.Event,
    BalanceGroup.Event,
    DealerRoster.Event,
)


_RECORDS = Route(CommandRecord.Event)
# A table opening or closing: its game starts or stops being played.
_OPENS_OR_CLOSES = Route(Table.Opened, Table.Closed)


def before(event: DomainEventProtocol) -> set[str]:
    """What the event touches as the read models stood before it: where a
    player sat, the tables a group held."""
    matched = _AGGREGATES(event)
    if matched is Player.Event:
        return _player_scopes(event.originator_id)
    if matched is BalanceGroup.Event:
        return _tables_and_sectors(_group_tables(event.originator_id))
    return set()


def after(event: DomainEventProtocol, state: Callable[[Any], Any]) -> set[str]:
    """What the event touches as the read models stand after it."""
    origin = event.originator_id
    matched = _AGGREGATES(event)
    if matched is Sector.Event:
        rows = _rows.get()
        if rows is not None:
            ids = [t for t, sector, _game in rows.open_tables() if sector == origin]
        else:
            tables = TableView.objects.filter(sector_id=origin, status__in=OPEN).order_by()
            ids = tables.values_list("id", flat=True)
        return {sector_scope(origin), *(table_scope(t) for t in ids)}
    if matched is Table.Event:
        if _OPENS_OR_CLOSES(event) is not None:
            # A game starts or stops being played: the games asked for change.
            return _table_scopes(origin) | {CAGE, WANTED}
        return _table_scopes(origin) | {CAGE}
    if matched is Player.Event:
        return _player_scopes(origin) | {CAGE}
    if matched is WaitingList.Event:
        # A list no open table plays is a game asked for (issue 24, item 4),
        # which every jefe's console shows.
        return _list_scopes(origin) or {WANTED}
    if matched is BalanceGroup.Event:
        return _tables_and_sectors(_group_tables(origin))
    if matched is DealerRoster.Event:
        # The dealer box of the sector it names, or of the table's sector
        # (a push) (issue 26).
        sector_id = _uuid(getattr(event, "sector_id", None))
        if sector_id is not None:
            return {sector_scope(sector_id)}
        table_id = _uuid(getattr(event, "table_id", None))
        return _tables_and_sectors([table_id]) if table_id is not None else set()
    if ROOM.read_model_parts_for(type(event)):
        named = _named_tables(event)
        if named is None:
            named = _named_tables(state(event))
        if named is None:
            return {ALL}
        return _tables_and_sectors(named) | {CAGE}
    if _RECORDS(event) or not type(event).__module__.startswith("floor."):
        # No read model takes it (a command's record; another context's event
        # none of its parts declared, such as the ledger's accounts, whose
        # balances the books keep from the transactions): no console shows it.
        return set()
    # A floor event this module does not know (a tournament's): it may show anywhere.
    return {ALL}


def stamp(scopes: set[str], position: int) -> None:
    """Moves each scope's mark to ``position``: one statement, in the
    projection's transaction (events are applied in order, so a mark only
    moves forward)."""
    stamp_all(dict.fromkeys(scopes, position))


def stamp_all(marks: dict[str, int]) -> None:
    """Moves each scope's mark to its position (a batch's: the last event
    that touched it), in one prepared statement run over the marks
    (rows.upsert_plain: where a game has many tables, a table's event marks
    them all, and ``bulk_create`` building and compiling a hundred rows was
    the largest part of a small batch, issue 23)."""
    if not marks:
        return
    upsert_plain(
        LiveMark,
        ["scope", "position"],
        [(scope, marks[scope]) for scope in sorted(marks)],
        unique=["scope"],
        update=["position"],
    )
