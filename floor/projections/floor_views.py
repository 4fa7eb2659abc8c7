"""The floor's read models: sectors, tables and their seats, players, waiting
lists and hands, as the consoles and the API show them.

Sectors and hands are built from their events. Tables, players and waiting
lists are rewritten from the aggregate's state *at that event's version*, read
back from the event store: the read model then shows exactly what the domain
decided, with no second copy of the rules here to drift from it.

Other contexts keep read models from the same log (the ledger's books): each
declares its part (floor.kernel.composition, ReadModelPart), which this one
projection applies with the floor's, in the same transaction and at the same
position, and empties first on a rebuild.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime
from functools import lru_cache
from uuid import UUID

from django.db import models
from django.db.models import F
from eventsourcing.application import Application
from eventsourcing.domain import DomainEventProtocol

from floor.domain.balance_group import BalanceGroup
from floor.domain.game import Game
from floor.domain.player import Player
from floor.domain.seat import SEAT_FLAGS
from floor.domain.sector import Sector
from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList, is_checked_in, is_remote
from floor.kernel.composition import ROOM
from floor.kernel.web.rows import insert_dicts, insert_rows, update_rows
from floor.models import (
    BalanceGroupView,
    HandView,
    LiveMark,
    PendingTimer,
    PlayerView,
    SeatView,
    SectorView,
    TableView,
    WaitingEntryView,
    WaitingListView,
)
from floor.notifications.outbox import OutboxBatch
from floor.projections import live_marks
from floor.projections.journal import JournalBatch, anchor_close, journal
from floor.projections.report_views import READ_MODELS as REPORT_MODELS
from floor.projections.report_views import ReportBatch, apply_report_views
from floor.projections.route import Route
from floor.projections.states import AggregateStates
from floor.projections.timers import TimerBatch, apply_timer_event

# A player's row as the projection writes it, but for when they registered.
PLAYER_FIELDS = [
    "card_number", "display_name", "barred", "bar_reason", "table", "seat",
    "in_tournament", "kept_apart", "absence_days", "drops_other_lists",
]  # fmt: skip


# An id of the domain's states (hex, or with dashes) as a UUID: the same few
# hundred ids, a table's sector and its seated players, come back at every
# table event and batch (issue 23, sixth pass: 1.5 us a UUID made). A UUID is
# immutable, so one is shared.
_id = lru_cache(maxsize=16_384)(UUID)


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


# The floor's own events, in the order ``_apply`` takes them (the first that
# matches; floor.projections.route); any other goes to the parts taking it.
_APPLIED = Route(
    Sector.Opened,
    Sector.ClosingAnnounced,
    Sector.LastHandsBegun,
    Sector.JefesAssigned,
    Sector.TableAdded,
    Sector.TableReleased,
    Table.Event,
    Player.Event,
    WaitingList.Event,
    BalanceGroup.Event,
)

# The table events that write more than the table's row: its opening, its hands.
_TABLE_ROWS = Route(
    Table.Opened,
    Table.HandStarted,
    Table.HandDeclaredDead,
    Table.BankedHandSettled,
    Table.HandEnded,
)


class FloorProjection:
    """Every floor read model and the event journal, from the floor's log, and
    the read models other contexts declared a part of it."""

    name = "floor"
    # The read models' shape (floor.kernel.web.projector, Projection.version).
    # Raise it with any release whose read models hold what the earlier ones did
    # not, so that a store upgraded in place rebuilds them when its projector
    # starts (run_projector, runfloor) instead of showing them empty for the
    # events before it. 2: the reports' mentions, occupancy steps and list moves.
    # 3 (issue 24): the seats' arrival order, the must-move tables, and a
    # remote entry's wait in the list moves beginning at its check-in.
    # 4 (issue 26): the players' seat sessions (SeatSession), the dealer of a
    # hand (HandView.dealer).
    version = 4

    def __init__(
        self, application: Callable[[], Application] | None = None, *, hold_rows: bool = False
    ) -> None:
        self.application = application
        # Whether the rows the consoles' scopes read (live_marks.Rows) are
        # kept from one batch to the next: only in the projector process,
        # the long-lived one that owns the read models (run_projector).
        self.hold_rows = hold_rows
        # (the position they stand at, the rows) after the last batch, if held.
        self._held: tuple[int, live_marks.Rows] | None = None
        self._position: int | None = None
        # The aggregates' states, folded event by event (floor.projections.states).
        self.states = AggregateStates(application)
        self._journal: JournalBatch | None = None
        self._marks: dict[str, int] | None = None
        self._tables: dict[UUID, tuple[Table, DomainEventProtocol]] | None = None
        # The rows the consoles' scopes read, as the batch changes them.
        self._rows: live_marks.Rows | None = None
        # The batch's players (their row's fields, and when each new one
        # registered) and waiting lists (their game and entries), by id.
        self._players: dict[UUID, tuple[dict, datetime | None]] | None = None
        self._lists: dict[UUID, tuple[str, list[dict]]] | None = None
        self._reports: ReportBatch | None = None
        self._timers: TimerBatch | None = None
        # The messages to players the batch's events call for (the outbox).
        self._outbox: OutboxBatch | None = None
        # The batch's hands: rows it started (their fields), by (table,
        # number), and what it changed of hands started before it.
        self._hands: dict[tuple[UUID, int], dict] | None = None
        self._hand_changes: dict[tuple[UUID, int], dict] | None = None

    @contextmanager
    def batch(self, after: int | None = None) -> Iterator[None]:
        """A batch of events applied in one transaction (the projector's):
        the rows are held in memory and written once, at its end (issue 23,
        item 2), one statement a table where it can. The journal's rows,
        chained in memory (floor.projections.journal.JournalBatch); the
        consoles' marks, each scope's at the last position that touched it;
        each table's row and seats, from its last state; the players, the
        waiting lists and their entries, the hands, the timers
        (timers.TimerBatch) and the reports' rows (ReportBatch), each from
        its last fields; and what the declared parts gather
        (ReadModelPart.batch). What the consoles' scopes read of them while
        the batch goes on (which tables are open, who sits where, who is on
        which list) is told to ``live_marks.Rows`` as it changes, so nothing
        is read back from rows not written yet. The final rows are those event
        by event wrote. Nothing is written if the batch fails: its transaction
        is rolled back anyway.

        With ``hold_rows``, those rows the scopes read are kept for the next
        batch (issue 23: read again per batch, the open tables and the
        groups' tables were a small batch's largest queries, and grew with
        the room). They are the database's as long as this projection is
        the only one writing the read models, which its next batch checks:
        ``after``, the position its compare-and-set found on a row nobody
        else wrote since (CatchUpProjector: None otherwise), must be where
        this batch left them. Anything else (another projector's batches, a
        rebuild's switch, which leaves the position where it was, a reset,
        this batch's transaction not committed) drops them,
        and they are read again."""
        held, self._held = self._held, None
        rows = held[1] if held is not None and after is not None and held[0] == after else None
        self._journal = JournalBatch()
        self._marks: dict[str, int] = {}
        self._tables: dict[UUID, tuple[Table, DomainEventProtocol]] = {}
        self._rows = rows if rows is not None else live_marks.Rows()
        self._position = None
        self._players, self._lists = {}, {}
        self._reports = ReportBatch()
        self._timers = TimerBatch(read_all=True)
        self._outbox = OutboxBatch()
        self._hands, self._hand_changes = {}, {}
        try:
            with ExitStack() as parts:
                parts.enter_context(live_marks.held(self._rows))
                for part in ROOM.read_model_parts():
                    if part.batch is not None:
                        parts.enter_context(part.batch())
                yield
                self._journal.flush()
                self._write_players(self._players)
                self._write_lists(self._lists)
                self._write_tables(self._tables)
                self._write_hands(self._hands, self._hand_changes)
                self._reports.flush()
                self._timers.flush()
                self._outbox.flush()
                live_marks.stamp_all(self._marks)
            if self.hold_rows and self._position is not None and self._rows.small():
                self._rows.settle()
                self._held = (self._position, self._rows)
        finally:
            self._journal = None
            self._marks = None
            self._tables = None
            self._rows = None
            self._players = self._lists = None
            self._reports = None
            self._timers = None
            self._outbox = None
            self._hands = self._hand_changes = None

    def read_models(self) -> Iterable[type[models.Model]]:
        """Children first, so that emptying them respects foreign keys: the
        declared parts' first, then the floor's."""
        return [
            *(model for part in ROOM.read_model_parts() for model in part.read_models),
            *REPORT_MODELS,
            LiveMark,
            PendingTimer,
            BalanceGroupView,
            HandView,
            SeatView,
            WaitingEntryView,
            WaitingListView,
            PlayerView,
            TableView,
            SectorView,
        ]
        # Not the journal (EventJournalEntry): it is the audit trail, kept
        # through a rebuild, whose replayed events it already has. Nor the
        # outbox (Notification), the players' contacts (PlayerContact) or
        # identities (PatronIdentity), nor the exclusion lists as received
        # (ExclusionList, ExclusionEntry): a rebuild must send no message
        # again, and erase no personal data.

    def _notify(self, event: DomainEventProtocol, position: int) -> None:
        """The outbox row of an event that calls for a message to a player
        (floor.notifications.outbox): with the batch's rows, or at once."""
        if self._outbox is not None:
            self._outbox.write(event, position, self._state)
        else:
            alone = OutboxBatch()
            alone.write(event, position, self._state)
            alone.flush()

    def _state(self, event: DomainEventProtocol):
        """The aggregate as it stood right after ``event`` (held in memory)."""
        return self.states(event)

    def apply(self, event: DomainEventProtocol, position: int) -> None:
        """Journals every event; updates the rows it touches, and marks the
        consoles that show them (floor.projections.live_marks)."""
        self.states.observe(event)
        self._position = position
        touched = live_marks.before(event)
        self._apply(event, position)
        touched |= live_marks.after(event, self._state)
        if self._marks is None:
            live_marks.stamp(touched, position)
        else:
            self._marks.update(dict.fromkeys(touched, position))

    def _apply(self, event: DomainEventProtocol, position: int) -> None:
        if self._journal is not None:
            written = self._journal.write(event, position)
        else:  # one event applied on its own: its row at once
            written = journal(event, position)
        anchor_close(event, position, written)
        if written is not None:  # first applied: its message, if it calls for one
            self._notify(event, position)
        apply_timer_event(event, self._timers)
        apply_report_views(event, position, self._reports)
        matched = _APPLIED(event)
        if matched is None:
            for part in ROOM.read_model_parts_for(type(event)):
                part.apply(event, position, self._state)
        elif matched is Sector.Opened:
            SectorView.objects.create(
                id=event.originator_id,
                name=event.name,
                opened_at=event.timestamp,
                opened_by=event.actor,
            )
        elif matched is Sector.ClosingAnnounced:
            SectorView.objects.filter(id=event.originator_id).update(
                closes_at=event.closes_at, last_hands_at=event.last_hands_at
            )
        elif matched is Sector.LastHandsBegun:
            SectorView.objects.filter(id=event.originator_id).update(last_hands_begun=True)
        elif matched is Sector.JefesAssigned:
            SectorView.objects.filter(id=event.originator_id).update(jefes=list(event.jefes))
        elif matched is Sector.TableAdded:
            # Incremental on purpose: applying an event twice would show.
            SectorView.objects.filter(id=event.originator_id).update(
                table_count=F("table_count") + 1
            )
        elif matched is Sector.TableReleased:
            SectorView.objects.filter(id=event.originator_id).update(
                table_count=F("table_count") - 1
            )
        elif matched is Table.Event:
            self._table(event)
        elif matched is Player.Event:
            self._player(self._state(event), event)
        elif matched is WaitingList.Event:
            self._waiting_list(self._state(event))
        else:
            self._balance_group(self._state(event), event)

    # --- tables ------------------------------------------------------------------------

    def _table(self, event: DomainEventProtocol) -> None:
        table: Table = self._state(event)
        matched = _TABLE_ROWS(event)
        if matched is Table.Opened:
            if self._tables:
                # A table of this number closed earlier in the batch: its row
                # says so first, the number being open again (the rows'
                # constraint, floor.models.TableView).
                same = {
                    i: pending
                    for i, pending in self._tables.items()
                    if pending[0].sector_id == table.sector_id and pending[0].number == table.number
                }
                if same:
                    self._write_tables(same)
            TableView.objects.create(
                id=table.id,
                sector_id=table.sector_id,
                number=table.number,
                variant=table.variant,
                limit=table.limit,
                minimum_cents=table.minimum_cents,
                maximum_cents=table.maximum_cents,
                seats=table.seats,
                status=table.status,
                opened_at=event.timestamp,
                opened_by=event.actor,
            )
        if self._tables is None:
            self._write_tables({table.id: (table, event)})
        else:
            # The row and its seats written at the batch's end, from the
            # table's last state; its sector, status and game told at once to
            # the rows the consoles' scopes read (live_marks.Rows).
            self._tables[table.id] = (table, event)
            game = (table.variant, table.limit, table.minimum_cents, table.maximum_cents)
            sector = _id(str(table.sector_id)) if table.sector_id else None
            self._rows.table(table.id, sector, table.status, game)
        if matched is Table.HandStarted:
            self._new_hand(
                table_id=table.id,
                number=event.number,
                variant=event.variant,
                button=event.button,
                dealt_in=event.dealt_in,
                blinds=event.blinds,
                dead_blinds=getattr(event, "dead_blinds", None) or {},
                started_at=event.timestamp,
                dealer=getattr(table, "dealer", None) or "",
            )
        elif matched is Table.HandDeclaredDead and table.hand:
            self._change_hand(table.id, table.hand["number"], dead=table.hand["dead"])
        elif matched is Table.BankedHandSettled:
            # A banked hand is reported whole: its boxes, each box's result
            # against the bank (net of the jackpot), the house commission.
            self._new_hand(
                table_id=table.id,
                number=event.number,
                variant=event.variant,
                button=0,
                dealt_in=sorted(int(seat) for seat in event.boxes),
                started_at=event.timestamp,
                ended_at=event.timestamp,
                rake_cents=event.commission_cents,
                winnings={seat: box["net_cents"] for seat, box in event.boxes.items()},
                dealer=getattr(table, "dealer", None) or "",
            )
        elif matched is Table.HandEnded:
            self._change_hand(
                table.id,
                event.number,
                ended_at=event.timestamp,
                pot_cents=event.pot_cents,
                rake_cents=event.rake_cents,
                contributions=event.contributions,
                winnings=event.winnings,
            )

    def _new_hand(self, **fields) -> None:
        """A hand's row: saved at once, or its fields kept for the batch's end
        (written without a model instance each: rows.insert_dicts)."""
        if self._hands is None:
            HandView(**fields).save(force_insert=True)
        else:
            self._hands[(fields["table_id"], fields["number"])] = fields

    def _change_hand(self, table_id: UUID, number: int, **fields) -> None:
        """Changes a hand's row: the batch's own in memory, one started
        before it at the batch's end (or at once, outside a batch)."""
        if self._hands is None:
            HandView.objects.filter(table_id=table_id, number=number).update(**fields)
            return
        row = self._hands.get((table_id, number))
        if row is None:
            self._hand_changes.setdefault((table_id, number), {}).update(fields)
            return
        row.update(fields)

    @staticmethod
    def _write_hands(
        hands: dict[tuple[UUID, int], dict], changes: dict[tuple[UUID, int], dict]
    ) -> None:
        """The batch's new hands in one statement (in the order they
        started, so their ids are those one event at a time gave), then the
        changes to hands started before it, one statement each."""
        insert_dicts(HandView, hands.values())
        for (table_id, number), fields in changes.items():
            HandView.objects.filter(table_id=table_id, number=number).update(**fields)

    def _write_tables(self, tables: dict[UUID, tuple[Table, DomainEventProtocol]]) -> None:
        """Rewrites the rows and seats of ``tables`` from their states (each
        with the event it stands at)."""
        if not tables:
            return
        profile = self.application().profile
        rows: list[TableView] = []
        for table, event in tables.values():
            suspension = table.suspension or {}
            fields = dict(
                second_variant=table.second_variant or "",
                ante_cents=getattr(table, "ante_cents", 0),
                rake=getattr(table, "rake", None),
                status=table.status,
                button=table.button,
                hands_played=table.hands_played,
                hand_in_progress=table.hand["number"] if table.hand else None,
                draw_open=table.draw_open,
                players=table.player_count,
                suspended_at=_when(suspension.get("at")),
                closes_at=_when(suspension.get("closes_at")),
                closed_at=event.timestamp if isinstance(event, Table.Closed) else None,
                seat_change_requests=[str(UUID(p)) for p in table.seat_change_requests],
                action_clock=table.action_clock,
                session=table.session_read(profile),
                session_rule=table.session_rule_read(profile),
                last_hands_left=table.last_hands["left"] if table.last_hands else None,
                jackpot_stakes=getattr(table, "jackpot_stakes", None) or {},
                dealer=getattr(table, "dealer", None) or "",
                version=table.version,
            )
            rows.append(TableView(id=table.id, **fields))
        # One statement run over the batch's tables (rows.update_rows: what
        # the queryset's update wrote, without compiling it per table).
        update_rows(TableView, rows, list(fields))
        SeatView.objects.filter(table_id__in=list(tables)).delete()
        insert_dicts(
            SeatView,
            (
                {
                    "table_id": table.id,
                    "seat": int(seat),
                    "player_id": _id(state["player_id"]),
                    "stack_cents": state["stack"],
                    "rests": state.get("rests", 0),
                    **{flag: state[flag] for flag in SEAT_FLAGS},
                }
                for table, _event in tables.values()
                for seat, state in table.occupants.items()
            ),
        )

    # --- players and lists -------------------------------------------------------------

    def _player(self, player: Player, event: DomainEventProtocol) -> None:
        seated = player.seated_at or {}
        fields = {
            "card_number": player.card_number,
            "display_name": player.display_name,
            "barred": player.barred,
            "bar_reason": player.bar_reason,
            "table_id": _id(seated["table_id"]) if seated else None,
            "seat": seated.get("seat"),
            "in_tournament": player.in_tournament,
            "kept_apart": [str(UUID(p)) for p in player.kept_apart],
            "absence_days": list(player.absence_days),
            "drops_other_lists": player.drops_other_lists,
        }
        registered = event.timestamp if isinstance(event, Player.Registered) else None
        if self._players is not None:
            # Written at the batch's end; where they sit, told at once.
            if player.id in self._players and registered is None:
                registered = self._players[player.id][1]
            self._players[player.id] = (fields, registered)
            self._rows.player(player.id, fields["table_id"])
        elif registered is not None:
            PlayerView.objects.create(id=player.id, registered_at=registered, **fields)
        else:
            PlayerView.objects.filter(id=player.id).update(**fields)

    @staticmethod
    def _write_players(players: dict[UUID, tuple[dict, datetime | None]]) -> None:
        """The batch's players: those it changed in one statement, then
        those it registered in another, each from its last fields."""
        if not players:
            return
        changed = [PlayerView(id=i, **fields) for i, (fields, new) in players.items() if not new]
        if changed:
            update_rows(PlayerView, changed, PLAYER_FIELDS)
        insert_rows(
            PlayerView,
            (
                PlayerView(id=i, registered_at=new, **fields)
                for i, (fields, new) in players.items()
                if new
            ),
        )

    def _balance_group(self, group: BalanceGroup, event: DomainEventProtocol) -> None:
        requests = [
            {"player_id": str(UUID(r["player_id"])), "table_id": str(UUID(r["table_id"]))}
            for r in group.change_requests
        ]
        proposal = None
        if group.proposal is not None:
            proposal = {
                **group.proposal,
                "player_id": str(UUID(group.proposal["player_id"])),
                "from_table": str(UUID(group.proposal["from_table"])),
                "to_table": str(UUID(group.proposal["to_table"])),
            }
        fields = {
            "game": group.game_key,
            "table_ids": [str(UUID(t)) for t in group.tables],
            "proposal": proposal,
            "change_requests": requests,
            "must_move": {str(UUID(f)): str(UUID(m)) for f, m in group.must_move.items()},
        }
        moved = isinstance(event, BalanceGroup.PlayerMoved)
        # What ``update_or_create`` and the count's update did, in one
        # statement for a group there already (it read the row first, in a
        # savepoint): a statement fewer for every table opened or closed.
        changes = {**fields, "moves": F("moves") + 1} if moved else fields
        if not BalanceGroupView.objects.filter(id=group.id).update(**changes):
            BalanceGroupView.objects.create(id=group.id, moves=int(moved), **fields)
        if self._rows is not None:  # the scopes of its next events read it
            self._rows.group(group.id, fields["table_ids"])

    def _waiting_list(self, waiting: WaitingList) -> None:
        if self._lists is None:
            self._write_lists({waiting.id: (waiting.game_key, waiting.entries)})
            return
        # Written at the batch's end; its game and who is on it, told at once.
        entries = copy.deepcopy(waiting.entries)
        self._lists[waiting.id] = (waiting.game_key, entries)
        game = Game.from_key(waiting.game_key)
        on = (_id(entry["player_id"]) for entry in entries)
        self._rows.waiting_list(waiting.id, tuple(game.as_dict().values()), on)

    @staticmethod
    def _write_lists(lists: dict[UUID, tuple[str, list[dict]]]) -> None:
        """Each list's row and entries, from its game and entries."""
        if not lists:
            return
        # What ``update_or_create`` did list by list (a select, a savepoint
        # and a write each), in two statements: the rows there updated, the
        # others made.
        rows = []
        for list_id, (game_key, _entries) in lists.items():
            game = Game.from_key(game_key)
            rows.append(WaitingListView(id=list_id, game=game.key, **game.as_dict()))
        there = set(WaitingListView.objects.filter(id__in=list(lists)).values_list("id", flat=True))
        fields = ["game", *Game.from_key(rows[0].game).as_dict()]
        update_rows(WaitingListView, [row for row in rows if row.id in there], fields)
        insert_rows(WaitingListView, [row for row in rows if row.id not in there])
        WaitingEntryView.objects.filter(waiting_list_id__in=list(lists)).delete()
        insert_rows(
            WaitingEntryView,
            (
                WaitingEntryView(
                    waiting_list_id=list_id,
                    player_id=UUID(entry["player_id"]),
                    position=position,
                    reservation=entry["reservation"],
                    registered_at=_when(entry["registered_at"]),
                    status=entry["status"],
                    called_at=_when((entry["call"] or {}).get("at")),
                    call_ends_at=_when((entry["call"] or {}).get("ends_at")),
                    call_table=UUID(entry["call"]["table_id"]) if entry["call"] else None,
                    call_seat=entry["call"]["seat"] if entry["call"] else None,
                    remote=is_remote(entry),
                    checked_in=is_checked_in(entry),
                    check_in_by=_when(entry.get("check_in_by")),
                    answer=(entry.get("answer") or {}).get("answer", ""),
                    answered_at=_when((entry.get("answer") or {}).get("at")),
                )
                for list_id, (_game_key, entries) in lists.items()
                for position, entry in enumerate(entries, start=1)
            ),
        )
