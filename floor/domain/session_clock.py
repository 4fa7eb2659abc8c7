"""The session clock of a table charging its rake by time [GA art. 18.3b; PT 7b],
as a part of the Table aggregate.

A session is one hour of play plus the last two hands (GA) or plus the hand in
progress when the hour strikes (PT). It starts with the first hand dealt while
no session runs; its start charges every seated player the announced share of
the table maximum or of their stack. Under PT a player who sits down within the
first thirty minutes pays that session too. A player without the chips to pay
is charged when they buy them, and is not dealt in before. Each charge is a
``TimeCharged`` event: the ledger issue posts it from the stack to the house.

``self.session`` is None, or ``{"number", "started_at", "hour_at", "struck",
"hands_since_hour"}``; a seat owing the current session's charge has
``time_due``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from fractions import Fraction

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.kernel.errors import conflict
from games.profiles import RuleProfile
from games.rake import (
    SessionBase,
    SessionChargeRule,
    hands_after_hour,
    pays_on_joining,
    session_hands_left,
    session_over,
)


def _seconds(span: timedelta | None) -> float | None:
    return None if span is None else span.total_seconds()


class SessionClockMixin(TableConcern):
    """The Table's decisions about its sessions and their events
    (``SessionStarted``, ``TimeCharged``, ``SessionHourStruck``,
    ``SessionEnded``): the Table's own (floor.domain.concern)."""

    @property
    def charges_by_time(self) -> bool:
        return bool(self.rake) and self.rake["model"] == "per_session"

    def session_rule(self, profile: RuleProfile) -> SessionChargeRule:
        rule = profile.rake.per_session
        if rule is None:  # a table announced under another profile
            raise conflict("session_charge_not_in_profile")
        return rule

    def time_charge(self, stack: int) -> int:
        """One session's charge: the share of the table maximum or of the stack."""
        base = self.maximum_cents
        if self.rake["base"] == str(SessionBase.STACK):
            base = stack
        return int(Fraction(self.rake["share"]) * base)

    def collect_time(self, seat: int) -> int | None:
        """Charges the seat the current session, if it owes it and has the chips."""
        state = self.seat_at(seat)
        if not state.time_due or self.session is None:
            return None
        charge = self.time_charge(state.stack)
        if state.stack <= 0 or charge > state.stack:
            return None
        self._time_charged(
            seat=seat,
            player_id=state.player_id,
            session=self.session["number"],
            cents=charge,
            stack=state.stack - charge,
        )
        return charge

    def open_session_if_due(self, profile: RuleProfile, now: datetime) -> dict | None:
        """Play begins (a hand is dealt) with no session running: one starts,
        and every seated player owes its charge."""
        if not self.charges_by_time or self.session is not None:
            return None
        rule = self.session_rule(profile)
        self._session_started(
            number=self.sessions_started + 1,
            started_at=now,
            hour_at=now + rule.session_length,
            seats=self.occupied(),
        )
        for seat in self.occupied():
            self.collect_time(seat)
        return dict(self.session)

    def owes_on_joining(self, profile: RuleProfile, now: datetime) -> bool:
        """Under PT a player sitting down in a session's first thirty minutes
        pays it [PT 7b]."""
        if not self.charges_by_time or self.session is None:
            return False
        rule = self.session_rule(profile)
        joined_after = now - datetime.fromisoformat(self.session["started_at"])
        return pays_on_joining(rule, joined_after)

    def strike_session_hour(self, hour_at: datetime, now: datetime, profile: RuleProfile) -> bool:
        """The session's hour is up: under PT it ends once the hand in progress
        does (now, if none is); under GA after two more hands."""
        session = self.session
        if session is None or session["struck"]:
            return False
        if datetime.fromisoformat(session["hour_at"]) != hour_at:
            return False
        if now < hour_at:
            raise conflict("timer_not_due", due=hour_at.isoformat())
        self._session_hour_struck(number=session["number"], hand_in_progress=self.hand is not None)
        self.end_session_if_over(profile, now)
        return True

    def strike_if_due(self, now: datetime) -> bool:
        """A hand reported after the hour, its timer not fired yet (a late
        worker): the hour is struck now, as the rule has it, not when the timer
        comes. Returns whether it struck."""
        session = self.session
        if session is None or session["struck"]:
            return False
        if now < datetime.fromisoformat(session["hour_at"]):
            return False
        self._session_hour_struck(number=session["number"], hand_in_progress=self.hand is not None)
        return True

    def end_session_if_over(self, profile: RuleProfile, now: datetime) -> bool:
        session = self.session
        if session is None or not session["struck"]:
            return False
        over = session_over(
            self.session_rule(profile),
            played=now - datetime.fromisoformat(session["started_at"]),
            hands_finished_since_hour=session["hands_since_hour"],
            hand_in_progress=self.hand is not None,
        )
        if over:
            self._session_ended(number=session["number"], reason="session_over")
        return over

    # --- what the floor reads of it -----------------------------------------------------

    def session_rule_read(self, profile: RuleProfile) -> dict | None:
        """Which rule ends this table's sessions, for the table's read: None at
        a table charging per hand, or under a profile without a session charge.

        ``end``: ``two_more_hands`` [GA art. 18.3b] or ``finish_hand_in_progress``
        [PT 7b]; ``hands_after_hour``: 2 under GA, None under PT (the hand in
        progress, if any); ``late_join_seconds``: the window in which a player
        sitting down pays the session [PT 7b], None under GA.
        """
        rule = profile.rake.per_session if self.charges_by_time else None
        if rule is None:
            return None
        return {
            "end": str(rule.end),
            "session_seconds": _seconds(rule.session_length),
            "hands_after_hour": hands_after_hour(rule),
            "late_join_seconds": _seconds(rule.late_join_window),
            "sessions_started": self.sessions_started,
        }

    def session_read(self, profile: RuleProfile) -> dict | None:
        """The running session as the floor reads it: its number, when it
        started and when its hour strikes, whether it has, how many hands it
        still plays (None until the hour strikes) and until when a player
        sitting down pays it (``late_join_until``, PT 7b; None under GA)."""
        session = self.session
        if session is None:
            return None
        read = {**session, "end": None, "hands_left": None, "late_join_until": None}
        rule = profile.rake.per_session if self.charges_by_time else None
        if rule is None:
            return read
        read["end"] = str(rule.end)
        read["hands_left"] = session_hands_left(
            rule,
            struck=session["struck"],
            hands_finished_since_hour=session["hands_since_hour"],
            hand_in_progress=self.hand is not None,
        )
        if rule.late_join_window is not None:
            started = datetime.fromisoformat(session["started_at"])
            read["late_join_until"] = (started + rule.late_join_window).isoformat()
        return read

    # --- its events ----------------------------------------------------------------

    @event("SessionStarted")
    def _session_started(
        self, number: int, started_at: datetime, hour_at: datetime, seats: list[int]
    ) -> None:
        self.sessions_started = number
        self.session = {
            "number": number,
            "started_at": started_at.isoformat(),
            "hour_at": hour_at.isoformat(),
            "struck": False,
            "hands_since_hour": 0,
        }
        for seat in seats:
            self._update_seat(seat, time_due=True)

    @event("TimeCharged")
    def _time_charged(
        self, seat: int, player_id: str, session: int, cents: int, stack: int
    ) -> None:
        self._update_seat(seat, stack=stack, time_due=False)
        if stack < self.minimum_cents:
            self._update_seat(seat, must_rebuy=True)

    @event("SessionHourStruck")
    def _session_hour_struck(self, number: int, hand_in_progress: bool) -> None:
        self.session["struck"] = True

    @event("SessionEnded")
    def _session_ended(self, number: int, reason: str) -> None:
        self.session = None
        for seat in list(self.occupants):
            self._update_seat(seat, time_due=False)
