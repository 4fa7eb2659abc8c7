"""The list's player side through the HTTP API (issue 24): the jefe checks a
remote entry in and records a called player's answer like the other list
commands; a signed-in player (the "player" group) joins and answers for
themselves only; the list's read shows the entries' new fields."""

from __future__ import annotations

import pytest

from floor.application.player_self import player_username
from tests.floor.test_floor_api import (
    CARDS,
    join,
    ok,
    open_table,
    post,
    refused,
    register,
)
from tests.support.floor import new_id

pytestmark = pytest.mark.django_db


@pytest.fixture
def jefe(api_as, floor_app):
    return api_as("jaime", "jefe_sector")


@pytest.fixture
def sector(api_as, floor_app):
    director = api_as("dora", "director")
    response = director.post("/api/sectors/", {"command_id": new_id(), "name": "Sector P"})
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def full(jefe, sector):
    """A full six-seat table: six players drawn, two more registered."""
    table = open_table(jefe, sector, seats=6)
    register(jefe, CARDS)
    join(jefe, table["id"], CARDS[:6])
    return ok(post(jefe, f"/api/tables/{table['id']}/draw/"))["table"]


def entry(jefe, card: str) -> dict:
    (game_list,) = jefe.get("/api/waiting-lists/").json()
    return next(e for e in game_list["entries"] if e["card_number"] == card)


def test_a_player_joins_from_outside_and_the_jefe_checks_them_in(jefe, full, api_as):
    me = api_as(player_username(CARDS[6]), "player")
    joined = ok(post(me, "/api/waiting-lists/", player=CARDS[6], table_id=full["id"]))
    assert joined["result"]["remote"] is True
    shown = entry(jefe, CARDS[6])
    assert (shown["remote"], shown["checked_in"]) == (True, False)
    assert shown["check_in_by"] is not None
    assert (shown["answer"], shown["answered_at"]) == ("", None)
    # the player reads no list of the room's (their page is p24-door's)
    assert me.get("/api/waiting-lists/").status_code == 403
    # another player's card: refused, nothing recorded
    refused(
        post(me, "/api/waiting-lists/", player=CARDS[7], table_id=full["id"]),
        403,
        "not_your_player",
    )
    # the check-in is the jefe's, not the player's
    refused(
        post(me, "/api/waiting-lists/check-in/", player=CARDS[6], table_id=full["id"]),
        403,
        "role_not_allowed",
    )
    response = post(jefe, "/api/waiting-lists/check-in/", player=CARDS[6], table_id=full["id"])
    assert response.status_code == 201, response.content
    assert response.json()["result"]["kept_order"] is True  # CM keeps the order
    shown = entry(jefe, CARDS[6])
    assert (shown["remote"], shown["checked_in"], shown["check_in_by"]) == (True, True, None)
    refused(
        post(jefe, "/api/waiting-lists/check-in/", player=CARDS[6], table_id=full["id"]),
        409,
        "already_checked_in",
    )


def test_a_called_player_answers_and_the_list_shows_it(jefe, full, api_as):
    join(jefe, full["id"], CARDS[6:7])
    me = api_as(player_username(CARDS[6]), "player")
    refused(
        post(me, "/api/waiting-lists/answer-call/", player=CARDS[6], table_id=full["id"],
             answer="coming"),
        409,
        "player_not_called",
    )  # fmt: skip
    card = full["occupied_seats"][0]["card_number"]
    ok(post(jefe, f"/api/tables/{full['id']}/leave/", player=card))
    assert entry(jefe, CARDS[6])["status"] == "called"
    refused(
        post(me, "/api/waiting-lists/answer-call/", player=CARDS[6], table_id=full["id"],
             answer="later"),
        400,
        "invalid_input",
    )  # fmt: skip
    answered = post(
        me, "/api/waiting-lists/answer-call/", player=CARDS[6], table_id=full["id"],
        answer="five_more",
    )  # fmt: skip
    assert answered.status_code == 201, answered.content
    shown = entry(jefe, CARDS[6])
    assert shown["answer"] == "five_more" and shown["answered_at"] is not None
