"""The ledger plugs into the floor (ledger.apps), the floor imports none of it:
its commands are declared, its books follow every command as a policy, its
long-lived aggregates are snapshotted. A floor built without the books policy
still moves the chips, and books none of it (bench/ledger.py's baseline)."""

from __future__ import annotations

import pytest

from floor.application.floor_app import FloorApplication
from floor.kernel.composition import ROOM
from floor.kernel.registry import COMMANDS
from ledger.application.books import Books
from ledger.domain.account import Account
from ledger.domain.cage import Cage
from ledger.domain.transaction import Transaction
from tests.support.room import Room, all_events

pytestmark = pytest.mark.django_db

MONEY_COMMANDS = {
    "ledger.application.cage": {"sell_chips", "buy_in_at_cage", "cash_out", "take_chips_off"},
    "ledger.application.gaming_days": {"fund_cage", "open_gaming_day", "close_gaming_day"},
    "ledger.application.jackpots": {"create_jackpot", "stake_jackpot", "pay_jackpot"},
    "ledger.application.banked": {"settle_banked_hand", "preview_banked_hand"},
}


def test_the_ledger_declares_its_commands_books_and_snapshots(make_app):
    app = make_app()
    for module, names in MONEY_COMMANDS.items():
        for name in names:
            assert COMMANDS[name].handler.__module__ == module, name
    assert isinstance(ROOM.policies()["books"], Books)
    assert [p for p in app.policies if isinstance(p, Books)]
    assert app.snapshotting_intervals[Account] == 100
    assert app.snapshotting_intervals[Cage] == 50


def transactions(app: FloorApplication) -> list[str]:
    return [e.kind for e in all_events(app) if isinstance(e, Transaction.Posted)]


def test_without_the_books_a_buy_in_moves_the_chips_and_books_nothing(make_app):
    booked = make_app()
    unbooked = make_app()
    unbooked.policies = tuple(p for p in unbooked.policies if not isinstance(p, Books))
    stacks = {}
    # One store for both: each its own game, so each draws its own list.
    for app, tag, variant in ((booked, "B", "texas_holdem"), (unbooked, "U", "omaha")):
        room = Room(app, tag=tag)
        table_id, cards = room.drawn_table(4, buy_in=None, variant=variant)
        before = transactions(app)
        stacks[tag] = room.buy(table_id, cards[0], 1000)
        stacks[tag + " booked"] = transactions(app)[len(before) :]
    assert stacks["B"] == stacks["U"] == 1000
    assert stacks["B booked"] == ["buy_in"]
    assert stacks["U booked"] == []
