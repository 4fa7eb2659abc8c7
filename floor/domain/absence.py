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

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.kernel.errors import DomainError, conflict
from games.profile_rules import AbsenceExpiry, AbsenceRules


def check_in_profile(rules: AbsenceRules | None) -> AbsenceRules:
    if rules is None:
        raise conflict("absence_clock_not_in_profile")
    return rules


class SeatFlags(Protocol):
    """What ``absence_refusal`` reads of a seat: a ``Seat`` or a ``SeatView``."""

    away: Mapping[str, Any] | None
    away_after_hand: bool
    resting: bool
    played_hand: bool
    must_rebuy: bool


def absence_refusal(
    seat: int,
    state: SeatFlags,
    *,
    stack: int,
    table_minimum: int,
    away_count: int,
    rules: AbsenceRules,
) -> DomainError | None:
    """Why the player in ``seat`` may not ask for the absence clock now, or
    None [CM-18, CM-19]: the one check the command (``start_absence``) and the
    console's table card (floor.console.sector) both ask, so the card offers
    "Away" exactly when the command would take it. ``state`` is the seat's
    (the domain's ``Seat`` or the read model's row), ``away_count`` how many
    others of the table count toward the two. The player's once a gaming day
    is the Player's (floor.domain.player.absence_left_today).

    A player dealt into the hand in play may ask: the clock starts when the
    hand ends (the rules give twenty minutes without posting blinds, and a
    hand in play owes none), so the hand is no refusal here."""
    if state.away:
        return conflict("player_already_away")
    if state.away_after_hand:
        return conflict("absence_already_asked", seat=seat)
    if state.resting:
        return conflict("player_resting", seat=seat)
    if rules.requires_hand_played and not state.played_hand:
        return conflict("absence_needs_hand_played")
    # A stack below the big blind is no stack [CM-16].
    if rules.requires_chips_at_table and (stack < table_minimum or state.must_rebuy):
        return conflict("absence_needs_chips")
    if away_count >= rules.max_players_per_table:
        return conflict("absence_table_full", away=away_count, maximum=rules.max_players_per_table)
    return None


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

    def absence_count(self, *, but: int | None = None) -> int:
        """How many of the table's players count toward its two [CM-18]: those
        on the clock and those who asked for it when the hand ends (``but``
        one seat, the one asking)."""
        asked = [s for s in self.occupied() if s != but and self.seat_at(s).away_after_hand]
        return len([s for s in self.away_seats() if s != but]) + len(asked)

    def start_absence(self, player_id: UUID, now: datetime, rules: AbsenceRules) -> dict:
        """The player steps away on the clock [CM-18, CM-19]. A player dealt
        into the hand in play asks for it now and steps away when the hand
        ends (``after_hand``): the request is recorded, the clock starts then."""
        self.check_not_closed()
        seat, state = self.seated(player_id)
        refusal = absence_refusal(
            seat,
            state,
            stack=state.stack,
            table_minimum=self.minimum_cents,
            away_count=self.absence_count(but=seat),
            rules=rules,
        )
        if refusal is not None:
            raise refusal
        if self.in_hand(seat):
            self._absence_asked(seat=seat, player_id=player_id.hex, hand=self.hand["number"])
            return {"seat": seat, "after_hand": True, "hand": self.hand["number"]}
        return self._step_away(seat, player_id.hex, now, rules)

    def in_hand(self, seat: int) -> bool:
        """Dealt into the hand in play, or their blind posted in it [CM-18]."""
        return self.hand is not None and (
            seat in self.hand["dealt_in"] or str(seat) in self.hand.get("away_blinds", {})
        )

    def _step_away(self, seat: int, player_hex: str, now: datetime, rules: AbsenceRules) -> dict:
        warn_at = now + rules.allowance
        self._absence_started(
            seat=seat,
            player_id=player_hex,
            started_at=now,
            warn_at=warn_at,
            expires_at=warn_at + rules.courtesy,
        )
        return {"seat": seat, "after_hand": False, **self.seat_at(seat).away}

    def start_absences_asked(self, now: datetime, rules: AbsenceRules | None) -> dict[str, dict]:
        """The hand has ended: each player who asked for the absence clock
        during it steps away now, the clock starting at the hand's end, when
        the rules still allow it (chips left, at most two away) [CM-18, CM-19];
        otherwise the request lapses with its reason and nothing else is
        recorded. Returns player id (hex) -> the clock started."""
        started = {}
        for seat in self.occupied():
            state = self.seat_at(seat)
            if not state.away_after_hand:
                continue
            refusal = (
                conflict("absence_clock_not_in_profile")
                if rules is None
                else absence_refusal(
                    seat,
                    state.but(away_after_hand=False),
                    stack=state.stack,
                    table_minimum=self.minimum_cents,
                    away_count=self.absence_count(but=seat),
                    rules=rules,
                )
            )
            if refusal is not None:
                self._absence_request_lapsed(
                    seat=seat, player_id=state.player_id, reason=refusal.code
                )
                continue
            started[state.player_id] = self._step_away(seat, state.player_id, now, rules)
        return started

    def end_absence(self, player_id: UUID) -> dict:
        """The player is back: the clock stops, or the blinds stop being
        posted; a player who asked to step away after the hand stays."""
        seat, state = self.seated(player_id)
        if state.away_after_hand:
            self._absence_request_withdrawn(seat=seat, player_id=player_id.hex)
            return {"seat": seat, "withdrawn": True}
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
        self._update_seat(seat, away=away, away_after_hand=False)

    @event("AbsenceAsked")
    def _absence_asked(self, seat: int, player_id: str, hand: int) -> None:
        self._update_seat(seat, away_after_hand=True)

    @event("AbsenceRequestWithdrawn")
    def _absence_request_withdrawn(self, seat: int, player_id: str) -> None:
        self._update_seat(seat, away_after_hand=False)

    @event("AbsenceRequestLapsed")
    def _absence_request_lapsed(self, seat: int, player_id: str, reason: str) -> None:
        self._update_seat(seat, away_after_hand=False)

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
