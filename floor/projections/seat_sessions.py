"""The players' seat sessions (issue 26, "Players' time and rating"),
projected from a table's seat events as they happen, so the players' reports
and history read a player's hours from rows, not by replaying the tables.

A session opens when a player takes a seat (``PlayerSeated``), is seated by
the draw (``SeatsDrawn``) or moved in from another table (``PlayerMovedIn``),
and ends when they leave (``PlayerLeft``), are moved out (``PlayerMovedOut``)
or the table closes (``Closed``). Within it, a rest [GA art. 20; PT 13]
(``RestStarted`` to ``RestEnded``) and the house absence clock [CM-18]
(``AbsenceStarted`` to ``AbsenceEnded``) are kept as pauses, each with its
moments, so the reports count them or not as the house decides
(games.profile_rules.PlayerRating) and split the time by day and hour to the
second. A seat change keeps the session (the player stays at the table). The
chips bought at the seat (the buy-in and rebuys, the books' ``buy_in``
transactions: ledger.domain.floor_money posts them from these events), the
buy-ins the cage voided, the time charges [GA art. 18.3b; PT 7b] and the
stack they left with are added up on the session.

Every moment is the event's own (the injected clock's), so the hours are
exact to the second. A rebuild empties the rows and fills them again.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import DomainEventProtocol

from floor.domain.table import Table
from floor.models import SeatSession
from floor.projections.route import Route

STARTS = (Table.SeatsDrawn, Table.PlayerSeated, Table.PlayerMovedIn)
ENDS = (Table.PlayerLeft, Table.PlayerMovedOut, Table.Closed)
SEAT_MOVES = (Table.SeatChanged, Table.SeatChangeUndone)
PAUSES = (Table.RestStarted, Table.RestEnded, Table.AbsenceStarted, Table.AbsenceEnded)
MONEY = (Table.ChipsBought, Table.BuyInVoided, Table.TimeCharged)
SESSION_EVENTS = (*STARTS, *ENDS, *SEAT_MOVES, *PAUSES, *MONEY)
_ROUTE = Route(SESSION_EVENTS)

RESTING, AWAY = "resting", "away"
FIELDS = (
    "id",
    "position",
    "table_id",
    "player_id",
    "seat",
    "started_at",
    "how_started",
    "ended_at",
    "how_ended",
    "pauses",
    "carried_in_cents",
    "buy_in_cents",
    "rebuys",
    "rebuy_cents",
    "voided_cents",
    "time_charges",
    "time_charged_cents",
    "left_with_cents",
)


class SessionBatch:
    """The sessions a batch of events opens and changes, written at its end.
    Each table's open sessions are read once from the rows, then followed
    here; rows written before and changed by the batch are updated once."""

    def __init__(self) -> None:
        self.open: dict[UUID, dict[str, dict[str, Any]]] = {}  # table -> player -> fields
        self.new: list[dict[str, Any]] = []
        self.changed: dict[int, dict[str, Any]] = {}  # a written row's id -> fields

    def table(self, table_id: UUID) -> dict[str, dict[str, Any]]:
        if table_id not in self.open:
            rows = (
                SeatSession.objects.filter(table_id=table_id, ended_at__isnull=True)
                .order_by("position")
                .values(*FIELDS)
            )
            self.open[table_id] = {row["player_id"]: dict(row) for row in rows}
        return self.open[table_id]

    def touch(self, row: dict[str, Any]) -> None:
        if row.get("id") is not None:
            self.changed[row["id"]] = row

    def flush(self) -> None:
        if self.new:
            SeatSession.objects.bulk_create(
                [SeatSession(**{k: v for k, v in row.items() if k != "id"}) for row in self.new]
            )
        for row_id, row in self.changed.items():
            SeatSession.objects.filter(pk=row_id).update(
                **{k: v for k, v in row.items() if k not in ("id", "position")}
            )
        self.__init__()


def apply_seat_sessions(
    event: DomainEventProtocol, position: int, batch: SessionBatch | None = None
) -> None:
    """Follows one event of the log into the seat sessions: into the batch,
    or written at once when it comes on its own."""
    if _ROUTE(event) is None:
        return
    alone = batch is None
    batch = SessionBatch() if alone else batch
    _apply(event, position, batch)
    if alone:
        batch.flush()


def _open(
    batch: SessionBatch,
    table_id: UUID,
    player: str,
    seat: int,
    at: datetime,
    position: int,
    how: str,
    carried: int = 0,
) -> None:
    sessions = batch.table(table_id)
    if player in sessions:  # never left as recorded: the new seat ends the old stay
        _close(batch, sessions, player, at, "left", None)
    row = {
        "position": position,
        "table_id": table_id,
        "player_id": player,
        "seat": seat,
        "started_at": at,
        "how_started": how,
        "ended_at": None,
        "how_ended": "",
        "pauses": [],
        "carried_in_cents": carried,
        "buy_in_cents": 0,
        "rebuys": 0,
        "rebuy_cents": 0,
        "voided_cents": 0,
        "time_charges": 0,
        "time_charged_cents": 0,
        "left_with_cents": None,
    }
    sessions[player] = row
    batch.new.append(row)


def _close(
    batch: SessionBatch,
    sessions: dict[str, dict[str, Any]],
    player: str,
    at: datetime,
    how: str,
    stack: int | None,
) -> None:
    row = sessions.pop(player, None)
    if row is None:
        return
    _end_pause(row, None, at)
    row["ended_at"], row["how_ended"], row["left_with_cents"] = at, how, stack
    batch.touch(row)


def _start_pause(row: dict[str, Any], kind: str, at: datetime) -> None:
    pauses = [list(p) for p in row["pauses"]]
    if pauses and pauses[-1][2] is None:
        if pauses[-1][0] == kind:
            return
        pauses[-1][2] = at.isoformat()
    pauses.append([kind, at.isoformat(), None])
    row["pauses"] = pauses


def _end_pause(row: dict[str, Any], kind: str | None, at: datetime) -> None:
    """Ends the pause running (of ``kind``, or any)."""
    pauses = [list(p) for p in row["pauses"]]
    if pauses and pauses[-1][2] is None and kind in (None, pauses[-1][0]):
        pauses[-1][2] = at.isoformat()
        row["pauses"] = pauses


def _at_seat(sessions: dict[str, dict[str, Any]], seat: int) -> dict[str, Any] | None:
    return next((row for row in sessions.values() if row["seat"] == seat), None)


def _apply(event: DomainEventProtocol, position: int, batch: SessionBatch) -> None:
    table_id, at = event.originator_id, event.timestamp
    sessions = batch.table(table_id)
    if isinstance(event, Table.SeatsDrawn):
        for player, seat in (event.assignment or {}).items():
            _open(batch, table_id, str(player), int(seat), at, position, "drawn")
    elif isinstance(event, Table.PlayerSeated):
        _open(batch, table_id, event.player_id, event.seat, at, position, "seated")
    elif isinstance(event, Table.PlayerMovedIn):
        _open(batch, table_id, event.player_id, event.seat, at, position, "moved_in", event.stack)
    elif isinstance(event, Table.PlayerLeft):
        _close(batch, sessions, event.player_id, at, "left", event.stack)
    elif isinstance(event, Table.PlayerMovedOut):
        _close(batch, sessions, event.player_id, at, "moved_out", event.stack)
    elif isinstance(event, Table.Closed):
        stacks = {
            str(held.get("player_id")): held.get("stack") for held in (event.players or {}).values()
        }
        for player in list(sessions):
            _close(batch, sessions, player, at, "closed", stacks.get(player))
    elif isinstance(event, Table.SeatChanged):
        _move_seat(batch, sessions.get(event.player_id), event.seat)
    elif isinstance(event, Table.SeatChangeUndone):
        _move_seat(batch, sessions.get(event.player_id), event.back_to)
    else:
        row = _at_seat(sessions, event.seat)
        if row is None:
            return
        if isinstance(event, Table.RestStarted):
            _start_pause(row, RESTING, at)
        elif isinstance(event, Table.RestEnded):
            _end_pause(row, RESTING, at)
        elif isinstance(event, Table.AbsenceStarted):
            _start_pause(row, AWAY, at)
        elif isinstance(event, Table.AbsenceEnded):
            _end_pause(row, AWAY, at)
        elif isinstance(event, Table.ChipsBought):
            if row["buy_in_cents"] == 0 and row["rebuys"] == 0 and not row["carried_in_cents"]:
                row["buy_in_cents"] = event.amount
            else:
                row["rebuys"] += 1
                row["rebuy_cents"] += event.amount
        elif isinstance(event, Table.BuyInVoided):
            row["voided_cents"] += event.amount
        elif isinstance(event, Table.TimeCharged):
            row["time_charges"] += 1
            row["time_charged_cents"] += event.cents
        batch.touch(row)


def _move_seat(batch: SessionBatch, row: dict[str, Any] | None, seat: int) -> None:
    if row is not None:
        row["seat"] = seat
        batch.touch(row)
