"""Money typed into the consoles, through the HTTP stack (issue 18, "Trust").

Each test here failed on the parser the consoles had before: a Spanish
``1.000`` read as one euro, ``1e5`` accepted as a hundred thousand, ``1e30``
a 500, a large fill booked without a word. The answers say what was read; an
amount far above the usual for its field is answered with a confirmation
(nothing recorded) and booked only when the re-post confirms the same cents.
"""

from __future__ import annotations

import pytest
from django.test import Client

from floor import runtime
from ledger.models import TransactionView, TrayRequestView
from tests.support.floor import new_id
from tests.support.money import open_cage
from tests.support.room import Room, all_events

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
PASSWORD = "pa55-word-ok"
HUGE = ["1e30", "9" * 40, "1e5"]


@pytest.fixture
def room(floor_app) -> Room:
    open_cage(floor_app)
    return Room(floor_app, tag="AM")


def client_as(make_user, username: str, role: str, language: str | None = None) -> Client:
    make_user(username, role, password=PASSWORD)
    client = Client()
    assert client.login(username=username, password=PASSWORD)
    if language:
        client.cookies["django_language"] = language
    return client


@pytest.fixture
def jefe(make_user) -> Client:
    return client_as(make_user, "jaime", "jefe_sector")


@pytest.fixture
def cajero(make_user) -> Client:
    return client_as(make_user, "carla", "cajero")


def command(client: Client, name: str, **fields) -> tuple[int, dict]:
    response = client.post(f"/console/commands/{name}/", {"command_id": new_id(), **fields}, **JSON)
    return response.status_code, response.json()


def test_a_spanish_thousand_sold_at_the_cage_is_a_thousand(room, cajero):
    card = room.new_player()

    status, answer = command(cajero, "sell_chips", player=card, amount_eur="1.000")

    assert status == 201, answer
    assert TransactionView.objects.get(kind="chips_sold").amount_cents == 100_000
    assert "1.000,00 EUR" in answer["message"]


def test_a_spanish_thousand_asked_as_a_fill_is_a_thousand(room, jefe):
    table_id = room.table()

    status, answer = command(
        jefe, "request_tray_move", table_id=table_id, move="fill", amount_eur="1.000"
    )

    assert status == 201, answer
    runtime.floor_projector().catch_up()
    assert TrayRequestView.objects.get(status="pending").amount_cents == 100_000
    assert "1.000,00 EUR" in answer["message"]


@pytest.mark.parametrize("typed", HUGE)
@pytest.mark.parametrize("form", ["fill", "buy_in", "sell_chips", "buy_in_at_cage"])
def test_scientific_notation_and_absurd_figures_are_refused_inline(room, jefe, cajero, form, typed):
    table_id, cards = room.drawn_table(4, buy_in=None)
    before = len(all_events(room.app))
    client, name, fields = {
        "fill": (jefe, "request_tray_move", {"table_id": table_id, "move": "fill"}),
        "buy_in": (jefe, "buy_in", {"table_id": table_id, "player": cards[0]}),
        "sell_chips": (cajero, "sell_chips", {"player": cards[0]}),
        "buy_in_at_cage": (cajero, "buy_in_at_cage", {"table_id": table_id, "player": cards[0]}),
    }[form]

    status, answer = command(client, name, amount_eur=typed, **fields)

    assert status == 400, answer
    assert answer["ok"] is False and answer["fields"]["amount_eur"]
    assert answer["code"].startswith("amount_")
    assert len(all_events(room.app)) == before


def test_a_fill_far_above_the_usual_asks_to_confirm_and_books_what_was_confirmed(room, jefe):
    table_id = room.table()
    before = len(all_events(room.app))

    status, answer = command(
        jefe, "request_tray_move", table_id=table_id, move="fill", amount_eur="15.000"
    )

    assert status == 428, answer
    assert answer["ok"] is False and answer["code"] == "amount_needs_confirmation"
    assert answer["confirm"] == {
        "field": "amount_eur",
        "cents": 1_500_000,
        "text": "15.000,00 EUR",
    }
    assert "15.000,00 EUR" in answer["message"]
    assert len(all_events(room.app)) == before

    # A confirmation of another figure (the person changed the field) asks again.
    status, answer = command(
        jefe,
        "request_tray_move",
        table_id=table_id,
        move="fill",
        amount_eur="150.000",
        confirm_cents="1500000",
    )
    assert status == 428 and answer["confirm"]["cents"] == 15_000_000
    assert len(all_events(room.app)) == before

    status, answer = command(
        jefe,
        "request_tray_move",
        table_id=table_id,
        move="fill",
        amount_eur="15.000",
        confirm_cents="1500000",
    )
    assert status == 201, answer
    runtime.floor_projector().catch_up()
    assert TrayRequestView.objects.get(status="pending").amount_cents == 1_500_000


def test_english_reads_the_comma_as_thousands(room, make_user):
    cajero = client_as(make_user, "carl", "cajero", language="en")
    card = room.new_player()

    status, answer = command(cajero, "sell_chips", player=card, amount_eur="1,000.50")

    assert status == 201, answer
    assert TransactionView.objects.get(kind="chips_sold").amount_cents == 100_050
    assert "1,000.50 EUR" in answer["message"]


def test_a_dot_for_cents_in_spanish_is_refused_with_the_way_to_write_it(room, cajero):
    card = room.new_player()
    before = len(all_events(room.app))

    status, answer = command(cajero, "sell_chips", player=card, amount_eur="12.50")

    assert status == 400 and answer["code"] == "amount_separator"
    assert "12,50" in answer["fields"]["amount_eur"]
    assert len(all_events(room.app)) == before


def test_the_preview_says_what_a_field_reads_as_and_whether_it_will_ask(room, jefe):
    def preview(typed: str, command: str = "request_tray_move") -> dict:
        response = jefe.get("/console/amount/", {"amount": typed, "command": command})
        assert response.status_code == 200
        return response.json()

    assert preview("1.000") == {
        "ok": True,
        "cents": 100_000,
        "text": "1.000,00 EUR",
        "message": "Leído: 1.000,00 EUR.",
        "confirm": False,
    }
    large = preview("15.000")
    assert large["confirm"] is True and "10.000,00 EUR" in large["message"]
    assert preview("15.000", command="end_hand")["confirm"] is False
    assert preview("1e5")["code"] == "amount_scientific"
    assert preview("9" * 40)["code"] == "amount_too_large"
    assert Client().get("/console/amount/", {"amount": "5"}).status_code == 302  # log in first


def test_the_answer_says_every_amount_of_a_hand_it_read(room, jefe):
    table_id, _cards = room.drawn_table(4, buy_in=1000)
    seats = sorted(room.seats(table_id))
    status, _ = command(jefe, "start_hand", table_id=table_id, dealt_in=[str(s) for s in seats])
    assert status == 201

    status, answer = command(
        jefe,
        "end_hand",
        table_id=table_id,
        **{f"contributions_eur.{s}": "2" for s in seats},
        **{f"winnings_eur.{seats[0]}": "8,00"},
    )

    assert status == 201, answer
    assert f"el asiento {seats[0]} ganó 8,00 EUR" in answer["message"]
    assert f"el asiento {seats[1]} puso 2,00 EUR" in answer["message"]


def test_the_open_table_form_reads_euros_as_the_other_fields_do(room, jefe):
    from floor.models import TableView

    url = f"/sectors/{room.sector_id}/"
    runtime.floor_projector().catch_up()
    form = {"variant": "texas_holdem", "limit": "no_limit", "seats": "10"}
    before = TableView.objects.count()

    for bad in ("1e5", "2.50", "9" * 40):
        response = jefe.post(
            url, {"command_id": new_id(), **form, "minimum_cents": bad, "maximum_cents": "10"}
        )
        assert response.status_code == 400, bad
    assert TableView.objects.count() == before

    response = jefe.post(
        url, {"command_id": new_id(), **form, "minimum_cents": "2,50", "maximum_cents": "10 €"}
    )
    assert response.status_code == 302
    assert TableView.objects.get(minimum_cents=250).maximum_cents == 1_000


def test_a_zero_is_told_the_least_amount_in_euros(room, cajero):
    status, answer = command(cajero, "sell_chips", player=room.new_player(), amount_eur="0,00")

    assert status == 400
    assert answer["fields"] == {"amount_eur": "Como mínimo 0,01 EUR."}


def test_a_refused_open_table_form_comes_back_with_a_new_command_id(room, jefe):
    import re

    url = f"/sectors/{room.sector_id}/"
    runtime.floor_projector().catch_up()
    sent = new_id()
    form = {"variant": "texas_holdem", "limit": "no_limit", "seats": "10"}

    response = jefe.post(
        url, {"command_id": sent, **form, "minimum_cents": "1e5", "maximum_cents": "10"}
    )

    assert response.status_code == 400
    shown = re.search(rb'name="command_id" value="([^"]+)"', response.content).group(1).decode()
    assert shown and shown != sent
