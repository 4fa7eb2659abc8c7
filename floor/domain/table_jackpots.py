"""Jackpot stakes at a table [GA art. 8b; PT-SD 8, 10], as a part of the Table
aggregate (floor.domain.table): which seats staked on which hand, and the
prizes paid onto the winners' stacks. The jackpot's own rules and fund are the
ledger's (ledger.domain.jackpot).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.domain.table_status import TableStatus
from floor.kernel.errors import DomainError, conflict, invalid

EMPTY_HAND: dict[str, Any] = {"seats": {}, "players": {}, "dealt_in": []}


def between_hands_refusal(table: int, *, closed: bool, hand_in_play: bool) -> DomainError | None:
    """Why no jackpot stake or prize may be handled at the table now, or None:
    an open table, between hands, as chips go in and out only then [GA art. 21;
    PT 14]. Shared by the Table and the console's table card."""
    if closed:
        return conflict("table_closed", table=table)
    if hand_in_play:
        return conflict("hand_in_progress", table=table)
    return None


def stake_refusal(
    seat: int, state: Any, *, stack: int, staked: Mapping[str, Any], cents: int
) -> DomainError | None:
    """Why the seat may not stake ``cents`` on the jackpot for the next hand,
    or None [GA art. 8b; PT-SD 8]: a player sits there, playing (not away,
    not resting), who has not staked on that hand yet and whose stack covers
    it. ``state`` is the domain's ``Seat`` or the read model's row (None: the
    seat is free), ``staked`` the next hand's stakes so far (seat -> cents).
    The one check ``stake_jackpot`` and the console's stake form ask (the
    stake's own amount is the jackpot's rule, the ledger's)."""
    if state is None:
        return conflict("seat_empty", seat=seat)
    if state.away or state.resting:
        return conflict("seat_not_playing", seat=seat)
    if str(seat) in staked:
        return conflict("jackpot_already_staked", seat=seat)
    if cents > stack:
        return conflict("stack_too_small", seat=seat, stack_cents=stack)
    return None


def winner_refusal(
    seat: int, player_id: str | None, entry: Mapping[str, Any]
) -> DomainError | None:
    """Why the seat may not be paid a prize of the hand just played, or None
    [GA art. 8b; PT-SD 12]: it staked on that hand, was dealt in, and the
    player who staked still sits there (``player_id``, hex; None: the seat is
    free). ``entry`` is the hand's stakes (``Table.jackpot_hand``; the read
    model keeps the same). Shared by ``pay_jackpot`` and the console's form."""
    key = str(seat)
    eligible = (
        key in entry["seats"]
        and seat in entry["dealt_in"]
        and player_id is not None
        and player_id == entry["players"].get(key)
    )
    return None if eligible else conflict("jackpot_not_staked", seat=seat)


class JackpotStakesMixin(TableConcern):
    """The Table's jackpot stakes and prizes: decisions and events."""

    def stake_jackpot(self, jackpot_id: UUID, stakes: dict[int, int]) -> dict:
        """The jackpot stakes for the next hand, before it is dealt: chips go
        in between hands only [GA art. 21; PT 14], once a seat and hand, from
        players at the table (not away, not resting) [GA art. 8b; PT-SD 8].
        The jackpot's own rules (the stake, the tables) are the ledger's. A
        stake wins only if its seat is dealt in and its player still sits there."""
        self._check_between_hands()
        hand = self.hands_played + 1
        staked = self.jackpot_hand(jackpot_id, hand)["seats"]
        checked = {}
        for seat, cents in stakes.items():
            seat = self.check_seat_number(seat)
            state = self.seat_at(seat)
            stack = state.stack if state is not None else 0
            refusal = stake_refusal(seat, state, stack=stack, staked=staked, cents=cents)
            if refusal is not None:
                raise refusal
            checked[str(seat)] = cents
        if not checked:
            raise invalid("stakes_required")
        players = {seat: self.seat_at(seat).player_id for seat in checked}
        self._jackpot_staked(jackpot_id=jackpot_id.hex, hand=hand, stakes=checked, players=players)
        return checked

    def jackpot_hand(self, jackpot_id: UUID, hand: int) -> dict:
        """The stakes on ``jackpot_id`` for hand number ``hand``: seat -> stake,
        seat -> player, and the seats dealt in once the hand is dealt."""
        found = self.jackpot_stakes.get(jackpot_id.hex, {}).get(str(hand))
        return found or dict(EMPTY_HAND)

    def _check_between_hands(self) -> None:
        refusal = between_hands_refusal(
            self.number,
            closed=self.status == TableStatus.CLOSED,
            hand_in_play=self.hand is not None,
        )
        if refusal is not None:
            raise refusal

    @event("JackpotStaked")
    def _jackpot_staked(
        self,
        jackpot_id: str,
        stakes: dict,
        players: dict,
        hand: int = 0,
        fund_cents: int | None = None,  # recorded by the first version; all went to the fund
    ) -> None:
        # The hand just played (its prizes may be unpaid) and the next one are kept.
        hands = {
            number: entry
            for number, entry in self.jackpot_stakes.get(jackpot_id, {}).items()
            if int(number) >= self.hands_played
        }
        entry = hands.get(str(hand), {"seats": {}, "players": {}, "dealt_in": []})
        hands[str(hand)] = {
            **entry,
            "seats": {**entry["seats"], **stakes},
            "players": {**entry["players"], **players},
        }
        self.jackpot_stakes = {**self.jackpot_stakes, jackpot_id: hands}
        for seat, cents in stakes.items():
            self._set_stack(int(seat), self.seat_at(seat).stack - cents)

    def _note_jackpot_deal(self, number: int, dealt_in: list[int]) -> None:
        """A hand dealt: its stakes stand for the seats dealt in."""
        for hands in self.jackpot_stakes.values():
            if str(number) in hands:
                hands[str(number)]["dealt_in"] = list(dealt_in)

    def check_jackpot_winners(self, jackpot_id: UUID, seats: list[int]) -> dict[str, int]:
        """The winners staked on the hand just played, were dealt in, and still
        sit where they staked; a hand's prizes are paid once, between hands.
        Returns each winner's stake."""
        self._check_between_hands()
        entry = self.jackpot_hand(jackpot_id, self.hands_played)
        for seat in seats:
            sitting = self.seat_at(seat)
            refusal = winner_refusal(seat, sitting.player_id if sitting else None, entry)
            if refusal is not None:
                raise refusal
        return {str(seat): entry["seats"][str(seat)] for seat in seats}

    def pay_jackpot(self, jackpot_id: UUID, prizes: dict[int, int]) -> None:
        """The jackpot's prizes go onto the winners' stacks, once a hand."""
        self.check_jackpot_winners(jackpot_id, list(prizes))
        players = {str(seat): self.seat_at(seat).player_id for seat in prizes}
        self._jackpot_paid(
            jackpot_id=jackpot_id.hex,
            prizes={str(s): c for s, c in prizes.items()},
            players=players,
            hand=self.hands_played,
        )

    @event("JackpotPaid")
    def _jackpot_paid(self, jackpot_id: str, prizes: dict, players: dict, hand: int = 0) -> None:
        hands = dict(self.jackpot_stakes.get(jackpot_id, {}))
        hands.pop(str(hand), None)  # the hand's prizes are paid: no second payment
        self.jackpot_stakes = {**self.jackpot_stakes, jackpot_id: hands}
        for seat, cents in prizes.items():
            self._set_stack(int(seat), self.seat_at(seat).stack + cents)
