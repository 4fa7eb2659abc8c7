"""The gaming day from the cage's console (/cage/) without a browser [GA art.
19.1]: the count typed in euros on the count sheet, a difference explained with
its reason code and confirmed before the books take it, the close confirmed
before the boxes go to the cage, then the link to the close report and the next
day opened. A bad count, an unconfirmed close or another role's post records
nothing and is said inline.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from floor import runtime
from ledger.models import AccountView, GamingDayView, TransactionView
from tests.support.floor import new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
PASSWORD = "pa55-word-ok"
COUNTED = ("tray", "drop", "rake", "tips", "cage_cash", "cage_chips")


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="GD")


def client_as(make_user, username: str, role: str) -> Client:
    make_user(username, role, password=PASSWORD)
    client = Client()
    assert client.login(username=username, password=PASSWORD)
    return client


@pytest.fixture
def cajero(make_user) -> Client:
    return client_as(make_user, "carla", "cajero")


@pytest.fixture
def inspector(make_user) -> Client:
    return client_as(make_user, "ines", "inspector")


@pytest.fixture
def jefe(make_user) -> Client:
    return client_as(make_user, "jaime", "jefe_sector")


def command(client: Client, name: str, **fields) -> tuple[int, dict]:
    response = client.post(f"/console/commands/{name}/", {"command_id": new_id(), **fields}, **JSON)
    return response.status_code, response.json()


def page(client: Client) -> str:
    runtime.floor_projector().catch_up()
    response = client.get("/cage/")
    assert response.status_code == 200
    return response.content.decode()


def euros(cents: int) -> str:
    """Cents as the Spanish console types them: 500000 -> "5.000,00"."""
    return f"{cents // 100:,}".replace(",", ".") + f",{cents % 100:02d}"


def books() -> dict[str, int]:
    """What the books hold in every account the cage counts."""
    runtime.floor_projector().catch_up()
    return {
        a.name: a.balance_cents
        for a in AccountView.objects.filter(kind__in=COUNTED)
        if a.balance_cents
    }


def count_form(counts: dict[str, int]) -> dict[str, str]:
    return {f"counts_eur.{name}": euros(cents) for name, cents in counts.items()}


def day() -> GamingDayView:
    runtime.floor_projector().catch_up()
    return GamingDayView.objects.get()


def forms(content: str) -> set[str]:
    return set(re.findall(r'data-command="(\w+)"', content))


def test_the_cashier_counts_explains_and_closes_the_day_from_the_console(room, cajero):
    table_id = room.table(tray_cents=500_000)  # the cage opened, the tray filled
    tray = f"tray:{table_id.replace('-', '')}"
    content = page(cajero)
    assert {"count_gaming_day"} <= forms(content)
    assert "close_gaming_day" not in forms(content)  # not counted yet
    assert f'name="counts_eur.{tray}"' in content
    assert 'name="counts_eur.cage_cash"' in content

    # The count: the tray is 20 EUR short.
    counted = books()
    counted[tray] -= 2_000
    status, answer = command(cajero, "count_gaming_day", **count_form(counted))
    assert status == 201, answer
    assert answer["message"].startswith("Se ha registrado el recuento.")
    assert "-20,00" in answer["message"]
    # What was read names each account counted, not a bare list of figures.
    assert f"Bandeja · Mesa 1 · Sector GD {euros(counted[tray])} EUR" in answer["message"]
    assert f"Efectivo de caja {euros(counted['cage_cash'])} EUR" in answer["message"]
    assert day().status == "counted"
    content = page(cajero)
    assert content.count('data-testid="count-difference"') == 1
    assert "explain_difference" in forms(content)
    assert "close_gaming_day" not in forms(content)  # a difference waits

    # Explaining books money: asked first, nothing booked until confirmed.
    adjustments = TransactionView.objects.filter(kind="adjustment")
    status, asked = command(cajero, "explain_difference", account=tray, reason_code="cash_short")
    assert status == 428 and asked["code"] == "needs_confirmation"
    assert "-20,00" in asked["message"] and "Bandeja" in asked["message"]
    assert asked["confirm"]["field"] == ""
    assert not adjustments.exists() and day().exceptions[0]["reason_code"] is None
    # A confirmation of other words (the figures changed) is asked again.
    status, again = command(
        cajero, "explain_difference", account=tray, reason_code="cash_short", confirm_cents="1"
    )
    assert status == 428 and again["code"] == "needs_confirmation" and not adjustments.exists()
    status, done = command(
        cajero,
        "explain_difference",
        account=tray,
        reason_code="cash_short",
        confirm_cents=asked["confirm"]["cents"],
    )
    assert status == 201, done
    runtime.floor_projector().catch_up()
    assert adjustments.get().amount_cents == 2_000
    assert day().exceptions[0]["reason_code"] == "cash_short"
    content = page(cajero)
    assert html.unescape(content).count("falta efectivo") >= 1  # the reason, in Spanish
    assert "close_gaming_day" in forms(content)

    # The close moves the boxes to the cage: asked, then confirmed.
    status, asked = command(cajero, "close_gaming_day")
    assert status == 428 and asked["code"] == "needs_confirmation"
    assert day().status == "counted"
    status, done = command(cajero, "close_gaming_day", confirm_cents=asked["confirm"]["cents"])
    assert status == 201, done
    closed = day()
    assert closed.status == "closed"
    assert "La jornada de juego está cerrada." in done["message"]

    # The page links the report and offers the next day.
    content = page(cajero)
    report = f"/cage/gaming-days/{closed.day}/report/"
    assert f'href="{report}"' in content
    assert "open_gaming_day" in forms(content) and "count_gaming_day" not in forms(content)
    assert cajero.get(report).status_code == 200
    status, _ = command(cajero, "open_gaming_day")
    assert status == 201
    assert GamingDayView.objects.filter(status="open").count() == 1


def test_a_count_missing_an_account_is_said_inline_and_records_nothing(room, cajero):
    table_id = room.table(tray_cents=500_000)
    tray = f"tray:{table_id.replace('-', '')}"
    counted = books()
    del counted[tray]

    status, answer = command(cajero, "count_gaming_day", **count_form(counted))

    assert status == 400 and answer["code"] == "count_missing"
    assert answer["message"].startswith("Faltan cuentas en el recuento")
    assert day().status == "open"


def test_a_count_typed_wrong_is_said_inline_and_records_nothing(room, cajero):
    room.table(tray_cents=500_000)

    status, answer = command(cajero, "count_gaming_day", **{"counts_eur.cage_cash": "12.50"})

    assert status == 400 and answer["code"] == "amount_separator"
    assert "counts_eur.cage_cash" in answer["fields"]
    assert day().status == "open"


def test_the_close_before_the_count_is_refused_inline(room, cajero):
    room.table(tray_cents=500_000)

    status, answer = command(cajero, "close_gaming_day")

    assert status == 409 and answer["code"] == "gaming_day_not_counted"
    assert day().status == "open"


def test_only_the_cashier_gets_the_day_s_forms(room, cajero, inspector, jefe):
    room.table(tray_cents=500_000)
    day_forms = {"count_gaming_day", "explain_difference", "close_gaming_day", "open_gaming_day"}
    assert "count_gaming_day" in forms(page(cajero))
    content = page(inspector)
    assert not day_forms & forms(content)
    assert 'data-testid="gaming-day-panel"' in content  # the inspector reads the day
    status, answer = command(inspector, "count_gaming_day", **count_form(books()))
    assert status == 403 and answer["ok"] is False
    status, answer = command(jefe, "close_gaming_day")
    assert status == 403
    assert day().status == "open"


def test_the_close_asks_with_what_it_moves_to_the_cage(room, cajero):
    table_id, _cards = room.drawn_table(4, buy_in=1_000)  # paid in cash: the drop box
    first, second, *_others = sorted(room.seats(table_id))
    room.start(table_id, [first, second])
    room.end(table_id, {str(first): 1_000, str(second): 1_000}, {str(first): 1_950}, rake_cents=50)
    status, _ = command(cajero, "count_gaming_day", **count_form(books()))
    assert status == 201

    status, asked = command(cajero, "close_gaming_day")

    assert status == 428
    assert "(40,00 €)" in asked["message"]  # four 10 EUR buy-ins in cash, from the drop box
    assert "(0,50 €)" in asked["message"]  # the rake box's chips
    assert "2026-11-22" in asked["message"] and day().status == "counted"


def test_the_cashier_puts_the_house_s_float_in_confirmed_first(floor_app, cajero, inspector):
    """The cage's float from its console (issue 22; before, the API's only): the
    first post says what the books will take and records nothing; the
    confirmed post books it; a float typed wrong is said inline; the inspector
    gets no form [GA art. 19.1]."""
    assert 'data-command="fund_cage"' in page(cajero)
    assert 'data-command="fund_cage"' not in page(inspector)
    floats = TransactionView.objects.filter(kind="float")

    status, asked = command(cajero, "fund_cage", cash_eur="1.500", chips_eur="2.000,50")
    assert status == 428 and asked["code"] == "needs_confirmation"
    assert "1500,00" in asked["message"].replace("\xa0", "").replace(".", "")
    assert "2000,50" in asked["message"].replace("\xa0", "").replace(".", "")
    assert not floats.exists()

    status, wrong = command(cajero, "fund_cage", cash_eur="1.5", confirm_cents="1")
    assert status == 400 and wrong["fields"] == {"cash_eur": wrong["message"]}
    assert not floats.exists()

    status, done = command(
        cajero,
        "fund_cage",
        cash_eur="1.500",
        chips_eur="2.000,50",
        confirm_cents=asked["confirm"]["cents"],
    )
    assert status == 201, done
    assert done["message"].endswith("Leído: efectivo 1.500,00 EUR; fichas 2.000,50 EUR.")
    runtime.floor_projector().catch_up()
    assert floats.get().amount_cents == 350_050
    balances = books()
    assert balances["cage_cash"] == 150_000 and balances["cage_chips"] == 200_050
