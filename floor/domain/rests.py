"""A player's rest at a table [GA art. 20; PT 13], as a part of the Table
aggregate (floor.domain.table). The hands a rest lasts and what a rest past
them means are decided when a hand is dealt (floor.domain.hand_rules).
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.kernel.errors import conflict


class RestsMixin(TableConcern):
    """The Table's rests: decisions and events."""

    def start_rest(self, player_id: UUID, *, repeated_rests_leave: bool) -> None:
        """A player may rest two hands on request without losing the seat
        [GA art. 20; PT 13]; under PT, resting again and again means leaving."""
        self.check_not_closed()
        seat, state = self.seated(player_id)
        if state.resting:
            raise conflict("player_already_resting")
        if state.away:
            raise conflict("player_away", seat=seat)
        if repeated_rests_leave and state.rests >= 2:
            raise conflict("rest_used_repeatedly", seat=seat)
        self._rest_started(seat=seat)

    @event("RestStarted")
    def _rest_started(self, seat: int) -> None:
        rests = self.seat_at(seat).rests + 1
        self._update_seat(seat, resting=True, rested_hands=0, rests=rests)

    def end_rest(self, player_id: UUID) -> None:
        seat, state = self.seated(player_id)
        if not state.resting:
            raise conflict("player_not_resting")
        self._rest_ended(seat=seat, owes_cents=state.owes_cents)

    @event("RestEnded")
    def _rest_ended(self, seat: int, owes_cents: int) -> None:
        self._update_seat(seat, resting=False, rested_hands=0, rest_exceeded=False)
