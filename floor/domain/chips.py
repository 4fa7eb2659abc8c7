"""Chips at a table: buy-ins and rebuys between hands [GA art. 21; PT 14, 28;
CM-2, CM-16], and chips off the table for tips and hospitality [CM-15], as a
part of the Table aggregate (floor.domain.table). The ledger books the money
each event moves (ledger.domain.floor_money).
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.domain.seat import Seat
from floor.kernel.errors import conflict, invalid
from games.profile_rules import BuyInBounds, BuyInRules

# Where a buy-in's chips come from: cash given at the table (chips from its
# tray), chips bought at the cage and brought to the seat, or the player's own
# chips from off the tables.
PAYMENT_SOURCES = ("cash", "cage", "chips")
# Why chips may leave a table [CM-15].
CHIPS_OFF_PURPOSES = ("tip", "hospitality")


class ChipsMixin(TableConcern):
    """The Table's chips: buy-ins, chips off, and the stack every change sets."""

    def buy_in(
        self,
        player_id: UUID,
        amount: int,
        *,
        table_average: bool,
        paid_with: str = "cash",
        rules: BuyInRules | None = None,
    ) -> int:
        """Chips bought at the table, between hands only [GA art. 21; PT 14].

        ``paid_with`` says where the chips come from (ledger.domain.floor_money):
        cash at the table, a purchase at the cage, or the player's own chips.
        Every door that puts bought chips on a seat (the floor's buy-in, the
        cage's) comes through here with the profile's ``rules``.

        First buy-in: within the amounts the profile fixes for this variant
        (100 to 1,000 EUR at CM's Hold'em tables [CM-2]), else within the
        table's minimum and maximum; joining a game in progress under PT, the
        average capital at the table [PT 28].
        Rebuy: at least the minimum, the stack never past the maximum [CM-2].
        """
        self.check_not_closed()
        self.check_no_hand()
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise invalid("amount_invalid")
        seat, state = self.seated(player_id)
        house = (rules or BuyInRules()).bounds_for(self.variant)
        if state.stack == 0:
            if table_average and state.newcomer:
                # The capital in play: a seat just taken, without chips, adds none.
                others = [
                    s.stack for k, s in self.taken_seats().items() if k != seat and s.stack > 0
                ]
                average = sum(others) // len(others) if others else self.minimum_cents
                if amount != average:
                    raise conflict("buy_in_not_table_average", average_cents=average)
            elif house is not None:
                self._check_house_bounds(house, False, amount, amount)
            elif not self.minimum_cents <= amount <= self.maximum_cents:
                raise conflict(
                    "buy_in_out_of_limits",
                    minimum_cents=self.minimum_cents,
                    maximum_cents=self.maximum_cents,
                )
        elif house is not None:
            capped = state.stack + amount if (rules and rules.rebuy_caps_stack) else amount
            self._check_house_bounds(house, True, amount, capped, stack_cents=state.stack)
        elif amount < self.minimum_cents or state.stack + amount > self.maximum_cents:
            raise conflict(
                "rebuy_out_of_limits",
                minimum_cents=self.minimum_cents,
                maximum_cents=self.maximum_cents,
                stack_cents=state.stack,
            )
        if paid_with not in PAYMENT_SOURCES:
            raise invalid("paid_with_invalid", choices=list(PAYMENT_SOURCES))
        stack = state.stack + amount
        self._chips_bought(
            seat=seat, amount=amount, stack=stack, player_id=player_id.hex, paid_with=paid_with
        )
        # A session's time owed is paid from the chips bought [GA art. 18.3b; PT 7b].
        self.collect_time(seat)
        return self.seat_at(seat).stack

    @staticmethod
    def _check_house_bounds(
        house: BuyInBounds, rebuy: bool, amount: int, capped: int, **params: int
    ) -> None:
        """Refuses ``amount`` below the house minimum, or ``capped`` (the
        amount, or the stack it makes) past the maximum [CM-2]."""
        bounds = {
            "minimum_cents": house.minimum_cents,
            "maximum_cents": house.maximum_cents,
            "amount_cents": amount,
            "rule": house.source,
            **params,
        }
        if amount < house.minimum_cents:
            raise conflict("rebuy_below_minimum" if rebuy else "buy_in_below_minimum", **bounds)
        if capped > house.maximum_cents:
            raise conflict("rebuy_above_maximum" if rebuy else "buy_in_above_maximum", **bounds)

    @event("ChipsBought")
    def _chips_bought(
        self,
        seat: int,
        amount: int,
        stack: int,
        player_id: str | None = None,
        paid_with: str = "cash",
    ) -> None:
        if stack >= self.minimum_cents:
            self._update_seat(seat, stack=stack, must_rebuy=False)
        else:
            self._update_seat(seat, stack=stack)

    def take_off(self, player_id: UUID, amount: int, purpose: str, most_cents: int) -> int:
        """Chips leave the table only for a tip or hospitality, at most
        ``most_cents`` at a time, between hands [CM-15; GA art. 21; PT 14]."""
        self.check_not_closed()
        self.check_no_hand()
        if purpose not in CHIPS_OFF_PURPOSES:
            raise invalid("chips_may_not_leave", choices=list(CHIPS_OFF_PURPOSES))
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise invalid("amount_invalid")
        if amount > most_cents:
            raise conflict("chips_off_over_limit", maximum_cents=most_cents)
        seat, state = self.seated(player_id)
        self._check_stack_covers(seat, state, amount)
        self._chips_taken_off(
            seat=seat,
            player_id=player_id.hex,
            amount=amount,
            purpose=purpose,
            stack=state.stack - amount,
        )
        return self.seat_at(seat).stack

    def _check_stack_covers(self, seat: int, state: Seat, amount: int) -> None:
        if amount > state.stack:
            raise conflict("stack_too_small", seat=seat, stack_cents=state.stack)

    @event("ChipsTakenOff")
    def _chips_taken_off(
        self, seat: int, player_id: str, amount: int, purpose: str, stack: int
    ) -> None:
        self._set_stack(seat, stack)

    def _set_stack(self, seat: int, stack: int) -> None:
        self._update_seat(seat, stack=stack, must_rebuy=stack < self.minimum_cents)
