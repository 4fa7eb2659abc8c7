"""A whole shift from the browser only (issue 22, "done when"): every step is a
click or a keystroke in a console, each person logged in through the login
page. Nothing goes through the API or the ORM but the test's clock: the
floor's manual clock, moved on and its due timers fired as beat's sweeper
would (tests/support/timers.py). The users exist beforehand, as the director's
staff pages would have made them.

The director opens a sector, names its jefe and a table's dealer; the cage
puts its float in and opens the gaming day; the jefe opens two tables, asks
the cage for their fills, registers players, puts them on the list and draws
the seats; the cage sells chips and takes buy-ins; the dealer deals and ends
hands on the table's tablet (an all in with a side pot, the rake the form
computes); the jefe runs a rest, an absence, the action clock to a dead hand,
a table's suspension and a balancing move; the cage cashes out, confirms the
fills, counts, explains a difference and closes the day; the inspector reads
the consoles and the reports.

Run at a desk's 1920x1080 and a tablet's 1024x768; each step leaves a
screenshot in FLOOR_SCREENSHOTS (or the test's tmp directory), to look at.
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest

from tests.browser.test_shift import PASSWORD, answer_of, command, log_in, table_card
from floor.liveness import heartbeat
from tests.support.timers import fire_due

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE_MS = 2_000  # a change shows in an open console within two seconds
SIZES = {"desk": (1920, 1080), "tablet": (1024, 768)}


class Shots:
    """Numbered screenshots of the shift, one folder per screen size."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    def __call__(self, page, name: str) -> None:
        self.count += 1
        page.screenshot(path=str(self.folder / f"{self.count:02d}-{name}.png"), full_page=True)


def seat_row(page, table: int, card: str):
    return table_card(page, table).locator(f"[data-testid=seat][data-card='{card}']")


def seated(page, table: int) -> list[str]:
    return (
        table_card(page, table)
        .locator("[data-testid=seat][data-card]")
        .evaluate_all("rows => rows.map(r => r.dataset.card)")
    )


def wait_seated(page, table: int, count: int, timeout: int = 15_000) -> None:
    page.wait_for_function(
        f"document.querySelectorAll('[data-table-number=\"{table}\"] "
        f"[data-testid=seat][data-card]').length === {count}",
        timeout=timeout,
    )


def done(form, expected: str | None = None) -> str:
    """Waits for the console's answer beside ``form``: a success (role status)."""
    said, role = answer_of(form)
    assert role == "status", said
    if expected is not None:
        assert expected in said, said
    return said


def confirm(form) -> None:
    """Presses the confirm button the server's answer brought, and waits for it
    to go (the command ran)."""
    button = form.locator("[data-testid=confirm-amount]")
    button.click()
    button.wait_for(state="detached")


def shown(figure: str) -> re.Pattern:
    """A figure as a page shows it, whichever space or dot groups its thousands."""
    return re.compile(re.escape(figure).replace(r"\.", "."))


def beat(clock) -> int:
    """What beat's sweep does: fires the timers due by the test's clock and
    records that it ran (the consoles warn when it has not)."""
    fired = fire_due(clock)
    heartbeat("sweep")
    return fired


@pytest.mark.parametrize("size", list(SIZES))
def test_a_whole_shift_from_the_browser(
    live_server, browser, floor_app, clock, make_user, tmp_path, size
):
    import random

    floor_app.random = random.Random(7)  # the draws are the same each run
    base = live_server.url
    width, height = SIZES[size]
    folder = Path(os.environ.get("FLOOR_SCREENSHOTS") or tmp_path) / size
    folder.mkdir(parents=True, exist_ok=True)
    shot = Shots(folder)
    beat(clock)
    for username, role in (
        ("dora", "director"),
        ("jaime", "jefe_sector"),
        ("julia", "jefe_sector"),
        ("cris", "crupier"),
        ("carla", "cajero"),
        ("ines", "inspector"),
    ):
        make_user(username, role, password=PASSWORD)

    def person(username: str, to: str):
        """Each person in their own browser, logged in through the login page."""
        context = browser.new_context(locale="es-ES", viewport={"width": width, "height": height})
        page = log_in(context, base, username, to)
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    # --- the director opens the sector and names its jefe -----------------------------
    director = person("dora", "/")
    director.fill("#id_name", "Sector W")
    director.click("form:has(#id_name) button[type=submit]")
    director.wait_for_url(re.compile(r"/sectors/[0-9a-f-]+/$"))
    sector_path = director.url.removeprefix(base)
    jefes = command(director, "assign_jefes")
    jefes.locator("input[name=jefes][value=jaime]").check()
    jefes.locator("[data-testid=assign-jefes]").click()
    director.locator("[data-testid=jefes-named]", has_text="jaime").wait_for()
    shot(director, "director-names-the-jefe")

    # --- the cage puts its float in and opens the gaming day --------------------------
    cage = person("carla", "/cage/")
    cage.locator("[data-testid=fund-cage] summary").click()
    fund = command(cage, "fund_cage")
    fund.locator("[name=cash_eur]").fill("20.000")
    fund.locator("[name=chips_eur]").fill("20.000")
    fund.locator("[data-testid=fund-cage-button]").click()
    fund.locator("[data-testid=confirm-amount]").wait_for()
    shot(cage, "float-asked")
    confirm(fund)
    cage.locator("[data-testid=cage-chips]", has_text=shown("20.000,00")).wait_for()
    command(cage, "open_gaming_day").locator("button").click()
    cage.locator("[data-testid=gaming-day]").wait_for()
    shot(cage, "day-open")

    # --- the jefe opens two tables of one game and asks the cage for their fills -----
    jefe = person("jaime", sector_path)
    for seats in ("7", "9"):
        jefe.select_option("#id_variant", "texas_holdem")
        jefe.select_option("#id_limit", "no_limit")
        jefe.fill("#id_minimum_cents", "20")
        jefe.fill("#id_maximum_cents", "100")
        jefe.fill("#id_seats", seats)
        with jefe.expect_navigation():
            jefe.click("form:has(#id_minimum_cents) button[type=submit]")
    table_card(jefe, 2).wait_for()
    for number in (1, 2):
        card = table_card(jefe, number)
        card.locator("summary", has_text="Bandeja y mesa").click()
        fill = command(card, "request_tray_move")
        fill.locator("[name=move]").select_option("fill")
        fill.locator("[name=amount_eur]").fill("2.000")
        fill.locator("button").click()
        jefe.locator("#last-answer", has_text="Petición enviada a caja.").wait_for()
    shot(jefe, "tables-open")

    # --- the director names the dealer of table 1 on its card -------------------------
    dealer_form = command(table_card(director, 1), "assign_dealer")
    dealer_form.wait_for(timeout=LIVE_MS)
    dealer_form.locator("select[name=dealer]").select_option("cris")
    dealer_form.locator("button").click()
    table_card(director, 1).locator("[data-testid=dealer-name]", has_text="cris").wait_for()
    shot(director, "director-names-the-dealer")

    # --- the cage confirms both fills -------------------------------------------------
    requests = cage.locator("[data-testid=tray-request]")
    requests.nth(1).wait_for(timeout=LIVE_MS)
    shot(cage, "fills-to-confirm")
    for request in requests.evaluate_all("rows => rows.map(r => r.dataset.request)"):
        row = cage.locator(f"[data-testid=tray-request][data-request='{request}']")
        row.locator("[data-testid=confirm-tray-move]").click()
        row.wait_for(state="detached")
    cage.locator("[data-testid=cage-chips]", has_text=shown("16.000,00")).wait_for()

    # --- players register and join the list; the jefe draws table 1 -------------------
    register = command(jefe, "register_player")
    join = command(jefe, "join_waiting_list")

    def registers(card: str, name: str, table: int) -> None:
        register.locator("[name=card_number]").fill(card)
        register.locator("[name=display_name]").fill(name)
        register.locator("button").click()
        done(register, "El jugador queda registrado.")
        join.locator("[name=player]").fill(card)
        join.locator("[name=table_id]").select_option(index=table - 1)
        join.locator("button").click()
        jefe.locator(f"[data-testid=waiting-entry][data-card='{card}']").wait_for()

    names = ["Ana", "Bruno", "Carmen", "David", "Elena", "Fran", "Gloria"]
    for number, name in enumerate(names[:6], start=1):
        registers(f"W-{number:02d}", name, 1)
    shot(jefe, "list-of-six")
    table_card(jefe, 1).locator("[data-testid=draw]").click()
    wait_seated(jefe, 1, 6)
    assert table_card(jefe, 1).locator("[data-testid=table-status]").inner_text() == "en juego"
    assert "botón" in table_card(jefe, 1).locator(".facts").first.inner_text()
    shot(jefe, "table-1-drawn")

    # --- a newcomer is called from the list to the free seat and seated -----------------
    registers("W-07", "Gloria", 1)
    free = table_card(jefe, 1).locator("[data-testid=seat]:not([data-card])").first
    command(free, "call_next").locator("button").click()
    called = jefe.locator("[data-testid=waiting-entry]:has([data-testid=called])")
    called.wait_for()
    assert called.get_attribute("data-card") == "W-07"
    shot(jefe, "called")
    called.locator("[data-testid=seat-called]").click()
    seat_row(jefe, 1, "W-07").wait_for()
    wait_seated(jefe, 1, 7)
