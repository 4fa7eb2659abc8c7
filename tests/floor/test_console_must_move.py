"""Must-move tables on the jefe's console (issue 24, item 5): the cards say
which table feeds which and in what order its players move; a free seat of
the main table offers the move exactly when ``move_from_must_move`` takes it
(and then neither "Seat" nor "Call the list"), and the jefe starts, moves and
ends from the cards."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from floor import runtime
from tests.floor.test_console_seat_offers import card_rows, would_run
from tests.floor.test_must_move import SEATS, arrival_order, group_of
from tests.floor.test_player_door import signed_in_player
from tests.support.floor import CRUPIER, JEFE, new_id
from tests.support.room import Room, refused

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="MM")


def command(client: Client, name: str, **fields) -> tuple[int, dict]:
    response = client.post(f"/console/commands/{name}/", {"command_id": new_id(), **fields}, **JSON)
    return response.status_code, response.json()


def card_html(client: Client, room: Room, table_id: str) -> str:
    runtime.floor_projector().catch_up()
    html = client.get(f"/sectors/{room.sector_id}/live/").content.decode()
    start = html.index(f'data-live-key="table-{table_id}"')
    return html[start : html.index("</section>", start)]


def test_the_jefe_runs_a_must_move_table_from_the_cards(room, clock, jefe):
    a, _cards = room.drawn_table(SEATS, seats=SEATS)
    room.played(a)
    b, _cards = room.drawn_table(SEATS, seats=SEATS)
    # The card offers to make it the must-move table of the other.
    assert 'data-command="start_must_move"' in card_html(jefe, room, b)
    status, body = command(jefe, "start_must_move", table_id=b, main_table_id=a)
    assert status == 201, body

    feeder = card_html(jefe, room, b)
    assert 'data-testid="must-move-main"' in feeder
    order = re.findall(r'<span data-card="([^"]+)">\d+\.', feeder)
    assert order == arrival_order(room, b)
    assert 'data-command="end_must_move"' in feeder
    assert 'data-testid="must-move-feeder"' in card_html(jefe, room, a)

    waiting = room.new_player("Waits")
    room.join(waiting, a)
    leaving = next(iter(room.seats(a).values()))
    seat = room.leave(a, leaving)["seat"]

    rows = card_rows(jefe, room, a)
    free = rows[seat]["commands"]
    # Offered exactly when the command takes it; the list waits [CM-5].
    assert would_run(room, clock, "move_from_must_move", table_id=a, seat=seat) is None
    assert "move_from_must_move" in free
    assert not {"seat_player", "call_next"} & free
    first = arrival_order(room, b)[0]
    assert room.get(room.player(first).id).display_name in card_html(jefe, room, a)

    status, body = command(jefe, "move_from_must_move", table_id=a, seat=seat)
    assert status == 201, body
    assert room.seats(a)[seat] == first
    # 6 and 5 now: the next move would leave 6 and 4 [CM-10]; the card says so
    # once a seat frees, and offers the list instead.
    seat = room.leave(a, room.seats(a)[seat])["seat"]
    assert would_run(room, clock, "move_from_must_move", table_id=a, seat=seat) is not None
    rows = card_rows(jefe, room, a)
    assert "move_from_must_move" not in rows[seat]["commands"]
    assert 'data-testid="must-move-held"' in card_html(jefe, room, a)
    # The waiting player was called to the must-move table's seat: the jefe
    # seats whoever comes next.
    assert "seat_player" in rows[seat]["commands"]

    status, body = command(jefe, "end_must_move", table_id=b)
    assert status == 201, body
    assert 'data-testid="must-move-main"' not in card_html(jefe, room, b)


def test_a_refused_start_is_a_clear_409_that_records_nothing(room, jefe):
    a, _cards = room.drawn_table(SEATS, seats=SEATS)
    status, body = command(jefe, "start_must_move", table_id=a, main_table_id=a)
    assert (status, body["code"]) == (409, "must_move_same_table")
    assert body["message"]
    status, body = command(jefe, "end_must_move", table_id=a)
    assert (status, body["code"]) == (409, "not_must_move")


def test_a_crupier_may_not_run_a_must_move_table(room, floor_app):
    a, _cards = room.drawn_table(SEATS, seats=SEATS)
    b, _cards = room.drawn_table(5, seats=SEATS)
    refused(
        floor_app, "role_not_allowed", floor_app.start_must_move, CRUPIER, new_id(),
        table_id=b, main_table_id=a,
    )  # fmt: skip
    assert group_of(room, a).must_move == {}
    floor_app.start_must_move(JEFE, new_id(), table_id=b, main_table_id=a)
    assert group_of(room, a).must_move


def test_a_player_at_the_must_move_table_sees_their_place_in_line(room, api_as):
    a, _cards = room.drawn_table(SEATS, seats=SEATS)
    room.played(a)
    b, _cards = room.drawn_table(SEATS, seats=SEATS)
    room.app.start_must_move(JEFE, new_id(), table_id=b, main_table_id=a)
    second = arrival_order(room, b)[1]
    runtime.floor_projector().catch_up()
    phone = signed_in_player(api_as("dora", "jefe_sector"), second)
    html = phone.get("/jugador/en-vivo/").content.decode()
    place = re.search(r'data-testid="must-move-place">([^<]+)<', html).group(1)
    number = room.get(a).number
    assert f"Esta mesa alimenta la mesa {number}" in place and "Eres el número 2." in place
    # At the main table, nothing of the kind.
    phone = signed_in_player(api_as("eva", "jefe_sector"), room.seats(a)[1])
    assert 'data-testid="must-move-place"' not in phone.get("/jugador/en-vivo/").content.decode()
