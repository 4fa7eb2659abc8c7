"""Must-move tables (issue 24, item 5; floor.domain.must_move): a seat freed at
the main table goes to the must-move table's players in the order they arrived
there, before the list [PT 12; CM-5], within the balance rule [CM-10], as a
newcomer to the main game [PT 80; CM-17]; PT runs none [PT 26]."""

from __future__ import annotations

from uuid import UUID

import pytest

from floor.domain import must_move
from floor.domain.balance_group import BalanceGroup
from floor.domain.player import Player
from tests.support.floor import HOLDEM, JEFE, new_id
from tests.support.room import Room, events_of, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app)


def group_of(room: Room, table_id: str) -> BalanceGroup:
    return room.app.repository.get(BalanceGroup.id_for(room.get(table_id).game))


def counts(room: Room, *tables: str) -> list[int]:
    return [room.get(t).player_count for t in tables]


# Six-seat tables: a must-move table opens when the main one is full (the
# list completes the open tables first [CM-8]).
SEATS = 6


def main_and_feeder(room: Room, feeder: int = 5, *, dealt: bool = True) -> tuple[str, str]:
    """A full main table that dealt a hand (``dealt``), and its must-move
    table of ``feeder`` players, drawn after it."""
    a, _cards = room.drawn_table(SEATS, seats=SEATS)
    if dealt:
        room.played(a)
    b, _cards = room.drawn_table(feeder, seats=SEATS)
    room.app.start_must_move(JEFE, new_id(), table_id=b, main_table_id=a)
    return a, b


def arrival_order(room: Room, table_id: str) -> list[str]:
    """The table's cards in the order they arrived (the seats' ``arrival``)."""
    table = room.get(table_id)
    seats = must_move.arrival_order(must_move.feeder_seats(table.occupants))
    return [room.get(s.player_id).card_number for s in seats]


def a_main_player_leaves(room: Room, main: str) -> tuple[int, dict]:
    card = next(iter(room.seats(main).values()))
    left = room.leave(main, card)
    return left["seat"], left["offered"]


def test_a_seat_freed_at_the_main_table_goes_first_to_the_first_arrived_at_the_must_move_table(
    room,
):
    a, b = main_and_feeder(room, 6)
    # A late arrival takes the seat of the third to arrive: arrival, not the
    # seat, says who moves.
    room.leave(b, arrival_order(room, b)[2])
    late = room.new_player("Late")
    room.join(late, b)
    room.sit(b, late, seat=room.get(b).free_seats()[0])
    room.buy(b, late, 1000)
    assert arrival_order(room, b)[-1] == late
    first = arrival_order(room, b)[0]
    waiting = room.new_player("Waits")
    room.join(waiting, a)

    seat, offered = a_main_player_leaves(room, a)  # 5 at the main, 6 at the must-move

    assert offered == {
        "must_move": str(Player.create_id(first)),
        "from_table": b,
        "from_seat": room.seat_of(b, first),
    }
    # Before the list [PT 12; CM-5]: the waiting player may not take it.
    refused(
        room.app, "must_move_first", room.app.seat_player, JEFE, new_id(),
        table_id=a, player=waiting, seat=seat,
    )  # fmt: skip
    stack = room.state(b, first)["stack"]
    moved = room.app.move_from_must_move(JEFE, new_id(), table_id=a, seat=seat).result

    assert (moved["player_id"], moved["kind"]) == (str(Player.create_id(first)), "must_move")
    assert counts(room, a, b) == [6, 5]
    state = room.state(a, first)
    # With their stack [CM-12], a newcomer to the main game: waits for the
    # big blind [CM-17] and may not take the button first [PT 80].
    assert (state["stack"], state["newcomer"], state["posts_big_blind"]) == (stack, True, False)
    assert room.player(first).seated_at == {"table_id": UUID(a).hex, "seat": seat}
    # The seat left at the must-move table is offered to the list at once.
    assert moved["offered"]["called"] == str(Player.create_id(waiting))
    event = events_of(room.app, group_of(room, a).id, "PlayerMoved")[-1]
    assert (event.kind, event.to_table, event.from_table) == (
        "must_move",
        UUID(a).hex,
        UUID(b).hex,
    )
    # Next time, the next in arrival order.
    assert arrival_order(room, b)[0] != first


def test_the_player_moving_may_post_the_big_blind_at_once(room):
    a, b = main_and_feeder(room, 6)
    first = arrival_order(room, b)[0]
    seat, _offered = a_main_player_leaves(room, a)
    room.app.move_from_must_move(JEFE, new_id(), table_id=a, seat=seat, post_big_blind=True)
    state = room.state(a, first)
    assert (state["newcomer"], state["posts_big_blind"]) == (True, True)


def test_the_balance_rule_holds_the_move_and_the_seat_goes_to_the_list(room):
    # 6 and 5: one leaving the main leaves 5 and 5; a move would leave 6 and 4 [CM-10].
    a, b = main_and_feeder(room, 5)
    waiting = room.new_player("Waits")
    room.join(waiting, a)
    seat, offered = a_main_player_leaves(room, a)
    assert offered["called"] == str(Player.create_id(waiting))
    # The seat is held for the called player [CM-6]; no other is free.
    refused(
        room.app, "waiting_list_first", room.app.move_from_must_move, JEFE, new_id(),
        table_id=a, seat=seat,
    )  # fmt: skip
    room.sit(a, waiting, seat=seat)
    room.leave(a, waiting)  # the seat free again, and nobody called: still nobody moves
    refused(
        room.app, "nobody_to_move", room.app.move_from_must_move, JEFE, new_id(),
        table_id=a, seat=seat,
    )  # fmt: skip
    room.join(waiting, a)
    room.sit(a, waiting, seat=seat)
    assert counts(room, a, b) == [6, 5]


def test_where_no_balance_rule_binds_the_must_move_table_keeps_the_main_full(make_app):
    room = Room(make_app("GA"))
    a, b = main_and_feeder(room, 5, dealt=False)
    first = arrival_order(room, b)[0]
    seat, offered = a_main_player_leaves(room, a)
    assert offered["must_move"] == str(Player.create_id(first))
    room.app.move_from_must_move(JEFE, new_id(), table_id=a, seat=seat)
    assert counts(room, a, b) == [6, 4]


def test_pt_runs_no_must_move_table(make_app):
    room = Room(make_app("PT"))
    a, b = room.table(), room.table()
    refused(
        room.app,
        "must_move_not_allowed",
        room.app.start_must_move,
        JEFE,
        new_id(),
        table_id=b,
        main_table_id=a,
    )  # fmt: skip  [PT 26]
    assert group_of(room, a).must_move == {}


def test_nobody_moves_during_the_must_move_tables_hand_nor_while_away(room):
    a, b = main_and_feeder(room, 6)
    room.played(b)
    first = arrival_order(room, b)[0]
    room.start(b)
    seat, _offered = a_main_player_leaves(room, a)
    refused(
        room.app, "hand_in_progress", room.app.move_from_must_move, JEFE, new_id(),
        table_id=a, seat=seat,
    )  # fmt: skip
    room.end(b)
    # Away on the absence clock, the first arrived moves once back [CM-18]:
    # the next in arrival order goes now.
    room.app.start_absence(JEFE, new_id(), table_id=b, player=first)
    second = arrival_order(room, b)[1]
    moved = room.app.move_from_must_move(JEFE, new_id(), table_id=a, seat=seat).result
    assert moved["player_id"] == str(Player.create_id(second))


def test_a_seat_change_keeps_the_players_arrival():
    seats = [
        must_move.FeederSeat(seat=1, player_id="late", arrival=900, away=False),
        must_move.FeederSeat(seat=7, player_id="first", arrival=300, away=False),
        must_move.FeederSeat(seat=4, player_id="second", arrival=301, away=False),
        must_move.FeederSeat(seat=9, player_id="before", arrival=None, away=False),
    ]
    order = [s.player_id for s in must_move.arrival_order(seats)]
    assert order == ["before", "first", "second", "late"]
    assert must_move.next_to_move(seats, kept_apart={"before"}).player_id == "first"


def test_a_seat_change_at_the_must_move_table_keeps_the_place_in_line(room):
    _main, b = main_and_feeder(room, 5)
    first = arrival_order(room, b)[0]
    free = room.get(b).free_seats()[0]
    room.app.change_seat(JEFE, new_id(), table_id=b, player=first, seat=free)
    assert arrival_order(room, b)[0] == first


def test_the_jefe_starts_and_ends_a_must_move_table_with_its_checks(room):
    a, _cards = room.drawn_table(SEATS, seats=SEATS)
    b, _cards = room.drawn_table(SEATS, seats=SEATS)
    c, _cards = room.drawn_table(5, seats=SEATS)
    other = room.table(**{**HOLDEM, "minimum_cents": 500, "maximum_cents": 2000, "seats": SEATS})
    start = room.app.start_must_move
    refused(room.app, "must_move_same_table", start, JEFE, new_id(), table_id=b, main_table_id=b)
    refused(room.app, "move_not_same_game", start, JEFE, new_id(), table_id=other, main_table_id=a)
    start(JEFE, new_id(), table_id=b, main_table_id=a)
    refused(room.app, "must_move_already", start, JEFE, new_id(), table_id=b, main_table_id=c)
    refused(room.app, "main_has_must_move", start, JEFE, new_id(), table_id=c, main_table_id=a)
    refused(room.app, "must_move_chain", start, JEFE, new_id(), table_id=c, main_table_id=b)
    refused(room.app, "must_move_chain", start, JEFE, new_id(), table_id=a, main_table_id=c)
    assert group_of(room, a).must_move == {UUID(b).hex: UUID(a).hex}
    ended = room.app.end_must_move(JEFE, new_id(), table_id=b).result
    assert ended == {"table_id": b, "main_table_id": a}
    assert group_of(room, a).must_move == {}
    refused(room.app, "not_must_move", room.app.end_must_move, JEFE, new_id(), table_id=b)
    seat, offered = a_main_player_leaves(room, a)
    assert offered is None or "must_move" not in offered
    refused(
        room.app, "no_must_move_table", room.app.move_from_must_move, JEFE, new_id(),
        table_id=a, seat=seat,
    )  # fmt: skip


def test_closing_either_table_ends_the_must_move(room):
    a, b = main_and_feeder(room, 6)
    room.app.close_table(JEFE, new_id(), table_id=a)
    group = group_of(room, b)
    assert group.must_move == {}
    ended = events_of(room.app, group.id, "MustMoveEnded")[-1]
    assert (ended.table_id, ended.reason) == (UUID(b).hex, "table_closed")


def test_a_player_called_for_a_main_seat_keeps_it_when_a_move_becomes_possible(room):
    """Called while the balance held the move [CM-10], the player holds the
    seat for the call's time [CM-6]: a player sitting down at the must-move
    table meanwhile (a move possible again) does not take it from them."""
    a, b = main_and_feeder(room, 5)
    waiting = room.new_player("Waits")
    room.join(waiting, a)
    seat, offered = a_main_player_leaves(room, a)  # 5 and 5: the list is called
    assert offered["called"] == str(Player.create_id(waiting))
    late = room.new_player("Late")
    room.join(late, b)
    room.sit(b, late)  # a drawn seat [CM-3]; 5 and 6: a move would fit
    room.sit(a, waiting, seat=seat)
    assert room.seats(a)[seat] == waiting
