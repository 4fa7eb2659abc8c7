"""The chart of accounts: where every cent of the room can be.

An account is named by its kind and, where there are many, whose it is:
``cage:cash``, ``tray:<table>``, ``stack:<table>:<player>``. Each kind says
whether it holds chips or cash and whether its balance may go negative: only
the accounts that stand for the world outside the room (the players' cash, the
house's equity, the staff's tips paid out) may; a tray, a stack, a box or the
cage holds what is physically there and never less than nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from uuid import UUID

from floor.kernel.errors import invalid
from floor.kernel.identity import name_based_id


class Kind(StrEnum):
    CAGE_CASH = "cage_cash"  # the cage's cash
    CAGE_CHIPS = "cage_chips"  # the cage's chip inventory
    TRAY = "tray"  # a table's chip tray (the float)
    DROP = "drop"  # a table's cash drop box: cash of buy-ins at the table
    RAKE = "rake"  # a table's rake box, the cagnotte [GA art. 18.2; PT 9]
    TIPS = "tips"  # a table's tip box [GA art. 18.2; PT 5]
    STACK = "stack"  # a player's stack at a table
    PLAYER = "player"  # a player's chips off the tables (kept by them or at the cage)
    JACKPOT = "jackpot"  # a progressive jackpot's fund [GA art. 8b; PT-SD 10]
    HOSPITALITY = "hospitality"  # chips that left a table for hospitality [CM-15]
    EXTERNAL = "external"  # cash outside the room: the players' money
    EQUITY = "equity"  # the house's own: floats, count differences
    STAFF_TIPS = "staff_tips"  # tips paid out to the staff
    # The casino's bank: card payments and cheques the cage takes for chips
    # go in, casino cheques and transfers it pays out go out. Money that
    # never passes through the cage's drawer, so not in its count, and
    # outside the room, so it may go negative (issue 25: the cheques the
    # law traces, ledger.application.aml).
    BANK = "bank"
    # A table's differences: a stack the jefe corrected (a miscount) is
    # booked against it, so a reviewer finds every correction of the table's
    # chips in one place, as the cage's count differences are in the equity.
    DIFFERENCE = "difference"


CHIP_KINDS = frozenset(
    {
        Kind.CAGE_CHIPS,
        Kind.TRAY,
        Kind.RAKE,
        Kind.TIPS,
        Kind.STACK,
        Kind.PLAYER,
        Kind.JACKPOT,
        Kind.HOSPITALITY,
    }
)
OPEN_KINDS = frozenset({Kind.EXTERNAL, Kind.EQUITY, Kind.STAFF_TIPS, Kind.DIFFERENCE, Kind.BANK})
# How many parts follow the kind in an account's name.
_PARTS = {Kind.STACK: 2, Kind.TRAY: 1, Kind.DROP: 1, Kind.RAKE: 1, Kind.TIPS: 1}
_PARTS |= {Kind.PLAYER: 1, Kind.JACKPOT: 1, Kind.DIFFERENCE: 1}


@dataclass(frozen=True, order=True)
class AccountRef:
    """An account's name, parsed: its kind and the ids it belongs to."""

    name: str

    @property
    def kind(self) -> Kind:
        return Kind(self.name.split(":", 1)[0])

    @property
    def parts(self) -> list[str]:
        return self.name.split(":")[1:]

    @property
    def holds_chips(self) -> bool:
        return self.kind in CHIP_KINDS

    @property
    def may_go_negative(self) -> bool:
        """Only the world outside the room may owe or be owed (and a table's
        differences, which say by how much its stacks were corrected)."""
        return self.kind in OPEN_KINDS

    @property
    def table_id(self) -> str | None:
        if self.kind in (Kind.TRAY, Kind.DROP, Kind.RAKE, Kind.TIPS, Kind.STACK, Kind.DIFFERENCE):
            return self.parts[0]
        return None

    @property
    def player_id(self) -> str | None:
        if self.kind is Kind.STACK:
            return self.parts[1]
        if self.kind is Kind.PLAYER:
            return self.parts[0]
        return None

    @property
    def aggregate_id(self) -> UUID:
        """The id of the Account aggregate that guards this account's balance."""
        return name_based_id("account", self.name)

    @classmethod
    def parse(cls, name: object) -> AccountRef:
        """An account named by a client, or a clear refusal."""
        text = str(name)
        kind, *parts = text.split(":")
        try:
            parsed = Kind(kind)
        except ValueError:
            raise invalid("account_invalid") from None
        if len(parts) != _PARTS.get(parsed, 0) or not all(parts):
            raise invalid("account_invalid")
        return cls(text)


def _hex(value: object) -> str:
    return UUID(str(value)).hex


CAGE_CASH = AccountRef("cage_cash")
CAGE_CHIPS = AccountRef("cage_chips")
EXTERNAL = AccountRef("external")
EQUITY = AccountRef("equity")
STAFF_TIPS = AccountRef("staff_tips")
BANK = AccountRef("bank")
HOSPITALITY = AccountRef("hospitality")


def tray(table_id: object) -> AccountRef:
    return AccountRef(f"tray:{_hex(table_id)}")


def drop(table_id: object) -> AccountRef:
    return AccountRef(f"drop:{_hex(table_id)}")


def rake_box(table_id: object) -> AccountRef:
    return AccountRef(f"rake:{_hex(table_id)}")


def tip_box(table_id: object) -> AccountRef:
    return AccountRef(f"tips:{_hex(table_id)}")


def stack(table_id: object, player_id: object) -> AccountRef:
    return AccountRef(f"stack:{_hex(table_id)}:{_hex(player_id)}")


def player_chips(player_id: object) -> AccountRef:
    return AccountRef(f"player:{_hex(player_id)}")


def jackpot_fund(jackpot_id: object) -> AccountRef:
    return AccountRef(f"jackpot:{_hex(jackpot_id)}")


def table_difference(table_id: object) -> AccountRef:
    """A table's difference account: its stacks' corrections (floor fix_stack)."""
    return AccountRef(f"difference:{_hex(table_id)}")
