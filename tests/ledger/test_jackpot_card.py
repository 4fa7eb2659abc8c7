"""A poker table's jackpot staked and paid from its card (issue 22, item 1)
[GA art. 8b; PT-SD 8, 12]: between hands the card offers the next hand's
stake to the seats that may stake, and the prize of the hand just played to
the seats that staked on it and still sit there; each form only when its
command would take it (the Table's own checks, floor.domain.table_jackpots,
and the books' for the jackpot), confirmed before any chips move.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from floor import runtime
from tests.support.floor import CRUPIER, DIRECTOR, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
PASSWORD = "pa55-word-ok"
JACKPOT_TABLE = {"minimum_cents": 400, "maximum_cents": 2_000}


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="JC")


@pytest.fixture
def jefe(make_user) -> Client:
    make_user("jaime", "jefe_sector", password=PASSWORD)
    client = Client()
    assert client.login(username="jaime", password=PASSWORD)
    return client


def jackpot_table(room: Room, stake_cents: int = 100) -> tuple[str, str, list[int]]:
    table_id, _cards = room.drawn_table(4, buy_in=2_000, **JACKPOT_TABLE)
    jackpot_id = room.app.create_jackpot(
        DIRECTOR,
        new_id(),
        name="Progresivo",
        stake_cents=stake_cents,
        seed_cents=50_000,
        table_ids=[table_id],
    ).result["jackpot_id"]
    return table_id, jackpot_id, sorted(room.seats(table_id))


def card_forms(client: Client, room: Room, table_id: str) -> dict[str, str]:
    """The table card's jackpot forms by command: each form's HTML."""
    runtime.floor_projector().catch_up()
    html = client.get(f"/sectors/{room.sector_id}/live/").content.decode()
    start = html.index(f'data-live-key="table-{table_id}"')
    section = html[start : html.index("</section>", start)]
    forms = re.finditer(
        r'<form[^>]*data-command="(stake_jackpot|pay_jackpot)".*?</form>', section, re.S
    )
    return {form.group(1): form.group(0) for form in forms}


def seats_in(form: str, field: str) -> list[int]:
    return sorted(int(s) for s in re.findall(rf'name="{field}\.(\d+)"', form))


def post(client: Client, name: str, fields: dict) -> tuple[int, dict]:
    response = client.post(f"/console/commands/{name}/", {"command_id": new_id(), **fields}, **JSON)
    return response.status_code, response.json()


def confirmed(client: Client, name: str, fields: dict) -> dict:
    """Posts the form, is asked to confirm the money it moves, confirms it."""
    status, asked = post(client, name, fields)
    assert status == 428 and asked["code"] == "needs_confirmation", asked
    status, done = post(client, name, {**fields, "confirm_cents": asked["confirm"]["cents"]})
    assert status == 201, done
    return done


def test_the_stake_is_offered_between_hands_to_the_seats_that_may_stake(room, jefe):
    table_id, jackpot_id, seats = jackpot_table(room)
    room.app.start_rest(CRUPIER, new_id(), table_id=table_id, player=room.seats(table_id)[seats[0]])

    forms = card_forms(jefe, room, table_id)

    assert set(forms) == {"stake_jackpot"}  # nothing staked yet: no prize to pay
    stake = forms["stake_jackpot"]
    assert seats_in(stake, "stakes_eur") == seats[1:]  # the resting player does not stake
    assert f'value="{jackpot_id}"' in stake and 'value="1,00"' in stake

    # Two seats stake from the card: confirmed first, then the card offers the rest.
    fields = {"table_id": table_id, "jackpot_id": jackpot_id}
    fields.update({f"stakes_eur.{s}": "1,00" for s in seats[1:3]})
    done = confirmed(jefe, "stake_jackpot", fields)
    assert f"asiento {seats[1]} apuesta 1,00 EUR" in done["message"]  # what was read, seat by seat
    assert room.state(table_id, seat=seats[1])["stack"] == 1_900
    assert seats_in(card_forms(jefe, room, table_id)["stake_jackpot"], "stakes_eur") == seats[3:]

    # While a hand is in play, neither form: chips go in between hands [GA art. 21].
    room.start(table_id)
    assert card_forms(jefe, room, table_id) == {}


def test_the_prize_is_offered_to_the_seats_that_staked_on_the_hand_just_played(room, jefe):
    table_id, jackpot_id, seats = jackpot_table(room)
    staked = seats[:2]
    room.app.stake_jackpot(
        CRUPIER,
        new_id(),
        jackpot_id=jackpot_id,
        table_id=table_id,
        stakes={str(s): 100 for s in staked},
    )
    room.played(table_id)

    forms = card_forms(jefe, room, table_id)

    pay = forms["pay_jackpot"]
    assert seats_in(pay, "winners") == staked
    assert 'value="straight_flush"' in pay and 'value="royal_flush"' in pay
    fields = {
        "table_id": table_id,
        "jackpot_id": jackpot_id,
        f"winners.{staked[0]}": "straight_flush",
    }
    done = confirmed(jefe, "pay_jackpot", fields)
    assert "50,20" in done["message"]  # 10 % of the fund, 502,00 [GA art. 8b]
    assert room.state(table_id, seat=staked[0])["stack"] == 2_000 - 100 + 5_020
    # Paid once: the card offers it no more; the next hand's stake is offered to all.
    forms = card_forms(jefe, room, table_id)
    assert "pay_jackpot" not in forms
    assert seats_in(forms["stake_jackpot"], "stakes_eur") == seats


def test_a_seat_left_since_it_staked_is_not_offered_the_prize(room, jefe):
    table_id, jackpot_id, seats = jackpot_table(room)
    room.app.stake_jackpot(
        CRUPIER, new_id(), jackpot_id=jackpot_id, table_id=table_id, stakes={str(seats[0]): 100}
    )
    room.played(table_id)
    room.leave(table_id, room.seats(table_id)[seats[0]])

    assert "pay_jackpot" not in card_forms(jefe, room, table_id)


def test_a_stake_the_jackpot_refuses_at_this_table_is_not_offered(room, jefe):
    # 3,00 is above half this table's 4,00 minimum [GA art. 8b].
    table_id, _jackpot_id, _seats = jackpot_table(room, stake_cents=300)

    assert "stake_jackpot" not in card_forms(jefe, room, table_id)


def test_the_dealers_table_view_offers_them_too(room, make_user):
    table_id, jackpot_id, _seats = jackpot_table(room)
    make_user(CRUPIER.username, "crupier", password=PASSWORD)
    dealer = Client()
    assert dealer.login(username=CRUPIER.username, password=PASSWORD)
    runtime.floor_projector().catch_up()
    html = dealer.get(f"/tables/{table_id}/").content.decode()
    assert 'data-command="stake_jackpot"' in html and f'value="{jackpot_id}"' in html
