"""The ledger's read models: the demo floor's money, and a rebuild from the
log that reaches the same books as the live projector."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from floor import runtime
from floor.management.commands.load_demo_floor import DEMO_CAGE_CHIPS_CENTS, DEMO_TRAY_CENTS
from ledger.domain import accounts
from ledger.models import AccountView, GamingDayView, TransactionView, TrayRequestView
from tests.support.money import live_balance

pytestmark = pytest.mark.django_db


def books() -> dict:
    return {
        "accounts": list(AccountView.objects.order_by("name").values()),
        "transactions": list(TransactionView.objects.order_by("position").values()),
        "tray_requests": list(TrayRequestView.objects.order_by("id").values()),
        "days": list(GamingDayView.objects.values()),
    }


def test_the_demo_floor_fills_its_trays_and_buys_its_players_in(floor_app):
    call_command("load_demo_floor", stdout=io.StringIO())
    runtime.floor_projector().catch_up()
    trays = AccountView.objects.filter(kind="tray")
    stacks = AccountView.objects.filter(kind="stack")
    # Without house amounts, the table's maximum (10 EUR) each (tests/floor/test_demo_floor.py).
    assert stacks.count() == 10 and {s.balance_cents for s in stacks} == {1000}
    tray_total = sum(t.balance_cents for t in trays)
    assert tray_total == trays.count() * DEMO_TRAY_CENTS - 10 * 1000
    cage_chips = live_balance(floor_app, accounts.CAGE_CHIPS)
    assert cage_chips == DEMO_CAGE_CHIPS_CENTS - trays.count() * DEMO_TRAY_CENTS
    assert sum(AccountView.objects.values_list("balance_cents", flat=True)) == 0
    assert TrayRequestView.objects.filter(status="confirmed").count() == trays.count()
    position = floor_app.last_position()
    call_command("load_demo_floor", stdout=io.StringIO())  # again: nothing new
    assert floor_app.last_position() == position


def test_rebuilding_the_read_models_reaches_the_same_books(floor_app):
    call_command("load_demo_floor", stdout=io.StringIO())
    runtime.floor_projector().catch_up()
    live = books()
    assert live["transactions"]
    AccountView.objects.filter(kind="tray").update(balance_cents=0)  # damage the books
    call_command("rebuild_projections", "--no-progress", stdout=io.StringIO())
    assert books() == live
    for account in AccountView.objects.exclude(kind__in=["external", "equity", "staff_tips"]):
        # The read model agrees with the guarded accounts of the write side.
        assert live_balance(floor_app, accounts.AccountRef(account.name)) == account.balance_cents
