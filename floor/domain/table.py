"""A poker table: its game, its seats and who sits in them, its lifecycle and
its hands (RULES.md sections 2 to 5).

Lifecycle: see floor.domain.table_status. Every decision is taken in a method
before its event, and the event records what was decided (the flags a hand
raised, the seats a draw gave), so the log explains itself when replayed.

A seat's state is a ``Seat`` value (floor.domain.seat); the table stores each
as the plain dict it converts to, so that snapshots stay JSON as before.

This module holds the aggregate's state, its opening, the dealer and the reads
and checks every concern shares. The concerns are mixins, each in its own
module with its decisions and its events: seating (table_seats), chips,
jackpot stakes (table_jackpots), hands, rests, suspension and closing
(table_closing), and the absence, action and session clocks. Their events stay
the Table's own (``Table.HandStarted``, topic ``floor.domain.table:Table.*``),
as stored since the start (floor.domain.concern).
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import event

from floor.domain.absence import AbsenceMixin
from floor.domain.action_clock import ActionClockMixin
from floor.domain.chips import CHIPS_OFF_PURPOSES, PAYMENT_SOURCES, ChipsMixin
from floor.domain.corrections import CorrectionsMixin
from floor.domain.game import Game
from floor.domain.hands import HandsMixin
from floor.domain.rests import RestsMixin
from floor.domain.seat import Seat
from floor.domain.session_clock import SessionClockMixin
from floor.domain.table_closing import CLOSING_REASONS, ClosingMixin
from floor.domain.table_jackpots import JackpotStakesMixin
from floor.domain.table_seats import ABSENCE_EXPIRED, LEAVING_REASONS, SeatingMixin
from floor.domain.table_spec import TableSpec
from floor.domain.table_status import TableStatus
from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict, forbidden, invalid

__all__ = [
    "ABSENCE_EXPIRED",
    "CHIPS_OFF_PURPOSES",
    "CLOSING_REASONS",
    "LEAVING_REASONS",
    "PAYMENT_SOURCES",
    "Table",
    "TableStatus",
]


class Table(
    SeatingMixin,
    ChipsMixin,
    JackpotStakesMixin,
    HandsMixin,
    RestsMixin,
    ClosingMixin,
    ActionClockMixin,
    AbsenceMixin,
    SessionClockMixin,
    CorrectionsMixin,
    AuditedAggregate,
):
    """The table's state, the reads and checks its concerns share, and its
    opening; each concern (seating, chips, jackpot stakes, hands, rests,
    closing, the three clocks) is a mixin in its own module, events included
    (floor.domain.concern makes them the Table's own)."""

    # Version 2 added the absence clock, the session clock and the last hands;
    # version 3 the jackpot stakes, version 4 the dealer, version 5 a seat's
    # absence asked for after the hand, version 6 the seat a move came from
    # (floor.domain.corrections), version 7 a seat's arrival (floor.domain.
    # must_move): a snapshot taken before them is brought up to date when loaded.
    class_version = 7

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

    @staticmethod
    def upcast_v4_v5(state: dict) -> None:
        for seat in state.get("occupants", {}).values():
            seat.setdefault("away_after_hand", False)

    @staticmethod
    def upcast_v5_v6(state: dict) -> None:
        for seat in state.get("occupants", {}).values():
            seat.setdefault("moved_from", None)

    @staticmethod
    def upcast_v6_v7(state: dict) -> None:
        for seat in state.get("occupants", {}).values():
            seat.setdefault("arrival", None)

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
            raise forbidden("not_your_table", table=self.number)

    # --- checks shared by the commands ------------------------------------------

    def check_not_closed(self) -> None:
        if self.status == TableStatus.CLOSED:
            raise conflict("table_closed", table=self.number)

    def check_started(self) -> None:
        """Open and drawn: a table still registering seats nobody but by its draw."""
        self.check_not_closed()
        if self.status == TableStatus.REGISTERING:
            raise conflict("table_not_started", table=self.number)

    def check_no_hand(self) -> None:
        """Chips are added and seats change only between hands [GA art. 21; PT 14]."""
        if self.hand is not None:
            raise conflict("hand_in_progress", table=self.number)

    def check_seat_number(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self.seats:
            raise invalid("seat_out_of_range", seats=self.seats)
        return seat

    def check_seat_free(self, seat: int) -> None:
        if str(seat) in self.occupants:
            raise conflict("seat_taken", seat=seat)

    def seated(self, player_id: UUID) -> tuple[int, Seat]:
        """The player's seat and its state; refused when they do not sit here."""
        seat = self.seat_of(player_id)
        if seat is None:
            raise conflict("player_not_at_table")
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
        key = str(seat)
        self.occupants[key] = Seat.changed(self.occupants[key], **changes)
