"""The cage's console (/cage/) without a browser: the day's position, a player
found by card with their chips, the money commands through the consoles'
command door, the fills and credits waiting for the cage, the live part and
what each role sees.

An unknown card answers 200 with the page and an inline message (role=alert).
"""

from __future__ import annotations

import html
import re
from uuid import UUID

import pytest
from django.test import Client

from floor import runtime
from ledger.models import AccountView, GamingDayView, TransactionView, TrayRequestView
from tests.support.floor import new_id
from tests.support.money import CAJERO, open_cage
from tests.support.room import Room, pid

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
PASSWORD = "pa55-word-ok"


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="CG")


def client_as(make_user, username: str, role: str) -> Client:
    make_user(username, role, password=PASSWORD)
    client = Client()
    assert client.login(username=username, password=PASSWORD)
    return client


@pytest.fixture
def cajero(make_user) -> Client:
    return client_as(make_user, "carla", "cajero")  # the same name as CAJERO in tests


@pytest.fixture
def jefe(make_user) -> Client:
    return client_as(make_user, "jaime", "jefe_sector")


@pytest.fixture
def inspector(make_user) -> Client:
    return client_as(make_user, "ines", "inspector")


def command(client: Client, name: str, **fields) -> tuple[int, dict]:
    response = client.post(f"/console/commands/{name}/", {"command_id": new_id(), **fields}, **JSON)
    return response.status_code, response.json()


def page(client: Client, card: str | None = None):
    return client.get("/cage/", {"card": card} if card is not None else {})


def live(client: Client, since: str = "", card: str = ""):
    return client.get("/cage/live/", {"since": since, **({"card": card} if card else {})})


def shown(content: str, testid: str) -> str:
    """The text of the (first) element marked ``data-testid=testid``, tags stripped."""
    found = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</', content, re.S)
    assert found, f"nothing marked {testid}"
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def shown_raw(content: str, testid: str) -> str:
    """The HTML inside the paragraph marked ``data-testid=testid``, as sent."""
    found = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</p>', content, re.S)
    assert found, f"nothing marked {testid}"
    return found.group(1)


def balance(name: str) -> int:
    return AccountView.objects.get(name=name).balance_cents


def player_account(card: str) -> str:
    return f"player:{UUID(pid(card)).hex}"


def sell(room: Room, card: str, cents: int) -> None:
    room.app.sell_chips(CAJERO, new_id(), player=card, amount_cents=cents)


def test_the_page_shows_the_day_s_position_to_the_cashier(room, cajero):
    room.table(tray_cents=500_000)  # opens the cage: 100,000 EUR cash and chips, then a fill
    card = room.new_player("Rosa Castro")
    sell(room, card, 25_050)
    runtime.floor_projector().catch_up()

    response = page(cajero)

    assert response.status_code == 200
    content = response.content.decode()
    assert shown(content, "gaming-day") == GamingDayView.objects.get(status="open").day
    assert shown(content, "cage-cash") == "100.250,50 €"  # 100,000 + the sale
    assert shown(content, "cage-chips") == "99.749,50 €"  # 100,000 + 5,000 funded - fill - sale
    assert shown(content, "chips-on-the-floor") == "5.250,50 €"  # the tray and Rosa's chips
    # The day's flows: the fill's chips were funded after the opening, so they count.
    assert shown(content, "cash-in") == "250,50 €"
    assert shown(content, "cash-out") == "0,00 €"
    assert shown(content, "chips-in") == "5.000,00 €"
    assert shown(content, "chips-out") == "5.250,50 €"
    assert 'data-live-url="/cage/live/"' in content
    assert content.count('data-testid="tray-request"') == 0
    # The latest transactions, newest first, each with its printable receipt in a new tab.
    sale = TransactionView.objects.get(kind="chips_sold")
    rows = re.findall(r'data-testid="transaction" data-kind="(\w+)"', content)
    assert rows[0] == "chips_sold" and len(rows) == TransactionView.objects.count()
    assert f'href="/cage/receipts/{sale.id}/" target="_blank"' in content
    assert cajero.get(f"/cage/receipts/{sale.id}/").status_code == 200


def test_a_card_finds_the_player_where_they_sit_and_their_chips(room, cajero):
    table_id, cards = room.drawn_table(4, buy_in=1000)
    card = cards[0]
    sell(room, card, 12_345)
    runtime.floor_projector().catch_up()

    response = page(cajero, card.lower())  # any case

    assert response.status_code == 200
    content = response.content.decode()
    assert f'data-testid="player" data-card="{card}"' in content
    assert shown(content, "card") == card
    assert 'data-testid="not-barred"' in content and 'data-testid="barred"' not in content
    seated = shown(content, "seated")
    assert seated.startswith("Mesa 1 · Sector CG")
    assert f"{room.seat_of(table_id, card)}" in seated
    assert shown(content, "stack") == "10,00 €"
    assert shown(content, "chips-off-tables") == "123,45 €"
    # The money forms carry the player; the buy-in at the cage names their table.
    for name in ("sell_chips", "buy_in_at_cage", "cash_out"):
        form = re.search(rf'<form [^>]*data-command="{name}".*?</form>', content, re.S).group(0)
        assert f'name="player" value="{card}"' in form
        assert 'name="next" value="/cage/?card=' in form
    assert f'<option value="{table_id}" selected>' in content
    # The live part follows the player found.
    assert f'data-live-url="/cage/live/?card={card}"' in content
    assert 'data-testid="not-found"' not in content


def test_an_unknown_card_is_said_inline(room, cajero):
    room.new_player()
    runtime.floor_projector().catch_up()

    response = page(cajero, "NO-<SUCH>")

    assert response.status_code == 200
    content = response.content.decode()
    assert "NO-&lt;SUCH&gt;" in shown_raw(content, "not-found")
    assert 'role="alert" data-testid="not-found"' in content
    assert 'data-testid="player"' not in content
    assert 'data-command="sell_chips"' not in content


def test_the_cashier_sells_chips_and_cashes_them_out_from_the_console(room, cajero):
    room.table()
    card = room.new_player()
    runtime.floor_projector().catch_up()
    cash, chips = balance("cage_cash"), balance("cage_chips")
    position = live(cajero, card=card)["X-Floor-Position"]

    status, answer = command(cajero, "sell_chips", player=card, amount_eur="150,25")

    assert (status, answer["ok"]) == (201, True), answer
    assert balance(player_account(card)) == 15_025
    assert (balance("cage_cash"), balance("cage_chips")) == (cash + 15_025, chips - 15_025)
    changed = live(cajero, since=position, card=card)
    assert changed.status_code == 200
    assert shown(changed.content.decode(), "chips-off-tables") == "150,25 €"

    status, answer = command(cajero, "cash_out", player=card, amount_eur="50")
    assert (status, answer["ok"]) == (201, True), answer
    assert balance(player_account(card)) == 10_025
    assert balance("cage_cash") == cash + 10_025

    status, answer = command(cajero, "cash_out", player=card)  # no amount: every chip
    assert (status, answer["ok"]) == (201, True), answer
    assert balance(player_account(card)) == 0
    assert (balance("cage_cash"), balance("cage_chips")) == (cash, chips)
    kinds = list(
        TransactionView.objects.filter(player_id=pid(card)).values_list("kind", "amount_cents")
    )
    assert kinds == [("chips_sold", 15_025), ("cash_out", 5_000), ("cash_out", 10_025)]


def test_a_buy_in_paid_at_the_cage_reaches_the_seat(room, cajero):
    table_id, cards = room.drawn_table(4, buy_in=None)
    runtime.floor_projector().catch_up()
    cash = balance("cage_cash")

    status, answer = command(
        cajero, "buy_in_at_cage", player=cards[1], table_id=table_id, amount_eur="8"
    )

    assert (status, answer["ok"]) == (201, True), answer
    assert room.state(table_id, cards[1])["stack"] == 800
    assert balance(f"stack:{UUID(table_id).hex}:{UUID(pid(cards[1])).hex}") == 800
    assert balance("cage_cash") == cash + 800


def test_a_fill_the_jefe_asks_for_shows_live_and_goes_once_confirmed(room, cajero, jefe):
    table_id = room.table(tray_cents=500_000)
    runtime.floor_projector().catch_up()
    first = live(cajero)
    position = first["X-Floor-Position"]
    assert first.content.decode().count('data-testid="tray-request"') == 0

    status, answer = command(
        jefe, "request_tray_move", table_id=table_id, move="fill", amount_eur="300"
    )
    assert status == 201, answer

    asked = live(cajero, since=position)
    assert asked.status_code == 200
    content = asked.content.decode()
    request = TrayRequestView.objects.get(status="pending")
    assert re.findall(r'data-testid="tray-request" data-request="([^"]+)"', content) == [
        str(request.id)
    ]
    assert 'data-move="fill"' in content
    assert shown(content, "request-amount") == "300,00 €"
    assert "jaime" in content and "Mesa 1 · Sector CG" in content
    assert f'name="request_id" value="{request.id}"' in content

    status, answer = command(cajero, "confirm_tray_move", request_id=str(request.id))

    assert (status, answer["ok"]) == (201, True), answer
    confirmed = live(cajero, since=asked["X-Floor-Position"])
    assert confirmed.status_code == 200
    assert confirmed.content.decode().count('data-testid="tray-request"') == 0
    assert balance(f"tray:{UUID(table_id).hex}") == 530_000
    assert TrayRequestView.objects.get(id=request.id).status == "confirmed"


def test_the_cashier_cancels_a_request_with_a_reason(room, cajero, jefe):
    table_id = room.table()
    status, _ = command(
        jefe, "request_tray_move", table_id=table_id, move="credit", amount_eur="20"
    )
    assert status == 201
    request = TrayRequestView.objects.get(status="pending")
    assert 'data-move="credit"' in live(cajero).content.decode()

    status, answer = command(
        cajero, "cancel_tray_move", request_id=str(request.id), reason="asked twice"
    )

    assert (status, answer["ok"]) == (201, True), answer
    assert TrayRequestView.objects.get(id=request.id).status == "cancelled"
    assert live(cajero).content.decode().count('data-testid="tray-request"') == 0


def test_the_live_part_answers_204_while_nothing_changes(room, cajero):
    open_cage(room.app)
    card = room.new_player()
    runtime.floor_projector().catch_up()

    first = live(cajero, card=card)
    position = first["X-Floor-Position"]

    assert first.status_code == 200 and first["Cache-Control"] == "no-store"
    assert first["X-Server-Time"]
    for key in ("player", "position", "requests", "transactions"):
        assert f'data-live-key="{key}"' in first.content.decode()
    assert live(cajero, since=position, card=card).status_code == 204
    assert live(cajero, since=position).status_code == 204
    sell(room, card, 100)
    runtime.floor_projector().catch_up()
    assert live(cajero, since=position, card=card).status_code == 200


def test_an_inspector_reads_the_cage_but_gets_no_money_form(room, cajero, inspector, jefe):
    table_id = room.table()
    card = room.new_player()
    sell(room, card, 5_000)
    status, _ = command(jefe, "request_tray_move", table_id=table_id, move="fill", amount_eur="10")
    assert status == 201
    forms = ("sell_chips", "buy_in_at_cage", "cash_out", "confirm_tray_move", "cancel_tray_move")

    as_cashier = page(cajero, card).content.decode()
    as_inspector = page(inspector, card)

    assert as_inspector.status_code == 200
    content = as_inspector.content.decode()
    assert shown(content, "chips-off-tables") == "50,00 €"
    assert content.count('data-testid="tray-request"') == 1
    assert shown(content, "cage-cash") == shown(as_cashier, "cage-cash")
    for name in forms:
        assert f'data-command="{name}"' in as_cashier
        assert f'data-command="{name}"' not in content
    confirm = re.search(r'<form [^>]*data-command="confirm_tray_move".*?</form>', as_cashier, re.S)
    assert 'name="player"' not in confirm.group(0)  # the request's scope only
    # And the domain refuses it anyway.
    status, answer = command(inspector, "sell_chips", player=card, amount_eur="5")
    assert status == 403 and answer["ok"] is False
    assert balance(player_account(card)) == 5_000


def test_the_cage_console_is_linked_for_the_cashier_and_needs_a_login(floor_app, cajero, jefe):
    assert 'data-testid="cage-link"' in cajero.get("/").content.decode()
    assert 'data-testid="cage-link"' not in jefe.get("/").content.decode()
    anonymous = Client().get("/cage/")
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert Client().get("/cage/live/").status_code == 302
