"""What the ledger's command modules share: the cage's accounts, how a
command's answer names the transactions it posted (for their receipts), and
how a command's arguments are fingerprinted."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from eventsourcing.domain import Aggregate

from floor.kernel.errors import invalid
from ledger.domain import accounts
from ledger.domain.accounts import AccountRef, Kind
from ledger.domain.transaction import Transaction

CAGE_ACCOUNTS = (accounts.CAGE_CASH, accounts.CAGE_CHIPS)
TABLE_KINDS = (Kind.TRAY, Kind.DROP, Kind.RAKE, Kind.TIPS)


def as_day(value: object) -> str:
    """A gaming day as YYYY-MM-DD, however the date was spelled."""
    try:
        return date.fromisoformat(str(value)).isoformat()
    except ValueError:
        raise invalid("gaming_day_invalid") from None


def cents(value: object, what: str = "amount_cents") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise invalid("amount_invalid")
    return value


def result_of(transactions: list[Aggregate], **more: object) -> dict:
    """A command's answer: the transactions it posted (for receipts)."""
    ids = [str(a.id) for a in transactions if isinstance(a, Transaction)]
    return {"transaction_ids": ids, **more}


def table_account(kind: Kind, table_id: str) -> AccountRef:
    return AccountRef(f"{kind}:{table_id}")


def fingerprinted(*as_text: str, **defaults: object) -> Callable[..., dict[str, Any]]:
    """A command's payload (what its fingerprint is taken of): its arguments
    with their defaults filled in, those named in ``as_text`` as text, so a
    repeat is told from a reused command id as it always was."""

    def payload(**arguments: object) -> dict[str, Any]:
        given = {**defaults, **arguments}
        return {k: str(v) if k in as_text else v for k, v in given.items()}

    return payload
