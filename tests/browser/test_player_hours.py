"""A player's hours in Chromium (issue 26, item 4): the jefe's table card
shows each seated player's time played this gaming day, in the language the
person chose (es, gl, pt, en), and the player reads their own on their page.

Played with the injected clock: four players drawn at 20:00, a hand, one
rests ten minutes; at 20:45 the resting one has 35 minutes, the others 45."""

import os
from datetime import timedelta
from pathlib import Path

import pytest

from floor import runtime
from tests.support.floor import CRUPIER, new_id
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MINUTE = timedelta(minutes=1)
PHONE = {"width": 390, "height": 844}
TODAY = {"es": "hoy", "gl": "hoxe", "pt": "hoje", "en": "today"}


def shot(page, tmp_path: Path, name: str) -> Path:
    """A screenshot (FLOOR_SCREENSHOTS: also kept there)."""
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=True)
    kept = os.environ.get("FLOOR_SCREENSHOTS")
    if kept:
        page.screenshot(path=str(Path(kept) / name), full_page=True)
    return path


def test_the_console_and_the_players_page_show_a_players_hours(
    live_server, browser, floor_app, make_user, clock, tmp_path
):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from floor.player import signin

    room = Room(floor_app, tag="HR")
    table_id, cards = room.drawn_table(4)
    room.played(table_id)
    floor_app.start_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    clock.advance(10 * MINUTE)
    floor_app.end_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    clock.advance(35 * MINUTE)  # 20:45
    runtime.floor_projector().catch_up()
    make_user("jacobo", "jefe_sector", password="pa55-word-ok")

    desk = browser.new_context(locale="es-ES", viewport={"width": 1280, "height": 900})
    console = desk.new_page()
    console.set_default_timeout(15_000)
    console.goto(f"{live_server.url}/accounts/login/?next=/sectors/{room.sector_id}/")
    console.fill("#id_username", "jacobo")
    console.fill("#id_password", "pa55-word-ok")
    console.click("button[type=submit] >> nth=-1")
    for language, today in TODAY.items():
        desk.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        console.goto(f"{live_server.url}/sectors/{room.sector_id}/")
        rested = console.locator(f"[data-testid=seat][data-card='{cards[0]}']")
        other = console.locator(f"[data-testid=seat][data-card='{cards[1]}']")
        assert rested.locator("[data-testid=player-hours]").inner_text() == f"0:35 h {today}"
        assert other.locator("[data-testid=player-hours]").inner_text() == f"0:45 h {today}"
        shot(console, tmp_path, f"console-player-hours-{language}.png")
    desk.close()

    user = get_user_model().objects.create_user(signin.player_username(cards[0]), password="472591")
    user.groups.set([Group.objects.get_or_create(name="player")[0]])
    phone = browser.new_context(locale="es-ES", viewport=PHONE, is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/jugador/entrar/")
    page.fill("#card", cards[0])
    page.fill("#secret", "472591")
    page.click("button[type=submit] >> nth=-1")
    assert (
        page.inner_text("[data-testid=player-hours]") == "Has jugado 0:35 h en este día de juego."
    )
    shot(page, tmp_path, "player-page-hours.png")
    phone.close()
