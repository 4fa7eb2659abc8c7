"""The ledger's commands are fingerprinted as they were when each was a method
of the application (issue 21): a command id recorded before the change and
sent again is still told a repeat, not a reused id.

Each row is a command's arguments as a client sends them and, literally, the
payload the old method built from them (its defaults filled in, ids as text,
a jackpot's scheme decided by the profile).
"""

from __future__ import annotations

from uuid import UUID

import pytest

from floor.kernel.registry import COMMANDS
from floor.kernel.service import fingerprint
from floor.kernel.unit_of_work import UnitOfWork, working
from games.profiles import CM, PT

TABLE = UUID("3e5e4aa1-f4ba-4bf7-84e8-6a33210cefc8")
OTHER = UUID("7b0c8f5e-1d2a-4c3b-9e8f-0a1b2c3d4e5f")
JACKPOT = UUID("11111111-2222-4333-8444-555555555555")
REQUEST = UUID("99999999-8888-4777-8666-555555555555")
BOXES = {"1": {"bet_cents": 500}}

BEFORE = [
    ("sell_chips", {"player": "L-1", "amount_cents": 100}, {"player": "L-1", "amount_cents": 100}),
    (
        "buy_in_at_cage",
        {"table_id": TABLE, "player": "L-1", "amount_cents": 100},
        {"table_id": str(TABLE), "player": "L-1", "amount_cents": 100},
    ),
    ("cash_out", {"player": "L-1"}, {"player": "L-1", "amount_cents": None}),
    ("cash_out", {"player": "L-1", "amount_cents": 5}, {"player": "L-1", "amount_cents": 5}),
    # Cash, said or not, fingerprints as before the instruments (issue 25).
    (
        "sell_chips",
        {"player": "L-1", "amount_cents": 100, "paid_by": "cash"},
        {"player": "L-1", "amount_cents": 100},
    ),
    (
        "sell_chips",
        {"player": "L-1", "amount_cents": 100, "paid_by": "card"},
        {"player": "L-1", "amount_cents": 100, "paid_by": "card"},
    ),
    (
        "cash_out",
        {"player": "L-1", "paid_as": "cash"},
        {"player": "L-1", "amount_cents": None},
    ),
    (
        "cash_out",
        {"player": "L-1", "paid_as": "cheque"},
        {"player": "L-1", "amount_cents": None, "paid_as": "cheque"},
    ),
    (
        "certify_winnings",
        {"player": "L-1", "amount_cents": 100},
        {"player": "L-1", "amount_cents": 100},
    ),
    (
        "take_chips_off",
        {"table_id": TABLE, "player": "L-1", "amount_cents": 100, "purpose": "tip"},
        {"table_id": str(TABLE), "player": "L-1", "amount_cents": 100, "purpose": "tip"},
    ),
    (
        "request_tray_move",
        {"table_id": TABLE, "move": "fill", "amount_cents": 100},
        {"table_id": str(TABLE), "move": "fill", "amount_cents": 100},
    ),
    ("confirm_tray_move", {"request_id": REQUEST}, {"request_id": str(REQUEST)}),
    ("cancel_tray_move", {"request_id": REQUEST}, {"request_id": str(REQUEST), "reason": ""}),
    (
        "cancel_tray_move",
        {"request_id": REQUEST, "reason": "wrong"},
        {"request_id": str(REQUEST), "reason": "wrong"},
    ),
    ("fund_cage", {}, {"cash_cents": 0, "chips_cents": 0}),
    ("fund_cage", {"chips_cents": 7}, {"cash_cents": 0, "chips_cents": 7}),
    ("open_gaming_day", {}, {"day": None, "counts": None}),
    (
        "open_gaming_day",
        {"day": "2026-11-22", "counts": {"cage_cash": 1}},
        {"day": "2026-11-22", "counts": {"cage_cash": 1}},
    ),
    ("count_gaming_day", {"counts": {"cage_cash": 1}}, {"counts": {"cage_cash": 1}}),
    (
        "explain_difference",
        {"account": "cage_cash", "reason_code": "miscount"},
        {"account": "cage_cash", "reason_code": "miscount", "note": ""},
    ),
    ("close_gaming_day", {}, {}),
    (
        "stake_jackpot",
        {"jackpot_id": JACKPOT, "table_id": TABLE, "stakes": {"1": 100}},
        {"jackpot_id": str(JACKPOT), "table_id": str(TABLE), "stakes": {"1": 100}},
    ),
    (
        "pay_jackpot",
        {"jackpot_id": JACKPOT, "table_id": TABLE, "winners": {"1": "flush"}},
        {"jackpot_id": str(JACKPOT), "table_id": str(TABLE), "winners": {"1": "flush"}},
    ),
    (
        "settle_banked_hand",
        {"table_id": TABLE, "boxes": BOXES, "bank": {}},
        {"table_id": str(TABLE), "boxes": BOXES, "bank": {}, "jackpot_id": None},
    ),
    (
        "preview_banked_hand",
        {"table_id": TABLE, "boxes": BOXES, "bank": {}, "jackpot_id": JACKPOT},
        {"table_id": str(TABLE), "boxes": BOXES, "bank": {}, "jackpot_id": str(JACKPOT)},
    ),
    (
        "settle_banked_hand",
        {"table_id": TABLE, "boxes": BOXES, "bank": {}, "jackpot_id": ""},
        {"table_id": str(TABLE), "boxes": BOXES, "bank": {}, "jackpot_id": None},
    ),
    # Issue 22: an entry voided, its note "" when none is given.
    (
        "void_entry",
        {"transaction_id": REQUEST, "reason_code": "wrong_amount"},
        {"transaction_id": str(REQUEST), "reason_code": "wrong_amount", "note": ""},
    ),
]


def payload(name: str, arguments: dict, profile=CM) -> dict:
    """What ``name`` is fingerprinted by when run with ``arguments`` (as the
    service computes it: within a unit of work of the application's profile)."""
    with working(UnitOfWork(None, profile)):
        return COMMANDS[name].payload_of(arguments)


@pytest.mark.parametrize(("name", "arguments", "before"), BEFORE)
def test_a_ledger_command_is_fingerprinted_as_before(name, arguments, before):
    assert payload(name, arguments) == before
    assert fingerprint(name, payload(name, arguments)) == fingerprint(name, before)


def test_a_jackpot_is_fingerprinted_with_its_scheme_as_the_profile_decides_it():
    arguments = {"name": "P", "stake_cents": 100, "seed_cents": 500, "table_ids": [TABLE, OTHER]}
    before = {**arguments, "table_ids": [str(TABLE), str(OTHER)]}
    assert payload("create_jackpot", arguments, CM) == {**before, "scheme": "GA"}
    assert payload("create_jackpot", arguments, PT) == {**before, "scheme": "PT-SD"}
    named = {**arguments, "scheme": "GA"}
    assert payload("create_jackpot", named, PT) == {**before, "scheme": "GA"}


def test_every_ledger_command_is_checked_here():
    checked = {name for name, _, _ in BEFORE} | {"create_jackpot"}
    ledger = {n for n, s in COMMANDS.items() if s.handler.__module__.startswith("ledger.")}
    assert ledger == checked
