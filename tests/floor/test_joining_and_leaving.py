"""Joining and leaving a table (issue 4 item 6): the buy-in within the table's
limits [CM-2] or the average capital at the table [PT 28], rebuys between hands
only [GA art. 21; PT 14], the newcomer's big blind [CM-17], the stack below the
big blind [CM-16; PT 79], and the seat a leaving player frees offered to the
list [PT 12; CM-5, CM-6]."""

from __future__ import annotations

from datetime import timedelta

import pytest

from floor.domain import positions
from floor.kernel.errors import DomainError
from tests.support.floor import CRUPIER, JEFE, new_id
from tests.support.room import Room, events_of, pid, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(make_app) -> Room:
    return Room(make_app("CM"))


def refused_buy(room: Room, code: str, table_id: str, card: str, amount: object):
    return refused(
        room.app,
        code,
        room.app.buy_in,
        CRUPIER,
        new_id(),
        table_id=table_id,
        player=card,
        amount_cents=amount,
    )


# --- the buy-in and rebuys [CM-2] ------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "accepted"), [(199, False), (200, True), (1000, True), (1001, False)]
)
def test_the_first_buy_in_lies_within_the_tables_limits(room, amount, accepted):
    table_id, cards = room.drawn_table(4, buy_in=None)
    if accepted:
        assert room.buy(table_id, cards[0], amount) == amount
        assert room.state(table_id, cards[0])["stack"] == amount
    else:
        error = refused_buy(room, "buy_in_out_of_limits", table_id, cards[0], amount)
        assert error.params == {"minimum_cents": 200, "maximum_cents": 1000}
        assert room.state(table_id, cards[0])["stack"] == 0


@pytest.mark.parametrize("amount", [0, -200, True, "500", 250.0, None])
def test_a_buy_in_is_a_positive_number_of_cents(room, amount):
    table_id, cards = room.drawn_table(4, buy_in=None)
    refused_buy(room, "amount_invalid", table_id, cards[0], amount)


def test_only_a_player_at_the_table_buys_chips_there(room):
    table_id, _ = room.drawn_table(4)
    refused_buy(room, "player_not_at_table", table_id, room.new_player(), 500)


def test_a_rebuy_is_at_least_the_minimum_and_leaves_the_stack_at_most_the_maximum(room):
    """CM-2: "las reposiciones deberán ser del total del importe mínimo, sin
    superar el importe máximo"."""
    table_id, cards = room.drawn_table(4, buy_in=500)
    error = refused_buy(room, "rebuy_out_of_limits", table_id, cards[0], 199)
    assert error.params["stack_cents"] == 500
    refused_buy(room, "rebuy_out_of_limits", table_id, cards[0], 501)
    assert room.buy(table_id, cards[0], 200) == 700
    assert room.buy(table_id, cards[1], 500) == 1000


def test_chips_are_bought_only_between_hands(room):
    """GA art. 21; PT 14: no chips added once a hand has begun."""
    table_id, cards = room.drawn_table(4, buy_in=500)
    room.start(table_id)
    refused_buy(room, "hand_in_progress", table_id, cards[0], 200)
    room.end(table_id)
    assert room.buy(table_id, cards[0], 200) == 700


# --- the average capital [PT 28] -------------------------------------------------------------


def test_pt_a_player_joining_a_game_in_progress_brings_the_average_capital(make_app):
    room = Room(make_app("PT"))
    table_id, _cards = room.drawn_table(4)
    seats = room.get(table_id).occupied()
    # a hand moves chips: 750, 1238, 1000, 1000 (12 cents of rake)
    room.start(table_id)
    put_in = {str(seats[0]): 250, str(seats[1]): 250}  # seats[1] calls and wins
    room.end(table_id, put_in, {str(seats[1]): 488}, rake_cents=12)
    newcomer = room.new_player()
    room.sit(table_id, newcomer, room.get(table_id).free_seats()[0])
    assert room.state(table_id, newcomer)["newcomer"]
    for amount in (200, 1000, 998):  # within the limits, but not the average
        error = refused_buy(room, "buy_in_not_table_average", table_id, newcomer, amount)
    assert error.params == {"average_cents": 997}
    assert room.buy(table_id, newcomer, 997) == 997


def test_pt_28_the_average_is_of_the_capital_in_play_not_of_empty_seats_just_taken(make_app):
    """Two newcomers sit at once: the one without chips yet brings no capital
    to the table, so the first to buy in brings the average of the others."""
    room = Room(make_app("PT"))
    table_id, _ = room.drawn_table(4, buy_in=800)
    room.played(table_id)
    first, second = room.new_players(2)
    free = room.get(table_id).free_seats()
    room.sit(table_id, first, free[0])
    room.sit(table_id, second, free[1])
    refused_buy(room, "buy_in_not_table_average", table_id, first, 640)
    assert room.buy(table_id, first, 800) == 800
    assert room.buy(table_id, second, 800) == 800


def test_cm_a_player_joining_a_game_in_progress_buys_within_the_limits(room):
    table_id, _ = room.drawn_table(4)
    room.played(table_id)
    newcomer = room.new_player()
    room.join(newcomer, table_id)
    room.sit(table_id, newcomer)
    assert room.state(table_id, newcomer)["newcomer"]
    assert room.buy(table_id, newcomer, 300) == 300


# --- the newcomer's big blind [CM-17] --------------------------------------------------------


def newcomer_after_a_hand(room: Room) -> tuple[str, str, int]:
    table_id, _ = room.drawn_table(5)
    room.played(table_id)
    newcomer = room.new_player()
    room.join(newcomer, table_id)
    seat = room.sit(table_id, newcomer)["seat"]  # CM-3: drawn
    room.buy(table_id, newcomer, 1000)
    return table_id, newcomer, seat


def test_cm_17_a_newcomer_posts_the_big_blind_to_play_the_next_hand(room):
    table_id, newcomer, seat = newcomer_after_a_hand(room)
    seats = room.get(table_id).occupied()
    error = refused(
        room.app,
        "newcomer_waits_for_big_blind",
        room.app.start_hand,
        CRUPIER,
        new_id(),
        table_id=table_id,
        dealt_in=seats,
    )
    assert error.params == {"seat": seat, "big_blind_cents": 200}
    refused(
        room.app,
        "newcomer_waits_for_big_blind",
        room.app.start_hand,
        CRUPIER,
        new_id(),
        table_id=table_id,
        dealt_in=seats,
        blinds={str(seat): 100},
    )
    started = room.start(table_id, seats, blinds={str(seat): 200})
    assert started["blinds"] == {str(seat): 200}
    assert not room.state(table_id, newcomer)["newcomer"]


def test_cm_17_or_the_newcomer_waits_for_their_big_blind(room):
    table_id, newcomer, seat = newcomer_after_a_hand(room)
    waited = 0
    for _ in range(8):
        seats = room.get(table_id).occupied()
        try:
            started = room.start(table_id, seats)
        except DomainError as error:
            assert error.code == "newcomer_waits_for_big_blind"
            room.played(table_id, [s for s in seats if s != seat])  # they wait
            waited += 1
            continue
        _small, big = positions.blind_seats(started["button"], 10, 1, started["dealt_in"])
        assert big == seat  # dealt in without posting: their big blind came round
        break
    else:
        pytest.fail("the newcomer's big blind never came round")
    assert waited >= 1  # with this seed the newcomer sits a few seats past it
    assert not room.state(table_id, newcomer)["newcomer"]


@pytest.mark.parametrize("profile", ["PT", "GA"])
def test_without_cm_17_a_newcomer_plays_the_next_hand_without_posting(make_app, profile):
    room = Room(make_app(profile))
    table_id, _ = room.drawn_table(5)
    seats = room.get(table_id).occupied()
    room.played(table_id, button=seats[0] if profile == "GA" else None)
    newcomer = room.new_player()
    # the free seat just before the button: the last the button reaches (PT 80)
    free = room.get(table_id).free_seats()
    seat = next(s for s in reversed(positions.following(seats[0], 10, 1)) if s in free)
    room.sit(table_id, newcomer, seat)
    room.buy(table_id, newcomer, 1000)  # the average (PT 28), within the limits (GA)
    assert seat in room.start(table_id)["dealt_in"]


# --- the stack below the big blind [CM-16; PT 79] ------------------------------------------


@pytest.mark.parametrize("profile", ["CM", "PT"])
def test_a_stack_below_the_big_blind_must_rebuy_before_playing_again(make_app, profile):
    room = Room(make_app(profile))
    table_id, _cards = room.drawn_table(4, buy_in=400)
    seats = room.get(table_id).occupied()
    loser, exact, winner = seats[0], seats[1], seats[2]
    room.start(table_id)
    # 400 - 250 = 150: below the big blind (200); 400 - 200 = 200: enough
    # (the winner calls the 250; the 200 folds)
    put_in = {str(loser): 250, str(exact): 200, str(winner): 250}
    ended = room.end(table_id, put_in, {str(winner): 700})
    assert ended["must_rebuy"] == [loser]
    assert room.state(table_id, seat=loser)["must_rebuy"]
    assert not room.state(table_id, seat=exact)["must_rebuy"]
    error = refused(
        room.app,
        "rebuy_required",
        room.app.start_hand,
        CRUPIER,
        new_id(),
        table_id=table_id,
        dealt_in=seats,
    )
    assert error.params == {"seat": loser}
    card = room.seats(table_id)[loser]
    refused_buy(room, "rebuy_out_of_limits", table_id, card, 100)  # still a full minimum
    assert room.buy(table_id, card, 200) == 350
    assert not room.state(table_id, seat=loser)["must_rebuy"]
    assert loser in room.start(table_id, seats)["dealt_in"]


def test_a_player_without_chips_is_not_dealt_in(room):
    table_id, cards = room.drawn_table(4, buy_in=None)
    for card in cards[1:]:
        room.buy(table_id, card, 500)
    seats = room.get(table_id).occupied()
    empty = room.seat_of(table_id, cards[0])
    error = refused(
        room.app,
        "rebuy_required",
        room.app.start_hand,
        CRUPIER,
        new_id(),
        table_id=table_id,
        dealt_in=seats,
    )
    assert error.params == {"seat": empty}


# --- leaving ---------------------------------------------------------------------------------


def test_leaving_frees_the_seat_the_stack_stays_the_players_and_the_list_is_called(room, clock):
    """CM-6: the first on the list is called and has five minutes to appear."""
    table_id, cards = room.drawn_table(5, seats=5, buy_in=700)  # full: the draw is closed
    first, second = room.new_players(2)
    room.join(first, table_id)
    room.join(second, table_id)
    leaving = cards[2]
    seat = room.seat_of(table_id, leaving)
    left = room.leave(table_id, leaving)
    assert (left["seat"], left["stack_cents"], left["status"]) == (seat, 700, "running")
    assert left["offered"] == {"called": pid(first), "reservation": 6}
    assert room.player(leaving).seated_at is None
    assert room.seats(table_id).get(seat) is None
    entry = room.waiting(table_id).entries[0]
    assert entry["status"] == "called"
    assert entry["call"] == {
        "table_id": room.get(table_id).id.hex,
        "seat": seat,
        "at": clock.now().isoformat(),
        "ends_at": (clock.now() + timedelta(minutes=5)).isoformat(),
    }
    (called,) = events_of(room.app, room.waiting(table_id).id, "Called")
    assert called.seat == seat
    room.sit(table_id, first, seat)
    assert room.listed(table_id) == [second]


def test_the_seat_called_for_one_player_is_not_taken_by_another(room):
    """CM-6: the called player has the window to take the seat; while called,
    neither the next on the list nor a passer-by takes it."""
    table_id, cards = room.drawn_table(5, seats=5)
    first, second = room.new_players(2)
    passer_by = room.new_player()
    room.join(first, table_id)
    room.join(second, table_id)
    seat = room.leave(table_id, cards[0])["seat"]
    for other in (second, passer_by):
        refused(
            room.app,
            "waiting_list_first",
            room.app.seat_player,
            JEFE,
            new_id(),
            table_id=table_id,
            player=other,
            seat=seat,
        )
    # absent when called: removed [CM-6]; the seat goes on down the list
    room.app.leave_waiting_list(
        JEFE, new_id(), player=first, table_id=table_id, reason="absent_when_called"
    )
    room.sit(table_id, second, seat)
    assert room.seats(table_id)[seat] == second


@pytest.mark.parametrize("profile", ["GA", "PT"])
def test_without_a_call_window_the_call_has_no_deadline(make_app, profile):
    room = Room(make_app(profile))
    table_id, cards = room.drawn_table(10)
    waiting = room.new_player()
    room.join(waiting, table_id)
    room.leave(table_id, cards[0])
    assert room.waiting(table_id).entries[0]["call"]["ends_at"] is None


def test_leaving_with_nobody_waiting_offers_the_seat_to_nobody(room):
    table_id, cards = room.drawn_table(5)
    assert room.leave(table_id, cards[0])["offered"] is None


def test_a_player_leaves_only_between_hands_and_only_a_table_they_sit_at(room):
    table_id, cards = room.drawn_table(5)
    room.start(table_id)
    refused(
        room.app,
        "hand_in_progress",
        room.app.leave_table,
        JEFE,
        new_id(),
        table_id=table_id,
        player=cards[0],
    )
    room.end(table_id)
    refused(
        room.app,
        "player_not_at_table",
        room.app.leave_table,
        JEFE,
        new_id(),
        table_id=table_id,
        player=room.new_player(),
    )
    refused(
        room.app,
        "reason_invalid",
        room.app.leave_table,
        JEFE,
        new_id(),
        table_id=table_id,
        player=cards[0],
        reason="bored",
    )


def test_a_player_who_left_may_sit_at_another_table(room):
    first, cards = room.drawn_table(5, seats=5)
    room.leave(first, cards[0])
    filler = room.new_player()  # the seat left is taken: the open table is full [CM-8]
    room.join(filler, first)
    room.sit(first, filler, room.get(first).free_seats()[0])
    second = room.table()
    for card in [cards[0], *room.new_players(3)]:
        room.join(card, second)
    room.app.draw_seats(JEFE, new_id(), table_ids=[second])
    assert room.player(cards[0]).seated_at["table_id"] == room.get(second).id.hex


def test_cm_an_open_draw_does_not_hand_out_a_seat_offered_to_a_called_player(room):
    """CM-3 with CM-6: a later player is drawn among the free seats except the one
    the called player holds."""
    table_id, cards = room.drawn_table(6)  # four seats left: the draw stays open
    first, second = room.new_players(2)
    room.join(first, table_id)
    room.join(second, table_id)
    called_seat = room.leave(table_id, cards[0])["seat"]
    free = room.get(table_id).free_seats()
    drawn = room.sit(table_id, second)["seat"]
    assert drawn != called_seat
    (event,) = events_of(room.app, table_id, "PlayerSeated")
    assert event.drawn_from == [s for s in free if s != called_seat]
    # the called player is drawn too (CM-3), among every seat still free
    assert room.sit(table_id, first)["seat"] in set(free) - {drawn}
    assert room.listed(table_id) == []


# --- offering a free seat by hand ------------------------------------------------------------


def test_the_jefe_offers_a_free_seat_to_the_first_on_the_list(make_app):
    """PT 12; CM-5: a free seat (here left by the draw) goes to the list in order."""
    room = Room(make_app("PT"))
    table_id, _cards = room.drawn_table(4)  # ten seats, four drawn
    first, second = room.new_players(2)
    room.join(first, table_id)
    room.join(second, table_id)
    seat = room.get(table_id).free_seats()[0]
    offered = room.app.call_next(JEFE, new_id(), table_id=table_id, seat=seat).result
    assert offered["offered"]["called"] == pid(first)
    assert room.waiting(table_id).entries[0]["call"]["seat"] == seat
    refused(
        room.app,
        "seat_already_offered",
        room.app.call_next,
        JEFE,
        new_id(),
        table_id=table_id,
        seat=seat,
    )
    taken = room.seats(table_id)
    busy = next(iter(taken))
    refused(
        room.app, "seat_taken", room.app.call_next, JEFE, new_id(), table_id=table_id, seat=busy
    )


def test_with_nobody_on_the_list_there_is_nobody_to_call(make_app):
    room = Room(make_app("PT"))
    table_id, _cards = room.drawn_table(4)
    seat = room.get(table_id).free_seats()[0]
    refused(
        room.app,
        "nobody_to_call",
        room.app.call_next,
        JEFE,
        new_id(),
        table_id=table_id,
        seat=seat,
    )


def test_a_withdrawn_seat_change_request_gives_the_list_its_turn_back(room):
    table_id, cards = room.drawn_table(5, seats=5)
    waiting = room.new_player()
    room.join(waiting, table_id)
    room.app.request_seat_change(JEFE, new_id(), table_id=table_id, player=cards[0])
    left = room.leave(table_id, cards[1])
    assert left["offered"] == {"seat_change_request": pid(cards[0])}
    refused(
        room.app,
        "seat_change_requested_first",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=waiting,
        seat=left["seat"],
    )
    room.app.withdraw_seat_change(JEFE, new_id(), table_id=table_id, player=cards[0])
    refused(
        room.app,
        "no_seat_change_request",
        room.app.withdraw_seat_change,
        JEFE,
        new_id(),
        table_id=table_id,
        player=cards[0],
    )
    room.app.call_next(JEFE, new_id(), table_id=table_id, seat=left["seat"])
    room.sit(table_id, waiting, left["seat"])
    assert room.seats(table_id)[left["seat"]] == waiting


def test_a_player_seated_elsewhere_is_not_called_the_next_one_is(room):
    """A player on this game's list who sits at another table (CM-7) would have
    to leave it first: the vacancy goes to the next player free to take it."""
    table_id, cards = room.drawn_table(5, seats=5)
    elsewhere, free = room.new_players(2)
    room.join(elsewhere, table_id)
    room.join(free, table_id)
    omaha_id = room.table(variant="omaha")
    for card in [elsewhere, *room.new_players(3)]:
        room.join(card, omaha_id)
    room.app.draw_seats(JEFE, new_id(), table_ids=[omaha_id])
    assert room.player(elsewhere).seated_at is not None
    assert room.leave(table_id, cards[0])["offered"]["called"] == pid(free)


# --- the re-seat cool-down [CM-13] -----------------------------------------------------------


def test_a_player_who_left_sits_at_another_table_of_the_game_only_after_15_minutes(room, clock):
    first_id, cards = room.drawn_table(5, seats=5)  # full: the draw is closed
    second_id, others = room.drawn_table(5, seats=5)
    leaver = cards[0]
    room.leave(first_id, leaver)
    free = room.leave(second_id, others[0])["seat"]
    clock.advance(timedelta(minutes=14, seconds=59))
    error = refused(
        room.app, "reseat_cooldown", room.app.seat_player, JEFE, new_id(),
        table_id=second_id, player=leaver, seat=free,
    )  # fmt: skip
    assert error.params == {"until": (clock.now() + timedelta(seconds=1)).isoformat()}
    # Back at the table they left is no change of table: no cool-down.
    back = room.get(first_id).free_seats()[0]
    room.sit(first_id, leaver, back)
    room.leave(first_id, leaver)  # and the cool-down starts again from now
    clock.advance(timedelta(minutes=15))
    room.sit(second_id, leaver, free)
    assert room.seats(second_id)[free] == leaver


def test_without_a_cool_down_a_player_moves_at_once(make_app):
    room = Room(make_app("GA"))
    first_id, cards = room.drawn_table(5, seats=5)
    second_id, others = room.drawn_table(5, seats=5)
    room.leave(first_id, cards[0])
    free = room.leave(second_id, others[0])["seat"]
    room.sit(second_id, cards[0], free)
