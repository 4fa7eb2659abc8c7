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
  list, and the seats' "call the list" button) [CM-3, CM-6];
- a balancing group's event: its tables, before and after, and their sectors
  (the proposals, the change requests on the cards) [CM-10];
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
from typing import Any
from uuid import UUID

from eventsourcing.domain import DomainEventProtocol

from floor.domain.balance_group import BalanceGroup
from floor.domain.player import Player
from floor.domain.sector import Sector
from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList
from floor.kernel.command_record import CommandRecord
from floor.kernel.composition import ROOM
from floor.kernel.web.live import ALL, CAGE, sector_scope, table_scope
from floor.models import (
    BalanceGroupView,
    LiveMark,
    PlayerView,
    TableView,
    WaitingEntryView,
    WaitingListView,
)

# The statuses of a table on the floor (as floor.selectors.tables.OPEN, a layer above).
OPEN = ("registering", "running", "suspended")


class _Remembered:
    """The scopes found in a batch (issue 23, item 2), for as long as the rows
    they were read from stay as they were: the projection says what it
    changed (``tables_changed``, ``player_changed``, ``lists_changed``) and
    what depended on it is forgotten, so each answer is the one a fresh query
    would give. Without it, most of a rebuild's time went into asking again,
    event after event, which tables play a table's game."""

    def __init__(self) -> None:
        self.tables: dict[UUID, set[str]] = {}  # a table -> _table_scopes
        self.players: dict[UUID, set[str]] = {}  # a player -> where they sit
        self.entries: dict[UUID, set[str]] = {}  # a player -> the open tables of their lists
        self.lists: dict[UUID, set[str]] = {}  # a waiting list -> its open tables' scopes
        self.games: dict[tuple, set[str]] = {}  # a game -> its open tables' scopes


_remembered: ContextVar[_Remembered | None] = ContextVar("live_marks_remembered", default=None)


@contextmanager
def remembered() -> Iterator[None]:
    """Scopes remembered within a batch (the projection's, in its transaction)."""
    token = _remembered.set(_Remembered())
    try:
        yield
    finally:
        _remembered.reset(token)


def tables_changed() -> None:
    """A table's sector, status or game changed (or a table is new): every
    scope remembered read them."""
    memo = _remembered.get()
    if memo is not None:
        memo.tables.clear()
        memo.players.clear()
        memo.entries.clear()
        memo.lists.clear()
        memo.games.clear()


def player_changed(player_id: UUID) -> None:
    """The player's row changed (where they sit)."""
    memo = _remembered.get()
    if memo is not None:
        memo.players.pop(player_id, None)


def lists_changed() -> None:
    """A waiting list's entries changed: who is on which list (not where
    anyone sits: a player's own events move them)."""
    memo = _remembered.get()
    if memo is not None:
        memo.entries.clear()


def _recall(kind: str, key: UUID, find: Callable[[UUID], set[str]]) -> set[str]:
    """``find(key)``, remembered in the batch (a copy: callers add to it)."""
    memo = _remembered.get()
    if memo is None:
        return find(key)
    found = getattr(memo, kind)
    if key not in found:
        found[key] = find(key)
    return set(found[key])


def _uuid(value: Any) -> UUID | None:
    try:
        return UUID(str(value)) if value else None
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
    found = TableView.objects.filter(id__in=ids).order_by().values_list("id", "sector_id")
    return {table_scope(t) for t in ids} | _scopes(found)


# A game as the read models name it: a table's or a waiting list's.
GAME = ("variant", "limit", "minimum_cents", "maximum_cents")


def _game_scopes(game: tuple) -> set[str]:
    """The open tables that play ``game``, with their sectors (one plain
    statement, remembered in the batch: most player events ask for the same
    few games, and building the subquery of every list a player is on cost a
    rebuild a third of its time, issue 23 item 2)."""
    memo = _remembered.get()
    if memo is not None and game in memo.games:
        return set(memo.games[game])
    tables = TableView.objects.filter(status__in=OPEN, **dict(zip(GAME, game, strict=True)))
    found = _scopes(tables.order_by().values_list("id", "sector_id"))
    if memo is not None:
        memo.games[game] = found
    return set(found)


def _table_scopes(table_id: UUID) -> set[str]:
    """The table, and the open tables of its game (its balancing group), with
    their sectors. The table itself counts even closed: its own card shows it
    closing."""
    scopes = {table_scope(table_id)}
    for sector_id, *game in TableView.objects.filter(id=table_id).values_list("sector_id", *GAME):
        scopes |= _scopes([(table_id, sector_id)]) | _game_scopes(tuple(game))
    return scopes


def _seated_scopes(player_id: UUID) -> set[str]:
    """Where a player sits, with its sector: one statement."""
    seated = PlayerView.objects.filter(id=player_id, table__isnull=False).order_by()
    return _scopes(seated.values_list("table_id", "table__sector_id"))


def _listed_scopes(player_id: UUID) -> set[str]:
    """The open tables of the lists a player is on, with their sectors: one
    statement, and one for each game not asked yet."""
    games = WaitingEntryView.objects.filter(player_id=player_id).order_by()
    fields = (f"waiting_list__{field}" for field in GAME)
    return set().union(*(_game_scopes(game) for game in set(games.values_list(*fields))))


def _player_scopes(player_id: UUID) -> set[str]:
    """Where a player sits and the open tables of the lists they are on, with
    their sectors, each remembered apart: a player's event moves them, a
    list's changes who is on it."""
    return _recall("players", player_id, _seated_scopes) | _recall(
        "entries", player_id, _listed_scopes
    )


def _group_tables(group_id: UUID) -> set[UUID | None]:
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
    games = WaitingListView.objects.filter(id=list_id).order_by().values_list(*GAME)
    return set().union(*(_game_scopes(game) for game in games))


def before(event: DomainEventProtocol) -> set[str]:
    """What the event touches as the read models stood before it: where a
    player sat, the tables a group held."""
    if isinstance(event, Player.Event):
        return _player_scopes(event.originator_id)
    if isinstance(event, BalanceGroup.Event):
        return _tables_and_sectors(_group_tables(event.originator_id))
    return set()


def after(event: DomainEventProtocol, state: Callable[[Any], Any]) -> set[str]:
    """What the event touches as the read models stand after it."""
    origin = event.originator_id
    if isinstance(event, Sector.Event):
        tables = TableView.objects.filter(sector_id=origin, status__in=OPEN).order_by()
        ids = tables.values_list("id", flat=True)
        return {sector_scope(origin), *(table_scope(t) for t in ids)}
    if isinstance(event, Table.Event):
        return _recall("tables", origin, _table_scopes) | {CAGE}
    if isinstance(event, Player.Event):
        return _player_scopes(origin) | {CAGE}
    if isinstance(event, WaitingList.Event):
        return _recall("lists", origin, _list_scopes)
    if isinstance(event, BalanceGroup.Event):
        return _tables_and_sectors(_group_tables(origin))
    if any(isinstance(event, part.events) for part in ROOM.read_model_parts()):
        named = _named_tables(event)
        if named is None:
            named = _named_tables(state(event))
        if named is None:
            return {ALL}
        return _tables_and_sectors(named) | {CAGE}
    if isinstance(event, CommandRecord.Event) or not type(event).__module__.startswith("floor."):
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
    if not scopes:
        return
    LiveMark.objects.bulk_create(
        [LiveMark(scope=scope, position=position) for scope in sorted(scopes)],
        update_conflicts=True,
        unique_fields=["scope"],
        update_fields=["position"],
    )


def stamp_all(marks: dict[str, int]) -> None:
    """Moves each scope's mark to its position (a batch's: the last event
    that touched it), in one statement."""
    if not marks:
        return
    LiveMark.objects.bulk_create(
        [LiveMark(scope=scope, position=marks[scope]) for scope in sorted(marks)],
        update_conflicts=True,
        unique_fields=["scope"],
        update_fields=["position"],
    )
