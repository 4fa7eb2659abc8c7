"""A table's suspension below the minimum of players [GA art. 23; PT 24], its
closing, and the last hands of the night [CM-24; GA art. 7, 15.3], as a part of
the Table aggregate (floor.domain.table).
"""

from __future__ import annotations

from datetime import datetime

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.domain.table_status import TableStatus
from floor.kernel.errors import conflict

# Why a table closes: the Closed event records one.
CLOSING_REASONS = ("closed_by_jefe", "suspension_expired", "closing_time", "table_broken")


class ClosingMixin(TableConcern):
    """The Table's suspension, closing and last hands: decisions and events."""

    def below_minimum(self, min_players: int) -> bool:
        return not self.banked and self.player_count < min_players

    def suspend(self, at: datetime, closes_at: datetime | None, min_players: int) -> None:
        """Fewer than four players: the game stops [GA art. 23; PT 24]; the
        deadline (None under GA) is the clocks issue's timer."""
        self._suspended(at=at, closes_at=closes_at, players=self.player_count, needed=min_players)

    @event("Suspended")
    def _suspended(
        self, at: datetime, closes_at: datetime | None, players: int, needed: int
    ) -> None:
        self.status = TableStatus.SUSPENDED
        self.suspension = {
            "at": at.isoformat(),
            "closes_at": closes_at.isoformat() if closes_at else None,
        }

    def resume(self) -> None:
        self._resumed(players=self.player_count)

    @event("Resumed")
    def _resumed(self, players: int) -> None:
        self.status = TableStatus.RUNNING
        self.suspension = None

    def suspension_deadline_passed(self, closes_at: datetime, now: datetime) -> bool:
        """Whether the suspension's deadline ``closes_at`` is the one in force and
        has come: the table then closes [PT 24]. False when the state moved on
        (four players came back, the table closed, a later suspension)."""
        if self.status != TableStatus.SUSPENDED or not self.suspension:
            return False
        recorded = self.suspension.get("closes_at")
        if recorded is None or datetime.fromisoformat(recorded) != closes_at:
            return False
        if now < closes_at:
            raise conflict("timer_not_due", due=closes_at.isoformat())
        return True

    def close(self, reason: str) -> dict[str, dict]:
        """Closes the table; its players leave with their stacks (they stay theirs)."""
        self.check_not_closed()
        self.check_no_hand()
        players = {}
        for seat in self.occupants:  # in the order they sat down, as recorded before
            state = self.seat_at(seat)
            players[seat] = {"player_id": state.player_id, "stack": state.stack}
        self._closed(reason=reason, players=players)
        return players

    @event("Closed")
    def _closed(self, reason: str, players: dict[str, dict]) -> None:
        self.status = TableStatus.CLOSED
        self.occupants = {}
        self.seat_change_requests = []
        self.suspension = None
        self.draw_open = False
        self.session = None
        self.last_hands = None

    # --- the last hands of the night [CM-24] -------------------------------------------

    def start_last_hands(self, hands: int) -> None:
        """The casino closes soon: this many more hands are dealt, then the
        table closes [CM-24; GA art. 7, 15.3]."""
        self.check_not_closed()
        if self.last_hands is not None:
            raise conflict("last_hands_started")
        self._last_hands_started(hands=hands)

    @event("LastHandsStarted")
    def _last_hands_started(self, hands: int) -> None:
        self.last_hands = {"left": hands}

    @property
    def last_hands_done(self) -> bool:
        """The last hand of the night has been played: the table closes."""
        return self.last_hands is not None and self.last_hands["left"] <= 0 and self.hand is None
