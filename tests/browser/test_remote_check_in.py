"""The console's "Ha llegado" in the browser (issue 24): a player who put
themselves on a list from outside shows "remoto / sin llegar"; one tap on the
button checks them in (an event with the jefe as its actor) and the row
becomes an ordinary entry of the list, without reloading the page."""

from __future__ import annotations

import pytest

from floor import runtime
from floor.application.player_self import player_username
from floor.kernel.roles import Actor, Role
from floor.models import TableView, WaitingListView
from tests.browser.test_sector_layout import (  # noqa: F401 (demo_floor: a fixture)
    JEFE,
    LIVE_MS,
    demo_floor,
    open_sector_a,
)
from tests.support.floor import new_id
from tests.support.room import events_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.usefixtures("demo_floor")
def test_the_jefe_taps_has_arrived_and_the_remote_entry_is_checked_in(
    live_server, browser, floor_app
):
    table = TableView.objects.get(sector__name="Sector A", number=1)
    card = "WEB-024"
    floor_app.register_player(JEFE, new_id(), card_number=card, display_name="Remota")
    player = Actor(player_username(card), frozenset({Role.PLAYER}))
    floor_app.join_waiting_list(player, new_id(), player=card, table_id=str(table.id))
    runtime.floor_projector().catch_up()

    context, page = open_sector_a(browser, live_server.url, 1920, 1080)
    try:
        row = page.locator(f"[data-testid=waiting-entry][data-card='{card}']")
        remote = row.locator("[data-testid=remote]")
        assert remote.inner_text() == "remoto / sin llegar"
        assert row.locator("[data-testid=check-in-by]").inner_text().startswith("caduca a las ")
        row.locator("[data-testid=check-in]").click()
        remote.wait_for(state="detached", timeout=LIVE_MS * 2)
        assert row.locator("[data-testid=check-in]").count() == 0
        assert "esperando" in row.inner_text()
    finally:
        context.close()
    waiting = WaitingListView.objects.get(entries__player__card_number=card)
    (checked,) = events_of(floor_app, waiting.id, "CheckedIn")
    assert (checked.actor, checked.actor_role) == ("jefe", "jefe_sector")
