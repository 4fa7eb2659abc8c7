"""The waiting list of one game, kept by the jefe [GA art. 19.1; PT 8a, 12; CM-5, CM-6].

Registering for a game puts the player on its list under a reservation number;
registering again puts them last under a new number [CM-6]. A vacancy is offered
to the first waiting player (the call); a called player takes the seat or is
removed. The call window itself is a timer (the clocks issue): here the call
records its deadline.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from uuid import UUID

from eventsourcing.domain import event

from floor.domain.game import Game
from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import DomainError, conflict

# Why the jefe takes a player off a list [CM-6].
LIST_LEAVING_REASONS = ("withdrew", "absent_when_called")


def call_refusal(
    seat: int, offered: Mapping[int, int], *, someone_to_call: bool = True
) -> DomainError | None:
    """Why the free ``seat`` may not be offered to the list now, or None [PT 12;
    CM-5, CM-6]: a seat offered to a called player is theirs while the call
    lasts (``offered``: seat -> reservation, ``WaitingList.seats_called``), and
    a seat is offered only to someone (a player who asked to change seat or
    table, or one waiting and free to sit). The one check the command
    (``call_next``) and the console's table card (floor.console.sector) ask."""
    if seat in offered:
        return conflict("seat_already_offered")
    if not someone_to_call:
        return conflict("nobody_to_call")
    return None


class EntryStatus:
    WAITING = "waiting"
    CALLED = "called"


class WaitingList(AuditedAggregate):
    """Entries in order: ``{"player_id", "reservation", "registered_at",
    "status", "call"}``, the first the next to be offered a seat."""

    @classmethod
    def open_for(cls, game: Game) -> WaitingList:
        return cls(id=game.waiting_list_id, game_key=game.key)

    @event("Opened")
    def __init__(self, id: UUID, game_key: str) -> None:  # noqa: A002 - derived from the game
        self.game_key = game_key
        self.entries: list[dict] = []
        self.last_reservation = 0

    # --- reading ---------------------------------------------------------------

    def entry_of(self, player_id: UUID) -> dict | None:
        return next((e for e in self.entries if e["player_id"] == player_id.hex), None)

    def position_of(self, player_id: UUID) -> int | None:
        """1-based place on the list, or None."""
        for i, entry in enumerate(self.entries, start=1):
            if entry["player_id"] == player_id.hex:
                return i
        return None

    def first_waiting(self) -> dict | None:
        return next((e for e in self.entries if e["status"] == EntryStatus.WAITING), None)

    # --- commands --------------------------------------------------------------

    def register(self, player_id: UUID, at: datetime) -> int:
        """Puts the player last under a new reservation number; a player already
        on the list re-registers, which also puts them last [CM-6]."""
        relisted = self.entry_of(player_id) is not None
        reservation = self.last_reservation + 1
        self._registered(player_id=player_id, reservation=reservation, at=at, relisted=relisted)
        return reservation

    def register_at_top(self, player_ids: list[UUID], at: datetime) -> None:
        """The players of a broken table without a seat elsewhere go to the top
        of the list, in the order they drew (RULES.md section 7)."""
        for player_id in reversed(player_ids):
            reservation = self.last_reservation + 1
            self._registered(
                player_id=player_id, reservation=reservation, at=at, relisted=False, at_top=True
            )

    @event("Registered")
    def _registered(
        self,
        player_id: UUID,
        reservation: int,
        at: datetime,
        relisted: bool,
        at_top: bool = False,
    ) -> None:
        self.entries = [e for e in self.entries if e["player_id"] != player_id.hex]
        entry = {
            "player_id": player_id.hex,
            "reservation": reservation,
            "registered_at": at.isoformat(),
            "status": EntryStatus.WAITING,
            "call": None,
        }
        self.entries = [entry, *self.entries] if at_top else [*self.entries, entry]
        self.last_reservation = reservation

    def call(
        self, player_id: UUID, table_id: UUID, seat: int, at: datetime, ends_at: datetime | None
    ) -> None:
        """Offers a seat to a player on the list; ``ends_at`` is the call window's
        end [CM-6], None where the profile has no window."""
        entry = self.entry_of(player_id)
        if entry is None:
            raise conflict("player_not_on_list")
        self._called(
            player_id=player_id,
            table_id=table_id,
            seat=seat,
            at=at,
            ends_at=ends_at,
        )

    @event("Called")
    def _called(
        self, player_id: UUID, table_id: UUID, seat: int, at: datetime, ends_at: datetime | None
    ) -> None:
        entry = self.entry_of(player_id)
        entry["status"] = EntryStatus.CALLED
        entry["call"] = {
            "table_id": table_id.hex,
            "seat": seat,
            "at": at.isoformat(),
            "ends_at": ends_at.isoformat() if ends_at else None,
        }

    def call_lapsed(self, player_id: UUID, ends_at: datetime, now: datetime) -> dict | None:
        """The call's window ``ends_at`` has come and the player did not take the
        seat: they are removed [CM-6]; returns the call (table and seat) to offer
        on. None when the state moved on (seated, withdrew, called again)."""
        entry = self.entry_of(player_id)
        if entry is None or entry["status"] != EntryStatus.CALLED or not entry["call"]:
            return None
        recorded = entry["call"]["ends_at"]
        if recorded is None or datetime.fromisoformat(recorded) != ends_at:
            return None
        if now < ends_at:
            raise conflict("timer_not_due", due=ends_at.isoformat())
        call = dict(entry["call"])
        self.remove(player_id, "absent_when_called")
        return call

    def cancel_calls(self, table_id: UUID) -> None:
        """The table closed: its calls lapse and the players wait again, in
        their places."""
        self._calls_cancelled(table_id=table_id)

    @event("CallsCancelled")
    def _calls_cancelled(self, table_id: UUID) -> None:
        for entry in self.entries:
            if entry["call"] and entry["call"]["table_id"] == table_id.hex:
                entry["status"] = EntryStatus.WAITING
                entry["call"] = None

    def remove(self, player_id: UUID, reason: str) -> None:
        """Takes the player off the list: seated, withdrew, absent when called."""
        if self.entry_of(player_id) is None:
            raise conflict("player_not_on_list")
        self._removed(player_id=player_id, reason=reason)

    @event("Removed")
    def _removed(self, player_id: UUID, reason: str) -> None:
        self.entries = [e for e in self.entries if e["player_id"] != player_id.hex]

    def seats_called(self, table_id: UUID, *, but_for: UUID | None = None) -> dict[int, int]:
        """The seats of that table offered to a called player (other than
        ``but_for``), with the reservation each is held for [CM-6]."""
        return {
            e["call"]["seat"]: e["reservation"]
            for e in self.entries
            if e["status"] == EntryStatus.CALLED
            and e["call"]["table_id"] == table_id.hex
            and (but_for is None or e["player_id"] != but_for.hex)
        }

    def check_turn(
        self, player_id: UUID, table_id: UUID | None = None, seat: int | None = None
    ) -> None:
        """A vacancy goes to the list in order [PT 12; CM-5]: a player may take it
        when called or first on the list, or when nobody waits before them; a
        seat offered to a called player is theirs while the call lasts [CM-6]."""
        held = self.seats_called(table_id, but_for=player_id) if table_id is not None else {}
        if seat in held:
            raise conflict("waiting_list_first", reservation=held[seat])
        entry = self.entry_of(player_id)
        if entry is not None and entry["status"] == EntryStatus.CALLED:
            return
        ahead = []
        for other in self.entries:
            if other["player_id"] == player_id.hex:
                break
            ahead.append(other)
        waiting_ahead = [e for e in ahead if e["status"] == EntryStatus.WAITING]
        if waiting_ahead or (entry is None and self.first_waiting() is not None):
            raise conflict(
                "waiting_list_first",
                reservation=(waiting_ahead or [self.first_waiting()])[0]["reservation"],
            )
