"""A poker table: its game, its seats and who sits in them, its lifecycle and
its hands (RULES.md sections 2 to 5).

Lifecycle: ``registering`` (opened, seats not drawn) -> ``running`` ->
``suspended`` (fewer than four players, PT 24; GA art. 23) -> ``running`` ...
-> ``closed``. Every decision is taken in a method before its event, and the
event records what was decided (the flags a hand raised, the seats a draw
gave), so the log explains itself when replayed.

A seat's state is a ``Seat`` value (floor.domain.seat); the table stores each
as the plain dict it converts to, so that snapshots stay JSON as before.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from eventsourcing.domain import event

from floor.domain import banked_hand, hand_rules
from floor.domain.absence import AbsenceMixin
from floor.domain.action_clock import ActionClockMixin
from floor.domain.aggregate import AuditedAggregate
from floor.domain.errors import conflict, forbidden, invalid
from floor.domain.game import Game
from floor.domain.seat import Seat
from floor.domain.session_clock import SessionClockMixin
from floor.domain.table_spec import TableSpec
from games.profile_rules import BuyInBounds, BuyInRules
from games.profiles import RuleProfile

# Why a player leaves a table, and why a table closes: the events record one.
LEAVING_REASONS = ("left", "must_leave", "removed")
# The seat freed by the absence clock [CM-18]: the clock decides it, nobody asks.
ABSENCE_EXPIRED = "absence_expired"
# Where a buy-in's chips come from: cash given at the table (chips from its
# tray), chips bought at the cage and brought to the seat, or the player's own
# chips from off the tables.
PAYMENT_SOURCES = ("cash", "cage", "chips")
# Why chips may leave a table [CM-15].
CHIPS_OFF_PURPOSES = ("tip", "hospitality")
CLOSING_REASONS = ("closed_by_jefe", "suspension_expired", "closing_time", "table_broken")


class TableStatus:
    REGISTERING = "registering"
    RUNNING = "running"
    SUSPENDED = "suspended"
    CLOSED = "closed"


def new_seat_state(player_id: str, *, newcomer: bool, posts_big_blind: bool) -> dict:
    """A seat's stored state when a player sits down (``Seat.sit``)."""
    return Seat.sit(player_id, newcomer=newcomer, posts_big_blind=posts_big_blind).to_state()


class Table(ActionClockMixin, AbsenceMixin, SessionClockMixin, AuditedAggregate):
    # Version 2 added the absence clock, the session clock and the last hands;
    # version 3 the jackpot stakes, version 4 the dealer: a snapshot taken
    # before them is brought up to date when loaded.
    class_version = 4

    @staticmethod
    def upcast_v1_v2(state: dict) -> None:
        state.setdefault("session", None)
        state.setdefault("sessions_started", 0)
        state.setdefault("last_hands", None)
        for seat in state.get("occupants", {}).values():
            seat.setdefault("played_hand", False)
            seat.setdefault("away", None)
            seat.setdefault("time_due", False)

    @staticmethod
    def upcast_v2_v3(state: dict) -> None:
        state.setdefault("jackpot_stakes", {})

    @staticmethod
    def upcast_v3_v4(state: dict) -> None:
        state.setdefault("dealer", None)

    @classmethod
    def open(cls, *, table_id: UUID, sector_id: UUID, number: int, spec: TableSpec) -> Table:
        """Opens a checked table under the number its sector gave it."""
        return cls(
            id=table_id,
            sector_id=sector_id,
            number=number,
            variant=spec.variant,
            limit=spec.limit,
            minimum_cents=spec.minimum_cents,
            maximum_cents=spec.maximum_cents,
            seats=spec.seats,
            second_variant=spec.second_variant,
            banked=spec.banked,
            ante_cents=spec.ante_cents,
            rake=spec.rake,
        )

    @event("Opened")
    def __init__(
        self,
        id: UUID,  # noqa: A002 - chosen before the sector numbers the table
        sector_id: UUID,
        number: int,
        variant: str,
        limit: str,
        minimum_cents: int,
        maximum_cents: int,
        seats: int,
        second_variant: str | None = None,
        banked: bool = False,
        ante_cents: int = 0,
        rake: dict | None = None,
    ) -> None:
        self.sector_id = sector_id
        self.number = number
        # The crupier dealing here: the only dealer who may report its hands.
        self.dealer: str | None = None
        self.variant = variant
        self.second_variant = second_variant
        self.limit = limit
        self.minimum_cents = minimum_cents
        self.maximum_cents = maximum_cents
        self.seats = seats
        self.banked = banked
        self.ante_cents = ante_cents
        self.rake = rake
        self.status = TableStatus.REGISTERING
        # str(seat) -> the seat's stored state (Seat.to_state; read it with seat_at).
        self.occupants: dict[str, dict] = {}
        self.button: int | None = None
        self.hand: dict | None = None  # the hand in progress
        self.last_button: int | None = None
        self.hands_played = 0
        self.draw_open = False
        self.seat_change_requests: list[str] = []  # player ids, in order [PT 12; CM-5]
        self.suspension: dict | None = None
        self.action_clock: dict | None = None
        self.session: dict | None = None  # the time rake's session (session_clock.py)
        # Jackpot stakes of the last and next hands: jackpot -> hand -> stakes.
        self.jackpot_stakes: dict[str, dict] = {}
        self.sessions_started = 0
        # The last hands of the night [CM-24]: {"left": hands still to deal}.
        self.last_hands: dict | None = None

    # --- reading ----------------------------------------------------------------

    @property
    def game(self) -> Game:
        return Game(self.variant, self.limit, self.minimum_cents, self.maximum_cents)

    @property
    def label(self) -> str:
        return f"table {self.number}"

    def seat_of(self, player_id: UUID) -> int | None:
        for seat, state in self.occupants.items():
            if state["player_id"] == player_id.hex:
                return int(seat)
        return None

    def seat_at(self, seat: int | str) -> Seat | None:
        """The seat's state, None when nobody sits there."""
        state = self.occupants.get(str(seat))
        return None if state is None else Seat.from_state(state)

    def taken_seats(self) -> dict[int, Seat]:
        """Every occupied seat's state, by seat number, in seat order."""
        return {seat: Seat.from_state(self.occupants[str(seat)]) for seat in self.occupied()}

    def occupant(self, seat: int) -> dict | None:
        """The seat's stored state (a dict of ``Seat``'s fields), for readers
        outside the domain; the domain reads ``seat_at``."""
        return self.occupants.get(str(seat))

    def occupied(self) -> list[int]:
        return sorted(int(s) for s in self.occupants)

    def free_seats(self) -> list[int]:
        return [s for s in range(1, self.seats + 1) if str(s) not in self.occupants]

    @property
    def player_count(self) -> int:
        return len(self.occupants)

    # --- the dealer ---------------------------------------------------------------

    def assign_dealer(self, username: str | None) -> str | None:
        """Names the crupier dealing here (None: nobody, the jefe reports)."""
        dealer = str(username).strip() if username else None
        self.check_not_closed()
        self._dealer_assigned(dealer=dealer or None)
        return dealer or None

    @event("DealerAssigned")
    def _dealer_assigned(self, dealer: str | None) -> None:
        self.dealer = dealer

    def check_dealt_by(self, username: str) -> None:
        """A dealer acts only on the table they deal."""
        if getattr(self, "dealer", None) != username:
            raise forbidden(
                "not_your_table",
                f"{username} does not deal at {self.label}.",
                table=self.number,
            )

    # --- checks shared by the commands ------------------------------------------

    def check_not_closed(self) -> None:
        if self.status == TableStatus.CLOSED:
            raise conflict("table_closed", f"{self.label} is closed.", table=self.number)

    def check_started(self) -> None:
        """Open and drawn: a table still registering seats nobody but by its draw."""
        self.check_not_closed()
        if self.status == TableStatus.REGISTERING:
            raise conflict(
                "table_not_started",
                f"The seats of {self.label} are drawn when it starts.",
                table=self.number,
            )

    def check_no_hand(self) -> None:
        """Chips are added and seats change only between hands [GA art. 21; PT 14]."""
        if self.hand is not None:
            raise conflict(
                "hand_in_progress",
                f"A hand is being played at {self.label}; wait for it to end.",
                table=self.number,
            )

    def check_seat_number(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self.seats:
            raise invalid(
                "seat_out_of_range",
                f"{self.label} has seats 1 to {self.seats}.",
                seats=self.seats,
            )
        return seat

    def check_seat_free(self, seat: int) -> None:
        if str(seat) in self.occupants:
            raise conflict("seat_taken", f"Seat {seat} is taken.", seat=seat)

    def seated(self, player_id: UUID) -> tuple[int, Seat]:
        """The player's seat and its state; refused when they do not sit here."""
        seat = self.seat_of(player_id)
        if seat is None:
            raise conflict("player_not_at_table", f"That player does not sit at {self.label}.")
        return seat, Seat.from_state(self.occupants[str(seat)])

    def seated_state(self, player_id: UUID) -> tuple[int, dict]:
        """``seated`` with the stored state, for readers outside the domain."""
        seat, _state = self.seated(player_id)
        return seat, self.occupants[str(seat)]

    def _put_seat(self, seat: int | str, state: Seat) -> None:
        """Stores a seat's new state (event handlers only)."""
        self.occupants[str(seat)] = state.to_state()

    def _update_seat(self, seat: int | str, **changes: object) -> None:
        """Changes some of a seat's fields (event handlers only)."""
        self._put_seat(seat, Seat.from_state(self.occupants[str(seat)]).but(**changes))

    # --- the draw ----------------------------------------------------------------

    def record_draw(
        self,
        assignment: dict[str, int],
        record: dict,
        button: int | None,
        button_draw: dict | None,
        draw_open: bool,
    ) -> None:
        """Seats the players the draw sent here and starts the game."""
        if self.status != TableStatus.REGISTERING:
            raise conflict(
                "table_not_registering",
                f"The seats of {self.label} were drawn already.",
                table=self.number,
            )
        self._seats_drawn(
            assignment=assignment,
            record=record,
            button=button,
            button_draw=button_draw,
            draw_open=draw_open,
        )

    @event("SeatsDrawn")
    def _seats_drawn(
        self,
        assignment: dict[str, int],
        record: dict,
        button: int | None,
        button_draw: dict | None,
        draw_open: bool,
    ) -> None:
        for player_id, seat in assignment.items():
            self._put_seat(seat, Seat.sit(player_id, newcomer=False, posts_big_blind=False))
        self.button = button
        self.status = TableStatus.RUNNING
        self.draw_open = draw_open and bool(self.free_seats())

    # --- joining, moving, leaving --------------------------------------------------

    def seat_player(
        self,
        player_id: UUID,
        seat: int,
        *,
        posts_big_blind: bool,
        drawn_from: list[int] | None,
        time_due: bool = False,
    ) -> None:
        """A player takes a free seat; ``drawn_from`` lists the free seats the
        seat was drawn among, when the draw is still open [CM-3]; ``time_due``:
        they sat down early enough in a session to pay it [PT 7b]."""
        self.check_started()
        self.check_seat_free(seat)
        newcomer = self.hands_played > 0 or self.hand is not None
        self._player_seated(
            player_id=player_id.hex,
            seat=seat,
            newcomer=newcomer,
            posts_big_blind=posts_big_blind and newcomer,
            drawn_from=drawn_from,
            time_due=time_due,
        )

    @event("PlayerSeated")
    def _player_seated(
        self,
        player_id: str,
        seat: int,
        newcomer: bool,
        posts_big_blind: bool,
        drawn_from: list[int] | None,
        time_due: bool = False,
    ) -> None:
        sat = Seat.sit(player_id, newcomer=newcomer, posts_big_blind=posts_big_blind)
        self._put_seat(seat, sat.but(time_due=time_due))
        if not self.free_seats():
            self.draw_open = False

    def request_seat_change(self, player_id: UUID) -> None:
        """A seated player asks for another seat: they come before the list when
        a seat frees [PT 12; CM-5]."""
        self.check_not_closed()
        self.seated(player_id)
        if player_id.hex in self.seat_change_requests:
            raise conflict("seat_change_already_requested", "That request is already noted.")
        self._seat_change_requested(player_id=player_id.hex)

    @event("SeatChangeRequested")
    def _seat_change_requested(self, player_id: str) -> None:
        self.seat_change_requests = [*self.seat_change_requests, player_id]

    def withdraw_seat_change(self, player_id: UUID) -> None:
        if player_id.hex not in self.seat_change_requests:
            raise conflict("no_seat_change_request", "That player asked for no seat change.")
        self._seat_change_withdrawn(player_id=player_id.hex)

    @event("SeatChangeWithdrawn")
    def _seat_change_withdrawn(self, player_id: str) -> None:
        self.seat_change_requests = [p for p in self.seat_change_requests if p != player_id]

    def check_seat_change_first(self, seat: int) -> None:
        """A vacancy goes first to a seated player who asked to change seat."""
        if self.seat_change_requests:
            raise conflict(
                "seat_change_requested_first",
                f"A player at {self.label} asked to change seat: offer seat {seat} to them first.",
                seat=seat,
            )

    def change_seat(self, player_id: UUID, seat: int) -> int:
        self.check_not_closed()
        self.check_no_hand()
        old, _state = self.seated(player_id)
        self.check_seat_free(seat)
        self._seat_changed(player_id=player_id.hex, old_seat=old, seat=seat)
        return old

    @event("SeatChanged")
    def _seat_changed(self, player_id: str, old_seat: int, seat: int) -> None:
        self.occupants[str(seat)] = self.occupants.pop(str(old_seat))
        self.seat_change_requests = [p for p in self.seat_change_requests if p != player_id]

    def remove_player(self, player_id: UUID, reason: str) -> tuple[int, int]:
        """The player leaves; returns their seat and the stack that stays theirs.
        A player away on the clock is in no hand: their seat may be freed while
        the others play [CM-18]."""
        self.check_not_closed()
        seat, state = self.seated(player_id)
        if not (reason == ABSENCE_EXPIRED and state.away):
            self.check_no_hand()
        self._player_left(player_id=player_id.hex, seat=seat, stack=state.stack, reason=reason)
        return seat, state.stack

    @event("PlayerLeft")
    def _player_left(self, player_id: str, seat: int, stack: int, reason: str) -> None:
        del self.occupants[str(seat)]
        self.seat_change_requests = [p for p in self.seat_change_requests if p != player_id]

    # --- changing table (floor.domain.balance decides where) --------------------------

    def send_player(self, player_id: UUID, to_table: UUID, kind: str) -> tuple[int, int]:
        """The player leaves for another table of the game with their stack
        [CM-12], between hands. Returns their seat and stack."""
        self.check_not_closed()
        self.check_no_hand()
        seat, state = self.seated(player_id)
        if state.away and kind != "break":
            # Their absence clock runs here; they move once back [CM-18].
            raise conflict("player_away", f"The player in seat {seat} is away (CM-18).", seat=seat)
        self._player_moved_out(
            player_id=player_id.hex,
            seat=seat,
            stack=state.stack,
            to_table=to_table.hex,
            kind=kind,
        )
        return seat, state.stack

    @event("PlayerMovedOut")
    def _player_moved_out(
        self, player_id: str, seat: int, stack: int, to_table: str, kind: str
    ) -> None:
        del self.occupants[str(seat)]
        self.seat_change_requests = [p for p in self.seat_change_requests if p != player_id]

    def receive_player(
        self, player_id: UUID, seat: int, stack: int, from_table: UUID, kind: str
    ) -> None:
        """A player moved from another table of the game sits with their stack."""
        self.check_started()
        self.check_seat_free(self.check_seat_number(seat))
        self._player_moved_in(
            player_id=player_id.hex, seat=seat, stack=stack, from_table=from_table.hex, kind=kind
        )

    @event("PlayerMovedIn")
    def _player_moved_in(
        self, player_id: str, seat: int, stack: int, from_table: str, kind: str
    ) -> None:
        sat = Seat.sit(player_id, newcomer=False, posts_big_blind=False)
        self._put_seat(seat, sat.but(stack=stack, must_rebuy=stack < self.minimum_cents))
        if not self.free_seats():
            self.draw_open = False

    # --- chips -------------------------------------------------------------------

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
            raise invalid("amount_invalid", "A buy-in is a positive number of cents.")
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
                    raise conflict(
                        "buy_in_not_table_average",
                        "Joining a game in progress, a player brings the average capital "
                        "at the table (PT 28).",
                        average_cents=average,
                    )
            elif house is not None:
                self._check_house_bounds(house, False, amount, amount)
            elif not self.minimum_cents <= amount <= self.maximum_cents:
                raise conflict(
                    "buy_in_out_of_limits",
                    "The buy-in lies between the table's minimum and maximum.",
                    minimum_cents=self.minimum_cents,
                    maximum_cents=self.maximum_cents,
                )
        elif house is not None:
            capped = state.stack + amount if (rules and rules.rebuy_caps_stack) else amount
            self._check_house_bounds(house, True, amount, capped, stack_cents=state.stack)
        elif amount < self.minimum_cents or state.stack + amount > self.maximum_cents:
            raise conflict(
                "rebuy_out_of_limits",
                "A rebuy is at least the table minimum and leaves the stack at most "
                "the table maximum.",
                minimum_cents=self.minimum_cents,
                maximum_cents=self.maximum_cents,
                stack_cents=state.stack,
            )
        if paid_with not in PAYMENT_SOURCES:
            raise invalid(
                "paid_with_invalid",
                "A buy-in is paid with cash at the table, at the cage, or with the "
                "player's own chips.",
                choices=list(PAYMENT_SOURCES),
            )
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
        what = "rebuy" if rebuy else "first buy-in"
        if amount < house.minimum_cents:
            raise conflict(
                "rebuy_below_minimum" if rebuy else "buy_in_below_minimum",
                f"A {what} here is at least {house.minimum_cents} cents ({house.source}).",
                **bounds,
            )
        if capped > house.maximum_cents:
            raise conflict(
                "rebuy_above_maximum" if rebuy else "buy_in_above_maximum",
                f"A {what} here leaves at most {house.maximum_cents} cents in front of "
                f"the player ({house.source}).",
                **bounds,
            )

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
            raise invalid(
                "chips_may_not_leave",
                "Chips leave the table only for tips or hospitality (CM-15).",
                choices=list(CHIPS_OFF_PURPOSES),
            )
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise invalid("amount_invalid", "An amount is a positive number of cents.")
        if amount > most_cents:
            raise conflict(
                "chips_off_over_limit",
                "Too many chips to leave the table at once for tips or hospitality (CM-15).",
                maximum_cents=most_cents,
            )
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
            raise conflict(
                "stack_too_small",
                f"Seat {seat} has {state.stack} cents of chips.",
                seat=seat,
                stack_cents=state.stack,
            )

    @event("ChipsTakenOff")
    def _chips_taken_off(
        self, seat: int, player_id: str, amount: int, purpose: str, stack: int
    ) -> None:
        self._set_stack(seat, stack)

    def _set_stack(self, seat: int, stack: int) -> None:
        self._update_seat(seat, stack=stack, must_rebuy=stack < self.minimum_cents)

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
                raise conflict("seat_empty", f"Seat {seat} is empty.", seat=seat)
            if state.away or state.resting:
                raise conflict(
                    "seat_not_playing", f"Seat {seat} does not play the next hand.", seat=seat
                )
            if str(seat) in staked:
                raise conflict(
                    "jackpot_already_staked",
                    f"Seat {seat} already staked on the jackpot for this hand.",
                    seat=seat,
                )
            self._check_stack_covers(seat, state, cents)
            checked[str(seat)] = cents
        if not checked:
            raise invalid("stakes_required", "Name the seats that staked on the jackpot.")
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
                raise conflict(
                    "jackpot_not_staked",
                    f"Seat {seat} did not stake on the jackpot in the hand just played, "
                    "or its prizes were paid.",
                    seat=seat,
                )
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

    # --- banked hands (floor.domain.banked_hand decides) ----------------------------

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
            self._update_seat(seat, played_hand=True)
        self.hands_played += 1
        # The last hands announced at closing count down [GA art. 7, 15.3].
        if self.last_hands is not None:
            self.last_hands["left"] -= 1

    # --- rest ----------------------------------------------------------------------

    def start_rest(self, player_id: UUID, *, repeated_rests_leave: bool) -> None:
        """A player may rest two hands on request without losing the seat
        [GA art. 20; PT 13]; under PT, resting again and again means leaving."""
        self.check_not_closed()
        seat, state = self.seated(player_id)
        if state.resting:
            raise conflict("player_already_resting", "That player is already resting.")
        if state.away:
            raise conflict("player_away", f"The player in seat {seat} is away (CM-18).", seat=seat)
        if repeated_rests_leave and state.rests >= 2:
            raise conflict(
                "rest_used_repeatedly",
                "A player who keeps resting must leave the table (PT 13).",
                seat=seat,
            )
        self._rest_started(seat=seat)

    @event("RestStarted")
    def _rest_started(self, seat: int) -> None:
        rests = self.seat_at(seat).rests + 1
        self._update_seat(seat, resting=True, rested_hands=0, rests=rests)

    def end_rest(self, player_id: UUID) -> None:
        seat, state = self.seated(player_id)
        if not state.resting:
            raise conflict("player_not_resting", "That player is not resting.")
        self._rest_ended(seat=seat, owes_cents=state.owes_cents)

    @event("RestEnded")
    def _rest_ended(self, seat: int, owes_cents: int) -> None:
        self._update_seat(seat, resting=False, rested_hands=0, rest_exceeded=False)

    # --- suspension and closing ----------------------------------------------------

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
            raise conflict(
                "timer_not_due",
                f"The suspension of {self.label} closes it at {closes_at:%H:%M:%S}.",
                due=closes_at.isoformat(),
            )
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
            raise conflict("last_hands_started", f"{self.label} already plays its last hands.")
        self._last_hands_started(hands=hands)

    @event("LastHandsStarted")
    def _last_hands_started(self, hands: int) -> None:
        self.last_hands = {"left": hands}

    @property
    def last_hands_done(self) -> bool:
        """The last hand of the night has been played: the table closes."""
        return self.last_hands is not None and self.last_hands["left"] <= 0 and self.hand is None

    # --- the absence clock's events (its decisions: floor.domain.absence) ---------------

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

    # --- the session clock's events (its decisions: floor.domain.session_clock) ---------

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

    # --- the action clock's events (its decisions: floor.domain.action_clock) ----------

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

    # --- hands ----------------------------------------------------------------------

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
            state = self.seat_at(seat)
            self._put_seat(
                seat,
                state.but(
                    played_hand=True,
                    # The big blind owed is posted: the five hands count again [PT 89].
                    idle_hands=0 if state.must_post_big_blind else state.idle_hands,
                    newcomer=False,
                    posts_big_blind=False,
                    owes_cents=0,
                    must_post_big_blind=False,
                ),
            )
        for seat, amount in missed.items():
            self._update_seat(seat, owes_cents=self.seat_at(seat).owes_cents + amount)
        for seat in resting:
            self._update_seat(seat, rested_hands=self.seat_at(seat).rested_hands + 1)
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
