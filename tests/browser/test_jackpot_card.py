"""A poker table's jackpot staked and paid from its card in Chromium (issue 22)
[GA art. 8b; PT-SD 8, 12]: between hands the jefe ticks the seats that stake,
confirms the money, and after the hand pays a seat's straight flush, confirmed
too; the stacks move and the card no longer offers the prize."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from floor import runtime
from tests.browser.test_shift import PASSWORD, command, log_in, table_card
from tests.support.floor import DIRECTOR, new_id
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shots(tmp_path: Path) -> Path:
    """Where the screenshots go to be looked at: FLOOR_SCREENSHOTS, or the test's tmp."""
    folder = Path(os.environ.get("FLOOR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_jackpot_staked_and_paid_from_the_card(
    live_server, browser, floor_app, make_user, tmp_path
):
    room = Room(floor_app, tag="JB")
    make_user("jaime", "jefe_sector", password=PASSWORD)
    table_id, _cards = room.drawn_table(4, buy_in=2_000, minimum_cents=400, maximum_cents=2_000)
    jackpot_id = room.app.create_jackpot(
        DIRECTOR,
        new_id(),
        name="Progresivo",
        stake_cents=100,
        seed_cents=50_000,
        table_ids=[table_id],
    ).result["jackpot_id"]
    seats = sorted(room.seats(table_id))
    runtime.floor_projector().catch_up()
    context = browser.new_context(locale="es-ES", viewport={"width": 1920, "height": 1080})
    page = log_in(context, live_server.url, "jaime", f"/sectors/{room.sector_id}/")
    card = table_card(page, 1)

    # The stake: two seats ticked, the money confirmed, then booked.
    card.locator(f"[data-jackpot='{jackpot_id}'] > summary").click()
    stake = command(card, "stake_jackpot")
    for seat in seats[:2]:
        stake.locator(f"[name='stakes_eur.{seat}']").check()
    stake.locator("button[type=submit]").click()
    confirm = stake.locator("[data-testid=confirm-amount]")
    confirm.wait_for()
    card.screenshot(path=str(shots(tmp_path) / "jackpot-stake-confirm.png"))
    assert "2,00" in stake.locator("[data-testid=answer]").inner_text()
    assert room.state(table_id, seat=seats[0])["stack"] == 2_000  # nothing moved yet
    confirm.click()
    page.locator("#last-answer", has_text="Las apuestas al jackpot están hechas.").wait_for()
    assert room.state(table_id, seat=seats[0])["stack"] == 1_900
    assert room.state(table_id, seat=seats[2])["stack"] == 2_000

    # The hand is played; the card offers the prize to the seats that staked.
    room.played(table_id)
    runtime.floor_projector().catch_up()  # the live part reads the hand played
    pay = command(card, "pay_jackpot")
    pay.wait_for()
    assert pay.locator("select").count() == 2
    pay.locator(f"[name='winners.{seats[0]}']").select_option("straight_flush")
    pay.locator("button[type=submit]").click()
    confirm = pay.locator("[data-testid=confirm-amount]")
    confirm.wait_for()
    card.screenshot(path=str(shots(tmp_path) / "jackpot-pay-confirm.png"))
    assert "Progresivo" in pay.locator("[data-testid=answer]").inner_text()
    confirm.click()
    page.locator("#last-answer", has_text="Se ha pagado el jackpot.").wait_for()
    # 10 % of the fund (500,00 + 2,00 staked) [GA art. 8b].
    assert room.state(table_id, seat=seats[0])["stack"] == 1_900 + 5_020
    pay.wait_for(state="detached")  # paid once
    context.close()
