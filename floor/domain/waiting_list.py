"""The waiting list of one game, kept by the jefe [GA art. 19.1; PT 8a, 12; CM-5, CM-6].

Registering for a game puts the player on its list under a reservation number;
registering again puts them last under a new number [CM-6]. A vacancy is offered
to the first waiting player (the call); a called player takes the seat or is
removed. The call window itself is a timer (the clocks issue): here the call
records its deadline.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from uuid import UUID

from eventsourcing.domain import event

from floor.domain.game import Game
from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import DomainError, conflict, invalid

# Why the jefe takes a player off a list [CM-6].
LIST_LEAVING_REASONS = ("withdrew", "absent_when_called")
# Why the list itself takes a player off (issue 24): a remote entry not checked
# in within the house's time; a called player who answered they will not come
# [CM-6].
REMOTE_EXPIRED = "remote_expired"
DECLINED_CALL = "declined_call"

# What a called player may answer (issue 24; CM-6: 5 minutes to appear).
COMING = "coming"
FIVE_MORE = "five_more"
NOT_COMING = "not_coming"
CALL_ANSWERS = (COMING, FIVE_MORE, NOT_COMING)


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


def is_remote(entry: Mapping) -> bool:
    """An entry made by the player from outside the room (issue 24); older
    entries, without the key, were made at the desk."""
    return bool(entry.get("remote", False))


def is_checked_in(entry: Mapping) -> bool:
    """Whether the player is in the room: an entry made at the desk is; a
    remote one once the jefe checked the player in (issue 24)."""
    return bool(entry.get("checked_in", True))


def check_in_lapsed(entry: dict, at: datetime) -> bool:
    """Whether a remote entry's check-in time has passed at ``at`` (issue 24,
    item 2): it expires then, whether or not the clock removed it yet."""
    by = entry.get("check_in_by")
    return by is not None and at > datetime.fromisoformat(by)


def is_callable(entry: Mapping) -> bool:
    """Waiting and in the room: only such an entry is offered a seat, drawn or
    counted first on the list [PT 12; CM-5; issue 24, remote entries]."""
    return entry["status"] == EntryStatus.WAITING and is_checked_in(entry)


def extended_deadline(
    called_at: datetime,
    ends_at: datetime | None,
    extension: timedelta | None,
    maximum: timedelta | None,
) -> datetime | None:
    """The call's deadline after the player asked for more time (issue 24):
    ``extension`` later, never past ``called_at + maximum`` where the rule
    fixes a maximum window ("en un máximo de 5 minutos" [CM-6]), and never
    earlier than it was. No window (``ends_at`` None) or no extension: as it was."""
    if ends_at is None or extension is None:
        return ends_at
    moved = ends_at + extension
    if maximum is not None:
        moved = min(moved, called_at + maximum)
    return max(moved, ends_at)


class WaitingList(AuditedAggregate):
    """Entries in order: ``{"player_id", "reservation", "registered_at",
    "status", "call", "remote", "checked_in", "check_in_by", "answer"}``, the
    first callable one the next to be offered a seat. ``remote``: made by the
    player from outside the room, callable only once ``checked_in``, expiring
    at ``check_in_by`` (iso or None) if not; ``answer``: the called player's
    answer to this call, ``{"answer", "at"}`` or None (issue 24)."""

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
        """The first entry that may be offered a seat: waiting and in the room."""
        return next((e for e in self.entries if is_callable(e)), None)

    # --- commands --------------------------------------------------------------

    def register(
        self,
        player_id: UUID,
        at: datetime,
        *,
        remote: bool = False,
        check_in_by: datetime | None = None,
    ) -> int:
        """Puts the player last under a new reservation number; a player already
        on the list re-registers, which also puts them last [CM-6]. A
        ``remote`` entry (the player, from outside the room) waits to be
        checked in, until ``check_in_by`` (issue 24)."""
        relisted = self.entry_of(player_id) is not None
        reservation = self.last_reservation + 1
        self._registered(
            player_id=player_id,
            reservation=reservation,
            at=at,
            relisted=relisted,
            remote=remote,
            check_in_by=check_in_by if remote else None,
        )
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
        remote: bool = False,
        check_in_by: datetime | None = None,
    ) -> None:
        self.entries = [e for e in self.entries if e["player_id"] != player_id.hex]
        entry = {
            "player_id": player_id.hex,
            "reservation": reservation,
            "registered_at": at.isoformat(),
            "status": EntryStatus.WAITING,
            "call": None,
            "remote": remote,
            "checked_in": not remote,
            "check_in_by": check_in_by.isoformat() if check_in_by else None,
            "answer": None,
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
        entry["answer"] = None  # a new call, not answered yet

    # --- remote entries and answers (issue 24) ---------------------------------------

    def check_in(self, player_id: UUID, at: datetime, *, keeps_order: bool) -> int | None:
        """The player of a remote entry has arrived: the entry becomes callable
        (issue 24). It keeps its place, or (``keeps_order`` False, the house
        queueing from arrival) goes last under a new reservation number, which
        is returned."""
        entry = self.entry_of(player_id)
        if entry is None:
            raise conflict("player_not_on_list")
        if not is_remote(entry):
            raise conflict("entry_not_remote")
        if is_checked_in(entry):
            raise conflict("already_checked_in")
        if check_in_lapsed(entry, at):
            # Past the house's time the entry has expired, whether or not the
            # clock has removed it yet: the player registers again.
            raise conflict("check_in_lapsed", until=entry["check_in_by"])
        reservation = None if keeps_order else self.last_reservation + 1
        self._checked_in(player_id=player_id, at=at, reservation=reservation)
        return reservation

    @event("CheckedIn")
    def _checked_in(self, player_id: UUID, at: datetime, reservation: int | None = None) -> None:
        entry = self.entry_of(player_id)
        entry["checked_in"] = True
        entry["check_in_by"] = None
        if reservation is not None:  # queued from arrival: last, a new number
            self.entries = [e for e in self.entries if e is not entry]
            entry["reservation"] = reservation
            entry["registered_at"] = at.isoformat()
            self.entries = [*self.entries, entry]
            self.last_reservation = reservation

    def remote_lapsed(self, player_id: UUID, check_in_by: datetime, now: datetime) -> bool:
        """The remote entry's check-in time ``check_in_by`` has come and the
        player was not checked in: the entry is removed, "remote_expired"
        (issue 24). False when the state moved on (checked in, left,
        registered again)."""
        entry = self.entry_of(player_id)
        if entry is None or not is_remote(entry) or is_checked_in(entry):
            return False
        recorded = entry.get("check_in_by")
        if recorded is None or datetime.fromisoformat(recorded) != check_in_by:
            return False
        if now < check_in_by:
            raise conflict("timer_not_due", due=check_in_by.isoformat())
        self.remove(player_id, REMOTE_EXPIRED)
        return True

    def answer_call(
        self,
        player_id: UUID,
        answer: str,
        at: datetime,
        *,
        extension: timedelta | None = None,
        maximum: timedelta | None = None,
    ) -> datetime | None:
        """Records a called player's answer (issue 24) and returns the call's
        deadline after it. "five_more" may be asked once a call and moves the
        deadline by ``extension``, never past the call plus ``maximum``
        [CM-6: "en un máximo de 5 minutos"]; the other answers leave it."""
        if answer not in CALL_ANSWERS:
            raise invalid("answer_invalid", answers=list(CALL_ANSWERS))
        entry = self.entry_of(player_id)
        if entry is None:
            raise conflict("player_not_on_list")
        if entry["status"] != EntryStatus.CALLED or not entry["call"]:
            raise conflict("player_not_called")
        call = entry["call"]
        ends_at = datetime.fromisoformat(call["ends_at"]) if call["ends_at"] else None
        if ends_at is not None and at >= ends_at:
            # The window ran out (its timer fires late): too late to answer,
            # the player is removed [CM-6].
            raise conflict("call_lapsed", ended=ends_at.isoformat())
        if answer == FIVE_MORE:
            if call.get("more_time_asked"):
                raise conflict("more_time_already_asked")
            ends_at = extended_deadline(
                datetime.fromisoformat(call["at"]), ends_at, extension, maximum
            )
        elif (entry.get("answer") or {}).get("answer") == answer:
            raise conflict("call_already_answered", answer=answer)
        self._call_answered(
            player_id=player_id,
            answer=answer,
            at=at,
            ends_at=ends_at,
            table_id=UUID(call["table_id"]),
        )
        return ends_at

    @event("CallAnswered")
    def _call_answered(
        self,
        player_id: UUID,
        answer: str,
        at: datetime,
        ends_at: datetime | None,
        table_id: UUID | None = None,
    ) -> None:
        entry = self.entry_of(player_id)
        entry["answer"] = {"answer": answer, "at": at.isoformat()}
        if entry["call"]:
            entry["call"]["ends_at"] = ends_at.isoformat() if ends_at else None
            if answer == FIVE_MORE:
                entry["call"]["more_time_asked"] = True

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
                entry["answer"] = None

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
        if entry is not None and not is_checked_in(entry):
            # A remote entry is not callable until the player is checked in
            # (issue 24): the jefe checks them in first.
            raise conflict("player_not_checked_in")
        ahead = []
        for other in self.entries:
            if other["player_id"] == player_id.hex:
                break
            ahead.append(other)
        # Only players in the room wait ahead: a remote entry not checked in
        # is skipped (issue 24).
        waiting_ahead = [e for e in ahead if is_callable(e)]
        if waiting_ahead or (entry is None and self.first_waiting() is not None):
            raise conflict(
                "waiting_list_first",
                reservation=(waiting_ahead or [self.first_waiting()])[0]["reservation"],
            )
