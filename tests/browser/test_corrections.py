"""In Chromium: the corrections of issue 22, each from the console of the role
allowed to make it, with its reason, confirmed with the button the server's
answer brings: the jefe undoes a move made by mistake and fixes a seat's
stack from the seat line's "Corregir" panel; the cage voids a chip sale
booked by mistake and finds it in its list of voided entries."""

from __future__ import annotations

import pytest

from floor import runtime
from floor.domain.balance_group import BalanceGroup
from ledger.models import TransactionView
from tests.browser.test_shift import PASSWORD, Shot, command, log_in, table_card
from tests.support.floor import JEFE, new_id
from tests.support.money import CAJERO
from tests.support.room import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def shot(tmp_path) -> Shot:
    import os
    from pathlib import Path

    folder = Path(os.environ.get("FLOOR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return Shot(folder)


def seat_line(card, player: str):
    return card.locator(f"[data-testid=seat][data-card='{player}']")


def test_the_jefe_undoes_a_move_and_fixes_a_stack(live_server, browser, floor_app, make_user, shot):
    room = Room(floor_app, tag="CR")
    tables = [room.table() for _ in range(2)]
    for card in room.new_players(10):
        room.join(card, tables[0])
    room.app.draw_seats(JEFE, new_id(), table_ids=tables)
    for table_id in tables:
        for card in room.seats(table_id).values():
            room.buy(table_id, card, 1000)
    first, second = (room.get(t).number for t in tables)
    moved = next(iter(room.seats(tables[0]).values()))
    room.app.override_move(
        JEFE, new_id(), group_id=str(BalanceGroup.id_for(room.get(tables[0]).game)),
        player=moved, to_table_id=tables[1], reason="The jefe's call",
    )  # fmt: skip
    make_user("jaime", "jefe_sector", password=PASSWORD)
    runtime.floor_projector().catch_up()
    context = browser.new_context(locale="es-ES", viewport={"width": 1600, "height": 1000})
    jefe = log_in(context, live_server.url, "jaime", f"/sectors/{room.sector_id}/")

    # The move undone: the seat line's panel, its reason, the server's confirmation.
    line = seat_line(table_card(jefe, second), moved)
    line.locator("details.more summary").click()
    undo = command(line, "undo_move")
    assert f"mesa {first}" in undo.locator("[data-testid=undo-to]").inner_text()
    undo.locator("select[name=reason_code]").select_option("wrong_player")
    undo.locator("[data-testid=undo-move]").click()
    undo.locator("[data-testid=confirm-amount]").wait_for()
    assert f"mesa {first}" in undo.locator("[data-testid=answer]").inner_text()
    shot(jefe, "undo-asked")
    undo.locator("[data-testid=confirm-amount]").click()
    seat_line(table_card(jefe, first), moved).wait_for()
    assert seat_line(table_card(jefe, second), moved).count() == 0
    shot(jefe, "undone")

    # A stack fixed: 12,50 EUR really there, confirmed with the difference.
    player = next(iter(room.seats(tables[1]).values()))
    line = seat_line(table_card(jefe, second), player)
    line.locator("details.more summary").click()
    fix = command(line, "fix_stack")
    fix.locator("input[name=stack_eur]").fill("12,50")
    fix.locator("select[name=reason_code]").select_option("buy_in_miscounted")
    fix.locator("[data-testid=fix-stack]").click()
    fix.locator("[data-testid=confirm-amount]").wait_for()
    assert "+2,50" in fix.locator("[data-testid=answer]").inner_text()
    fix.locator("[data-testid=confirm-amount]").click()
    line.locator("[data-testid=stack]", has_text="12,50").wait_for()
    assert room.state(tables[1], player)["stack"] == 1250
    shot(jefe, "stack-fixed")
    context.close()


def test_the_cage_voids_a_sale_booked_by_mistake(live_server, browser, floor_app, make_user, shot):
    room = Room(floor_app, tag="CV")
    room.table()  # the cage funded and opened, a tray filled
    card = room.new_player()
    sale = room.app.sell_chips(CAJERO, new_id(), player=card, amount_cents=5_000)
    entry = sale.result["transaction_ids"][0]
    make_user("carla", "cajero", password=PASSWORD)
    runtime.floor_projector().catch_up()
    context = browser.new_context(locale="es-ES", viewport={"width": 1600, "height": 1000})
    cage = log_in(context, live_server.url, "carla", "/cage/")

    row = cage.locator("[data-testid=transaction][data-kind=chips_sold]")
    row.locator("[data-testid=void] summary").click()
    void = command(row, "void_entry")
    void.locator("select[name=reason_code]").select_option("wrong_amount")
    void.locator("[data-testid=void-entry]").click()
    void.locator("[data-testid=confirm-amount]").wait_for()
    assert "50,00" in void.locator("[data-testid=answer]").inner_text()
    shot(cage, "void-asked")
    void.locator("[data-testid=confirm-amount]").click()
    cage.locator("[data-testid=void-row]").wait_for()
    assert "importe equivocado" in cage.locator("[data-testid=void-reason]").inner_text()
    cage.locator("[data-testid=transaction][data-kind=chips_sold] [data-testid=voided]").wait_for()
    assert TransactionView.objects.filter(kind="void", reference=entry.replace("-", "")).exists()
    shot(cage, "voided")
    context.close()
