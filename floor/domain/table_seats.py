"""Who sits at a table: the draw that starts it, players joining, changing seat,
leaving, and moving to or from another table of the game [GA art. 23; PT 12,
80; CM-3, CM-5, CM-12], as a part of the Table aggregate (floor.domain.table).
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import event

from floor.domain.concern import TableConcern
from floor.domain.seat import Seat
from floor.domain.table_status import TableStatus
from floor.kernel.errors import conflict

# Why a player leaves a table: the events record one.
LEAVING_REASONS = ("left", "must_leave", "removed")
# The seat freed by the absence clock [CM-18]: the clock decides it, nobody asks.
ABSENCE_EXPIRED = "absence_expired"


def arrival_at(version: int) -> int:
    """A seat's ``arrival``: the number of the table's event that seats the
    player (``version``, the table's before it, plus one) times 100; a draw
    adds each player's place in it (list order). Recorded in the event, so a
    snapshot and the log agree, and the order players arrived in needs no
    clock (floor.domain.must_move)."""
    return (version + 1) * 100


class SeatingMixin(TableConcern):
    """The Table's seating: its decisions and their events."""

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
            raise conflict("table_not_registering", table=self.number)
        self._seats_drawn(
            assignment=assignment,
            record=record,
            button=button,
            button_draw=button_draw,
            draw_open=draw_open,
            arrival=arrival_at(self.version),
        )

    @event("SeatsDrawn")
    def _seats_drawn(
        self,
        assignment: dict[str, int],
        record: dict,
        button: int | None,
        button_draw: dict | None,
        draw_open: bool,
        arrival: int | None = None,  # recorded since must-move tables (issue 24)
    ) -> None:
        for place, (player_id, seat) in enumerate(assignment.items()):
            sat = Seat.sit(player_id, newcomer=False, posts_big_blind=False)
            if arrival is not None:  # in list order, the order they drew in
                sat = sat.but(arrival=arrival + place)
            self._put_seat(seat, sat)
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
            arrival=arrival_at(self.version),
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
        arrival: int | None = None,  # recorded since must-move tables (issue 24)
    ) -> None:
        sat = Seat.sit(player_id, newcomer=newcomer, posts_big_blind=posts_big_blind)
        self._put_seat(seat, sat.but(time_due=time_due, arrival=arrival))
        if not self.free_seats():
            self.draw_open = False

    def request_seat_change(self, player_id: UUID) -> None:
        """A seated player asks for another seat: they come before the list when
        a seat frees [PT 12; CM-5]."""
        self.check_not_closed()
        self.seated(player_id)
        if player_id.hex in self.seat_change_requests:
            raise conflict("seat_change_already_requested")
        self._seat_change_requested(player_id=player_id.hex)

    @event("SeatChangeRequested")
    def _seat_change_requested(self, player_id: str) -> None:
        self.seat_change_requests = [*self.seat_change_requests, player_id]

    def withdraw_seat_change(self, player_id: UUID) -> None:
        if player_id.hex not in self.seat_change_requests:
            raise conflict("no_seat_change_request")
        self._seat_change_withdrawn(player_id=player_id.hex)

    @event("SeatChangeWithdrawn")
    def _seat_change_withdrawn(self, player_id: str) -> None:
        self.seat_change_requests = [p for p in self.seat_change_requests if p != player_id]

    def check_seat_change_first(self, seat: int) -> None:
        """A vacancy goes first to a seated player who asked to change seat."""
        if self.seat_change_requests:
            raise conflict("seat_change_requested_first", seat=seat)

    def change_seat(self, player_id: UUID, seat: int) -> int:
        self.check_not_closed()
        self.check_no_hand()
        old, _state = self.seated(player_id)
        self.check_seat_free(seat)
        self._seat_changed(
            player_id=player_id.hex,
            old_seat=old,
            seat=seat,
            undoable=True,
            hands=self.hands_played,
        )
        return old

    @event("SeatChanged")
    def _seat_changed(
        self,
        player_id: str,
        old_seat: int,
        seat: int,
        undoable: bool = False,
        hands: int | None = None,  # the table's hands played at the change (issue 22)
    ) -> None:
        self.occupants[str(seat)] = self.occupants.pop(str(old_seat))
        if undoable:  # recorded since the corrections (issue 22): older changes are not undone
            moved_from = {
                "table": self.id.hex,
                "seat": old_seat,
                "kind": "seat_change",
                "hands": hands,
            }
            self._update_seat(seat, moved_from=moved_from)
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
            raise conflict("player_away", seat=seat)
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
        self,
        player_id: UUID,
        seat: int,
        stack: int,
        from_table: UUID,
        kind: str,
        from_seat: int | None = None,
        *,
        from_hands: int | None = None,
        from_rests: int = 0,
        rests: int = 0,
        newcomer: bool = False,
        posts_big_blind: bool = False,
        from_arrival: int | None = None,
        arrival: int | None = None,
    ) -> None:
        """A player moved from another table of the game sits with their stack.
        ``from_seat``, the seat they left, is kept while the move may be
        undone, with ``from_hands``, the hands that table had played then
        (an undo once it played more would seat them back owing no blinds),
        and ``from_rests``, the rests they had taken there, given back by
        an undo (``rests``): a move by mistake does not wipe them [PT 13].
        ``newcomer``: a must-move player joining the main game once it dealt
        sits as a newcomer there [PT 80; CM-17], posting the big blind now if
        ``posts_big_blind`` (floor.domain.must_move); the other moves take the
        big blind's seat and need neither. ``from_arrival``, the seat's arrival
        at the table left, is kept with ``from_seat`` so that an undo gives it
        back (``arrival``): a must-move player moved by mistake keeps their
        place in line. Otherwise the player arrives now."""
        self.check_started()
        self.check_seat_free(self.check_seat_number(seat))
        newcomer = newcomer and (self.hands_played > 0 or self.hand is not None)
        flags = {"newcomer": True, "posts_big_blind": posts_big_blind} if newcomer else {}
        self._player_moved_in(
            player_id=player_id.hex,
            seat=seat,
            stack=stack,
            from_table=from_table.hex,
            kind=kind,
            from_seat=from_seat,
            from_hands=from_hands,
            from_rests=from_rests,
            rests=rests,
            arrival=arrival if arrival is not None else arrival_at(self.version),
            **flags,  # recorded since must-move tables (issue 24); older events: none
            **({"from_arrival": from_arrival} if from_arrival is not None else {}),
        )

    @event("PlayerMovedIn")
    def _player_moved_in(
        self,
        player_id: str,
        seat: int,
        stack: int,
        from_table: str,
        kind: str,
        from_seat: int | None = None,  # recorded since the corrections (issue 22)
        from_hands: int | None = None,  # recorded since the review of issue 22
        from_rests: int = 0,
        rests: int = 0,
        newcomer: bool = False,
        posts_big_blind: bool = False,
        arrival: int | None = None,  # recorded since must-move tables (issue 24)
        from_arrival: int | None = None,  # the same
    ) -> None:
        sat = Seat.sit(player_id, newcomer=newcomer, posts_big_blind=posts_big_blind)
        moved_from = None
        if from_seat is not None and kind != "undo":  # an undo is not undone again
            moved_from = {
                "table": from_table,
                "seat": from_seat,
                "kind": kind,
                "hands": from_hands,
                "rests": from_rests,
            }
            if from_arrival is not None:
                moved_from["arrival"] = from_arrival
        self._put_seat(
            seat,
            sat.but(
                stack=stack,
                must_rebuy=stack < self.minimum_cents,
                moved_from=moved_from,
                rests=rests,
                arrival=arrival,
            ),
        )
        if not self.free_seats():
            self.draw_open = False
