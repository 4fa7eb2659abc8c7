"""A banked table's hand in Chromium: the dealer types the boxes and the
bank's cards on the table view, reads the settlement the service computed,
confirms it, and the stacks move [GA art. 6-8]."""

from __future__ import annotations

import pytest

from floor import runtime
from tests.browser.test_shift import PASSWORD, answer_of, command, log_in
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_dealer_settles_a_sen_descarte_hand(live_server, browser, floor_app, make_user):
    room = Room(floor_app, tag="BB")
    table_id, _cards = room.drawn_table(
        2,
        buy_in=10_000,
        variant="sen_descarte",
        seats=7,
        minimum_cents=500,
        maximum_cents=10_000,
    )
    first, second = sorted(room.seats(table_id))
    make_user("cris", "crupier", password=PASSWORD)
    runtime.floor_projector().catch_up()
    context = browser.new_context(locale="es-ES", viewport={"width": 1400, "height": 1000})
    dealer = log_in(context, live_server.url, "cris", f"/tables/{table_id}/")

    form = command(dealer, "settle_banked_hand")
    form.locator(f"[name='ante_eur.{first}']").fill("5")
    form.locator(f"[name='cards.{first}']").fill("Ts Td Th 4h 4s")
    form.locator(f"[name='ante_eur.{second}']").fill("5")
    form.locator(f"[name='play.{second}']").select_option("fold")
    form.locator("[name=bank_cards]").fill("Ah Kd 7c 5s 2h")
    form.locator("[data-testid=settle-banked]").click()

    said, role = answer_of(form)
    assert "Revise la liquidación" in said and role == "alert"
    assert f"Casilla {first}: +75,00 EUR" in said  # ante 1:1, full house 7:1
    assert f"Casilla {second}: -5,00 EUR" in said
    assert room.get(table_id).hands_played == 0  # nothing recorded before confirming

    form.locator("[data-testid=confirm-amount]").click()
    form.locator("[data-testid=answer].ok").wait_for()
    assert "liquidada" in form.locator("[data-testid=answer]").inner_text()
    assert room.get(table_id).hands_played == 1
    stack = dealer.locator(f"[data-testid=seat][data-seat='{first}'] [data-testid=stack]")
    stack.filter(has_text="175,00").wait_for()
    context.close()
