"""The room's TV shows the board in Chromium, and a change reaches it by itself."""

import pytest

from floor import runtime
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_board_shows_the_lists_and_reloads_itself(
    live_server, page, floor_app, tmp_path, settings
):
    settings.FLOOR_BOARD_REFRESH_SECONDS = 1  # the TV's 10 s, shortened for the test
    room = Room(floor_app, tag="TVB")
    table_id, _cards = room.drawn_table(4, buy_in=None)
    first = room.new_player()
    room.join(first, table_id)
    runtime.floor_projector().catch_up()

    page.goto(f"{live_server.url}/board/")
    game = page.locator("[data-testid=board-game]")
    assert game.count() == 1
    assert page.inner_text("[data-testid=seats-free]") == "6 asientos libres"
    assert page.locator("[data-testid=waiting] li").all_inner_texts() == ["5"]
    page.screenshot(path=str(tmp_path / "board.png"), full_page=True)

    # Another player registers elsewhere; the TV shows it without anyone touching it.
    room.join(room.new_player(), table_id)
    runtime.floor_projector().catch_up()
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=waiting] li').length === 2", timeout=5_000
    )
    assert page.locator("[data-testid=waiting] li").all_inner_texts() == ["5", "6"]
