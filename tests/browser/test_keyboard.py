"""The jefe's keyboard on the sector console (issue 22, item 6): "/" the player
card box, "1".."4" a table's first seat line, arrows the seat above or below,
on a seat line "r" rest, "a" away, "c" the clock, "Esc" closes the open panel,
"?" the help; nothing fires while typing in a field. Focus and open panels
survive a live update of the table around them.
"""

from __future__ import annotations

import pytest

from floor import runtime
from floor.models import TableView
from tests.browser.test_sector_layout import (  # noqa: F401 (demo_floor: a fixture)
    JEFE,
    LIVE_MS,
    demo_floor,
    open_sector_a,
    shots_folder,
)
from tests.support.floor import new_id
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED = """() => {
  const el = document.activeElement;
  const card = el.closest('[data-testid=table-card]');
  const row = el.closest('tr[data-seat]');
  return {
    tag: el.tagName, name: el.name || '', value: el.value || '',
    table: card ? card.dataset.tableNumber : null,
    seat: row ? row.dataset.seat : null, card: row ? (row.dataset.card || null) : null,
    command: el.closest('form') ? el.closest('form').dataset.command || null : null,
  };
}"""


def table_id(number: int) -> str:
    return str(TableView.objects.get(sector__name="Sector A", number=number).id)


def seated(page, number: int):
    card = page.locator(f"[data-testid=table-card][data-table-number='{number}']")
    return card, card.locator("[data-testid=seat][data-card]")


@pytest.mark.usefixtures("demo_floor")
def test_the_jefes_keys_rest_away_clock_help_and_esc(live_server, browser, floor_app, tmp_path):
    context, page = open_sector_a(browser, live_server.url, 1920, 1080)
    try:
        # "?" shows the help, in the console's language; Esc folds it away.
        help_box = page.locator("[data-testid=keys-help]")
        assert not help_box.is_visible()
        page.keyboard.press("?")
        assert help_box.is_visible()
        assert "Teclado" in help_box.inner_text()
        page.screenshot(path=str(shots_folder(tmp_path) / "keys-help.png"))
        page.keyboard.press("Escape")
        assert not help_box.is_visible()
        # The corner's "?" says there are keys, and opens the same help.
        page.locator("[data-testid=keys-hint]").click()
        assert help_box.is_visible()
        page.keyboard.press("Escape")
        assert not help_box.is_visible()

        # "1": table 1's first seated line; "r" rests that player.
        card, rows = seated(page, 1)
        page.keyboard.press("1")
        focused = page.evaluate(FOCUSED)
        assert focused["table"] == "1" and focused["tag"] == "TR", focused
        first = rows.first
        assert focused["card"] == first.get_attribute("data-card")
        page.keyboard.press("r")
        first.locator("[data-testid=resting]").wait_for(timeout=LIVE_MS)
        # The card was swapped live: the focus is still on the same seat line.
        assert page.evaluate(FOCUSED)["seat"] == focused["seat"]
        # "r" again: back from rest.
        page.keyboard.press("r")
        first.locator("[data-testid=resting]").wait_for(state="detached", timeout=LIVE_MS)

        # A hand is dealt at table 1 (the console shows it live).
        table_1 = table_id(1)
        seats = Room(floor_app, tag="KY").seats(table_1)
        floor_app.start_hand(JEFE, new_id(), table_id=table_1, dealt_in=list(seats))
        runtime.floor_projector().catch_up()
        card.locator("[data-testid=hand-in-progress]").wait_for(timeout=LIVE_MS)
        assert page.evaluate(FOCUSED)["seat"] == focused["seat"]

        # Down a line, "a": the player steps away (now, or when the hand ends).
        page.keyboard.press("ArrowDown")
        below = page.evaluate(FOCUSED)
        assert below["table"] == "1" and int(below["seat"]) > int(focused["seat"]), below
        row = card.locator(f"tr[data-seat='{below['seat']}']")
        assert row.locator("form[data-command=start_absence]").count() == 1
        page.keyboard.press("a")
        row.locator("[data-testid=away], [data-testid=away-after-hand]").first.wait_for(
            timeout=LIVE_MS
        )
        assert page.evaluate(FOCUSED)["seat"] == below["seat"]

        # Esc folds the panel the jefe opened.
        more = row.locator("details.more")
        more.locator("summary").click()
        assert more.evaluate("d => d.open")
        page.keyboard.press("Escape")
        assert not more.evaluate("d => d.open")

        # Down another line, "c": the clock's pot to type; Enter starts the clock.
        page.keyboard.press("ArrowDown")
        clocked = page.evaluate(FOCUSED)
        assert int(clocked["seat"]) > int(below["seat"]), clocked
        page.keyboard.press("c")
        pot = page.evaluate(FOCUSED)
        assert pot["command"] == "start_action_clock" and pot["name"] == "pot_eur", pot
        page.keyboard.type("6")
        page.keyboard.press("Enter")
        card.locator(f"tr[data-seat='{clocked['seat']}'] [data-testid=action-clock]").wait_for(
            timeout=LIVE_MS
        )
        # The answered field gave the focus back to its seat line.
        assert page.evaluate(FOCUSED)["seat"] == clocked["seat"]

        # "/": the player card box; typing there fires no key.
        page.keyboard.press("/")
        box = page.evaluate(FOCUSED)
        assert box["command"] == "register_player" and box["name"] == "card_number", box
        page.keyboard.type("2ra?")
        box = page.evaluate(FOCUSED)
        assert box["value"] == "2ra?", box  # the "/" itself was not typed
        assert not help_box.is_visible()
        assert page.evaluate(FOCUSED)["command"] == "register_player"
    finally:
        context.close()


@pytest.mark.usefixtures("demo_floor")
def test_a_live_update_keeps_the_focus_and_the_open_panel(live_server, browser, floor_app):
    table_1 = table_id(1)
    context, page = open_sector_a(browser, live_server.url, 1920, 1080)
    try:
        _, rows = seated(page, 1)
        first, second, third = rows.nth(0), rows.nth(1), rows.nth(2)
        # The jefe opens a seat's "More" and its summary keeps the focus while
        # another seat of the same table rests: the card is swapped live.
        more = first.locator("details.more")
        more.locator("summary").focus()
        page.keyboard.press("Enter")
        assert more.evaluate("d => d.open")
        floor_app.start_rest(
            JEFE, new_id(), table_id=table_1, player=second.get_attribute("data-card")
        )
        runtime.floor_projector().catch_up()
        second.locator("[data-testid=resting]").wait_for(timeout=LIVE_MS)
        assert more.evaluate("d => d.open")
        focused = page.evaluate(FOCUSED)
        assert focused["tag"] == "SUMMARY" and focused["seat"] == first.get_attribute("data-seat")

        # A half-typed buy-in in that panel: the floor moves on (the waiting
        # list shrinks, a third seat rests) and the field keeps the focus and
        # what was typed; keys typed there are text, not shortcuts.
        field = first.locator("form[data-command=buy_in] input[name=amount_eur]")
        field.focus()
        page.keyboard.type("1.0r")
        waiting = page.locator("[data-testid=waiting-entry]")
        before = waiting.count()
        leaving = waiting.first.get_attribute("data-card")
        floor_app.leave_waiting_list(
            JEFE, new_id(), player=leaving, table_id=table_1, reason="withdrew"
        )
        floor_app.start_rest(
            JEFE, new_id(), table_id=table_1, player=third.get_attribute("data-card")
        )
        runtime.floor_projector().catch_up()
        page.wait_for_function(
            "n => document.querySelectorAll('[data-testid=waiting-entry]').length === n",
            arg=before - 1,
            timeout=LIVE_MS,
        )
        focused = page.evaluate(FOCUSED)
        assert focused["name"] == "amount_eur" and focused["value"] == "1.0r", focused
        assert focused["seat"] == first.get_attribute("data-seat")
        assert more.evaluate("d => d.open")
        assert first.locator("[data-testid=resting]").count() == 0  # "r" was typed, not pressed

        # Esc leaves the field alone; once the jefe leaves the field and folds
        # the panel (abandoning it), the table catches up.
        first.locator("summary").focus()
        page.keyboard.press("Escape")
        assert not more.evaluate("d => d.open")
        third.locator("[data-testid=resting]").wait_for(timeout=LIVE_MS)
    finally:
        context.close()
