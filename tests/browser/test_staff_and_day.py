"""In Chromium: the jefe names a table's dealer on its card, and the cage
counts, explains a difference and closes the gaming day from its console, each
booking confirmed with the button the server's answer brings, then opens the
close report [GA art. 19.1]."""

from __future__ import annotations

import pytest

from floor import runtime
from floor.models import TableView
from ledger.models import AccountView, GamingDayView
from tests.browser.test_shift import PASSWORD, Shot, command, log_in, table_card
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COUNTED = ("tray", "drop", "rake", "tips", "cage_cash", "cage_chips")


@pytest.fixture
def shot(tmp_path) -> Shot:
    import os
    from pathlib import Path

    folder = Path(os.environ.get("FLOOR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return Shot(folder)


def euros(cents: int) -> str:
    return f"{cents // 100:,}".replace(",", ".") + f",{cents % 100:02d}"


def test_the_jefe_names_a_dealer_and_the_cage_closes_the_day(
    live_server, browser, floor_app, make_user, shot
):
    room = Room(floor_app, tag="SD")
    table_id = room.table()  # the cage opened, the tray filled, cris deals
    for username, role in (("jaime", "jefe_sector"), ("carla", "cajero")):
        make_user(username, role, password=PASSWORD)
    make_user("cris", "crupier", password=PASSWORD)
    make_user("carmen", "crupier", password=PASSWORD)
    runtime.floor_projector().catch_up()
    context = browser.new_context(locale="es-ES", viewport={"width": 1600, "height": 1000})

    # The jefe names carmen on table 1's card; the card says it.
    jefe = log_in(context, live_server.url, "jaime", f"/sectors/{room.sector_id}/")
    card = table_card(jefe, 1)
    dealer = command(card, "assign_dealer")
    dealer.locator("select[name=dealer]").select_option("carmen")
    dealer.locator("button").click()
    card.locator("[data-testid=dealer-name]", has_text="carmen").wait_for()
    assert TableView.objects.get(id=table_id).dealer == "carmen"
    shot(jefe, "dealer-named")

    # The cage counts: the tray 20 EUR short.
    runtime.floor_projector().catch_up()
    books = {
        a.name: a.balance_cents
        for a in AccountView.objects.filter(kind__in=COUNTED)
        if a.balance_cents
    }
    tray = f"tray:{table_id.replace('-', '')}"
    books[tray] -= 2_000
    jefe.close()  # one login per context: the cage is another person's
    cage = log_in(context, live_server.url, "carla", "/cage/")
    count = command(cage, "count_gaming_day")
    for name, cents in books.items():
        count.locator(f"[name='counts_eur.{name}']").fill(euros(cents))
    count.locator("[data-testid=count-gaming-day]").click()
    differences = cage.locator("[data-testid=count-difference]")
    differences.first.wait_for()
    assert differences.count() == 1
    shot(cage, "counted")

    # Explaining the difference books it: the server asks, the button confirms.
    explain = command(cage, "explain_difference")
    explain.locator("select[name=reason_code]").select_option("cash_short")
    explain.locator("[data-testid=explain-difference]").click()
    explain.locator("[data-testid=confirm-amount]").wait_for()
    assert "-20,00" in explain.locator("[data-testid=answer]").inner_text()
    shot(cage, "explain-asked")
    explain.locator("[data-testid=confirm-amount]").click()
    cage.locator("[data-testid=explained]").wait_for()

    # The close: asked, confirmed, then its report linked.
    close = command(cage, "close_gaming_day")
    close.locator("[data-testid=close-gaming-day]").click()
    close.locator("[data-testid=confirm-amount]").wait_for()
    shot(cage, "close-asked")
    close.locator("[data-testid=confirm-amount]").click()
    report = cage.locator("[data-testid=close-report]")
    report.wait_for()
    assert GamingDayView.objects.get().status == "closed"
    shot(cage, "closed")
    printed = context.new_page()
    printed.goto(live_server.url + report.get_attribute("href"))
    printed.locator("[data-testid=close-total]").wait_for()
    shot(printed, "close-report")
    context.close()
