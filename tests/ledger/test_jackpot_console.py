"""Progressive jackpots from the consoles [GA art. 8b; PT-SD 10, 12]: the
cage's console shows each jackpot with its fund; the director creates one
there, its seed confirmed before the cage's chips move; the dealer pays one
through the consoles' command door, confirmed first. Another role sees no
form and is refused; a bad input is said inline and records nothing.
"""

from __future__ import annotations

import pytest
from django.test import Client

from floor import runtime
from ledger.models import JackpotView, TransactionView
from tests.support.floor import DIRECTOR, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
PASSWORD = "pa55-word-ok"
JACKPOT_TABLE = {"minimum_cents": 400, "maximum_cents": 2_000}


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="JK")


def client_as(make_user, username: str, role: str) -> Client:
    make_user(username, role, password=PASSWORD)
    client = Client()
    assert client.login(username=username, password=PASSWORD)
    return client


@pytest.fixture
def director(make_user) -> Client:
    return client_as(make_user, "dora", "director")


@pytest.fixture
def cajero(make_user) -> Client:
    return client_as(make_user, "carla", "cajero")


@pytest.fixture
def crupier(make_user) -> Client:
    return client_as(make_user, "cris", "crupier")


def command(client: Client, command_name: str, **fields) -> tuple[int, dict]:
    response = client.post(
        f"/console/commands/{command_name}/", {"command_id": new_id(), **fields}, **JSON
    )
    return response.status_code, response.json()


def page(client: Client) -> str:
    runtime.floor_projector().catch_up()
    response = client.get("/cage/")
    assert response.status_code == 200
    return response.content.decode()


def seeds() -> int:
    runtime.floor_projector().catch_up()
    return TransactionView.objects.filter(kind="jackpot_seed").count()


@pytest.fixture
def inspector(make_user) -> Client:
    return client_as(make_user, "ines", "inspector")


def test_the_director_creates_a_jackpot_from_the_cage_console_confirmed_first(
    room, director, cajero, inspector
):
    table_id = room.table()
    content = page(director)
    assert 'data-command="create_jackpot"' in content
    assert 'data-testid="no-jackpot"' in content
    for other in (cajero, inspector):  # the cage may not create one, nor the inspector
        assert 'data-command="create_jackpot"' not in page(other)

    form = {"name": "Progresivo", "stake_eur": "1,00", "seed_eur": "500,00", "table_ids": table_id}
    status, asked = command(director, "create_jackpot", **form)
    assert status == 428 and asked["code"] == "needs_confirmation", asked
    assert "Progresivo" in asked["message"] and "500,00" in asked["message"]
    assert not JackpotView.objects.exists() and seeds() == 0
    # The form changed since it was confirmed (another seed): asked again, nothing moves.
    status, again = command(
        director,
        "create_jackpot",
        **{**form, "seed_eur": "5.000,00"},
        confirm_cents=asked["confirm"]["cents"],
    )
    assert status == 428 and again["confirm"]["cents"] != asked["confirm"]["cents"]
    assert not JackpotView.objects.exists() and seeds() == 0

    status, done = command(
        director, "create_jackpot", **form, confirm_cents=asked["confirm"]["cents"]
    )
    assert status == 201, done
    runtime.floor_projector().catch_up()
    jackpot = JackpotView.objects.get()
    assert (jackpot.seed_cents, jackpot.stake_cents) == (50_000, 100)
    assert seeds() == 1

    # Every console reading the cage shows it with its fund.
    for client in (director, cajero, inspector):
        content = page(client)
        assert f'data-jackpot="{jackpot.id}"' in content
        assert "Progresivo" in content and "500,00" in content
    live = cajero.get("/cage/live/").content.decode()  # the live part shows it too
    assert f'data-jackpot="{jackpot.id}"' in live


def test_a_jackpot_typed_wrong_is_said_inline_and_records_nothing(room, director):
    table_id = room.table()
    status, answer = command(
        director,
        "create_jackpot",
        name="Progresivo",
        stake_eur="1.5",
        seed_eur="500,00",
        table_ids=table_id,
    )
    assert status == 400 and "stake_eur" in answer["fields"]
    status, answer = command(
        director, "create_jackpot", name="Progresivo", stake_eur="1,00", seed_eur="500,00"
    )
    assert status == 400 and "table_ids" in answer["fields"]
    assert not JackpotView.objects.exists() and seeds() == 0


def test_the_cashier_may_not_create_a_jackpot(room, cajero):
    table_id = room.table()
    form = {"name": "P", "stake_eur": "1,00", "seed_eur": "500,00", "table_ids": table_id}
    # A role that may never create one is told so at once, not asked to confirm.
    status, answer = command(cajero, "create_jackpot", **form)
    assert status == 403 and answer["code"] == "role_not_allowed", answer
    assert not JackpotView.objects.exists() and seeds() == 0


def test_the_dealer_pays_a_jackpot_through_the_console_door_confirmed_first(room, crupier):
    table_id, _cards = room.drawn_table(4, buy_in=2_000, **JACKPOT_TABLE)
    jackpot_id = room.app.create_jackpot(
        DIRECTOR,
        new_id(),
        name="Progresivo",
        stake_cents=100,
        seed_cents=50_000,
        table_ids=[table_id],
    ).result["jackpot_id"]
    seats = room.get(table_id).occupied()
    room.app.stake_jackpot(
        room_crupier(),
        new_id(),
        jackpot_id=jackpot_id,
        table_id=table_id,
        stakes={str(s): 100 for s in seats},
    )
    room.played(table_id)
    runtime.floor_projector().catch_up()  # the console reads the fund as the books have it
    winner = seats[0]
    form = {"jackpot_id": jackpot_id, "table_id": table_id, f"winners.{winner}": "straight_flush"}

    status, asked = command(crupier, "pay_jackpot", **form)
    assert status == 428 and asked["code"] == "needs_confirmation", asked
    assert "Progresivo" in asked["message"] and "504,00" in asked["message"]
    assert f"asiento {winner}" in asked["message"]
    assert room.state(table_id, seat=winner)["stack"] == 2_000 - 100

    status, done = command(crupier, "pay_jackpot", **form, confirm_cents=asked["confirm"]["cents"])
    assert status == 201, done
    assert "50,40" in done["message"]  # 10 % of 504,00 [PT-SD 12]
    assert room.state(table_id, seat=winner)["stack"] == 2_000 - 100 + 5_040


def test_the_dealer_stakes_a_hand_through_the_console_door_confirmed_first(room, crupier):
    table_id, _cards = room.drawn_table(4, buy_in=2_000, **JACKPOT_TABLE)
    jackpot_id = room.app.create_jackpot(
        DIRECTOR,
        new_id(),
        name="Progresivo",
        stake_cents=100,
        seed_cents=50_000,
        table_ids=[table_id],
    ).result["jackpot_id"]
    runtime.floor_projector().catch_up()
    seats = room.get(table_id).occupied()
    form = {"jackpot_id": jackpot_id, "table_id": table_id}
    form.update({f"stakes_eur.{s}": "1,00" for s in seats[:2]})

    status, asked = command(crupier, "stake_jackpot", **form)
    assert status == 428 and asked["code"] == "needs_confirmation", asked
    assert "2,00" in asked["message"] and f"asiento {seats[0]}" in asked["message"]
    assert room.state(table_id, seat=seats[0])["stack"] == 2_000

    status, done = command(
        crupier, "stake_jackpot", **form, confirm_cents=asked["confirm"]["cents"]
    )
    assert status == 201, done
    assert room.state(table_id, seat=seats[0])["stack"] == 1_900
    assert room.state(table_id, seat=seats[2])["stack"] == 2_000

    # A stake above half the minimum is refused inline and records nothing [GA art. 8b].
    before = room.app.recorder.max_notification_id()
    wrong = {"jackpot_id": jackpot_id, "table_id": table_id, f"stakes_eur.{seats[2]}": "3,00"}
    status, asked = command(crupier, "stake_jackpot", **wrong)
    status, answer = command(
        crupier, "stake_jackpot", **wrong, confirm_cents=asked["confirm"]["cents"]
    )
    assert 400 <= status < 500 and answer["code"] == "jackpot_stake_over_half_minimum", answer
    assert room.app.recorder.max_notification_id() == before


def test_a_jackpot_winner_typed_wrong_is_refused_inline_and_records_nothing(room, crupier):
    table_id, _cards = room.drawn_table(4, buy_in=2_000, **JACKPOT_TABLE)
    jackpot_id = room.app.create_jackpot(
        DIRECTOR,
        new_id(),
        name="Progresivo",
        stake_cents=100,
        seed_cents=50_000,
        table_ids=[table_id],
    ).result["jackpot_id"]
    before = room.app.recorder.max_notification_id()
    status, asked = command(
        crupier, "pay_jackpot", jackpot_id=jackpot_id, table_id=table_id, **{"winners.1": "flush"}
    )
    assert status == 428
    status, answer = command(
        crupier,
        "pay_jackpot",
        jackpot_id=jackpot_id,
        table_id=table_id,
        confirm_cents=asked["confirm"]["cents"],
        **{"winners.1": "flush"},
    )
    assert 400 <= status < 500 and not answer["ok"], answer
    assert room.app.recorder.max_notification_id() == before


def room_crupier():
    from tests.support.floor import CRUPIER

    return CRUPIER
