"""Players and waiting lists (issue 4 items 2 and 5): the player record, barring,
reservation numbers, re-registering, several lists, and who comes first for a
vacant seat [PT 12; CM-5, CM-6, CM-7, CM-11].
"""

from __future__ import annotations

import pytest

from floor.application.players import player
from floor.kernel.errors import ErrorKind
from tests.support.floor import HOLDEM, JEFE, new_id
from tests.support.room import OMAHA, Room, all_events, events_of, pid, refused  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(make_app) -> Room:
    return Room(make_app("CM"))


# --- the player record -----------------------------------------------------------------


def test_a_player_has_a_card_number_and_a_display_name_only_and_is_found_by_card(room):
    outcome = room.app.register_player(
        JEFE, new_id(), card_number=" ab-123 ", display_name="  Ana   Pérez "
    )
    assert outcome.result == {"player_id": pid("AB-123"), "card_number": "AB-123"}
    found = player(room.work(), "ab-123")  # by card number, whatever its case
    assert (found.card_number, found.display_name, found.barred) == ("AB-123", "Ana Pérez", False)
    assert player(room.work(), pid("AB-123")).id == found.id  # and by id
    (registered,) = events_of(room.app, found.id, "Registered")
    personal = {"card_number", "display_name"}
    audit = {"actor", "actor_role", "command_id", "rule_profile", "timestamp"}
    assert set(registered.__dict__) - audit - {"originator_id", "originator_version"} == (
        personal | {"originator_topic"}
    )


def test_a_card_number_is_registered_once(room):
    room.app.register_player(JEFE, new_id(), card_number="X-1", display_name="Uno")
    error = refused(
        room.app,
        "player_exists",
        room.app.register_player,
        JEFE,
        new_id(),
        card_number="x-1",
        display_name="Otro",
    )
    assert error.kind is ErrorKind.CONFLICT
    assert player(room.work(), "X-1").display_name == "Uno"


@pytest.mark.parametrize(
    ("card", "name", "code"),
    [
        ("", "Ana", "card_number_invalid"),
        ("A 1", "Ana", "card_number_invalid"),
        ("A1", " ", "display_name_required"),
    ],
)
def test_bad_player_records_are_refused(room, card, name, code):
    refused(
        room.app,
        code,
        room.app.register_player,
        JEFE,
        new_id(),
        card_number=card,
        display_name=name,
    )


def test_an_unknown_card_is_not_found(room):
    error = refused(room.app, "player_not_found", player, room.work(), "NOBODY")
    assert error.kind is ErrorKind.NOT_FOUND


def test_a_barred_player_may_not_register_for_a_game_nor_sit(room):
    table_id, _ = room.drawn_table(4)
    card = room.new_player()
    room.app.bar_player(JEFE, new_id(), player=card, reason="Trampas")
    assert room.player(card).barred
    refused(
        room.app,
        "player_barred",
        room.app.join_waiting_list,
        JEFE,
        new_id(),
        player=card,
        table_id=table_id,
    )
    refused(
        room.app,
        "player_barred",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=card,
    )
    # the bar lifted, the player plays again
    room.app.lift_bar(JEFE, new_id(), player=card)
    assert room.join(card, table_id)["position"] == 1


def test_barring_takes_the_player_off_every_list_and_a_barred_player_is_never_drawn(room):
    holdem = room.table()
    omaha = room.table(**OMAHA)
    cards = room.new_players(5)
    for card in cards:
        room.join(card, holdem)
    room.join(cards[0], omaha)
    room.app.bar_player(JEFE, new_id(), player=cards[0], reason="Conducta")
    assert cards[0] not in room.listed(holdem) + room.listed(omaha)
    assert room.player(cards[0]).waiting_lists == []
    drawn = room.app.draw_seats(JEFE, new_id(), table_ids=[holdem]).result
    assert pid(cards[0]) not in drawn["tables"][holdem]["seats"].values()
    assert len(drawn["tables"][holdem]["seats"]) == 4


def test_a_seated_player_is_not_barred_before_leaving(room):
    _table_id, cards = room.drawn_table(4)
    refused(
        room.app, "player_seated", room.app.bar_player, JEFE, new_id(), player=cards[0], reason="x"
    )


# --- the waiting list ---------------------------------------------------------------


def test_each_registration_gets_the_next_reservation_number_and_its_place(room):
    table_id = room.table()
    cards = room.new_players(3)
    results = [room.join(card, table_id) for card in cards]
    assert [(r["reservation"], r["position"]) for r in results] == [(1, 1), (2, 2), (3, 3)]
    # the list is the game's: naming the game instead of the table is the same list
    by_game = room.join(room.new_player(), **{k: v for k, v in HOLDEM.items() if k != "seats"})
    assert (by_game["waiting_list_id"], by_game["reservation"]) == (
        results[0]["waiting_list_id"],
        4,
    )


def test_registering_again_puts_the_player_last_under_a_new_number(room):
    """CM-6: a called player may re-register, and then goes last."""
    table_id = room.table()
    first, second, third = room.new_players(3)
    for card in (first, second, third):
        room.join(card, table_id)
    again = room.join(first, table_id)
    assert (again["reservation"], again["position"]) == (4, 3)
    assert room.listed(table_id) == [second, third, first]


def test_a_player_may_be_on_several_lists_and_leaves_them_all_when_seated_if_asked(room):
    holdem, _cards = room.drawn_table(4)  # CM: the draw stays open, seats are drawn
    omaha = room.table(**OMAHA)
    big_holdem = room.table(minimum_cents=400, maximum_cents=2000)
    keeps, leaves = room.new_players(2)
    for card in (keeps, leaves):
        room.join(card, holdem)
        room.join(card, omaha)
        room.join(card, big_holdem)
    assert len(room.player(leaves).waiting_lists) == 3
    room.sit(holdem, keeps)  # not asked: the other lists keep the player
    assert room.listed(omaha) == [keeps, leaves] and room.listed(big_holdem) == [keeps, leaves]
    assert room.listed(holdem) == [leaves]
    room.sit(holdem, leaves, leave_other_lists=True)
    assert room.listed(omaha) == [keeps] and room.listed(big_holdem) == [keeps]
    assert room.listed(holdem) == []
    assert sorted(room.player(keeps).waiting_lists) == sorted(
        [room.get(omaha).game.key, room.get(big_holdem).game.key]
    )
    assert room.player(leaves).waiting_lists == []


def test_a_seated_player_registers_only_for_another_variant(room):
    """CM-7: players already playing may register for a different variant only."""
    _holdem, cards = room.drawn_table(4)
    omaha = room.table(**OMAHA)
    other_holdem = room.table(minimum_cents=400, maximum_cents=2000)
    refused(
        room.app,
        "seated_same_variant",
        room.app.join_waiting_list,
        JEFE,
        new_id(),
        player=cards[0],
        table_id=other_holdem,
    )
    assert room.join(cards[0], omaha)["position"] == 1


def test_leaving_a_list_takes_the_player_off_it(room):
    table_id = room.table()
    first, second = room.new_players(2)
    room.join(first, table_id)
    room.join(second, table_id)
    room.app.leave_waiting_list(
        JEFE, new_id(), player=first, table_id=table_id, reason="absent_when_called"
    )
    assert room.listed(table_id) == [second]
    refused(
        room.app,
        "player_not_on_list",
        room.app.leave_waiting_list,
        JEFE,
        new_id(),
        player=first,
        table_id=table_id,
    )


def test_a_vacant_seat_goes_to_the_list_in_order(make_app):
    """PT 12 b; CM-5: the list in order. GA: no open draw, the jefe names the seat."""
    room = Room(make_app("GA"))
    table_id, _cards = room.drawn_table(5)
    first, second = room.new_players(2)
    outsider = room.new_player()
    room.join(first, table_id)
    room.join(second, table_id)
    free = room.get(table_id).free_seats()
    error = refused(
        room.app,
        "waiting_list_first",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=second,
        seat=free[0],
    )
    assert error.params == {"reservation": 6}  # numbers go on after the drawn five
    refused(
        room.app,
        "waiting_list_first",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=outsider,
        seat=free[0],
    )
    room.sit(table_id, first, free[0])
    room.sit(table_id, second, free[1])
    assert room.listed(table_id) == []
    # nobody waits now: a player who is not on the list may sit
    room.sit(table_id, outsider, free[2])
    assert room.seat_of(table_id, outsider) == free[2]


def test_seated_players_asking_to_change_seat_come_before_the_list(make_app):
    """PT 12 a; CM-5, CM-11: the seated player who asked first, then the list."""
    room = Room(make_app("PT"))
    table_id, cards = room.drawn_table(10)  # a full table
    waiting = room.new_player()
    room.join(waiting, table_id)
    mover = cards[0]
    room.app.request_seat_change(JEFE, new_id(), table_id=table_id, player=mover)
    refused(
        room.app,
        "seat_change_already_requested",
        room.app.request_seat_change,
        JEFE,
        new_id(),
        table_id=table_id,
        player=mover,
    )
    leaving = next(c for c in cards if c != mover)
    freed = room.seat_of(table_id, leaving)
    left = room.leave(table_id, leaving)
    assert left["offered"] == {"seat_change_request": pid(mover)}
    assert room.waiting(table_id).entries[0]["status"] == "waiting"  # nobody called yet
    refused(
        room.app,
        "seat_change_requested_first",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=waiting,
        seat=freed,
    )
    old = room.seat_of(table_id, mover)
    moved = room.app.change_seat(JEFE, new_id(), table_id=table_id, player=mover, seat=freed).result
    assert (moved["seat"], moved["freed_seat"]) == (freed, old)
    assert room.player(mover).seated_at["seat"] == freed
    # the seat the mover left now goes to the list: its first player is called
    assert moved["offered"] == {"called": pid(waiting), "reservation": 11}
    room.sit(table_id, waiting, old)
    assert room.seats(table_id)[old] == waiting


def test_only_a_player_at_the_table_asks_to_change_seat(room):
    table_id, _ = room.drawn_table(4)
    stranger = room.new_player()
    refused(
        room.app,
        "player_not_at_table",
        room.app.request_seat_change,
        JEFE,
        new_id(),
        table_id=table_id,
        player=stranger,
    )


def test_a_player_sits_at_one_table_at_a_time(room):
    _first, cards = room.drawn_table(4)
    second = room.table(**OMAHA)
    refused(
        room.app,
        "player_already_seated",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=second,
        player=cards[0],
    )
