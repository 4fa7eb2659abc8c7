"""Money for tests: a funded cage with its day open, and trays with a float."""

from __future__ import annotations

from floor.kernel.roles import Actor, Role
from floor.kernel.service import CommandService
from floor.kernel.unit_of_work import UnitOfWork
from ledger.application.books import balance_of
from ledger.domain.accounts import AccountRef
from ledger.domain.cage import Cage
from tests.support.floor import JEFE, new_id

CAJERO = Actor("carla", frozenset({Role.CAJERO}))
DIRECTOR_OF_MONEY = Actor("dora", frozenset({Role.DIRECTOR}))
# Enough for any test's buy-ins: 100,000 EUR of chips.
CAGE_FLOAT_CENTS = 10_000_000


def open_cage(app: CommandService, *, chips_cents: int = CAGE_FLOAT_CENTS) -> None:
    """Funds the cage and opens its gaming day, unless a day is already open."""
    cage = app.find(Cage, Cage.ID)
    if cage is not None and cage.open_day is not None:
        return
    app.fund_cage(CAJERO, new_id(), cash_cents=chips_cents, chips_cents=chips_cents)
    app.open_gaming_day(CAJERO, new_id())


def fill_tray(app: CommandService, table_id: str, cents: int = 500_000) -> str:
    """The jefe asks for a fill and the cage confirms it; returns the request.
    The house first puts those chips into the cage, so a long test never runs
    the cage dry."""
    open_cage(app)
    app.fund_cage(DIRECTOR_OF_MONEY, new_id(), chips_cents=cents)
    asked = app.request_tray_move(
        JEFE, new_id(), table_id=table_id, move="fill", amount_cents=cents
    )
    request_id = asked.result["request_id"]
    app.confirm_tray_move(CAJERO, new_id(), request_id=request_id)
    return request_id


def live_balance(app: CommandService, ref: AccountRef) -> int:
    """A guarded account's balance as the write side holds it (0 when never
    opened): the live Account aggregate's."""
    return balance_of(UnitOfWork(app, app.profile), ref)
