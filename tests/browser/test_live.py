"""The live part in the browser (issue 22, item 4): htmx polls, idiomorph
morphs, and what the person was reading stays: a refusal not yet read stays
beside its form and its panel stays open while the table moves around it; a
change in another sector leaves the page as it is.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from floor import runtime
from floor.models import SectorView, TableView
from tests.browser.test_sector_layout import (  # noqa: F401 (demo_floor: a fixture)
    JEFE,
    LIVE_MS,
    demo_floor,
    open_sector_a,
)
from tests.support.floor import DIRECTOR, new_id

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def table_id(sector: str, number: int) -> str:
    return str(TableView.objects.get(sector__name=sector, number=number).id)


@pytest.mark.usefixtures("demo_floor")
def test_an_unread_refusal_stays_beside_its_form_while_the_table_moves(
    live_server, browser, floor_app
):
    table_1 = table_id("Sector A", 1)
    context, page = open_sector_a(browser, live_server.url, 1920, 1080)
    try:
        card = page.locator("[data-testid=table-card][data-table-number='1']")
        rows = card.locator("[data-testid=seat][data-card]")
        first, second = rows.nth(0), rows.nth(1)
        more = first.locator("details.more")
        more.locator("summary").click()
        form = first.locator("form[data-command=buy_in]")
        form.locator("input[name=amount_eur]").fill("12.50")  # not how Spanish writes it
        form.locator("button[type=submit]").click()
        answer = form.locator("[data-testid=answer]")
        # The box is put beside the form when it is sent; the refusal fills it.
        form.locator("[data-testid=answer][role=alert]").wait_for()
        said = answer.inner_text()
        assert "12,50" in said and answer.get_attribute("role") == "alert"
        position = page.locator("#live").get_attribute("data-position")

        floor_app.start_rest(
            JEFE, new_id(), table_id=table_1, player=second.get_attribute("data-card")
        )
        runtime.floor_projector().catch_up()
        second.locator("[data-testid=resting]").wait_for(timeout=LIVE_MS)

        assert page.locator("#live").get_attribute("data-position") != position
        assert more.evaluate("d => d.open")
        assert answer.inner_text() == said and answer.get_attribute("role") == "alert"
    finally:
        context.close()


@pytest.mark.usefixtures("demo_floor")
def test_a_change_in_another_sector_leaves_this_console_as_it_is(live_server, browser, floor_app):
    context, page = open_sector_a(browser, live_server.url, 1920, 1080)
    try:
        live = page.locator("#live")
        position = live.get_attribute("data-position")
        sector_b = SectorView.objects.get(name="Sector B")
        closes_at = floor_app.clock.now() + timedelta(hours=1)
        floor_app.announce_closing(
            DIRECTOR, new_id(), sector_id=str(sector_b.id), closes_at=closes_at.isoformat()
        )
        runtime.floor_projector().catch_up()
        # The next two polls (the first may have left before the change): both 204.
        for _ in range(2):
            with page.expect_response(lambda r: "/live/" in r.url, timeout=LIVE_MS) as polled:
                pass
            assert polled.value.status == 204
        assert live.get_attribute("data-position") == position
        assert page.locator("[data-testid=closing]").count() == 0
    finally:
        context.close()


@pytest.mark.usefixtures("demo_floor")
def test_a_seat_lines_done_goes_once_the_jefe_acts_elsewhere(live_server, browser, floor_app):
    """A seat line's answer floats over the lines below it: a "done" is read
    once the jefe acts elsewhere and goes, so it never hides a seat for the
    rest of the shift; a refusal stays beside its form."""
    context, page = open_sector_a(browser, live_server.url, 1920, 1080)
    try:
        card = page.locator("[data-testid=table-card][data-table-number='1']")
        rows = card.locator("[data-testid=seat][data-card]")
        first, third = rows.nth(0), rows.nth(2)
        # A "done" on the first line: the player rests.
        rest = first.locator("form[data-command=start_rest]")
        rest.locator("button[type=submit]").click()
        # The live part moves on (the line now offers the return from rest) and
        # the answer stays, though its form is no longer offered.
        first.locator("form[data-command=end_rest] button[type=submit]").wait_for()
        assert rest.count() == 0
        first.locator("[data-testid=answer][role=status]").wait_for()

        # The jefe acts on the third line: a buy-in refused (not how Spanish writes it).
        third.locator("details.more summary").click()
        refused = third.locator("form[data-command=buy_in]")
        refused.locator("input[name=amount_eur]").fill("12.50")
        refused.locator("button[type=submit]").click()
        refused.locator("[data-testid=answer][role=alert]").wait_for()

        first.locator("[data-testid=answer][role=status]").wait_for(state="detached")
        assert first.locator("form[data-command=start_rest]").count() == 0
        refused.locator("[data-testid=answer][role=alert]", has_text="12,50").wait_for()
    finally:
        context.close()
