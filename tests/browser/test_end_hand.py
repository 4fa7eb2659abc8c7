"""Ending a hand in Chromium the way a dealer thinks (issue 22): how each seat
ended and whose hand won, an all in with a side pot; Calculate shows the pots
and the rake the rules allow, then the hand is ended and the stacks move."""

from __future__ import annotations

import pytest

from floor import runtime
from tests.browser.test_shift import PASSWORD, answer_of, command, log_in, table_card
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_all_in_with_a_side_pot_from_the_console(live_server, browser, floor_app, make_user):
    room = Room(floor_app, tag="EB")
    make_user("jaime", "jefe_sector", password=PASSWORD)
    table_id, _cards = room.drawn_table(4, buy_in=None, minimum_cents=2000, maximum_cents=10000)
    seats = sorted(room.seats(table_id))
    a, b, c = seats[:3]
    for seat, cents in zip((a, b, c), (2000, 10000, 10000), strict=True):
        room.buy(table_id, room.seats(table_id)[seat], cents)
    room.start(table_id, [a, b, c])
    runtime.floor_projector().catch_up()
    context = browser.new_context(locale="es-ES", viewport={"width": 1600, "height": 1000})
    page = log_in(context, live_server.url, "jaime", f"/sectors/{room.sector_id}/")

    end = command(table_card(page, 1).locator("[data-testid=end-hand]"), "end_hand")
    end.locator(f"[name='ended.{a}']").select_option("all_in")
    end.locator(f"[name='ended.{b}']").select_option("called")
    end.locator(f"[name='ended.{c}']").select_option("called")
    end.locator("[name=called_eur]").fill("60")
    end.locator(f"[name='place.{a}']").select_option("1")
    end.locator(f"[name='place.{b}']").select_option("2")
    assert "como mucho" in end.locator("[data-testid=rake-limit]").inner_text() or (
        "lo máximo" in end.locator("[data-testid=rake-limit]").inner_text()
    )
    end.locator("[data-testid=calculate]").click()
    said, _role = answer_of(end)
    assert "Bote 1: 60,00 EUR" in said and f"ganado por {a}" in said
    assert "Bote 2: 80,00 EUR" in said and f"ganado por {b}" in said

    end.locator("[data-testid=end-the-hand]").click()
    table_card(page, 1).locator("[data-testid=hand-in-progress]").wait_for(state="detached")
    runtime.floor_projector().catch_up()
    assert room.get(table_id).hand is None
    assert room.state(table_id, seat=c)["stack"] == 4000
    context.close()
