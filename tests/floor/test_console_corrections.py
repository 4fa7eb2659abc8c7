"""The jefe's corrections on the table card (issue 22): the seat line's
"Correct" panel offers "Undo the move" and "Fix the stack" only when the
command would take them now (each held against the command itself, run
unsaved), each confirmed first in words (428 ``needs_confirmation``, nothing
recorded), and the API's refusals are 4xx with their codes, never a 500."""

from __future__ import annotations

import pytest
from django.test import Client

from floor import runtime
from floor.domain.balance_group import BalanceGroup
from tests.floor.test_console_seat_offers import card_rows, would_run
from tests.support.books import Books
from tests.support.floor import DIRECTOR, JEFE, new_id
from tests.support.room import Room, all_events

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="CO")


def two_tables(room: Room) -> tuple[str, str]:
    table_ids = [room.table() for _ in range(2)]
    for card in room.new_players(10):
        room.join(card, table_ids[0])
    room.app.draw_seats(JEFE, new_id(), table_ids=table_ids)
    for table_id in table_ids:
        for card in room.seats(table_id).values():
            room.buy(table_id, card, 1000)
    return table_ids[0], table_ids[1]


def move_one(room: Room, a: str, b: str) -> str:
    card = next(iter(room.seats(a).values()))
    group = str(BalanceGroup.id_for(room.get(a).game))
    room.app.override_move(
        JEFE, new_id(), group_id=group, player=card, to_table_id=b, reason="The jefe's call"
    )
    return card


def assert_corrections_match_commands(room: Room, clock, jefe: Client, table_id: str) -> dict:
    """Every seated line offers each correction iff its command takes it now."""
    rows = card_rows(jefe, room, table_id)
    for seat, row in rows.items():
        if row["card"] is None:
            assert not {"undo_move", "fix_stack"} & row["commands"]
            continue
        asked = {
            "undo_move": {"player": row["card"], "reason_code": "wrong_player"},
            # Any stack but the one there: the command's own "unchanged" aside.
            "fix_stack": {
                "player": row["card"],
                "stack_cents": room.state(table_id, row["card"])["stack"] + 1,
                "reason_code": "miscount",
            },
        }
        for name, arguments in asked.items():
            refusal = would_run(room, clock, name, table_id=table_id, **arguments)
            assert (name in row["commands"]) == (refusal is None), (seat, name, refusal)
    return rows


def test_undo_is_offered_only_on_the_player_moved_and_only_until_he_plays(room, clock, jefe):
    a, b = two_tables(room)
    card = move_one(room, a, b)
    seat = room.seat_of(b, card)
    rows = assert_corrections_match_commands(room, clock, jefe, b)
    assert "undo_move" in rows[seat]["commands"]
    assert 'data-testid="undo-to"' in rows[seat]["html"]
    assert sum("undo_move" in r["commands"] for r in rows.values()) == 1
    # Every seated line may fix its stack between hands.
    assert all("fix_stack" in r["commands"] for r in rows.values() if r["card"])

    room.start(b)  # a hand in play: neither correction at this table
    rows = assert_corrections_match_commands(room, clock, jefe, b)
    assert not any({"undo_move", "fix_stack"} & r["commands"] for r in rows.values())
    room.end(b)
    rows = assert_corrections_match_commands(room, clock, jefe, b)
    assert "undo_move" not in rows[seat]["commands"]  # dealt a hand at the new seat
    assert (
        would_run(
            room, clock, "undo_move", table_id=b, player=card, reason_code="wrong_player"
        ).code
        == "move_played_since"
    )


def test_undo_is_not_offered_once_the_former_seat_is_taken(room, clock, jefe):
    a, b = two_tables(room)
    seat_left = next(iter(room.seats(a)))
    card = move_one(room, a, b)
    other = next(iter(room.seats(a).values()))
    room.app.change_seat(JEFE, new_id(), table_id=a, player=other, seat=seat_left)
    rows = assert_corrections_match_commands(room, clock, jefe, b)
    assert "undo_move" not in rows[room.seat_of(b, card)]["commands"]
    # The seat change at table a is offered for undoing instead... unless its
    # seat left is taken; here it is free.
    rows = assert_corrections_match_commands(room, clock, jefe, a)
    assert "undo_move" in rows[seat_left]["commands"]


def test_undo_is_not_offered_while_he_rests_nor_once_the_former_table_dealt_on(room, clock, jefe):
    a, b = two_tables(room)
    card = move_one(room, a, b)
    seat = room.seat_of(b, card)
    room.app.start_rest(JEFE, new_id(), table_id=b, player=card)
    rows = assert_corrections_match_commands(room, clock, jefe, b)
    assert "undo_move" not in rows[seat]["commands"]
    room.app.end_rest(JEFE, new_id(), table_id=b, player=card)
    rows = assert_corrections_match_commands(room, clock, jefe, b)
    assert "undo_move" in rows[seat]["commands"]
    room.start(a)  # the former table deals on without him
    rows = assert_corrections_match_commands(room, clock, jefe, b)
    assert "undo_move" not in rows[seat]["commands"]
    room.end(a)
    rows = assert_corrections_match_commands(room, clock, jefe, b)
    assert "undo_move" not in rows[seat]["commands"]
    refusal = would_run(
        room, clock, "undo_move", table_id=b, player=card, reason_code="wrong_table"
    )
    assert refusal.code == "former_table_played_since"


def test_an_undo_to_another_sector_is_offered_only_when_its_jefes_run_both(floor_app, jefe):
    """The undo changes the former table too, so the command wants the jefe
    to run its sector as well [GA art. 19.1]; the card, the same for every
    jefe of this sector, offers it only when each of them does."""
    there, here = Room(floor_app, tag="SA"), Room(floor_app, tag="SB")
    a, _cards = there.drawn_table(4, buy_in=1000, seats=4)
    b, _cards = here.drawn_table(4, buy_in=1000, seats=6)
    card = move_one(there, a, b)
    seat = here.seat_of(b, card)

    def name(room: Room, *jefes: str) -> None:
        floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=room.sector_id, jefes=list(jefes))

    def offered() -> bool:
        return "undo_move" in card_rows(jefe, here, b)[seat]["commands"]

    def undo() -> object:
        return jefe.post(
            f"/api/tables/{b}/undo-move/",
            {"command_id": new_id(), "player": card, "reason_code": "wrong_table"},
            content_type="application/json",
        )

    name(there, "ana")
    name(here, "jaime")
    assert not offered()
    before = len(all_events(floor_app))
    refused = undo()
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_sector")
    assert len(all_events(floor_app)) == before
    name(here, "jaime", "bea")
    name(there, "ana", "jaime")
    assert not offered()  # bea, who sees the same card, does not run table a's sector
    name(here, "jaime")
    assert offered()
    done = undo()
    assert done.status_code == 201, done.content
    assert card in there.seats(a).values()


def test_a_stack_fix_through_the_door_is_confirmed_first_then_booked(room, jefe):
    a, _b = two_tables(room)
    books = Books(room.app)
    card = next(iter(room.seats(a).values()))
    form = {
        "command_id": new_id(), "table_id": a, "player": card, "stack_eur": "12,50",
        "reason_code": "buy_in_miscounted", "note": "",
    }  # fmt: skip
    runtime.floor_projector().catch_up()  # the words are read from the read models
    before = len(all_events(room.app))
    asked = jefe.post("/console/commands/fix_stack/", form, **JSON)
    assert asked.status_code == 428
    body = asked.json()
    assert body["code"] == "needs_confirmation"
    assert "10,00" in body["message"] and "12,50" in body["message"] and "+2,50" in body["message"]
    assert len(all_events(room.app)) == before  # nothing recorded until confirmed
    done = jefe.post(
        "/console/commands/fix_stack/", {**form, "confirm_cents": body["confirm"]["cents"]}, **JSON
    )
    assert done.status_code == 201, done.json()
    assert room.state(a, card)["stack"] == 1250
    books.check()


def test_an_undo_through_the_door_is_confirmed_with_where_the_player_goes(room, jefe):
    a, b = two_tables(room)
    card = move_one(room, a, b)
    form = {"command_id": new_id(), "table_id": b, "player": card, "reason_code": "wrong_table"}
    runtime.floor_projector().catch_up()
    asked = jefe.post("/console/commands/undo_move/", form, **JSON)
    assert asked.status_code == 428
    number = room.get(a).number
    assert f"mesa {number}" in asked.json()["message"]
    done = jefe.post(
        "/console/commands/undo_move/",
        {**form, "confirm_cents": asked.json()["confirm"]["cents"]},
        **JSON,
    )
    assert done.status_code == 201, done.json()
    assert card in room.seats(a).values()


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("undo-move", {"reason_code": "wrong_player"}, 409, "no_move_to_undo"),
        ("undo-move", {"reason_code": "nonsense"}, 400, None),
        ("fix-stack", {"stack_cents": 1000, "reason_code": "miscount"}, 409, "stack_unchanged"),
        ("fix-stack", {"stack_cents": -5, "reason_code": "miscount"}, 400, None),
        (
            "fix-stack",
            {"stack_cents": 900, "reason_code": "other"},
            400,
            "correction_note_required",
        ),
    ],
)
def test_the_api_refuses_a_correction_with_a_4xx_and_its_code(room, jefe, path, body, status, code):
    a, _b = two_tables(room)
    card = next(iter(room.seats(a).values()))
    before = len(all_events(room.app))
    response = jefe.post(
        f"/api/tables/{a}/{path}/",
        {"command_id": new_id(), "player": card, **body},
        content_type="application/json",
    )
    assert response.status_code == status, response.content
    if code:
        assert response.json()["code"] == code
    assert len(all_events(room.app)) == before


def test_the_director_who_may_not_correct_is_offered_no_correction(room, make_user):
    make_user("dora", "director", password="pa55-word-ok")
    director = Client()
    assert director.login(username="dora", password="pa55-word-ok")
    a, b = two_tables(room)
    move_one(room, a, b)
    rows = card_rows(director, room, b)
    assert not any({"undo_move", "fix_stack"} & r["commands"] for r in rows.values())
