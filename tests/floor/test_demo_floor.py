"""The demo floor is a floor one can play (issue 22, item 7): its players buy
in within what the table takes [CM-2], for stacks a hand is played with at the
table's blinds, and a second load changes nothing a user did."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from floor import runtime
from floor.kernel.roles import Actor, Role
from floor.management.commands import load_demo_floor
from floor.management.commands.load_demo_floor import DEMO_BUY_IN_BIG_BLINDS, demo_buy_in
from floor.models import TableView
from tests.support.floor import new_id

pytestmark = pytest.mark.django_db

DEALER = Actor("crupier", frozenset({Role.CRUPIER}))  # the demo's dealer at table 1


def load() -> None:
    call_command("load_demo_floor", stdout=io.StringIO())
    runtime.floor_projector().catch_up()


def first_table(app):
    view = TableView.objects.get(sector__name="Sector A", number=1)
    return app.repository.get(view.id)


def stacks(app) -> dict[int, int]:
    return {seat: state.stack for seat, state in first_table(app).taken_seats().items()}


def play_a_ten_euro_pot(app) -> tuple[int, int]:
    """Two seats put in 5 EUR each, blinds included; the first takes the pot."""
    table = first_table(app)
    a, b = table.occupied()[:2]
    app.start_hand(DEALER, new_id(), table_id=str(table.id), dealt_in=[a, b])
    app.end_hand(
        DEALER,
        new_id(),
        table_id=str(table.id),
        contributions={str(a): 500, str(b): 500},
        winnings={str(a): 1000},
        rake_cents=0,
    )
    return a, b


def test_under_cm_each_buys_in_within_the_house_amounts_for_tens_of_big_blinds(make_app):
    app = make_app("CM", house_buy_in=True)  # 100 to 1,000 EUR at Hold'em [CM-2]
    runtime.install(app)
    try:
        load()
        table = first_table(app)
        bought = stacks(app)
        assert len(bought) == 10
        assert all(10_000 <= cents <= 100_000 for cents in bought.values()), bought
        assert all(cents >= 50 * table.minimum_cents for cents in bought.values())
        assert len(set(bought.values())) > 1  # mixed stacks: an all-in makes a side pot
        assert set(bought.values()) == {bb * table.minimum_cents for bb in DEMO_BUY_IN_BIG_BLINDS}

        a, b = play_a_ten_euro_pot(app)

        after = stacks(app)
        assert (after[a], after[b]) == (bought[a] + 500, bought[b] - 500)
        position = app.last_position()
        load()  # make run, again: the hand played stays played
        assert app.last_position() == position
        assert stacks(app) == after
    finally:
        runtime.install(None)


def test_without_house_amounts_each_buys_in_the_table_maximum(floor_app):
    """A table's own range (2 to 10 EUR at the demo's 1/2 EUR Hold'em table):
    the most it takes, 5 big blinds, and a 10 EUR pot is played, not refused."""
    load()
    table = first_table(floor_app)
    assert set(stacks(floor_app).values()) == {table.maximum_cents}

    a, b = play_a_ten_euro_pot(floor_app)

    assert (stacks(floor_app)[a], stacks(floor_app)[b]) == (1500, 500)


def test_a_floor_loaded_with_other_amounts_keeps_them(floor_app, monkeypatch):
    """A floor loaded when the demo bought in 5 EUR: a new load buys nobody in
    again and records nothing (its stacks may be a user's by now)."""
    monkeypatch.setattr(load_demo_floor, "demo_buy_in", lambda rules, table, index: 500)
    load()
    monkeypatch.undo()
    position = floor_app.last_position()

    load()

    assert floor_app.last_position() == position
    assert set(stacks(floor_app).values()) == {500}


def test_a_demo_buy_in_stays_within_what_the_table_takes(make_app):
    cm = make_app("CM", house_buy_in=True).profile.buy_in
    holdem = type("T", (), {"variant": "texas_holdem", "minimum_cents": 200, "maximum_cents": 1000})
    omaha = type("T", (), {"variant": "omaha", "minimum_cents": 200, "maximum_cents": 600})
    deep = type("T", (), {"variant": "texas_holdem", "minimum_cents": 5000, "maximum_cents": 10**5})
    assert [demo_buy_in(cm, holdem, i) for i in range(3)] == [10_000, 15_000, 12_000]
    assert demo_buy_in(cm, omaha, 0) == 600  # no house amounts for Omaha: the table's maximum
    assert demo_buy_in(cm, deep, 3) == 100_000  # 100 big blinds of 50 EUR: the house's most


def test_the_demo_dealer_box_agrees_with_the_table_card(floor_app):
    """The demo's crupier deals Sector A's first table in the roster too, the
    other demo crupiers wait in its box, and a second load (after the jefe
    sent one on break) changes nothing [GA art. 19]."""
    from floor.selectors.dealer_box import sector_dealer_box

    load()
    table = first_table(floor_app)
    assert table.dealer == "crupier"
    tables = list(TableView.objects.filter(sector_id=table.sector_id).order_by("number"))
    box = sector_dealer_box(table.sector_id, tables)
    assert [(d["name"], d["table"]) for d in box["dealing"]] == [("crupier", 1)]
    assert [d["name"] for d in box["idle"]] == ["crupier2", "crupier3"]
    # The box offers them for the tables in registration, due now.
    assert [(p["table"], p["dealer_in"]) for p in box["pushes"]][:1] == [(2, "crupier2")]
    assert 1 not in box["uncovered"]

    jefe = Actor("jefe", frozenset({Role.JEFE_SECTOR}))
    sector_id = str(table.sector_id)
    floor_app.send_dealer_on_break(jefe, new_id(), sector_id=sector_id, dealer="crupier3")
    load()
    box = sector_dealer_box(table.sector_id, tables)
    assert [d["name"] for d in box["on_break"]] == ["crupier3"]
    assert [d["name"] for d in box["dealing"]] == ["crupier"]


def test_an_older_demo_store_gets_its_dealer_into_the_box_once(floor_app, monkeypatch):
    """A demo store loaded before the roster followed ``assign_dealer`` (the
    naming simulated without it) is healed by the next load; a dealer the
    jefe named since is never overwritten."""
    from floor.domain.dealer_roster import DealerRoster
    from floor.selectors.dealer_box import sector_dealer_box

    with monkeypatch.context() as old:
        old.setattr(DealerRoster, "name_at_table", lambda self, **kw: False)
        old.setattr(load_demo_floor.Command, "roster_the_demo_dealer", lambda *a: None)
        load()
    table = first_table(floor_app)
    tables = list(TableView.objects.filter(sector_id=table.sector_id).order_by("number"))
    assert sector_dealer_box(table.sector_id, tables)["dealing"] == []

    load()
    box = sector_dealer_box(table.sector_id, tables)
    assert [(d["name"], d["table"]) for d in box["dealing"]] == [("crupier", 1)]

    jefe = Actor("jefe", frozenset({Role.JEFE_SECTOR}))
    floor_app.assign_dealer(jefe, new_id(), table_id=str(table.id), dealer="crupier2")
    load()
    assert first_table(floor_app).dealer == "crupier2"
    box = sector_dealer_box(table.sector_id, tables)
    assert [(d["name"], d["table"]) for d in box["dealing"]] == [("crupier2", 1)]
