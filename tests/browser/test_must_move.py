"""A must-move table in Chromium (issue 24, item 5): the jefe makes the second
table of a full game the must-move table of the first from its card; the
card lists its players in the order they move; a seat freed at the main table
says who moves next, and one tap moves them [PT 12; CM-5] with their stack
[CM-12]; the seat they leave is offered to the list. Screenshots go to
FLOOR_SCREENSHOTS (or the test's tmp directory) to be looked at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from floor import runtime
from floor.domain import must_move
from tests.support.floor import JEFE
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE_MS = 4_000  # a change shows in an open console within its polls
SEATS = 6


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("FLOOR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_jefe_runs_a_must_move_table_from_the_console(
    live_server, browser, floor_app, make_user, tmp_path
):
    make_user(JEFE.username, "jefe_sector", password="pa55-word-ok")
    room = Room(floor_app, tag="MB")
    main, _cards = room.drawn_table(SEATS, seats=SEATS)
    room.played(main)
    feeder, _cards = room.drawn_table(SEATS, seats=SEATS)
    table = room.get(feeder)
    order = must_move.arrival_order(must_move.feeder_seats(table.occupants))
    first = room.get(order[0].player_id)
    waiting = room.new_player("Uxía Espera")
    room.join(waiting, main)
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

    feeder_card = page.locator("[data-testid=table-card][data-table-number='2']")
    main_card = page.locator("[data-testid=table-card][data-table-number='1']")
    feeder_card.locator("details.fold > summary").click()
    feeder_card.locator("form[data-command=start_must_move] button").click()
    feeder_card.locator("[data-testid=must-move-main]").wait_for(timeout=LIVE_MS)
    listed = feeder_card.locator("[data-testid=must-move-order]").inner_text()
    assert listed.index(first.display_name) < min(
        listed.index(room.get(s.player_id).display_name) for s in order[1:]
    )
    assert "mesa principal" in main_card.locator("[data-testid=must-move-feeder]").inner_text()

    leaving = room.seats(main)[1]
    seat = room.leave(main, leaving)["seat"]
    runtime.floor_projector().catch_up()
    move = main_card.locator("[data-testid=move-from-must-move]")
    move.wait_for(timeout=LIVE_MS)
    assert first.display_name in move.inner_text()
    assert first.display_name in main_card.locator("[data-testid=must-move-next]").inner_text()
    free_row = main_card.locator(f"[data-testid=seat][data-seat='{seat}']")
    assert free_row.locator("form[data-command=call_next]").count() == 0
    page.screenshot(path=str(shots(tmp_path) / "must-move-next.png"), full_page=True)

    move.click()
    main_card.locator(f"[data-testid=seat][data-seat='{seat}'][data-card]").wait_for(
        timeout=LIVE_MS
    )
    # The seat they left at the must-move table is offered to the list.
    feeder_card.locator("[data-testid=offered-to]").wait_for(timeout=LIVE_MS)
    page.screenshot(path=str(shots(tmp_path) / "must-move-moved.png"), full_page=True)
    context.close()

    assert room.seats(main)[seat] == first.card_number
    assert room.player(waiting).card_number == waiting
    assert room.waiting(main).entry_of(room.player(waiting).id)["status"] == "called"
