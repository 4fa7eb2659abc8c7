"""The player action clock [CM-20 to CM-22], as a part of the Table aggregate.

Any player may ask; the dealer or the jefe starts it for the player to act: two
minutes if the pot is at most 200 EUR, four if more, then one more minute (the
console counts the last ten seconds aloud), then the player's hand is dead.
Acting stops it. Under GA and PT a slow player is only warned [GA art. 24.3a;
PT 71a], so the clock cannot be started there. Start, warning, expiry and stop
are each an event.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.kernel.errors import DomainError, conflict, invalid
from games.profile_rules import ActionClock


def action_clock_refusal(
    seat: int,
    *,
    enforced: bool,
    hand: Mapping[str, Any] | None,
    running: Mapping[str, Any] | None,
) -> DomainError | None:
    """Why the player in ``seat`` may not be put on the clock now, or None
    [CM-20 to CM-22]: the one check the command (``start_action_clock``) and
    the console's table card (floor.console.sector) both ask, so the card
    offers "Clock" exactly when the command would start it. ``hand`` is the
    hand in play (its ``dealt_in`` and ``dead`` seats; None when no hand is in
    play), ``running`` the clock already running (its ``seat``) or None.

    Only a player dealt into the hand in play and still in it acts: a resting
    player, one not dealt in or whose hand is dead is never on the clock."""
    if not enforced:
        return conflict("action_clock_not_in_profile")
    if hand is None:
        return conflict("no_hand_in_progress")
    if seat not in hand["dealt_in"] or seat in (hand.get("dead") or []):
        return conflict("seat_not_in_hand", seat=seat)
    if running is not None:
        return conflict("action_clock_running", seat=running["seat"])
    return None


class ActionClockMixin(TableConcern):
    """The Table's decisions about its clock and the events they trigger
    (``ActionClockStarted``, ``ActionClockWarned``, ``HandDeclaredDead``,
    ``ActionClockStopped``): the Table's own (floor.domain.concern). The state
    is ``self.action_clock``: None, or the running clock
    ``{"seat", "pot_cents", "started_at", "extra_at", "dead_at", "warned"}``."""

    def start_action_clock(
        self, seat: int, pot_cents: int, now: datetime, rules: ActionClock
    ) -> dict:
        def refusal() -> DomainError | None:
            return action_clock_refusal(
                seat, enforced=rules.enforced, hand=self.hand, running=self.action_clock
            )

        if not rules.enforced or self.hand is None:
            raise refusal()
        if isinstance(pot_cents, bool) or not isinstance(pot_cents, int) or pot_cents < 0:
            raise invalid("amount_invalid")
        seat = self.check_seat_number(seat)
        refused = refusal()
        if refused is not None:
            raise refused
        extra_at = now + rules.first_period(pot_cents)
        dead_at = extra_at + rules.extra
        self._action_clock_started(
            seat=seat, pot_cents=pot_cents, started_at=now, extra_at=extra_at, dead_at=dead_at
        )
        return dict(self.action_clock)

    def stop_action_clock(self, seat: int) -> None:
        """The player acted [CM-22]."""
        if self.action_clock is None or self.action_clock["seat"] != seat:
            raise conflict("no_action_clock", seat=seat)
        self._action_clock_stopped(seat=seat)

    def _running_clock_due(self, field: str, expected: datetime, now: datetime) -> bool:
        clock = self.action_clock
        if clock is None or datetime.fromisoformat(clock[field]) != expected:
            return False
        if now < expected:
            raise conflict("timer_not_due", due=expected.isoformat())
        return True

    def warn_action_clock(self, extra_at: datetime, now: datetime) -> bool:
        """The first period is over: the last minute starts [CM-22]."""
        if not self._running_clock_due("extra_at", extra_at, now) or self.action_clock["warned"]:
            return False
        self._action_clock_warned(seat=self.action_clock["seat"])
        return True

    def expire_action_clock(self, dead_at: datetime, now: datetime) -> bool:
        """The last minute is over and the player has not acted: their hand is
        dead [CM-22]."""
        if not self._running_clock_due("dead_at", dead_at, now):
            return False
        self._hand_declared_dead(seat=self.action_clock["seat"])
        return True

    # --- its events ----------------------------------------------------------------

    @event("ActionClockStarted")
    def _action_clock_started(
        self,
        seat: int,
        pot_cents: int,
        started_at: datetime,
        extra_at: datetime,
        dead_at: datetime,
    ) -> None:
        self.action_clock = {
            "seat": seat,
            "pot_cents": pot_cents,
            "started_at": started_at.isoformat(),
            "extra_at": extra_at.isoformat(),
            "dead_at": dead_at.isoformat(),
            "warned": False,
        }

    @event("ActionClockStopped")
    def _action_clock_stopped(self, seat: int) -> None:
        self.action_clock = None

    @event("ActionClockWarned")
    def _action_clock_warned(self, seat: int) -> None:
        self.action_clock["warned"] = True

    @event("HandDeclaredDead")
    def _hand_declared_dead(self, seat: int) -> None:
        self.action_clock = None
        self.hand["dead"] = [*self.hand.get("dead", []), seat]
