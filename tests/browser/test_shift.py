"""A whole shift in Chromium: the jefe runs a sector from the console, the cage
moves the money, the room's board shows the list.

The floor's clock is the test's manual clock: the action clock runs out when
the test moves time on and fires the due timers as beat's sweeper would, and
the console, which counts down on the server's time, shows it within its two
seconds. Changes made through the API (other consoles, other people) reach the
open console by themselves. Each step leaves a screenshot in the test's tmp
directory (or FLOOR_SCREENSHOTS, to look at them).
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from floor import runtime
from floor.models import TableView
from tests.support.floor import new_id
from tests.support.money import open_cage
from tests.support.room import Room
from tests.support.timers import fire_due

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pa55-word-ok"
LIVE_MS = 2_000  # a change shows in an open console within two seconds


class Shot:
    """Numbered screenshots of the shift."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    def __call__(self, page, name: str) -> None:
        self.count += 1
        page.screenshot(path=str(self.folder / f"{self.count:02d}-{name}.png"), full_page=True)


@pytest.fixture
def shot(tmp_path) -> Shot:
    folder = Path(os.environ.get("FLOOR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return Shot(folder)


def log_in(context, base: str, username: str, to: str):
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/accounts/login/?next={to}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit] >> nth=-1")
    page.wait_for_url(f"{base}{to}")
    return page


class Api:
    """Another console or client acting through the API at the same time."""

    def __init__(self, user) -> None:
        self.client = APIClient()
        self.client.force_authenticate(user)

    def post(self, path: str, **body) -> dict:
        response = self.client.post(f"/api/{path}", {"command_id": new_id(), **body}, format="json")
        assert response.status_code == 201, response.content
        return response.json()

    def join(self, card: str, name: str, table_id: str) -> None:
        self.post("players/", card_number=card, display_name=name)
        self.post("waiting-lists/", player=card, table_id=table_id)


def table_card(page, number: int):
    return page.locator(f"[data-testid=table-card][data-table-number='{number}']")


def seated_cards(card) -> list[str]:
    return card.locator("[data-testid=seat][data-card]").evaluate_all(
        "rows => rows.map(r => r.dataset.card)"
    )


def command(scope, name: str):
    return scope.locator(f"form[data-command={name}]")


def answer_of(form) -> tuple[str, str]:
    """What the console answered beside the form: its text and role (alert, status)."""
    box = form.locator("[data-testid=answer]:not(:empty)")
    box.wait_for()
    return box.inner_text(), box.get_attribute("role")


def test_a_whole_shift(live_server, browser, floor_app, clock, make_user, shot):
    base = live_server.url
    room = Room(floor_app, tag="SH")  # Sector SH
    open_cage(floor_app)
    jefe_user = make_user("jaime", "jefe_sector", password=PASSWORD)
    make_user("carla", "cajero", password=PASSWORD)
    api = Api(jefe_user)
    runtime.floor_projector().catch_up()
    console_path = f"/sectors/{room.sector_id}/"

    jefe_context = browser.new_context(locale="es-ES", viewport={"width": 1600, "height": 1000})
    jefe = log_in(jefe_context, base, "jaime", console_path)
    jefe.on("dialog", lambda dialog: dialog.accept())

    # --- the jefe opens a table from the console -------------------------------------
    jefe.select_option("#id_variant", "texas_holdem")
    jefe.select_option("#id_limit", "no_limit")
    jefe.fill("#id_minimum_cents", "2")
    jefe.fill("#id_maximum_cents", "10")
    jefe.click("form:has(#id_minimum_cents) button[type=submit]")
    first = table_card(jefe, 1)
    assert first.locator("[data-testid=table-status]").inner_text() == "en inscripción"
    table_1 = str(TableView.objects.get(number=1).id)

    # --- registers a player and puts her on the list; five more come through the API -
    register = command(jefe, "register_player")
    register.locator("[name=card_number]").fill("SH-ANA")
    register.locator("[name=display_name]").fill("Ana Souto")
    register.locator("button").click()
    assert answer_of(register) == ("El jugador queda registrado.", "status")
    join = command(jefe, "join_waiting_list")
    join.locator("[name=player]").fill("SH-ANA")
    join.locator("button").click()
    entries = jefe.locator("[data-testid=waiting-entry]")
    entries.first.wait_for()
    assert entries.count() == 1

    for number in range(1, 6):
        api.join(f"SH-{number:03d}", f"Jugador {number}", table_1)
    jefe.wait_for_function(
        "document.querySelectorAll('[data-testid=waiting-entry]').length === 6", timeout=LIVE_MS
    )
    shot(jefe, "list-of-six")

    # --- and draws the seats -----------------------------------------------------------
    first.locator("[data-testid=draw]").click()
    jefe.wait_for_function(
        "document.querySelectorAll('[data-table-number=\"1\"] [data-testid=seat][data-card]')"
        ".length === 6"
    )
    assert sorted(seated_cards(table_card(jefe, 1))) == sorted(
        ["SH-ANA", *(f"SH-{n:03d}" for n in range(1, 6))]
    )
    assert table_card(jefe, 1).locator("[data-testid=table-status]").inner_text() == "en juego"
    assert jefe.locator("[data-testid=waiting-entry]").count() == 0
    shot(jefe, "drawn")

    # --- the new table's tray is empty: the jefe asks the cage for a fill ---------------
    table_card(jefe, 1).locator("summary", has_text="Bandeja y mesa").click()
    fill = command(table_card(jefe, 1), "request_tray_move")
    fill.locator("[name=move]").select_option("fill")
    fill.locator("[name=amount_eur]").fill("500")
    fill.locator("button").click()
    # Done: the form's panel folds back and the answer stays in the console's header.
    jefe.locator("#last-answer", has_text="Petición enviada a caja.").wait_for()

    # --- the cage confirms the fill, then sells Ana her buy-in at the table -------------
    cage_context = browser.new_context(locale="es-ES", viewport={"width": 1400, "height": 1000})
    cage = log_in(cage_context, base, "carla", "/cage/")
    waiting_fill = cage.locator("[data-testid=tray-request]", has_text="500,00")
    waiting_fill.wait_for()
    shot(cage, "fill-to-confirm")
    waiting_fill.locator("[data-testid=confirm-tray-move]").click()
    waiting_fill.wait_for(state="detached", timeout=LIVE_MS)
    cage.fill("input[name=card]", "SH-ANA")
    cage.press("input[name=card]", "Enter")
    buy = command(cage, "buy_in_at_cage")
    buy.locator("[name=amount_eur]").fill("10")
    buy.locator("button").click()
    assert answer_of(buy)[1] == "status"
    shot(cage, "cage-buy-in")
    for number in range(1, 6):
        api.post(f"tables/{table_1}/buy-in/", player=f"SH-{number:03d}", amount_cents=1000)
    ana_seat = table_card(jefe, 1).locator("[data-testid=seat][data-card=SH-ANA]")
    ana_seat.locator("[data-testid=stack]").filter(has_text="10,00 €").wait_for(timeout=LIVE_MS)

    # --- seats a newcomer from the list: call, then seat --------------------------------
    for number in (6, 7, 8):
        api.join(f"SH-{number:03d}", f"Jugador {number}", table_1)
    jefe.locator("[data-testid=waiting-entry]").nth(2).wait_for(timeout=LIVE_MS)
    free_seat = table_card(jefe, 1).locator("[data-testid=seat]:not([data-card])").first
    command(free_seat, "call_next").locator("button").click()
    called = jefe.locator("[data-testid=waiting-entry]:has([data-testid=called])")
    called.wait_for()
    assert called.get_attribute("data-card") == "SH-006"
    shot(jefe, "called")
    called.locator("[data-testid=seat-called]").click()
    table_card(jefe, 1).locator("[data-testid=seat][data-card=SH-006]").wait_for()
    api.post(f"tables/{table_1}/buy-in/", player="SH-006", amount_cents=1000)
    # The buy-in reaches the screen first: a click on a card being swapped is lost.
    newcomer = table_card(jefe, 1).locator("[data-testid=seat][data-card=SH-006]")
    newcomer.locator("[data-testid=stack]").filter(has_text="10,00 €").wait_for(timeout=LIVE_MS)

    # --- deals a hand and puts a slow player on the clock -------------------------------
    table_card(jefe, 1).locator("[data-testid=start-hand] summary").click()
    command(table_card(jefe, 1), "start_hand").locator("button").click()
    table_card(jefe, 1).locator("[data-testid=hand-in-progress]").wait_for()
    slow = table_card(jefe, 1).locator("[data-testid=seat][data-card=SH-001]")
    clock_form = command(slow, "start_action_clock")
    clock_form.locator("[name=pot_eur]").fill("50")
    clock_form.locator("button").click()
    countdown = slow.locator("[data-testid=action-clock] [data-deadline]")
    countdown.wait_for()
    assert countdown.inner_text() in ("3:00", "2:59")  # 2 minutes and the extra one [CM-21]
    shot(jefe, "action-clock")

    clock.advance(timedelta(minutes=2, seconds=51))
    assert fire_due(clock) == 1  # the warning: the extra minute begins
    jefe.wait_for_function(
        "(() => { const c = document.querySelector('[data-card=SH-001] [data-deadline]');"
        " return c && c.classList.contains('urgent') && Number(c.textContent) <= 9; })()",
        timeout=LIVE_MS,
    )
    shot(jefe, "last-ten-seconds")
    clock.advance(timedelta(seconds=9))
    assert fire_due(clock) == 1  # the hand is dead [CM-22]
    slow.locator("[data-testid=dead-hand]").wait_for(timeout=LIVE_MS)
    assert slow.locator("[data-testid=action-clock]").count() == 0
    shot(jefe, "dead-hand")

    # --- and reports the hand: two players put in 2 EUR each, one wins them -----------
    def seat_of(card: str) -> str:
        row = table_card(jefe, 1).locator(f"[data-testid=seat][data-card={card}]")
        return row.get_attribute("data-seat")

    winner, loser = seat_of("SH-002"), seat_of("SH-004")
    end = command(table_card(jefe, 1).locator("[data-testid=end-hand]"), "end_hand")
    end.locator(f"[name='contributions_eur.{winner}']").fill("2")
    end.locator(f"[name='contributions_eur.{loser}']").fill("2,00")
    # Calculate first (issue 19): the service's settlement shows beside the form,
    # nothing is recorded and what was typed stays; then the hand is ended.
    end.locator(f"[name='shown.{winner}']").fill("As Ad")
    end.locator(f"[name='shown.{loser}']").fill("Ks Kd")
    end.locator("[name=board]").fill("2c 7h 9s Td 3d")
    end.locator("[data-testid=calculate]").click()
    said, role = answer_of(end)
    assert "Bote 1: 4,00 EUR" in said and f"ganado por {winner}" in said and role == "status"
    assert end.locator(f"[name='contributions_eur.{winner}']").input_value() == "2"
    end.locator("button:not([formaction])").click()
    table_card(jefe, 1).locator("[data-testid=hand-in-progress]").wait_for(state="detached")
    winner_row = table_card(jefe, 1).locator("[data-testid=seat][data-card=SH-002]")
    assert winner_row.locator("[data-testid=stack]").inner_text() == "12,00 €"
    assert table_card(jefe, 1).locator("[data-testid=hands-played]").inner_text() == "1 mano"

    # --- a second table of the game starts through the API: the console proposes a move -
    table_2 = room.table(tray_cents=0, minimum_cents=200, maximum_cents=1000)
    # The draw fills table 1's open seats first (CM-3): of eight listed, five are left.
    for number in range(9, 15):
        api.join(f"SH-{number:03d}", f"Jugador {number}", table_2)
    api.post(f"tables/{table_2}/draw/")
    # The console may have shown table 2 (and a proposal) before its draw: wait for the draw.
    moved = len(room.seats(table_2))
    jefe.wait_for_function(
        f"document.querySelectorAll('[data-table-number=\"2\"] [data-testid=seat][data-card]')"
        f".length === {moved}",
        timeout=LIVE_MS,
    )
    proposal = jefe.locator("[data-testid=proposal]")
    proposal.wait_for(timeout=LIVE_MS)
    assert "de la mesa 1" in proposal.inner_text()
    assert "de diferencia (CM-10)" in proposal.inner_text()  # the reasons in Spanish too
    shot(jefe, "proposal")
    proposal.locator("[data-testid=accept-move]").click()
    jefe.wait_for_function(
        f"document.querySelectorAll('[data-table-number=\"2\"] [data-testid=seat][data-card]')"
        f".length === {moved + 1}"
    )

    # --- players leave table 2 until it is short: it is suspended, the clock shown ------
    second = table_card(jefe, 2)
    while second.locator("[data-testid=table-status]").inner_text() != "suspendida":
        leaving = second.locator("[data-testid=seat][data-card]").first
        card = leaving.get_attribute("data-card")
        leaving.locator("summary").click()
        command(leaving, "leave_table").locator("button").click()
        second.locator(f"[data-testid=seat][data-card='{card}']").wait_for(state="detached")
    suspension = second.locator("[data-testid=suspension] [data-deadline]")
    assert suspension.inner_text() in ("15:00", "14:59")  # PT 24
    shot(jefe, "suspended")

    # --- a refused command says why, inline, and changes nothing -----------------------
    anas = table_card(jefe, 1).locator("[data-testid=seat][data-card=SH-ANA]")
    anas.locator("summary").click()
    rebuy = command(anas, "buy_in")
    rebuy.locator("[name=amount_eur]").fill("500")
    rebuy.locator("button").click()
    refusal, role = answer_of(rebuy)
    assert role == "alert" and "máximo" in refusal
    assert anas.locator("[data-testid=stack]").inner_text() == "10,00 €"
    shot(jefe, "refused")

    # --- the hand's winner leaves table 1 and the cage cashes out his 12 EUR -----------
    winner_row.locator("summary").click()
    command(winner_row, "leave_table").locator("button").click()
    winner_row.wait_for(state="detached")
    cage.fill("input[name=card]", "SH-002")
    cage.press("input[name=card]", "Enter")
    player = cage.locator("[data-testid=player][data-card=SH-002]")
    assert player.locator("[data-testid=chips-off-tables]").inner_text() == "12,00 €"
    cash_out = command(cage, "cash_out")
    cash_out.locator("button").click()
    assert answer_of(cash_out)[1] == "status"
    player.locator("[data-testid=chips-off-tables]", has_text="0,00 €").wait_for()
    cage.locator("[data-testid=transaction][data-kind=cash_out]").first.wait_for()
    shot(cage, "cash-out")

    # --- the room's board shows the list by reservation number -------------------------
    api.join("SH-020", "Jugador 20", table_1)
    board = jefe_context.new_page()
    board.goto(f"{base}/board/")
    numbers = board.locator("[data-testid=waiting] li").all_inner_texts()
    assert numbers and "Jugador 20" not in board.content()
    shot(board, "board")
    jefe_context.close()
    cage_context.close()


# --- money typed into the consoles (issue 18) --------------------------------------------


def fill_form_of_table_1(base: str, browser, make_user, room: Room):
    """The jefe's console in Spanish, table 1's fill form open."""
    make_user("jaime", "jefe_sector", password=PASSWORD)
    runtime.floor_projector().catch_up()
    context = browser.new_context(locale="es-ES", viewport={"width": 1400, "height": 900})
    jefe = log_in(context, base, "jaime", f"/sectors/{room.sector_id}/")
    table_card(jefe, 1).locator("summary", has_text="Bandeja y mesa").click()
    return context, jefe, command(table_card(jefe, 1), "request_tray_move")


def test_a_spanish_thousand_reads_as_a_thousand_and_a_large_fill_is_confirmed(
    live_server, browser, floor_app, make_user
):
    from ledger.models import TrayRequestView

    room = Room(floor_app, tag="MO")
    open_cage(floor_app)
    room.table()
    context, jefe, fill = fill_form_of_table_1(live_server.url, browser, make_user, room)

    # What the field reads as shows while typing, in Spanish.
    fill.locator("[name=amount_eur]").fill("1.000")
    read = fill.locator("[data-testid=amount-read]", has_text="Leído: 1.000,00 EUR.")
    read.wait_for()
    jefe.screenshot(path="/tmp/money-preview.png")
    fill.locator("button").click()
    jefe.locator("#last-answer", has_text="Leído: 1.000,00 EUR.").wait_for()
    assert TrayRequestView.objects.get(status="pending").amount_cents == 100_000

    # Far above the usual: the server asks, the button confirms exactly that figure.
    table_card(jefe, 1).locator("summary", has_text="Bandeja y mesa").click()
    fill.locator("[name=amount_eur]").fill("15.000")
    fill.locator("[data-testid=amount-read]", has_text="confirme").wait_for()
    fill.locator("button[type=submit]").click()
    # The box may still hold the thousand's answer: wait for the new one.
    fill.locator("[data-testid=confirm-amount]").wait_for()
    message, role = answer_of(fill)
    assert role == "alert" and "15.000,00 EUR" in message and "10.000,00 EUR" in message
    assert TrayRequestView.objects.filter(status="pending").count() == 1  # nothing new asked
    jefe.screenshot(path="/tmp/money-confirm.png")
    fill.locator("[data-testid=confirm-amount]").click()
    jefe.locator("#last-answer", has_text="Leído: 15.000,00 EUR.").wait_for()
    assert TrayRequestView.objects.filter(amount_cents=1_500_000).count() == 1

    # A refusal is said once, beside the form, not again by the field's preview.
    asked = TrayRequestView.objects.count()
    table_card(jefe, 1).locator("summary", has_text="Bandeja y mesa").click()
    fill.locator("[name=amount_eur]").fill("1e5")
    fill.locator("[data-testid=amount-read]", has_text="1e5").wait_for()
    fill.locator("button[type=submit]").click()
    refusal = fill.locator("[data-testid=answer]", has_text="1e5")
    refusal.wait_for()
    assert refusal.inner_text().count("1e5") == 1
    # The preview no longer says it (emptied, or gone with the live part's next poll).
    assert fill.locator("[data-testid=amount-read]", has_text="1e5").count() == 0
    assert TrayRequestView.objects.count() == asked  # nothing asked
    context.close()


def test_an_amount_sent_before_its_preview_is_refused_once(
    live_server, browser, floor_app, make_user
):
    """Typed and sent at once (Enter before the field's preview came back):
    the refusal is said once, beside the form; the late preview says nothing
    more, and a corrected amount is read again as it is typed (issue 22)."""
    room = Room(floor_app, tag="RO")
    open_cage(floor_app)
    room.table()
    context, jefe, fill = fill_form_of_table_1(live_server.url, browser, make_user, room)
    said = "Escriba un importe en euros, por ejemplo 1.250,50."
    amount = fill.locator("[name=amount_eur]")

    amount.fill("doce")
    amount.press("Enter")
    fill.locator("[data-testid=answer]", has_text=said).wait_for()
    jefe.wait_for_timeout(600)  # past the preview's 200 ms pause and its answer

    assert fill.inner_text().count(said) == 1
    assert amount.get_attribute("aria-invalid") == "true"
    amount.fill("12,50")
    fill.locator("[data-testid=amount-read]", has_text="Leído: 12,50 EUR.").wait_for()
    context.close()


def test_a_failed_attempt_is_not_resent_under_its_command_id(
    live_server, browser, floor_app, make_user
):
    from ledger.models import TrayRequestView

    room = Room(floor_app, tag="MI")
    open_cage(floor_app)
    room.table()
    context, jefe, fill = fill_form_of_table_1(live_server.url, browser, make_user, room)
    sent: list[str] = []
    jefe.on(
        "request",
        lambda r: (
            r.method == "POST"
            and "/console/commands/" in r.url
            and sent.append(re.search(r'name="command_id"\r\n\r\n(\w+)', r.post_data).group(1))
        ),
    )
    failures = ["500", "none"]

    def flaky(route):
        failure = failures.pop(0) if failures else None
        if failure == "500":
            route.fulfill(status=500, body="<h1>Server Error (500)</h1>")
        elif failure == "none":
            route.abort()
        else:
            route.continue_()

    jefe.route("**/console/commands/request_tray_move/", flaky)

    # A 500: the corrected amount is a new command, with a new id.
    fill.locator("[name=amount_eur]").fill("1e30")
    fill.locator("button").click()
    assert answer_of(fill)[1] == "alert"
    fill.locator("[name=amount_eur]").fill("20")
    fill.locator("button").click()
    # No answer at all (the network): the same form sent again is the same command.
    # (A click waits for the button, disabled until the attempt before was answered.)
    fill.locator("button").click()
    jefe.locator("#last-answer", has_text="Leído: 20,00 EUR.").wait_for()

    assert len(sent) == 3
    assert sent[1] != sent[0]  # the correction was not sent under the failed id
    assert sent[2] == sent[1]  # a repeat after no answer is answered, never booked twice
    assert TrayRequestView.objects.get(status="pending").amount_cents == 2_000
    context.close()
