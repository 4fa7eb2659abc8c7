"""In Chromium: the jefe clocks a dealer in from the dealer box, a table
opens, the box plans the push and the jefe pushes the dealer in with one tap;
the box then shows who deals where and the next push (issue 26; GA art. 19)."""

from __future__ import annotations

import pytest

from floor import runtime
from floor.models import TableView
from tests.browser.test_shift import PASSWORD, Shot, command, log_in
from tests.support.floor import HOLDEM, JEFE, new_id
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def shot(tmp_path) -> Shot:
    import os
    from pathlib import Path

    folder = Path(os.environ.get("FLOOR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return Shot(folder)


def test_the_jefe_pushes_a_dealer_from_the_dealer_box(
    live_server, browser, floor_app, make_user, shot
):
    room = Room(floor_app, tag="BX")
    make_user("jaime", "jefe_sector", password=PASSWORD)
    for dealer in ("ana", "bea"):
        make_user(dealer, "crupier", password=PASSWORD)
    floor_app.clock_in_dealer(
        JEFE, new_id(), sector_id=room.sector_id, dealer="bea", games=["texas_holdem"]
    )
    runtime.floor_projector().catch_up()
    context = browser.new_context(locale="es-ES", viewport={"width": 1600, "height": 1000})
    jefe = log_in(context, live_server.url, "jaime", f"/sectors/{room.sector_id}/")
    box = jefe.locator("[data-testid=dealer-box]")
    assert box.locator("h2").inner_text() == "Caja de crupieres"
    # Closed, the box is one line (the four tables keep the screen); it opens
    # on a tap and stays open as the live part changes.
    assert "1 en la caja" in box.locator("[data-testid=dealer-box-summary]").inner_text()
    box.locator("summary h2").click()

    # ana clocks in for Hold'em and Omaha.
    jefe.locator("[data-testid=dealer-clock-in] summary").click()
    clock_in = command(box, "clock_in_dealer")
    clock_in.locator("select[name=dealer]").select_option("ana")
    clock_in.locator("input[name=games][value=texas_holdem]").check()
    clock_in.locator("input[name=games][value=omaha]").check()
    clock_in.locator("[data-testid=clock-in]").click()
    box.locator("[data-testid=dealers-idle] [data-dealer=ana]").wait_for()

    # A table opens: the box plans its push now, the one waiting longest (bea).
    table_id = floor_app.open_table(JEFE, new_id(), sector_id=room.sector_id, **HOLDEM).result[
        "table_id"
    ]
    runtime.floor_projector().catch_up()
    push = box.locator("[data-testid=dealer-push][data-table-number='1']")
    push.wait_for()
    assert push.get_attribute("data-dealer") == "bea"
    assert push.locator("[data-testid=push-due]").inner_text() == "ya"
    shot(jefe, "dealer-box-planned")

    # One tap: bea deals table 1, and ana is planned to relieve her.
    push.locator("[data-testid=push-dealer]").click()
    box.locator("[data-testid=dealers-dealing] [data-dealer=bea]").wait_for()
    runtime.floor_projector().catch_up()
    assert TableView.objects.get(id=table_id).dealer == "bea"
    nxt = box.locator("[data-testid=dealer-push][data-table-number='1']")
    nxt.wait_for()
    assert nxt.get_attribute("data-dealer") == "ana"
    assert "bea" in nxt.inner_text()
    shot(jefe, "dealer-box-pushed")
    jefe.close()

    # The same box in the other languages of the console (the language menu's cookie).
    for language, heading, dealing in (
        ("gl", "Caixa de crupiers", "Tirando"),
        ("pt", "Caixa de croupiers", "A dar cartas"),
        ("en", "Dealer box", "Dealing"),
    ):
        other = browser.new_context(viewport={"width": 1600, "height": 1000})
        other.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page = log_in(other, live_server.url, "jaime", f"/sectors/{room.sector_id}/")
        panel = page.locator("[data-testid=dealer-box]")
        panel.locator("summary h2").click()
        assert panel.locator("h2").inner_text() == heading
        assert dealing in panel.inner_text()
        if language == "en":
            shot(page, "dealer-box-en")
        other.close()
