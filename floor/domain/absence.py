"""The house absence clock [CM-18, CM-19], as a part of the Table aggregate.

Once a gaming day, at most two players per table may be away twenty minutes
without posting blinds. To ask for it a player must have played a hand at the
table and have chips on it. At twenty minutes the player is told to come back
and gets five more minutes; then, if someone waits for that game, the seat is
freed and the chips go back to the player (the cage holds them); if nobody
waits, the player's blinds are posted each hand until they return. Coming back
in time stops the clock. Start, warning, expiry and return are each an event.

The once-a-day count is the player's (``Player.use_absence_clock``); the rest
is the table's. A seat's ``away`` is None, or
``{"started_at", "warn_at", "expires_at", "warned", "posting_blinds"}``.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.kernel.errors import conflict
from games.profile_rules import AbsenceExpiry, AbsenceRules


def check_in_profile(rules: AbsenceRules | None) -> AbsenceRules:
    if rules is None:
        raise conflict("absence_clock_not_in_profile")
    return rules


class AbsenceMixin(TableConcern):
    """The Table's decisions about the absence clock and its events
    (``AbsenceStarted``, ``AbsenceWarned``, ``AbsenceExpired``,
    ``AbsenceEnded``): the Table's own (floor.domain.concern)."""

    def away_seats(self) -> list[int]:
        """Players on the clock's twenty plus five minutes: those past it, whose
        blinds are posted, no longer use it [CM-18]."""
        return [
            s
            for s in self.occupied()
            if self.seat_at(s).away and not self.seat_at(s).away["posting_blinds"]
        ]

    def start_absence(self, player_id: UUID, now: datetime, rules: AbsenceRules) -> dict:
        """The player steps away on the clock [CM-18, CM-19]."""
        self.check_not_closed()
        seat, state = self.seated(player_id)
        if state.away:
            raise conflict("player_already_away")
        if state.resting:
            raise conflict("player_resting", seat=seat)
        if self.hand is not None and (
            seat in self.hand["dealt_in"] or str(seat) in self.hand.get("away_blinds", {})
        ):
            raise conflict("player_in_hand", seat=seat)
        if rules.requires_hand_played and not state.played_hand:
            raise conflict("absence_needs_hand_played")
        # A stack below the big blind is no stack [CM-16].
        if rules.requires_chips_at_table and (state.stack < self.minimum_cents or state.must_rebuy):
            raise conflict("absence_needs_chips")
        away = self.away_seats()
        if len(away) >= rules.max_players_per_table:
            raise conflict(
                "absence_table_full", away=len(away), maximum=rules.max_players_per_table
            )
        warn_at = now + rules.allowance
        self._absence_started(
            seat=seat,
            player_id=player_id.hex,
            started_at=now,
            warn_at=warn_at,
            expires_at=warn_at + rules.courtesy,
        )
        return {"seat": seat, **self.seat_at(seat).away}

    def end_absence(self, player_id: UUID) -> dict:
        """The player is back: the clock stops, or the blinds stop being posted."""
        seat, state = self.seated(player_id)
        if not state.away:
            raise conflict("player_not_away")
        away = dict(state.away)
        self._absence_ended(seat=seat, player_id=player_id.hex)
        return {"seat": seat, **away}

    def _away_due(self, player_id: UUID, field: str, expected: datetime, now: datetime):
        """The seat whose running clock has ``expected`` as its ``field``, once
        due; None when the state moved on (back, gone, another clock)."""
        seat = self.seat_of(player_id)
        state = self.seat_at(seat) if seat is not None else None
        away = state.away if state else None
        if not away or away["posting_blinds"] or datetime.fromisoformat(away[field]) != expected:
            return None
        if now < expected:
            raise conflict("timer_not_due", due=expected.isoformat())
        return seat

    def warn_absence(self, player_id: UUID, warn_at: datetime, now: datetime) -> bool:
        """Twenty minutes are up: the player is told to return within five [CM-18]."""
        seat = self._away_due(player_id, "warn_at", warn_at, now)
        if seat is None or self.seat_at(seat).away["warned"]:
            return False
        self._absence_warned(seat=seat, player_id=player_id.hex)
        return True

    def expire_absence(
        self,
        player_id: UUID,
        expires_at: datetime,
        now: datetime,
        rules: AbsenceRules,
        *,
        someone_waits: bool,
    ) -> AbsenceExpiry | None:
        """The courtesy minutes are up and the player is not back [CM-18]: the
        seat is freed when someone waits for the game (the caller removes the
        player), else the player's blinds are posted from now on. None when the
        clock had stopped."""
        seat = self._away_due(player_id, "expires_at", expires_at, now)
        if seat is None:
            return None
        outcome = (
            rules.expiry_with_waiting_list if someone_waits else rules.expiry_without_waiting_list
        )
        self._absence_expired(seat=seat, player_id=player_id.hex, outcome=str(outcome))
        return outcome

    # --- its events ----------------------------------------------------------------

    @event("AbsenceStarted")
    def _absence_started(
        self,
        seat: int,
        player_id: str,
        started_at: datetime,
        warn_at: datetime,
        expires_at: datetime,
    ) -> None:
        away = {
            "started_at": started_at.isoformat(),
            "warn_at": warn_at.isoformat(),
            "expires_at": expires_at.isoformat(),
            "warned": False,
            "posting_blinds": False,
        }
        self._update_seat(seat, away=away)

    @event("AbsenceWarned")
    def _absence_warned(self, seat: int, player_id: str) -> None:
        self._update_seat(seat, away={**self.seat_at(seat).away, "warned": True})

    @event("AbsenceExpired")
    def _absence_expired(self, seat: int, player_id: str, outcome: str) -> None:
        if outcome == "post_blinds":
            self._update_seat(seat, away={**self.seat_at(seat).away, "posting_blinds": True})

    @event("AbsenceEnded")
    def _absence_ended(self, seat: int, player_id: str) -> None:
        self._update_seat(seat, away=None)
