"""A table's hands, as a part of the Table aggregate (floor.domain.table): a
hand dealt and ended as the dealer reports it [RULES.md sections 4 and 5], or a
banked hand settled box by box [GA art. 6-16; PT-SD; PG]. The decisions are
floor.domain.hand_rules' and floor.domain.banked_hand's; this module records
them, and opens and ends the time rake's sessions with the hands
(floor.domain.session_clock).
"""

from __future__ import annotations

from datetime import datetime

from eventsourcing.domain import event

from floor.domain import banked_hand, hand_rules
from floor.domain.concern import TableConcern
from floor.domain.seat import Seat
from games.profiles import RuleProfile


class HandsMixin(TableConcern):
    """The Table's hands: decisions (delegated) and events."""

    def start_hand(self, profile: RuleProfile, now: datetime, **report: object) -> dict:
        """The dealer reports a hand dealt (see floor.domain.hand_rules). At a
        table charging time, play starting opens a session and charges it."""
        hand_rules.check_may_deal(self)
        if self.strike_if_due(now):
            self.end_session_if_over(profile, now)
        self.open_session_if_due(profile, now)
        decided = hand_rules.decide_start(self, profile, **report)
        self._hand_started(**decided)
        return decided

    def settle_hand(self, profile: RuleProfile, **report: object) -> dict:
        """What a hand-end report would record, recording nothing: the
        settlement's preview (floor.domain.hand_rules.decide_end)."""
        return hand_rules.decide_end(self, profile, **report)

    def end_hand(self, profile: RuleProfile, now: datetime, **report: object) -> dict:
        """The dealer reports a hand's end: who put in, who won, the rake. A
        session whose hour has struck may end with it."""
        decided = hand_rules.decide_end(self, profile, **report)
        self.strike_if_due(now)  # the hour struck during this hand
        self._hand_ended(**decided)
        self.end_session_if_over(profile, now)
        return decided

    @event("HandStarted")
    def _hand_started(
        self,
        number: int,
        variant: str,
        button: int,
        dealt_in: list[int],
        blinds: dict[str, int],
        dead_blinds: dict[str, int],
        missed: dict[str, int],
        resting: list[int],
        rest_exceeded: list[int],
        must_leave: dict[str, str],
        away_blinds: dict[str, int] | None = None,
    ) -> None:
        self.hand = {
            "number": number,
            "variant": variant,
            "button": button,
            "dealt_in": dealt_in,
            "blinds": blinds,
            "dead_blinds": dead_blinds,
            # Blinds posted for players away past their clock [CM-18].
            "away_blinds": away_blinds or {},
        }
        self.button = button
        self._note_jackpot_deal(number, dealt_in)
        if self.last_hands is not None:
            self.last_hands["left"] -= 1
        for seat in dealt_in:
            # The stored seat's fields read as they are, not through a Seat
            # value each (a hand's start, a tenth of the log: issue 23).
            state = self.occupants[str(seat)]
            moved_from = Seat.stored(state, "moved_from")
            self._update_seat(
                seat,
                played_hand=True,
                # Dealt a hand at the seat a move brought them to: no undo now.
                moved_from={**moved_from, "played": True} if moved_from else None,
                # The big blind owed is posted: the five hands count again [PT 89].
                idle_hands=0
                if Seat.stored(state, "must_post_big_blind")
                else Seat.stored(state, "idle_hands"),
                newcomer=False,
                posts_big_blind=False,
                owes_cents=0,
                must_post_big_blind=False,
            )
        for seat, amount in missed.items():
            owes = Seat.stored(self.occupants[str(seat)], "owes_cents")
            self._update_seat(seat, owes_cents=owes + amount)
        for seat in resting:
            rested = Seat.stored(self.occupants[str(seat)], "rested_hands")
            self._update_seat(seat, rested_hands=rested + 1)
        for seat in rest_exceeded:
            self._update_seat(seat, rest_exceeded=True)
        for seat, why in must_leave.items():
            self._update_seat(seat, must_leave=why)

    @event("HandEnded")
    def _hand_ended(
        self,
        number: int,
        pot_cents: int,
        rake_cents: int,
        contributions: dict[str, int],
        winnings: dict[str, int],
        stacks: dict[str, int],
        idle_hands: dict[str, int],
        must_rebuy: list[int],
        must_post_big_blind: list[int],
        must_leave: dict[str, str],
        players: dict[str, str] | None = None,
        away_posted: dict[str, int] | None = None,
        pots: list[dict] | None = None,
        returned: dict[str, int] | None = None,
        folded: list[int] | None = None,
    ) -> None:
        # ``pots`` (main first: amount, eligible, and when the service settled
        # them their rake, winners and shares), ``returned`` (uncalled chips,
        # included in ``winnings``) and ``folded`` came with issue 19: older
        # hands have none of them, and ``pot_cents`` was all put in.
        for seat, stack in stacks.items():
            self._update_seat(seat, stack=stack)
        for seat, idle in idle_hands.items():
            self._update_seat(seat, idle_hands=idle)
        for seat in must_rebuy:
            self._update_seat(seat, must_rebuy=True)
        for seat in must_post_big_blind:
            self._update_seat(seat, must_post_big_blind=True)
        for seat, why in must_leave.items():
            self._update_seat(seat, must_leave=why)
        self.last_button = self.button
        self.hand = None
        self.action_clock = None
        self.hands_played += 1
        if self.session is not None and self.session["struck"]:
            self.session["hands_since_hour"] += 1

    def settle_banked_hand(self, profile: RuleProfile, **report: object) -> dict:
        """A banked hand reported box by box and settled against the bank
        [GA art. 6-16; PT-SD; PG]: one event, one hand played."""
        decided = banked_hand.decide(self, profile, **report)
        self._banked_hand_settled(**decided)
        return decided

    @event("BankedHandSettled")
    def _banked_hand_settled(
        self,
        number: int,
        variant: str,
        boxes: dict,
        bank: dict,
        bank_cents: int,
        commission_cents: int,
        jackpot: dict | None,
        stacks: dict,
    ) -> None:
        for seat, stack in stacks.items():
            self._set_stack(int(seat), stack)
            moved = self.seat_at(seat).moved_from
            self._update_seat(
                seat, played_hand=True, moved_from={**moved, "played": True} if moved else None
            )
        self.hands_played += 1
        # The last hands announced at closing count down [GA art. 7, 15.3].
        if self.last_hands is not None:
            self.last_hands["left"] -= 1
