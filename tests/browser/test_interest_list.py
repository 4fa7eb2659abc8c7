"""An interest list reaches four and the jefe opens the table from the prompt
(issue 24, item 4, done-when): in Chromium, the jefe's open console shows the
game asked for as players join it, prompts at four [GA art. 23; PT 24], and
the jefe checks in, from the panel, a player who asked for it on their phone
(its page, at a phone's screen), the
prompt fills in the open-table form; the table opened draws its seats from
that list [CM-7, CM-8]. Screenshots go to FLOOR_SCREENSHOTS (or the test's tmp
directory) to be looked at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from floor import runtime
from floor.application.player_self import player_username
from floor.models import SeatView, TableView
from tests.support.floor import JEFE
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE_MS = 4_000  # a change shows in an open console within its polls
PHONE = {"width": 390, "height": 844}
WANTED = {"variant": "omaha", "limit": "pot_limit", "minimum_cents": 400, "maximum_cents": 2000}


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("FLOOR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_an_interest_list_reaches_four_and_the_jefe_opens_its_table_from_the_prompt(
    live_server, browser, floor_app, make_user, tmp_path
):
    make_user(JEFE.username, "jefe_sector", password="pa55-word-ok")
    room = Room(floor_app, tag="IB")
    room.table()  # a Hold'em table runs; nobody asked for Omaha yet
    runtime.floor_projector().catch_up()

    context = browser.new_context(locale="es-ES", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    to = f"/sectors/{room.sector_id}/"
    page.goto(f"{live_server.url}/accounts/login/?next={to}")
    page.fill("#id_username", JEFE.username)
    page.fill("#id_password", "pa55-word-ok")
    page.click("button[type=submit] >> nth=-1")
    page.wait_for_url(f"{live_server.url}{to}")
    assert page.locator("[data-testid=wanted-games]").count() == 0

    cards = room.new_players(4)
    for card in cards[:3]:
        room.join(card, **WANTED)
    runtime.floor_projector().catch_up()
    wanted = page.locator("[data-testid=wanted-game]")
    wanted.wait_for(timeout=LIVE_MS)
    assert "3 jugadores esperan" in wanted.inner_text()
    assert page.locator("[data-testid=open-prompt]").count() == 0

    # The fourth asks from their phone, on its page: coming, not counted until here.
    user = get_user_model().objects.create_user(player_username(cards[3]), password="472591")
    user.groups.set([Group.objects.get_or_create(name="player")[0]])
    phone_context = browser.new_context(
        locale="es-ES", viewport=PHONE, is_mobile=True, has_touch=True
    )
    phone = phone_context.new_page()
    phone.set_default_timeout(15_000)
    phone.goto(f"{live_server.url}/jugador/entrar/")
    phone.fill("#card", cards[3])
    phone.fill("#secret", "472591")
    phone.click("button[type=submit] >> nth=-1")
    phone.click("[data-testid=ask-for-game] summary")
    phone.select_option("#id_variant", WANTED["variant"])
    phone.select_option("#id_limit", WANTED["limit"])
    phone.fill("#id_minimum_cents", "4")
    phone.fill("#id_maximum_cents", "20")
    phone.click("[data-testid=ask]")
    phone.locator("[data-testid=check-in]").wait_for()
    phone.screenshot(path=str(shots(tmp_path) / "interest-asked-on-phone.png"), full_page=True)
    phone_context.close()
    runtime.floor_projector().catch_up()
    page.locator("[data-testid=wanted-coming]").wait_for(timeout=LIVE_MS)
    assert page.locator("[data-testid=open-prompt]").count() == 0
    page.click("[data-testid=wanted-check-in]")  # "Ha llegado"
    page.locator("[data-testid=open-prompt]").wait_for(timeout=LIVE_MS)
    assert "4 jugadores esperan" in wanted.inner_text()
    page.screenshot(path=str(shots(tmp_path) / "interest-prompt.png"), full_page=True)

    page.click("[data-testid=open-for-wanted]")
    page.locator("[data-testid=opening-for]").wait_for()
    assert page.input_value("#id_variant") == "omaha"
    assert page.input_value("#id_limit") == "pot_limit"
    assert page.input_value("#id_minimum_cents") == "4,00"
    assert page.input_value("#id_maximum_cents") == "20,00"
    page.screenshot(path=str(shots(tmp_path) / "interest-open-form.png"), full_page=True)
    page.click("#open-table button[type=submit]")
    # Opened; its card offers the draw among the list's players [CM-8].
    card = page.locator("[data-testid=table-card][data-table-number='2']")
    card.locator("form[data-command=draw_seats] button").click()
    card.locator("[data-testid=seat][data-card]").nth(3).wait_for(timeout=LIVE_MS)
    page.screenshot(path=str(shots(tmp_path) / "interest-drawn.png"), full_page=True)
    context.close()

    runtime.floor_projector().catch_up()
    table = TableView.objects.get(variant="omaha")
    assert (table.limit, table.minimum_cents, table.maximum_cents) == ("pot_limit", 400, 2000)
    seated = SeatView.objects.filter(table=table).values_list("player__card_number", flat=True)
    assert set(seated) == set(cards)
