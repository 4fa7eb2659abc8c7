"""The seat draw and the button (issue 4 items 3 and 4): who is drawn, where,
by suit across tables [PT 25], the previous session first [PT 27], the draw
open until the table is full [CM-3], the record an inspector replays, the
first button per profile [CM; PT 29-30; GA art. 23.1] and the newcomer kept
off the button [PT 80]."""

from __future__ import annotations

import random
import secrets
from collections import Counter
from uuid import UUID

import pytest

from floor.application.floor_app import FloorApplication
from floor.domain import draws
from floor.domain.player import Player
from games.cards import Card, card
from tests.support.floor import CRUPIER, JEFE, new_id
from tests.support.room import OMAHA, Room, events_of, refused

pytestmark = pytest.mark.django_db

RANKS = "23456789TJQKA"
SUITS_HIGH_FIRST = "shdc"  # spades > hearts > diamonds > clubs [CM]


def strength(text: str) -> tuple[int, int]:
    """A button-draw card's strength, worked out apart from games.cards."""
    return RANKS.index(text[0]), -SUITS_HIGH_FIRST.index(text[1])


def registered(room: Room, table_id: str, count: int) -> list[str]:
    cards = room.new_players(count)
    for one in cards:
        room.join(one, table_id)
    return cards


# --- who is drawn --------------------------------------------------------------------


def test_the_draw_uses_the_secrets_random_source_by_default():
    assert isinstance(FloorApplication.random, secrets.SystemRandom)


@pytest.mark.parametrize("profile", ["CM", "PT", "GA"])
def test_a_table_is_not_drawn_with_fewer_than_four_players(make_app, profile):
    """GA art. 23; PT 24: four players to start."""
    room = Room(make_app(profile))
    table_id = room.table()
    cards = registered(room, table_id, 4)
    room.app.bar_player(JEFE, new_id(), player=cards[0], reason="Conducta")  # not a candidate
    error = refused(
        room.app, "not_enough_players", room.app.draw_seats, JEFE, new_id(), table_ids=[table_id]
    )
    assert error.params == {"registered": 3, "needed": 4}
    assert room.get(table_id).status == "registering"


def test_two_tables_need_eight_players(room):
    tables = [room.table(), room.table()]
    registered(room, tables[0], 7)
    error = refused(
        room.app, "not_enough_players", room.app.draw_seats, JEFE, new_id(), table_ids=tables
    )
    assert error.params == {"registered": 7, "needed": 8}


def test_a_table_is_drawn_once_and_one_draw_is_for_one_game(room):
    table_id, _ = room.drawn_table(4)
    refused(
        room.app, "table_not_registering", room.app.draw_seats, JEFE, new_id(), table_ids=[table_id]
    )
    holdem, omaha = room.table(), room.table(**OMAHA)
    refused(
        room.app,
        "tables_not_same_game",
        room.app.draw_seats,
        JEFE,
        new_id(),
        table_ids=[holdem, omaha],
    )
    refused(room.app, "table_ids_required", room.app.draw_seats, JEFE, new_id(), table_ids=[])


@pytest.fixture
def room(make_app) -> Room:
    return Room(make_app("CM"))


# --- the record and its replay -----------------------------------------------------------


def test_the_draw_records_what_was_drawn_and_the_seating_replays_from_it(room):
    """GA art. 20; PT 11: seats drawn among the registered; the record lets an
    inspector replay the assignment from the log."""
    table_id = room.table()
    cards = registered(room, table_id, 7)
    result = room.app.draw_seats(JEFE, new_id(), table_ids=[table_id]).result
    (drawn,) = events_of(room.app, table_id, "SeatsDrawn")
    record = drawn.record
    assert sorted(record["order"]) == sorted(Player.create_id(c).hex for c in cards)
    assert len(set(record["seats"])) == 7 and set(record["seats"]) <= set(range(1, 11))
    # the inspector's replay: the n-th player drawn took the n-th seat drawn
    replayed = dict(zip(record["order"], record["seats"], strict=True))
    assert replayed == drawn.assignment
    table = room.get(table_id)
    assert {int(s): st["player_id"] for s, st in table.occupants.items()} == {
        seat: player for player, seat in replayed.items()
    }
    assert {int(s): UUID(p).hex for s, p in result["tables"][table_id]["seats"].items()} == {
        seat: player for player, seat in replayed.items()
    }
    # each player knows their seat, and nobody drawn is left on the list
    for one in cards:
        assert room.player(one).seated_at == {
            "table_id": table.id.hex,
            "seat": replayed[Player.create_id(one).hex],
        }
    assert room.listed(table_id) == []
    assert table.status == "running"


def test_the_draw_is_random_and_the_random_source_is_the_applications(make_app):
    """Two draws of the same players under the same seed agree; under another seed
    the seats differ (the seats are drawn, not handed out in list order)."""
    seatings = []
    for tag, seed in (("A", 1), ("B", 1), ("C", 2)):
        room = Room(make_app("GA"), seed=seed, tag=tag)
        table_id = room.table()
        registered(room, table_id, 8)
        room.app.draw_seats(JEFE, new_id(), table_ids=[table_id])
        # players by their number in the room, so that rooms compare
        seatings.append({s: c.split("-")[1] for s, c in room.seats(table_id).items()})
    assert seatings[0] == seatings[1]
    assert seatings[0] != seatings[2]


def test_more_players_than_seats_leaves_the_rest_on_the_list_in_order(room):
    """CM-7, CM-8: seats go in list order; those not drawn keep their place."""
    table_id = room.table(seats=9)
    cards = registered(room, table_id, 12)
    result = room.app.draw_seats(JEFE, new_id(), table_ids=[table_id]).result
    assert result["left_on_list"] == 3
    assert sorted(room.seats(table_id).values()) == sorted(cards[:9])
    assert room.listed(table_id) == cards[9:]


# --- several tables by suit [PT 25] ----------------------------------------------------


@pytest.mark.parametrize(
    ("tables", "players", "shares"), [(2, 9, [5, 4]), (3, 13, [5, 4, 4]), (4, 16, [4, 4, 4, 4])]
)
def test_players_for_several_tables_are_drawn_to_them_by_suit_in_balanced_numbers(
    make_app, tables, players, shares
):
    room = Room(make_app("PT"))
    table_ids = [room.table() for _ in range(tables)]
    cards = registered(room, table_ids[0], players)
    room.app.draw_seats(JEFE, new_id(), table_ids=table_ids)
    suit_of_table = {}
    for table_id in table_ids:
        (drawn,) = events_of(room.app, table_id, "SeatsDrawn")
        suits = {pid_hex: c[1] for pid_hex, c in drawn.record["suits"].items()}
        # everyone sent here drew the table's one suit, and sits here
        assert set(drawn.assignment) == set(suits)
        assert len(set(suits.values())) == 1
        suit_of_table[table_id] = next(iter(suits.values()))
        assert len(drawn.assignment) == room.get(table_id).player_count
    assert len(set(suit_of_table.values())) == tables  # one suit per table
    counts = sorted((room.get(t).player_count for t in table_ids), reverse=True)
    assert counts == shares  # balanced: never more than one apart (CM-10)
    seated = [c for t in table_ids for c in room.seats(t).values()]
    assert sorted(seated) == sorted(cards)
    # every suit card drawn is a real, distinct card
    all_cards = [
        c
        for t in table_ids
        for c in events_of(room.app, t, "SeatsDrawn")[0].record["suits"].values()
    ]
    assert len(set(all_cards)) == players
    assert all(card(c) for c in all_cards)


def test_the_suit_draw_sends_each_player_to_the_table_of_the_suit_drawn():
    rng = random.Random(3)
    players = [f"p{i}" for i in range(14)]
    result = draws.draw_by_suit(players, ["t1", "t2"], {"t1": 10, "t2": 10}, rng)
    assert Counter(r["table_id"] for r in result.values()) == {"t1": 7, "t2": 7}
    for drawn in result.values():
        assert {"t1": "s", "t2": "h"}[drawn["table_id"]] == drawn["card"][1]
    # a small table takes no more than its seats
    uneven = draws.draw_by_suit(players, ["t1", "t2"], {"t1": 4, "t2": 10}, rng)
    assert Counter(r["table_id"] for r in uneven.values()) == {"t1": 4, "t2": 10}


# --- the previous session first [PT 27] --------------------------------------------------


def test_oversubscribed_the_previous_sessions_players_are_drawn_first(make_app):
    room = Room(make_app("PT"))
    first_table, veterans = room.drawn_table(4)
    room.app.close_table(JEFE, new_id(), table_id=first_table)
    newcomers = registered(room, first_table, 10)  # on the list before the veterans
    for one in veterans:
        room.join(one, first_table)
    next_table = room.table()
    result = room.app.draw_seats(JEFE, new_id(), table_ids=[next_table]).result
    seated = set(room.seats(next_table).values())
    assert set(veterans) <= seated
    assert seated - set(veterans) == set(newcomers[:6])  # then the list in order
    assert result["left_on_list"] == 4
    assert room.listed(next_table) == newcomers[6:]
    (drawn,) = events_of(room.app, next_table, "SeatsDrawn")
    assert sorted(drawn.record["priority"]) == sorted(Player.create_id(v).hex for v in veterans)


def test_without_a_previous_session_the_list_order_decides(make_app):
    room = Room(make_app("PT"))
    first_table, leavers = room.drawn_table(4)
    for one in leavers[:1]:
        room.leave(first_table, one)  # left on their own: no session played to the end
    newcomers = registered(room, first_table, 20)
    room.join(leavers[0], first_table)
    next_table = room.table()
    room.app.draw_seats(JEFE, new_id(), table_ids=[next_table])
    # The open table is completed first, in list order [CM-8]; the new table
    # draws among the next ten; the leaver, last on the list, waits.
    free_at_first = 10 - 3
    assert set(room.seats(first_table).values()) >= set(newcomers[:free_at_first])
    assert set(room.seats(next_table).values()) == set(newcomers[free_at_first:][:10])


# --- the draw open until the table is full [CM-3] ----------------------------------------


def test_cm_the_draw_stays_open_a_later_player_is_drawn_a_free_seat(room):
    table_id, _ = room.drawn_table(4)
    room.hand(table_id)  # play has begun
    assert room.get(table_id).draw_open
    late = room.new_player()
    room.join(late, table_id)
    free = room.get(table_id).free_seats()
    refused(
        room.app,
        "seat_is_drawn",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=late,
        seat=free[0],
    )
    seated = room.sit(table_id, late)
    assert seated["seat"] in free
    (event,) = events_of(room.app, table_id, "PlayerSeated")
    assert event.drawn_from == free and event.seat == seated["seat"]


def test_cm_the_draw_closes_when_the_table_is_full(room):
    table_id, cards = room.drawn_table(4, seats=6)
    for late in room.new_players(2):
        room.join(late, table_id)
        room.sit(table_id, late)
    assert not room.get(table_id).draw_open
    room.leave(table_id, cards[0])
    newcomer = room.new_player()
    refused(
        room.app,
        "seat_required",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=newcomer,
    )
    free = room.get(table_id).free_seats()
    assert room.sit(table_id, newcomer, free[0])["seat"] == free[0]


@pytest.mark.parametrize("profile", ["GA", "PT"])
def test_without_an_open_draw_the_jefe_names_the_seat(make_app, profile):
    room = Room(make_app(profile))
    table_id, _ = room.drawn_table(4)
    assert not room.get(table_id).draw_open
    late = room.new_player()
    refused(
        room.app,
        "seat_required",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=late,
    )
    free = room.get(table_id).free_seats()
    assert room.sit(table_id, late, free[-1])["seat"] == free[-1]


def test_a_full_table_seats_nobody(room):
    table_id, _ = room.drawn_table(4, seats=4)
    late = room.new_player()
    refused(
        room.app, "table_full", room.app.seat_player, JEFE, new_id(), table_id=table_id, player=late
    )
    refused(
        room.app,
        "seat_taken",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=late,
        seat=1,
    )


def test_no_seat_is_taken_before_the_draw(room):
    table_id = room.table()
    late = room.new_player()
    refused(
        room.app,
        "table_not_started",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=late,
        seat=1,
    )


# --- the button --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_cm_the_button_is_drawn_by_high_card_and_the_draw_recorded(make_app, seed):
    room = Room(make_app("CM"), seed=seed)
    table_id, _ = room.drawn_table(8)
    (drawn,) = events_of(room.app, table_id, "SeatsDrawn")
    cards = {int(s): c for s, c in drawn.button_draw["cards"].items()}
    assert sorted(cards) == room.get(table_id).occupied()  # one card to each seated player
    assert len(set(cards.values())) == len(cards)
    winner = max(cards, key=lambda s: strength(cards[s]))
    assert drawn.button == drawn.button_draw["winner"] == winner
    assert room.start(table_id)["button"] == winner  # the first hand's button


@pytest.mark.parametrize(
    ("dealt", "winner"),
    [
        (["Kh", "Ks", "Qs", "2c"], 2),  # equal kings: spades beat hearts
        (["Kd", "Kh", "Ac", "Kc"], 3),  # the higher rank first, whatever its suit
        (["9c", "9d", "3s", "2h"], 2),  # diamonds beat clubs
        (["Jc", "Jd", "Jh", "Js"], 4),
    ],
)
def test_cm_equal_ranks_are_broken_by_suit_spades_hearts_diamonds_clubs(dealt, winner):
    class Dealt(random.Random):
        def sample(self, population, k):
            return [card(c) for c in dealt][:k]

    shown, won = draws.draw_button([1, 2, 3, 4], Dealt())
    assert shown == dict(enumerate(dealt, start=1))
    assert won == winner


def test_cards_order_by_rank_then_suit():
    assert Card(13, "s") > Card(13, "h") > Card(13, "d") > Card(13, "c") > Card(12, "s")


def test_pt_the_first_hand_goes_to_the_first_seat_at_the_dealers_left_then_clockwise(make_app):
    """PT 29-30: seats numbered from the dealer's left, the button turns upward."""
    room = Room(make_app("PT"))
    table_id, _ = room.drawn_table(5)
    seats = room.get(table_id).occupied()
    (drawn,) = events_of(room.app, table_id, "SeatsDrawn")
    assert (drawn.button, drawn.button_draw) == (seats[0], None)
    buttons = [room.played(table_id)["button"] for _ in range(6)]
    assert buttons == [*seats, seats[0]]


def test_pt_the_button_goes_where_the_rotation_says_or_the_hand_is_refused(make_app):
    room = Room(make_app("PT"))
    table_id, _ = room.drawn_table(5)
    seats = room.get(table_id).occupied()
    room.hand(table_id)
    error = refused(
        room.app,
        "button_out_of_turn",
        room.app.start_hand,
        CRUPIER,
        new_id(),
        table_id=table_id,
        dealt_in=seats,
        button=seats[2],
    )
    assert error.params == {"expected": seats[1]}
    assert room.start(table_id, button=seats[1])["button"] == seats[1]


def test_ga_the_dealer_marks_the_first_button_then_it_turns(make_app):
    """GA art. 23.1: the marker turns counter-clockwise, which with seats numbered
    from the dealer's right (art. 18.2) is upward."""
    room = Room(make_app("GA"))
    table_id, _ = room.drawn_table(4)
    seats = room.get(table_id).occupied()
    (drawn,) = events_of(room.app, table_id, "SeatsDrawn")
    assert (drawn.button, drawn.button_draw) == (None, None)
    refused(
        room.app,
        "button_required",
        room.app.start_hand,
        CRUPIER,
        new_id(),
        table_id=table_id,
        dealt_in=seats,
    )
    refused(
        room.app,
        "button_seat_empty",
        room.app.start_hand,
        CRUPIER,
        new_id(),
        table_id=table_id,
        dealt_in=seats,
        button=room.get(table_id).free_seats()[0],
    )
    first = room.hand(table_id, button=seats[2])
    assert first["button"] == seats[2]
    assert [room.hand(table_id)["button"] for _ in range(2)] == [seats[3], seats[0]]


def test_pt_80_a_newcomer_does_not_take_the_button_seat_for_the_hand(make_app):
    """PT 80: a player joining on the seat the button belongs to plays from the
    next hand; the button passes to the next occupied seat at their left."""
    room = Room(make_app("PT"))
    table_id, _cards = room.drawn_table(5)
    seats = room.get(table_id).occupied()
    room.hand(table_id)  # the button on seats[0]; next it belongs to seats[1]
    leaving = room.seats(table_id)[seats[1]]
    room.leave(table_id, leaving)
    newcomer = room.new_player()
    room.sit(table_id, newcomer, seats[1])
    room.buy(table_id, newcomer, 1000)
    assert room.state(table_id, newcomer)["newcomer"]
    refused(
        room.app,
        "newcomer_on_button_seat",
        room.app.start_hand,
        CRUPIER,
        new_id(),
        table_id=table_id,
        dealt_in=seats,
    )
    refused(
        room.app,
        "button_out_of_turn",
        room.app.start_hand,
        CRUPIER,
        new_id(),
        table_id=table_id,
        dealt_in=[s for s in seats if s != seats[1]],
        button=seats[1],
    )
    started = room.hand(table_id, [s for s in seats if s != seats[1]])
    assert started["button"] == seats[2]
    # the following hand the newcomer plays
    assert room.hand(table_id, seats)["button"] == seats[3]
    assert not room.state(table_id, newcomer)["newcomer"]


def test_a_player_seated_before_the_first_hand_is_no_newcomer(make_app):
    room = Room(make_app("PT"))
    table_id, _ = room.drawn_table(4)
    late = room.new_player()
    seat = room.get(table_id).free_seats()[0]
    room.sit(table_id, late, seat)
    assert not room.state(table_id, late)["newcomer"]
    assert room.buy(table_id, late, 300) == 300  # the table's limits, not the average
