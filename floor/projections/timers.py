"""The timer read model: the deadlines the floor's events record, pending until
they fire or the state moves on (DESIGN.md, Time and timers).

A suspension records when its table closes [PT 24]; a call records when its
window ends [CM-6]; the action clock when its last minute starts and when the
hand is dead [CM-21, CM-22]; the absence clock when the player is warned and
when the courtesy ends [CM-18]; a time-charged session when its hour strikes
[GA art. 18.3b; PT 7b]; a sector's closing when its last hands start [CM-24];
a remote list entry when it expires unless checked in (issue 24).
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
from floor.kernel.web.rows import insert_rows
from floor.models import PendingTimer
from floor.projections.route import Route

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


KEYS_PER_STATEMENT = 900


def _chunks(keys: list[str]) -> list[list[str]]:
    return [keys[at : at + KEYS_PER_STATEMENT] for at in range(0, len(keys), KEYS_PER_STATEMENT)]


class TimerBatch:
    """The timers a batch of events adds and cancels, written once at its end
    (issue 23: a statement per event, most of them a hand's end cancelling an
    action clock that was never started, was a tenth of a rebuild).

    Each subject's pending timers are read once, when the batch first touches
    it, then followed here: an add is what ``get_or_create`` did (nothing if
    the key is pending already), a cancel what the ``state=pending`` update
    did. A key the batch adds that the table already holds in another state
    (fired, cancelled) is not created at the end, as ``get_or_create`` found
    it; cancelled ones are updated only if still pending then (the sweeper
    may have fired them meanwhile). It lives as long as the batch's
    transaction: a batch that fails leaves it behind."""

    # Subjects read one by one before a ``read_all`` batch reads the rest at once.
    READ_ALL_AFTER = 4

    def __init__(self, read_all: bool = False) -> None:
        # A batch of many events reads every pending timer at once instead of
        # each subject's apart (issue 23, sixth pass: 17 statements a batch of
        # 2,000 events, a table's hand end or a list's call each), but only
        # once it has touched READ_ALL_AFTER subjects: the live projector's
        # batch of one command touches one or two, and reading the whole
        # room's timers for a hand's end would put them on the command's wait.
        self.read_all = read_all
        self.all_read = False
        self.pending: dict[UUID, dict[str, PendingTimer]] = {}  # subject -> key -> row
        self.new: dict[str, PendingTimer] = {}  # added by the batch, in order
        self.eta: set[str] = set()  # new keys whose deadline was ahead when added
        self.cancelled: set[str] = set()  # rows read pending, to cancel

    def held(self, subject) -> dict[str, PendingTimer]:
        if self.read_all and type(subject) is not UUID:
            subject = UUID(str(subject))  # as the rows read hold it
        if (
            self.read_all
            and not self.all_read
            and subject not in self.pending
            and len(self.pending) >= self.READ_ALL_AFTER
        ):
            # The subjects the batch holds already keep what it did to them
            # (a cancel not written yet): only the others' rows are news.
            unseen: dict[UUID, dict[str, PendingTimer]] = {}
            for row in PendingTimer.objects.filter(state=PendingTimer.PENDING):
                unseen.setdefault(row.subject, {})[row.key] = row
            for other, rows in unseen.items():
                self.pending.setdefault(other, rows)
            self.all_read = True
        if subject not in self.pending:
            if self.all_read:  # every pending row is held: the subject has none
                self.pending[subject] = {}
            else:
                rows = PendingTimer.objects.filter(subject=subject, state=PendingTimer.PENDING)
                self.pending[subject] = {row.key: row for row in rows}
        return self.pending[subject]

    def add(self, key: str, kind: str, subject, due_at: datetime, command: str, arguments: dict):
        held = self.held(subject)
        if key in held or key in self.new:
            return
        row = PendingTimer(
            key=key, kind=kind, subject=subject, due_at=due_at, command=command,
            arguments=arguments, state=PendingTimer.PENDING,
        )  # fmt: skip
        self.new[key] = held[key] = row
        if due_at > timezone.now():
            self.eta.add(key)

    def cancel(self, subject, **match: str) -> None:
        """Cancels the subject's pending timers that match: ``kind``,
        ``kind_prefix``, ``key_prefix``, ``player_id`` (its arguments'),
        ``except_key``."""
        held = self.held(subject)
        for key, row in list(held.items()):
            if not _matches(row, **match):
                continue
            del held[key]
            if key in self.new:
                row.state = PendingTimer.CANCELLED
            else:
                self.cancelled.add(key)

    def flush(self) -> None:
        # In chunks: a rebuild's large batch may hold more keys than a
        # statement takes parameters (SQLite 32,766).
        for keys in _chunks(sorted(self.cancelled)):
            PendingTimer.objects.filter(key__in=keys, state=PendingTimer.PENDING).update(
                state=PendingTimer.CANCELLED
            )
        if self.new:
            there = set()
            for keys in _chunks(list(self.new)):
                there.update(
                    PendingTimer.objects.filter(key__in=keys).values_list("key", flat=True)
                )
            created = [row for key, row in self.new.items() if key not in there]
            insert_rows(PendingTimer, created)
            for row in created:
                if row.key in self.eta:
                    # A deadline already past (a rebuild, a late projection) is
                    # the sweeper's: it fires within a sweep.
                    transaction.on_commit(lambda r=row: send_eta(r.key, r.due_at))
        self.__init__(self.read_all)


def _matches(
    row: PendingTimer,
    kind: str | None = None,
    kind_prefix: str | None = None,
    key_prefix: str | None = None,
    player_id: str | None = None,
    except_key: str | None = None,
) -> bool:
    return (
        (kind is None or row.kind == kind)
        and (kind_prefix is None or row.kind.startswith(kind_prefix))
        and (key_prefix is None or row.key.startswith(key_prefix))
        and (player_id is None or (row.arguments or {}).get("player_id") == player_id)
        and (except_key is None or row.key != except_key)
    )


def _table_timer(
    timers: TimerBatch, event, kind: str, command: str, field: str, when: datetime, **more
) -> None:
    """A deadline of the table that recorded ``event``, keyed by its moment."""
    table_id = event.originator_id
    who = f":{more['player_id']}" if "player_id" in more else ""
    timers.add(
        f"{kind}:{table_id}{who}:{when.isoformat()}",
        kind,
        table_id,
        when,
        command,
        {"table_id": str(table_id), **more, field: when.isoformat()},
    )


def _player_uuid(event) -> str:
    return str(UUID(event.player_id))


# The table events that start or end a timer (the chain below, worked out once a
# class: a hand's start, a tenth of the log, takes none).
_TABLE_TIMERS = Route(
    (
        Table.Suspended,
        Table.Resumed,
        Table.Closed,
        Table.ActionClockStarted,
        Table.ActionClockWarned,
        Table.ActionClockStopped,
        Table.HandDeclaredDead,
        Table.HandEnded,
        Table.AbsenceStarted,
        Table.AbsenceWarned,
        Table.AbsenceExpired,
        Table.AbsenceEnded,
        Table.PlayerLeft,
        Table.PlayerMovedOut,
        Table.SessionStarted,
        Table.SessionEnded,
    )
)


def _apply_table_event(event: DomainEventProtocol, timers: TimerBatch) -> None:
    if _TABLE_TIMERS(event) is None:
        return
    table_id = event.originator_id
    if isinstance(event, Table.Suspended) and event.closes_at is not None:
        _table_timer(
            timers, event, "suspension_close", "expire_suspension", "closes_at", event.closes_at
        )
    elif isinstance(event, Table.Resumed):
        timers.cancel(table_id, kind="suspension_close")
    elif isinstance(event, Table.Closed):
        timers.cancel(table_id)  # whatever the table was waiting for
    elif isinstance(event, Table.ActionClockStarted):
        _table_timer(
            timers, event, "action_clock_warning", "warn_action_clock", "extra_at", event.extra_at
        )
        _table_timer(
            timers, event, "action_clock_expiry", "expire_action_clock", "dead_at", event.dead_at
        )
    elif isinstance(event, Table.ActionClockWarned):
        timers.cancel(table_id, kind="action_clock_warning")
    elif isinstance(event, (Table.ActionClockStopped, Table.HandDeclaredDead, Table.HandEnded)):
        timers.cancel(table_id, kind_prefix="action_clock_")
    elif isinstance(event, Table.AbsenceStarted):
        player = _player_uuid(event)
        _table_timer(
            timers,
            event,
            "absence_warning",
            "warn_absence",
            "warn_at",
            event.warn_at,
            player_id=player,
        )
        _table_timer(
            timers,
            event,
            "absence_expiry",
            "expire_absence",
            "expires_at",
            event.expires_at,
            player_id=player,
        )
    elif isinstance(event, Table.AbsenceWarned):
        timers.cancel(table_id, kind="absence_warning", player_id=_player_uuid(event))
    elif isinstance(
        event,
        (Table.AbsenceExpired, Table.AbsenceEnded, Table.PlayerLeft, Table.PlayerMovedOut),
    ):
        player = _player_uuid(event)
        timers.cancel(table_id, kind_prefix="absence_", player_id=player)
    elif isinstance(event, Table.SessionStarted):
        _table_timer(timers, event, "session_hour", "strike_session_hour", "hour_at", event.hour_at)
    elif isinstance(event, Table.SessionEnded):
        timers.cancel(table_id, kind="session_hour")


def _apply_list_event(event: DomainEventProtocol, timers: TimerBatch) -> None:
    list_id = event.originator_id
    if isinstance(event, WaitingList.Called) and event.ends_at is not None:
        timers.add(
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
    elif isinstance(event, WaitingList.Registered):
        player = str(event.player_id)
        if event.relisted:
            # Registering again while called ends the call: last on the list
            # [CM-6]; it replaces a remote entry's check-in time too.
            timers.cancel(list_id, kind="call_window", player_id=player)
            timers.cancel(list_id, kind="check_in", player_id=player)
        check_in_by = getattr(event, "check_in_by", None)
        if getattr(event, "remote", False) and check_in_by is not None:
            # A remote entry expires unless checked in by then (issue 24).
            timers.add(
                f"check_in:{list_id}:{player}:{check_in_by.isoformat()}",
                "check_in",
                list_id,
                check_in_by,
                "expire_remote_entry",
                {
                    "waiting_list_id": str(list_id),
                    "player_id": player,
                    "check_in_by": check_in_by.isoformat(),
                },
            )
    elif isinstance(event, WaitingList.CheckedIn):
        timers.cancel(list_id, kind="check_in", player_id=str(event.player_id))
    elif isinstance(event, WaitingList.CallAnswered):
        # "Five more minutes" may move the call's deadline (issue 24; CM-6):
        # the window's timer follows it; an unmoved deadline keeps its key.
        if event.ends_at is not None and event.table_id is not None:
            player = str(event.player_id)
            key = f"call:{list_id}:{event.table_id}:{player}:{event.ends_at.isoformat()}"
            timers.cancel(list_id, kind="call_window", player_id=player, except_key=key)
            timers.add(
                key,
                "call_window",
                list_id,
                event.ends_at,
                "expire_call",
                {
                    "waiting_list_id": str(list_id),
                    "player_id": player,
                    "ends_at": event.ends_at.isoformat(),
                },
            )
    elif isinstance(event, WaitingList.Removed):
        timers.cancel(list_id, kind="call_window", player_id=str(event.player_id))
        timers.cancel(list_id, kind="check_in", player_id=str(event.player_id))
    elif isinstance(event, WaitingList.CallsCancelled):  # that table's calls only
        timers.cancel(list_id, key_prefix=f"call:{list_id}:{event.table_id}:")


def _apply_sector_event(event: DomainEventProtocol, timers: TimerBatch) -> None:
    sector_id = event.originator_id
    if isinstance(event, Sector.ClosingAnnounced):
        # A new announcement replaces the one before [CM-24]; the same time
        # announced again keeps its timer.
        key = f"last_hands:{sector_id}:{event.last_hands_at.isoformat()}"
        timers.cancel(sector_id, kind="last_hands", except_key=key)
        timers.add(
            key,
            "last_hands",
            sector_id,
            event.last_hands_at,
            "start_last_hands",
            {"sector_id": str(sector_id), "last_hands_at": event.last_hands_at.isoformat()},
        )


_AGGREGATES = Route(Table.Event, WaitingList.Event, Sector.Event)


def apply_timer_event(event: DomainEventProtocol, timers: TimerBatch | None = None) -> None:
    """Adds or cancels the timers one event starts or ends: into the batch's
    (written at its end), or at once when the event comes on its own."""
    matched = _AGGREGATES(event)
    if matched is None:
        return
    alone = timers is None
    timers = TimerBatch() if alone else timers
    if matched is Table.Event:
        _apply_table_event(event, timers)
    elif matched is WaitingList.Event:
        _apply_list_event(event, timers)
    else:
        _apply_sector_event(event, timers)
    if alone:
        timers.flush()
