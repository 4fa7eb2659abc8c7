"""Minimum players, suspension and closing (issue 4 item 8), what a closed table
refuses, and the audit every event carries.

Below four players a running table is suspended; at four it resumes [GA art.
23; PT 24]. The suspension records its closing deadline: 15 minutes under PT
(and CM, the service default), none under GA."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

import pytest

from floor.domain.player import Player
from tests.support.floor import CRUPIER, JEFE, new_id
from tests.support.room import Room, all_events, events_of, pid, refused

pytestmark = pytest.mark.django_db

DEADLINES = {
    "CM": timedelta(minutes=15),
    "PT": timedelta(minutes=15),
    "GA": None,
    "TEST": timedelta(seconds=3),
}


def sit_somewhere(room: Room, table_id: str, card: str) -> dict:
    """Seats ``card``: drawn where the draw is open [CM-3], else the first free seat."""
    table = room.get(table_id)
    return room.sit(table_id, card, None if table.draw_open else table.free_seats()[0])


@pytest.mark.parametrize("profile", sorted(DEADLINES))
def test_below_four_players_the_table_is_suspended_with_its_closing_deadline(
    make_app, clock, profile
):
    room = Room(make_app(profile))
    table_id, cards = room.drawn_table(4)
    room.played(
        table_id, **({"button": room.get(table_id).occupied()[0]} if profile == "GA" else {})
    )
    clock.advance(timedelta(minutes=40))
    left = room.leave(table_id, cards[0])
    assert left["status"] == "suspended"
    (suspended,) = events_of(room.app, table_id, "Suspended")
    deadline = DEADLINES[profile]
    assert suspended.at == clock.now()
    assert suspended.closes_at == (clock.now() + deadline if deadline else None)
    assert (suspended.players, suspended.needed) == (3, 4)
    table = room.get(table_id)
    assert table.status == "suspended"
    assert table.suspension == {
        "at": clock.now().isoformat(),
        "closes_at": (clock.now() + deadline).isoformat() if deadline else None,
    }


def test_a_suspended_table_deals_no_hand_and_stays_suspended_with_fewer(room, clock):
    table_id, cards = room.drawn_table(5)
    room.leave(table_id, cards[0])
    assert room.get(table_id).status == "running"  # four still play
    room.leave(table_id, cards[1])
    seats = room.get(table_id).occupied()
    refused(
        room.app,
        "table_not_running",
        room.app.start_hand,
        CRUPIER,
        new_id(),
        table_id=table_id,
        dealt_in=seats,
    )
    clock.advance(timedelta(minutes=5))
    room.leave(table_id, cards[2])
    assert room.get(table_id).status == "suspended"
    assert len(events_of(room.app, table_id, "Suspended")) == 1  # the first deadline holds


@pytest.mark.parametrize("profile", ["CM", "PT", "GA"])
def test_at_four_players_a_suspended_table_resumes(make_app, profile):
    room = Room(make_app(profile))
    table_id, cards = room.drawn_table(4)
    room.leave(table_id, cards[0])
    back = room.new_player()
    room.join(back, table_id)
    seated = sit_somewhere(room, table_id, back)
    assert seated["status"] == "running"
    (resumed,) = events_of(room.app, table_id, "Resumed")
    assert resumed.players == 4
    table = room.get(table_id)
    assert (table.status, table.suspension) == ("running", None)
    room.buy(table_id, back, 1000)
    start = {"button": table.occupied()[0]} if profile == "GA" else {}
    assert len(room.start(table_id, **start)["dealt_in"]) == 4


@pytest.fixture
def room(make_app) -> Room:
    return Room(make_app("CM"))


# --- closing -----------------------------------------------------------------------------


def test_a_closed_table_lets_its_players_go_with_their_stacks(room):
    table_id, cards = room.drawn_table(4, buy_in=None)
    stacks = dict(zip(cards, (200, 450, 700, 1000), strict=True))
    for card, amount in stacks.items():
        room.buy(table_id, card, amount)
    closed = room.app.close_table(JEFE, new_id(), table_id=table_id).result
    assert closed["stacks"] == {pid(c): amount for c, amount in stacks.items()}
    (event,) = events_of(room.app, table_id, "Closed")
    assert {s["player_id"]: s["stack"] for s in event.players.values()} == {
        Player.create_id(c).hex: amount for c, amount in stacks.items()
    }
    table = room.get(table_id)
    assert (table.status, table.occupants) == ("closed", {})
    for card in cards:
        player = room.player(card)
        assert player.seated_at is None
        # The table closed under them: no re-seat cool-down follows [CM-13].
        assert player.last_left is None
    # they may sit elsewhere
    other = room.table()
    for card in cards:
        room.join(card, other)
    room.app.draw_seats(JEFE, new_id(), table_ids=[other])
    assert sorted(room.seats(other).values()) == sorted(cards)


def test_a_closed_table_refuses_every_command(room):
    table_id, cards = room.drawn_table(5)
    room.app.close_table(JEFE, new_id(), table_id=table_id)
    stranger = room.new_player()
    card = cards[0]
    where = {"table_id": table_id}
    commands = [
        (room.app.seat_player, {**where, "player": stranger, "seat": 1}),
        (room.app.seat_player, {**where, "player": stranger}),
        (room.app.buy_in, {**where, "player": card, "amount_cents": 500}),
        (room.app.start_hand, {**where, "dealt_in": [1, 2, 3, 4]}),
        (room.app.leave_table, {**where, "player": card}),
        (room.app.request_seat_change, {**where, "player": card}),
        (room.app.change_seat, {**where, "player": card, "seat": 2}),
        (room.app.start_rest, {**where, "player": card}),
        (room.app.close_table, where),
        (room.app.draw_seats, {"table_ids": [table_id]}),
    ]
    for command, arguments in commands:
        actor = (
            CRUPIER
            if command in (room.app.buy_in, room.app.start_hand, room.app.start_rest)
            else JEFE
        )
        error = refused(room.app, "table_closed", command, actor, new_id(), **arguments)
        assert error.kind == "conflict"
    refused(
        room.app,
        "no_hand_in_progress",
        room.app.end_hand,
        CRUPIER,
        new_id(),
        contributions={},
        winnings={},
        **where,
    )


def test_a_table_closes_between_hands_only_and_for_a_known_reason(room):
    table_id, _ = room.drawn_table(4)
    room.start(table_id)
    refused(room.app, "hand_in_progress", room.app.close_table, JEFE, new_id(), table_id=table_id)
    room.end(table_id)
    refused(
        room.app,
        "reason_invalid",
        room.app.close_table,
        JEFE,
        new_id(),
        table_id=table_id,
        reason="tired",
    )
    refused(
        room.app, "table_not_found", room.app.close_table, JEFE, new_id(), table_id=str(UUID(int=1))
    )


def test_a_suspended_table_closes_when_its_deadline_passes(room, clock):
    """PT 24: the clocks issue fires the timer; here the close it asks for."""
    table_id, cards = room.drawn_table(4)
    room.leave(table_id, cards[0])
    clock.advance(timedelta(minutes=15))
    closed = room.app.close_table(JEFE, new_id(), table_id=table_id, reason="suspension_expired")
    assert len(closed.result["stacks"]) == 3
    (event,) = events_of(room.app, table_id, "Closed")
    assert event.reason == "suspension_expired"
    assert room.get(table_id).suspension is None


def test_the_players_of_a_closed_table_have_played_its_session(make_app):
    """PT 27 keeps the session a player was in when the table closed."""
    room = Room(make_app("PT"))
    table_id, cards = room.drawn_table(4)
    game = room.get(table_id).game.key
    room.leave(table_id, cards[0])
    room.app.close_table(JEFE, new_id(), table_id=table_id)
    assert not room.player(cards[0]).played_previous_session(game)
    assert all(room.player(c).played_previous_session(game) for c in cards[1:])


# --- the audit ----------------------------------------------------------------------------


def test_every_event_names_its_actor_role_command_and_profile(make_app, clock):
    room = Room(make_app("PT"))
    table_id, cards = room.drawn_table(5)
    room.played(table_id)
    room.app.start_rest(CRUPIER, "rest-1", table_id=table_id, player=cards[1])
    room.leave(table_id, cards[0])
    draw_command = "draw-2"
    other = room.table(minimum_cents=400)
    for card in room.new_players(4):
        room.join(card, other)
    room.app.draw_seats(JEFE, draw_command, table_ids=[other])
    room.app.close_table(JEFE, "close-1", table_id=table_id)
    events = all_events(room.app)
    assert len(events) > 50
    for event in events:
        assert event.actor in {"dora", "jaime", "cris", "carla"}, event
        assert event.actor_role in {"director", "jefe_sector", "crupier", "cajero"}, event
        assert event.command_id, event
        assert event.rule_profile == "PT", event
        assert event.timestamp == clock.now()
    by_command = {}
    for event in events:
        by_command.setdefault(event.command_id, []).append(event)
    # one command, one actor, and each command's events end with its record
    for command_id, recorded in by_command.items():
        assert len({e.actor for e in recorded}) == 1, command_id
        assert type(recorded[-1]).__qualname__.startswith("CommandRecord"), command_id
    drawn = {type(e).__qualname__ for e in by_command[draw_command]}
    assert {"Table.SeatsDrawn", "Player.Seated", "WaitingList.Removed"} <= drawn
    assert {e.actor for e in by_command[draw_command]} == {"jaime"}
    assert {(e.actor, e.actor_role) for e in by_command["rest-1"]} == {("cris", "crupier")}
    closing = {type(e).__qualname__ for e in by_command["close-1"]}
    assert {"Table.Closed", "Player.LeftTable"} <= closing
