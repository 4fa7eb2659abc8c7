"""The jefe's corrections at a table, each with its reason (issue 22; ANCHORS.md
item 8): a move or seat change made by mistake undone, a seat's stack fixed.
A part of the Table aggregate (floor.domain.table, floor.domain.concern).

Nothing recorded is edited (DESIGN.md): each correction is a new event that
names what it corrects and why, from a closed list of reasons (and a note,
which "other" needs), as the cage's count differences are explained.

- **Undoing a move.** The seat keeps where the player sat before the move or
  seat change that brought them there (``Seat.moved_from``) until it may no
  longer be undone fairly: once they are dealt a hand at the new seat (the
  table played on with them there), while they rest there, once the former
  table has dealt a hand since (back there they would owe no blinds for it
  [PT 90; CM-17]), or when the former seat is taken or the former table
  closed. The move keeps the former table's hands played then (``hands``)
  and the rests they had taken there (``rests``), which the undo gives back
  [PT 13]. ``undo_refusal`` is the one check, asked by the command
  and by the jefe's console, which offers "Undo" only when it is None.
- **A buy-in paid at the cage, voided.** The cage voids it (ledger
  ``void_entry``): its chips come back off the seat (``BuyInVoided``, which
  the ledger does not book: the void reverses the money leg by leg), between
  hands, while the player still sits there with those chips.
- **Fixing a stack.** A seat's recorded stack set to what is really there
  (chips miscounted, a buy-in counted wrong, a pot pushed to the wrong
  stack), only between hands [GA art. 21; PT 14: chips change only between
  hands]. The floor records the stack before and after; the ledger books the
  difference against the table's difference account (ledger.domain.
  floor_money), so the books stay exact and a reviewer finds every fix there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.domain.table_status import TableStatus
from floor.kernel.errors import DomainError, conflict, invalid

# Why a move or seat change is undone; "other" needs a note.
UNDO_REASONS = ("wrong_player", "wrong_table", "wrong_seat", "player_refused", "other")
# Why a seat's stack is fixed; "other" needs a note.
STACK_FIX_REASONS = (
    "miscount",
    "buy_in_miscounted",
    "pot_paid_wrong",
    "chips_found",
    "chips_missing",
    "other",
)
MAX_NOTE_LENGTH = 300


def checked_reason(reason_code: object, note: object, reasons: tuple[str, ...]) -> tuple[str, str]:
    """The correction's reason, one of ``reasons``, and its note (one line;
    "other" needs one)."""
    code = str(reason_code or "")
    if code not in reasons:
        raise invalid("correction_reason_invalid", choices=list(reasons))
    text = " ".join(str(note or "").split())
    if len(text) > MAX_NOTE_LENGTH or not text.isprintable():
        raise invalid("note_invalid")
    if code == "other" and not text:
        raise invalid("correction_note_required")
    return code, text


class MovedSeat(Protocol):
    """What ``undo_refusal`` reads of the seat: a ``Seat`` or a ``SeatView``."""

    moved_from: Mapping[str, Any] | None
    away: Mapping[str, Any] | None
    resting: bool


def undo_refusal(
    seat: int,
    state: MovedSeat,
    *,
    hand_in_play: bool,
    table_number: int,
    former_number: int | None,
    former_open: bool,
    former_taken: bool,
    former_hands: int | None,
) -> DomainError | None:
    """Why the move that brought the player in ``seat`` here cannot be undone
    now, or None. ``former_*`` describe the table they came from (this one,
    for a seat change): its number, whether it is still open, whether the
    seat they left is taken now and the hands it has dealt (one in play
    counted).

    Undone, the player sits back as if never moved, owing nothing: fair only
    while neither table has dealt on without him. At the new seat ``played``
    says he was dealt in; resting there he is not, so a rest refuses too (he
    comes back, and is dealt in, first) [GA art. 20; PT 13]. At the former
    table, any hand played since the move (``hands`` recorded with it) would
    have cost him blinds there [PT 90; CM-17]. A move recorded before the
    hands were kept (no ``hands``) is never undone: nothing tells whether
    the former table played since, and an unfair undo cannot be taken back."""
    moved = state.moved_from
    if not moved:
        return conflict("no_move_to_undo")
    if moved.get("played"):
        return conflict("move_played_since", seat=seat)
    if hand_in_play:
        return conflict("hand_in_progress", table=table_number)
    if state.away:
        return conflict("player_away", seat=seat)
    if state.resting:
        return conflict("player_resting", seat=seat)
    if not former_open:
        return conflict("former_table_closed", table=former_number)
    if moved.get("hands") is None or former_hands != moved["hands"]:
        return conflict("former_table_played_since", table=former_number)
    if former_taken:
        return conflict("former_seat_taken", seat=moved["seat"], table=former_number)
    return None


def fix_stack_refusal(*, hand_in_play: bool, table_number: int, closed: bool) -> DomainError | None:
    """Why no stack may be fixed at this table now, or None: a closed table
    has no stacks, and chips change only between hands [GA art. 21; PT 14]."""
    if closed:
        return conflict("table_closed", table=table_number)
    if hand_in_play:
        return conflict("hand_in_progress", table=table_number)
    return None


def buy_in_void_refusal(
    *,
    seated_here: bool,
    stack: int,
    amount: int,
    hand_in_play: bool,
    table_number: int,
    closed: bool,
) -> DomainError | None:
    """Why a buy-in paid at the cage cannot be taken back off its seat now
    (the cage voids it, ledger.domain.voids), or None: the chips come off the
    seat they went to, between hands [GA art. 21; PT 14], while the player
    still sits there with at least those chips."""
    if closed:
        return conflict("table_closed", table=table_number)
    if not seated_here:
        return conflict("buy_in_player_gone", table=table_number)
    if hand_in_play:
        return conflict("hand_in_progress", table=table_number)
    if stack < amount:
        return conflict("buy_in_chips_played", stack_cents=stack, amount_cents=amount)
    return None


class CorrectionsMixin(TableConcern):
    """The Table's corrections: a seat change undone, a stack fixed."""

    def undo_seat_change(self, player_id: UUID, reason_code: str, note: str) -> tuple[int, int]:
        """The player goes back to the seat they changed from at this table;
        returns the seat left and the seat taken again."""
        seat, state = self.seated(player_id)
        moved = state.moved_from or {}
        if moved.get("table") != self.id.hex:
            raise conflict("no_move_to_undo")
        back = int(moved["seat"])
        refusal = undo_refusal(
            seat,
            state,
            hand_in_play=self.hand is not None,
            table_number=self.number,
            former_number=self.number,
            former_open=True,
            former_taken=str(back) in self.occupants,
            former_hands=self.hands_played,
        )
        if refusal is not None:
            raise refusal
        self._seat_change_undone(
            player_id=player_id.hex,
            seat=seat,
            back_to=back,
            reason_code=reason_code,
            note=note,
        )
        return seat, back

    @event("SeatChangeUndone")
    def _seat_change_undone(
        self, player_id: str, seat: int, back_to: int, reason_code: str, note: str
    ) -> None:
        self.occupants[str(back_to)] = self.occupants.pop(str(seat))
        self._update_seat(back_to, moved_from=None)

    def fix_stack(self, player_id: UUID, stack: object, reason_code: str, note: str) -> dict:
        """Sets the seat's recorded stack to what is really there, between
        hands; returns the seat, the stack before and after."""
        refusal = fix_stack_refusal(
            hand_in_play=self.hand is not None,
            table_number=self.number,
            closed=self.status == TableStatus.CLOSED,
        )
        if refusal is not None:
            raise refusal
        if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
            raise invalid("stack_invalid")
        seat, state = self.seated(player_id)
        if stack == state.stack:
            raise conflict("stack_unchanged", stack_cents=stack)
        self._stack_corrected(
            seat=seat,
            player_id=player_id.hex,
            stack_before=state.stack,
            stack=stack,
            reason_code=reason_code,
            note=note,
        )
        return {"seat": seat, "stack_before_cents": state.stack, "stack_cents": stack}

    @event("StackCorrected")
    def _stack_corrected(
        self,
        seat: int,
        player_id: str,
        stack_before: int,
        stack: int,
        reason_code: str,
        note: str,
    ) -> None:
        self._update_seat(seat, stack=stack, must_rebuy=stack < self.minimum_cents)

    # --- a buy-in paid at the cage, voided by the cage (ledger.application.corrections) ---

    def void_buy_in_refusal(self, player_id: UUID, amount: int) -> DomainError | None:
        seat = self.seat_of(player_id)
        return buy_in_void_refusal(
            seated_here=seat is not None,
            stack=self.seat_at(seat).stack if seat is not None else 0,
            amount=amount,
            hand_in_play=self.hand is not None,
            table_number=self.number,
            closed=self.status == TableStatus.CLOSED,
        )

    def void_buy_in(self, player_id: UUID, amount: int, transaction: str) -> int:
        """Takes a buy-in paid at the cage back off the seat (the cage voided
        it: its books reverse the money themselves, so this event books
        nothing); returns the stack left."""
        refusal = self.void_buy_in_refusal(player_id, amount)
        if refusal is not None:
            raise refusal
        seat = self.seat_of(player_id)
        stack = self.seat_at(seat).stack - amount
        self._buy_in_voided(
            seat=seat, player_id=player_id.hex, amount=amount, stack=stack, transaction=transaction
        )
        return stack

    @event("BuyInVoided")
    def _buy_in_voided(
        self, seat: int, player_id: str, amount: int, stack: int, transaction: str
    ) -> None:
        self._update_seat(seat, stack=stack, must_rebuy=stack < self.minimum_cents)
