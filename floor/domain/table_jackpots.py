"""Jackpot stakes at a table [GA art. 8b; PT-SD 8, 10], as a part of the Table
aggregate (floor.domain.table): which seats staked on which hand, and the
prizes paid onto the winners' stacks. The jackpot's own rules and fund are the
ledger's (ledger.domain.jackpot).
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.kernel.errors import conflict, invalid


class JackpotStakesMixin(TableConcern):
    """The Table's jackpot stakes and prizes: decisions and events."""

    def stake_jackpot(self, jackpot_id: UUID, stakes: dict[int, int]) -> dict:
        """The jackpot stakes for the next hand, before it is dealt: chips go
        in between hands only [GA art. 21; PT 14], once a seat and hand, from
        players at the table (not away, not resting) [GA art. 8b; PT-SD 8].
        The jackpot's own rules (the stake, the tables) are the ledger's. A
        stake wins only if its seat is dealt in and its player still sits there."""
        self.check_not_closed()
        self.check_no_hand()
        hand = self.hands_played + 1
        staked = self.jackpot_hand(jackpot_id, hand)["seats"]
        checked = {}
        for seat, cents in stakes.items():
            seat = self.check_seat_number(seat)
            state = self.seat_at(seat)
            if state is None:
                raise conflict("seat_empty", seat=seat)
            if state.away or state.resting:
                raise conflict("seat_not_playing", seat=seat)
            if str(seat) in staked:
                raise conflict("jackpot_already_staked", seat=seat)
            self._check_stack_covers(seat, state, cents)
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
        return found or {"seats": {}, "players": {}, "dealt_in": []}

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
        self.check_not_closed()
        self.check_no_hand()
        entry = self.jackpot_hand(jackpot_id, self.hands_played)
        for seat in seats:
            key = str(seat)
            sitting = self.seat_at(seat)
            eligible = (
                key in entry["seats"]
                and seat in entry["dealt_in"]
                and (sitting.player_id if sitting else None) == entry["players"].get(key)
            )
            if not eligible:
                raise conflict("jackpot_not_staked", seat=seat)
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
