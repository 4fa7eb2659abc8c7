"""The player's page on a phone (issue 24): the jefe gives a code at his
console, the player signs in with it on a 390x844 screen, chooses a PIN,
joins two lists, sees their positions and leaves one."""

import os
import re
from pathlib import Path

import pytest

from floor import runtime
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
OMAHA_GAME = {"variant": "omaha", "limit": "pot_limit", "minimum_cents": 200, "maximum_cents": 1000}


def shot(page, tmp_path: Path, name: str) -> None:
    """A screenshot of the phone's screen (FLOOR_SCREENSHOTS: also kept there)."""
    page.screenshot(path=str(tmp_path / name), full_page=True)
    kept = os.environ.get("FLOOR_SCREENSHOTS")
    if kept:
        page.screenshot(path=str(Path(kept) / name), full_page=True)


def test_a_player_signs_in_on_a_phone_joins_two_lists_and_leaves_one(
    live_server, browser, floor_app, make_user, tmp_path
):
    room = Room(floor_app, tag="PH")
    room.drawn_table(4, buy_in=None)  # Hold'em 1/2 is dealing
    room.join(room.new_player(), **OMAHA_GAME)  # Omaha has a list, no table yet
    card = room.new_player("Lucía")
    runtime.floor_projector().catch_up()
    make_user("jaime", "jefe_sector", password="pa55-word-ok")

    # The jefe, at his console, gives the player a code.
    desk = browser.new_context(locale="es-ES")
    console = desk.new_page()
    console.goto(f"{live_server.url}/accounts/login/?next=/players/sign-in-code/")
    console.fill("#id_username", "jaime")
    console.fill("#id_password", "pa55-word-ok")
    console.click("button[type=submit] >> nth=-1")
    console.fill("#card", card)
    console.click("[data-testid=issue-code]")
    code = console.inner_text("[data-testid=player-code]")
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    desk.close()

    # The player, on a phone.
    phone = browser.new_context(
        locale="es-ES", viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = phone.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/jugador/")
    assert page.url.endswith("/jugador/entrar/")
    assert page.inner_text("h1") == "Entrar"
    page.fill("#card", card)
    page.fill("#secret", code)
    shot(page, tmp_path, "player-signin.png")
    page.click("button[type=submit] >> nth=-1")
    assert page.url.endswith("/jugador/pin/")
    page.fill("#pin", "123456")
    page.fill("#pin_again", "123456")
    page.click("button[type=submit] >> nth=-1")
    assert "escalera" in page.inner_text("[data-testid=pin-error]")
    page.fill("#pin", "472591")
    page.fill("#pin_again", "472591")
    page.click("button[type=submit] >> nth=-1")
    assert page.url.endswith("/jugador/")
    assert "Lucía" in page.inner_text("[data-testid=who]")
    assert page.locator("[data-testid=game]").count() == 1  # only the game dealing
    assert page.locator("[data-testid=no-entries]").is_visible()

    page.check("[data-testid='join-texas_holdem/no_limit/200/1000']")
    page.check("[data-testid='join-omaha/pot_limit/200/1000']")
    page.click("[data-testid=join]")
    assert "Estás en la lista" in page.inner_text("[data-testid=message]")
    entries = page.locator("[data-testid=entry]")
    assert entries.count() == 2
    positions = {
        entries.nth(i).get_attribute("data-game"): entries.nth(i)
        .locator("[data-testid=position]")
        .inner_text()
        for i in range(2)
    }
    assert positions == {"texas_holdem/no_limit/200/1000": "1", "omaha/pot_limit/200/1000": "2"}
    # Nothing wider than the phone's screen: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, tmp_path, "player-lists.png")

    page.locator(
        "[data-testid=entry][data-game='omaha/pot_limit/200/1000'] [data-testid=leave]"
    ).click()
    assert "Te has borrado" in page.inner_text("[data-testid=message]")
    assert page.locator("[data-testid=entry]").count() == 1
    assert page.locator("[data-testid=entry]").get_attribute("data-game") == (
        "texas_holdem/no_limit/200/1000"
    )
    # The page's live part keeps itself up to date (htmx), with no reload.
    page.wait_for_function("document.querySelector('#live[hx-get]') !== null")
    phone.close()


def test_a_call_rings_on_the_open_page_and_the_player_asks_for_five_more_minutes(
    live_server, browser, floor_app, settings, tmp_path
):
    """The player joins two lists from outside, the jefe checks them in on
    arrival (one tap: in the room for both); the page polls its live part: a
    call shows, rings (the vibration is recorded here; the beep is Web
    Audio's, unheard headless) once, the player answers "Necesito 5 minutos
    más" (under CM the seat is held no longer, and the page says so [CM-6]),
    arrives and is seated; the list of the other variant stays [CM-7]."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from floor.player import signin
    from tests.support.floor import JEFE, new_id

    settings.FLOOR_PLAYER_POLL_SECONDS = 1
    room = Room(floor_app, tag="RG")
    table_id, _cards = room.drawn_table(4, buy_in=None)
    room.join(room.new_player(), **OMAHA_GAME)  # Omaha has a list, no table yet
    card = room.new_player("Rosa")
    runtime.floor_projector().catch_up()
    user = get_user_model().objects.create_user(signin.player_username(card), password="472591")
    user.groups.set([Group.objects.get_or_create(name="player")[0]])

    phone = browser.new_context(locale="es-ES", viewport=PHONE, is_mobile=True, has_touch=True)
    phone.add_init_script(
        "window.__vibrations = [];"
        "navigator.vibrate = function (p) { window.__vibrations.push(p); return true; };"
    )
    page = phone.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/jugador/entrar/")
    page.fill("#card", card)
    page.fill("#secret", "472591")
    page.click("button[type=submit] >> nth=-1")
    # From outside the room: two lists joined from the phone, not callable yet.
    page.check("[data-testid='join-texas_holdem/no_limit/200/1000']")
    page.check("[data-testid='join-omaha/pot_limit/200/1000']")
    page.click("[data-testid=join]")
    assert page.locator("[data-testid=check-in]").count() == 2
    assert page.locator("[data-testid=call]").count() == 0
    # The player arrives: the jefe checks them in, and they can be called.
    floor_app.check_in_player(JEFE, new_id(), player=card, table_id=table_id)
    runtime.floor_projector().catch_up()
    page.wait_for_selector("[data-testid=check-in]", state="detached")
    assert page.locator("[data-testid=entry]").count() == 2

    seat = next(s for s in range(1, 11) if s not in room.seats(table_id))
    floor_app.call_next(JEFE, new_id(), table_id=table_id, seat=seat)
    runtime.floor_projector().catch_up()
    page.wait_for_selector("[data-testid=call]")
    page.wait_for_function("document.body.dataset.rang === '1'")
    assert page.evaluate("window.__vibrations.length") == 1
    number = room.get(table_id).number
    assert f"Mesa {number}, asiento {seat}" in page.inner_text("[data-testid=call]")
    with page.expect_response(lambda answer: "/jugador/en-vivo/" in answer.url):
        pass  # another poll: the same call rings no more
    assert page.evaluate("window.__vibrations.length") == 1
    shot(page, tmp_path, "player-called.png")

    page.click("[data-testid=answer-five_more]")
    assert "Necesito 5 minutos más" in page.inner_text("[data-testid=message]")
    assert page.evaluate("window.__vibrations.length") == 0  # the page reloaded: not again
    assert "Necesito 5 minutos más" in page.inner_text("[data-testid=answer-given]")
    assert page.locator("[data-testid=answer-five_more]").count() == 0

    # The player arrives and the jefe seats them: the page says where, by itself.
    room.sit(table_id, card)
    runtime.floor_projector().catch_up()
    page.wait_for_selector("[data-testid=seated]")
    taken = room.seat_of(table_id, card)
    assert f"Estás sentado en la mesa {number}, asiento {taken}" in page.inner_text(
        "[data-testid=seated]"
    )
    assert page.locator("[data-testid=call]").count() == 0
    # Seated at Hold'em, still on the Omaha list: another variant [CM-7].
    assert page.locator("[data-testid=entry]").count() == 1
    assert page.locator("[data-testid=entry]").get_attribute("data-game") == (
        "omaha/pot_limit/200/1000"
    )
    phone.close()


def test_a_remote_entry_not_checked_in_expires_and_leaves_the_players_page(
    live_server, browser, floor_app, settings, clock, tmp_path
):
    """Issue 24, item 2: an entry made from outside and never checked in
    expires at the house's time (CM: 90 minutes), removed by the clock; the
    open page drops it by itself."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from floor.player import signin
    from floor.timers import sweep_timers

    settings.FLOOR_PLAYER_POLL_SECONDS = 1
    room = Room(floor_app, tag="EX")
    room.drawn_table(4, buy_in=None)
    card = room.new_player("Eva")
    runtime.floor_projector().catch_up()
    user = get_user_model().objects.create_user(signin.player_username(card), password="472591")
    user.groups.set([Group.objects.get_or_create(name="player")[0]])

    phone = browser.new_context(locale="es-ES", viewport=PHONE, is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/jugador/entrar/")
    page.fill("#card", card)
    page.fill("#secret", "472591")
    page.click("button[type=submit] >> nth=-1")
    page.check("[data-testid='join-texas_holdem/no_limit/200/1000']")
    page.click("[data-testid=join]")
    until = page.inner_text("[data-testid=check-in]")
    assert "Preséntate en el mostrador antes de las" in until or "antes de las" in until
    shot(page, tmp_path, "player-not-checked-in.png")

    clock.advance(timedelta(minutes=90))
    assert sweep_timers(clock.now()) == 1
    runtime.floor_projector().catch_up()
    page.wait_for_selector("[data-testid=no-entries]")
    assert page.locator("[data-testid=entry]").count() == 0
    phone.close()
