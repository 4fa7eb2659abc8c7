"""A player's rest at a table [GA art. 20; PT 13], as a part of the Table
aggregate (floor.domain.table). The hands a rest lasts and what a rest past
them means are decided when a hand is dealt (floor.domain.hand_rules).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.kernel.errors import DomainError, conflict


def rest_refusal(seat: int, state: Any, *, repeated_rests_leave: bool) -> DomainError | None:
    """Why the player in ``seat`` may not start a rest now, or None [GA art. 20;
    PT 13]: not already resting, not away on the absence clock [CM-18], and,
    where resting again and again means leaving (PT 13), not a third rest at
    this table. The one check the command (``start_rest``) and the console's
    table card (floor.console.sector) both ask, so "Rest" is offered exactly
    when the command would take it. ``state`` is the domain's ``Seat`` or the
    read model's row (both have ``resting``, ``away`` and ``rests``)."""
    if state.resting:
        return conflict("player_already_resting")
    if state.away:
        return conflict("player_away", seat=seat)
    if repeated_rests_leave and state.rests >= 2:
        return conflict("rest_used_repeatedly", seat=seat)
    return None


def rest_end_refusal(state: Any) -> DomainError | None:
    """Why the player may not come back from a rest now, or None: only a
    resting player comes back [GA art. 20; PT 13] (the blinds missed are then
    posted dead with the next hand [PT 90]). Shared by ``end_rest`` and the card."""
    if not state.resting:
        return conflict("player_not_resting")
    return None


class RestsMixin(TableConcern):
    """The Table's rests: decisions and events."""

    def start_rest(self, player_id: UUID, *, repeated_rests_leave: bool) -> None:
        """A player may rest two hands on request without losing the seat
        [GA art. 20; PT 13]; under PT, resting again and again means leaving."""
        self.check_not_closed()
        seat, state = self.seated(player_id)
        refusal = rest_refusal(seat, state, repeated_rests_leave=repeated_rests_leave)
        if refusal is not None:
            raise refusal
        self._rest_started(seat=seat)

    @event("RestStarted")
    def _rest_started(self, seat: int) -> None:
        rests = self.seat_at(seat).rests + 1
        self._update_seat(seat, resting=True, rested_hands=0, rests=rests)

    def end_rest(self, player_id: UUID) -> None:
        seat, state = self.seated(player_id)
        refusal = rest_end_refusal(state)
        if refusal is not None:
            raise refusal
        self._rest_ended(seat=seat, owes_cents=state.owes_cents)

    @event("RestEnded")
    def _rest_ended(self, seat: int, owes_cents: int) -> None:
        self._update_seat(seat, resting=False, rested_hands=0, rest_exceeded=False)
