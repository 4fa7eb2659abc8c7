"""The room's TV shows the board in Chromium at 1920x1080, and a change reaches
it by itself, without a reload; the called numbers flash unless the TV asks for
no motion."""

import pytest

from floor import runtime
from tests.support.floor import JEFE, new_id
from tests.support.room import Room

LIVE_MS = 2_000  # a change shows on the TV within a poll (and its answer)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = "/tmp/board22-tv-1920x1080.png"  # looked at, never committed


def test_the_board_shows_the_lists_and_updates_itself(live_server, browser, floor_app, settings):
    # The whole part only once a minute: a change shows by the position check.
    settings.FLOOR_BOARD_REFRESH_SECONDS = 60
    room = Room(floor_app, tag="TVB")
    table_id, _cards = room.drawn_table(4, buy_in=None)
    for card in room.new_players(3):
        room.join(card, table_id)
    seat = next(s for s in range(1, 11) if s not in room.seats(table_id))
    floor_app.call_next(JEFE, new_id(), table_id=table_id, seat=seat)
    room.drawn_table(
        2, buy_in=None, variant="sen_descarte", seats=7, minimum_cents=500, maximum_cents=10_000
    )
    room.drawn_table(6, buy_in=None, seats=6, minimum_cents=400, maximum_cents=2_000)
    runtime.floor_projector().catch_up()

    context = browser.new_context(locale="es-ES", viewport={"width": 1920, "height": 1080})
    tv = context.new_page()
    tv.set_default_timeout(15_000)
    tv.goto(f"{live_server.url}/board/")
    games = tv.locator("[data-testid=board-game]")
    assert games.count() == 3
    holdem = games.filter(has_text="2 € / 4 €").first
    banked = games.filter(has_text="Límites")
    assert "5 € – 100 €" in banked.inner_text() and "Ciegas" not in banked.inner_text()
    assert games.filter(has_text="Completo").count() == 1
    first_game = games.filter(has_text="1 € / 2 €")
    assert first_game.locator("[data-testid=seats-free]").inner_text() == "6 asientos libres"
    before = first_game.locator("[data-testid=waiting] li").all_inner_texts()
    assert before == ["6", "7"]  # reservations 1-4 drawn, 5 called
    called = first_game.locator("[data-testid=called] li")
    assert called.count() == 1
    assert called.evaluate("li => getComputedStyle(li).animationName") == "called"
    assert holdem.is_visible()
    # Everything fits the TV's screen: no scrolling in the room.
    tv.screenshot(path=SCREENSHOT, full_page=True)
    assert tv.evaluate("document.documentElement.scrollHeight") <= 1080

    # Another player registers elsewhere; the TV shows it without a reload.
    tv.evaluate("window.sameDocument = true")
    room.join(room.new_player(), table_id)
    runtime.floor_projector().catch_up()
    tv.wait_for_function(
        "document.querySelectorAll('[data-testid=waiting] li').length === 3", timeout=LIVE_MS
    )
    after = first_game.locator("[data-testid=waiting] li").all_inner_texts()
    assert after[:2] == before and int(after[2]) > int(before[1])
    assert tv.evaluate("window.sameDocument") is True
    context.close()


def test_the_called_numbers_stay_still_when_the_tv_asks_for_no_motion(
    live_server, browser, floor_app
):
    room = Room(floor_app, tag="TVM")
    table_id, _cards = room.drawn_table(4, buy_in=None)
    room.join(room.new_player(), table_id)
    seat = next(s for s in range(1, 11) if s not in room.seats(table_id))
    floor_app.call_next(JEFE, new_id(), table_id=table_id, seat=seat)
    runtime.floor_projector().catch_up()

    context = browser.new_context(locale="es-ES", reduced_motion="reduce")
    tv = context.new_page()
    tv.goto(f"{live_server.url}/board/")
    called = tv.locator("[data-testid=called] li")
    assert called.count() == 1
    assert called.evaluate("li => getComputedStyle(li).animationName") == "none"
    context.close()


def test_the_board_says_when_it_lost_the_server(live_server, browser, floor_app, settings):
    settings.FLOOR_BOARD_REFRESH_SECONDS = 1
    context = browser.new_context(locale="es-ES")
    tv = context.new_page()
    tv.goto(f"{live_server.url}/board/")
    assert not tv.locator("[data-testid=board-stale]").is_visible()
    tv.route("**/board/?live=1*", lambda route: route.abort())  # the network drops
    tv.locator("[data-testid=board-stale]").wait_for(state="visible", timeout=5_000)
    assert "Sin conexión" in tv.inner_text("[data-testid=board-stale]")
    tv.unroute("**/board/?live=1*")  # and comes back
    tv.locator("[data-testid=board-stale]").wait_for(state="hidden", timeout=5_000)
    context.close()


def test_a_busy_room_still_fits_the_tv(live_server, browser, floor_app):
    """Six games, two numbers called, a long list: nobody scrolls a TV, so the
    type shrinks until the board fits, and stays readable."""
    room = Room(floor_app, tag="TVZ")
    first, _cards = room.drawn_table(4, buy_in=None)
    room.drawn_table(4, buy_in=None, minimum_cents=200, maximum_cents=800)
    for card in room.new_players(9):
        room.join(card, first)
    free = [s for s in range(1, 11) if s not in room.seats(first)]
    for seat in free[:2]:
        floor_app.call_next(JEFE, new_id(), table_id=first, seat=seat)
    room.drawn_table(
        2, buy_in=None, variant="sen_descarte", seats=7, minimum_cents=500, maximum_cents=10_000
    )
    room.drawn_table(6, buy_in=None, seats=6, minimum_cents=400, maximum_cents=2_000)
    other = Room(floor_app, tag="TVY")  # a sector runs four tables at most
    other.drawn_table(
        4, buy_in=None, variant="omaha", limit="pot_limit", minimum_cents=1000, maximum_cents=5_000
    )
    other.drawn_table(
        2, buy_in=None, variant="pai_gow", seats=6, minimum_cents=1000, maximum_cents=20_000
    )
    runtime.floor_projector().catch_up()

    context = browser.new_context(locale="es-ES", viewport={"width": 1920, "height": 1080})
    tv = context.new_page()
    tv.goto(f"{live_server.url}/board/")
    assert tv.locator("[data-testid=board-game]").count() == 6
    assert tv.locator("[data-testid=called] li").count() == 2
    assert tv.evaluate("document.documentElement.scrollHeight") <= 1080
    type_px = tv.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert type_px >= 14  # the waiting numbers are twice that
    tv.screenshot(path="/tmp/board22-tv-busy-1920x1080.png")
    context.close()
