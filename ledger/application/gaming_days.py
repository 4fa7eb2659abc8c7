"""The cage and its gaming day: the float, the open with its counts, the
close's count, its differences explained, and the close with its report
(docs/ledger.md, "The gaming day")."""

from __future__ import annotations

from collections.abc import Mapping

from eventsourcing.domain import Aggregate

from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command
from floor.kernel.roles import CAGE, Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork
from ledger.application.books import (
    account_totals,
    balance_of,
    book,
    cage,
    next_day,
    open_day,
)
from ledger.application.common import (
    CAGE_ACCOUNTS,
    TABLE_KINDS,
    as_day,
    fingerprinted,
    result_of,
    table_account,
)
from ledger.domain import accounts
from ledger.domain.accounts import AccountRef, Kind
from ledger.domain.cage import Cage
from ledger.domain.gaming_day import COUNTED_KINDS, GamingDay, opening_exception
from ledger.domain.transaction import TransactionKind

# --- the cage and its day ----------------------------------------------------------


def opening_trays(work: UnitOfWork, found: Cage) -> dict[str, int]:
    """Each tray's opening figure: what the last close counted in it, so
    chips a table paid out between the close and this open (and the cash
    its drop box took) count in this day's result; a tray never counted
    opens at its balance."""
    counted: dict[str, int] = {}
    if found.days_closed:
        last = work.find(GamingDay, GamingDay.id_for(found.days_closed[-1]))
        counted = last.counts if last is not None else {}
    trays = [accounts.tray(t) for t in found.tables]
    return {ref.name: counted.get(ref.name, balance_of(work, ref)) for ref in trays}


# The cage and the books [GA art. 19.1; CM "Personal"]: the cage moves money.
@command(roles=(Role.DIRECTOR, Role.CAJERO), payload=fingerprinted(cash_cents=0, chips_cents=0))
def fund_cage(work: UnitOfWork, *, cash_cents: int = 0, chips_cents: int = 0) -> Decision:
    """The house puts cash and chips into the cage (its float)."""
    for value in (cash_cents, chips_cents):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise invalid("amount_invalid")
    changed = book(
        work,
        TransactionKind.FLOAT,
        [
            (accounts.EQUITY, -(cash_cents + chips_cents)),
            (accounts.CAGE_CASH, cash_cents),
            (accounts.CAGE_CHIPS, chips_cents),
        ],
        reason="cage float",
        reason_code="cage_float",
    )
    return changed, result_of(changed)


@command(roles=CAGE, payload=fingerprinted(day=None, counts=None))
def open_gaming_day(
    work: UnitOfWork, *, day: str | None = None, counts: Mapping[str, int] | None = None
) -> Decision:
    """Opens the cage's gaming day. The cage may count trays and its own
    cash and chips as it opens: a count that differs from the books is an
    exception of the day, like the close's. A tray's opening figure is its
    count, else what the last close counted, else its balance; the cage's
    is its balance (a difference found is booked as a movement of the day)."""
    found = cage(work)
    wanted = as_day(day) if day is not None else next_day(work, found)
    counted = opening_counts(found, counts)
    opening = {ref.name: balance_of(work, ref) for ref in CAGE_ACCOUNTS}
    opening |= opening_trays(work, found)
    exceptions = []
    for name, cents in sorted(counted.items()):
        booked = balance_of(work, AccountRef(name))
        if AccountRef(name).kind is Kind.TRAY:
            # What the morning count finds missing (or over) is the
            # night's, not the day's: the opening figure moves with it.
            opening[name] += cents - booked
        if cents != booked:
            exceptions.append(opening_exception(name, booked, cents))
    totals = {ref.name: account_totals(work, ref) for ref in CAGE_ACCOUNTS}
    found.open_day_of(wanted)  # refuses while a day is open, or a closed day
    gaming_day = GamingDay.open(wanted, opening, totals, exceptions)
    if work.find(GamingDay, gaming_day.id) is not None:
        raise conflict("gaming_day_closed")
    return [found, gaming_day], {
        "gaming_day": wanted,
        "opening": opening,
        "exceptions": exceptions,
    }


def opening_counts(found: Cage, counts: object) -> dict[str, int]:
    """The counts given at the open: trays of tables the books know, and
    the cage's cash and chips."""
    if counts is None:
        return {}
    if not isinstance(counts, Mapping):
        raise invalid("counts_invalid")
    checked = {}
    for name, cents in counts.items():
        ref = AccountRef.parse(name)
        known = ref.kind in (Kind.CAGE_CASH, Kind.CAGE_CHIPS) or (
            ref.kind is Kind.TRAY and ref.table_id in found.tables
        )
        if not known:
            raise invalid("count_unknown_account")
        if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
            raise invalid("amount_invalid")
        checked[ref.name] = cents
    return checked


# --- the end of the day ----------------------------------------------------------------


def expected_counts(work: UnitOfWork, found: Cage) -> dict[str, int]:
    """What the books say each counted tray, box and the cage hold."""
    refs = list(CAGE_ACCOUNTS)
    refs += [table_account(kind, t) for t in found.tables for kind in TABLE_KINDS]
    return {ref.name: balance_of(work, ref) for ref in refs}


@command(roles=CAGE)
def count_gaming_day(work: UnitOfWork, *, counts: dict) -> Decision:
    """The cage's count at the close: every tray, drop, rake and tip box and
    its own cash and chips (an account the books hold nothing in may be
    left out: it counts as empty). Each difference is an exception."""
    found, gaming_day = open_day(work)
    if not isinstance(counts, Mapping):
        raise invalid("counts_invalid")
    for name in counts:
        if AccountRef.parse(name).kind not in COUNTED_KINDS:
            raise invalid("count_unknown_account")
    expected = expected_counts(work, found)
    given = {n: 0 for n, cents in expected.items() if cents == 0} | dict(counts)
    gaming_day.count(given, expected)
    return [gaming_day], {
        "gaming_day": gaming_day.day,
        "exceptions": gaming_day.exceptions,
    }


@command(roles=CAGE, payload=fingerprinted(note=""))
def explain_difference(
    work: UnitOfWork, *, account: str, reason_code: str, note: str = ""
) -> Decision:
    """Gives a count difference its reason code and books it, so the books
    hold what was counted; the difference stays in the day's report."""
    _, gaming_day = open_day(work)
    ref = AccountRef.parse(account)
    difference = gaming_day.explain(ref.name, reason_code, note)
    changed = book(
        work,
        TransactionKind.ADJUSTMENT,
        [(accounts.EQUITY, -difference), (ref, difference)],
        reason=reason_code if not note else f"{reason_code}: {note}",
        reason_code="count_difference",
        reason_params={"code": reason_code, "note": note},
        table_id=ref.table_id,
    )
    return [gaming_day, *changed], result_of(changed, difference_cents=difference)


@command(roles=CAGE)
def close_gaming_day(work: UnitOfWork) -> Decision:
    """Closes the day: the drop, rake and tip boxes go to the cage, the tips
    are paid out to the staff, and the day's report is kept."""
    found, gaming_day = open_day(work)
    books = expected_counts(work, found)
    gaming_day.check_may_close(books)
    flows = cage_flows(work, gaming_day)
    changed: list[Aggregate] = []
    drop_postings, tips = [], 0
    for table in found.tables:
        cash = balance_of(work, accounts.drop(table))
        rake = balance_of(work, accounts.rake_box(table))
        tip = balance_of(work, accounts.tip_box(table))
        tips += tip
        drop_postings += [
            (accounts.drop(table), -cash),
            (accounts.CAGE_CASH, cash),
            (accounts.rake_box(table), -rake),
            (accounts.tip_box(table), -tip),
            (accounts.CAGE_CHIPS, rake + tip),
        ]
    hospitality = balance_of(work, accounts.HOSPITALITY)
    drop_postings += [
        (accounts.HOSPITALITY, -hospitality),
        (accounts.CAGE_CHIPS, hospitality),
    ]
    into_the_cage = {
        "cash_in_cents": sum(a for r, a in drop_postings if r == accounts.CAGE_CASH),
        "chips_in_cents": sum(a for r, a in drop_postings if r == accounts.CAGE_CHIPS),
        "cash_out_cents": tips,
    }
    if any(amount for _, amount in drop_postings):
        changed += book(
            work,
            TransactionKind.DROP,
            drop_postings,
            reason="day's drop",
            reason_code="days_drop",
        )
    if tips:
        changed += book(
            work,
            TransactionKind.TIPS_PAID,
            [(accounts.CAGE_CASH, -tips), (accounts.STAFF_TIPS, tips)],
            reason="tips paid out to the staff",
            reason_code="tips_paid",
        )
    report = gaming_day.close(books, flows, into_the_cage)
    found.close_day()
    return [gaming_day, found, *changed], {"gaming_day": gaming_day.day, "report": report}


def cage_flows(work: UnitOfWork, gaming_day: GamingDay) -> dict[str, int]:
    """The day's cash in and out and chips out and in, from the cage
    accounts' totals against those at the open, and the money that went
    through the bank instead of the drawer (the day's own totals)."""
    cash_in, cash_out = account_totals(work, accounts.CAGE_CASH)
    chips_in, chips_out = account_totals(work, accounts.CAGE_CHIPS)
    opened_cash = gaming_day.opening_totals.get("cage_cash", [0, 0])
    opened_chips = gaming_day.opening_totals.get("cage_chips", [0, 0])
    bank_in, bank_out = gaming_day.bank_totals()
    return {
        "cash_in_cents": cash_in - opened_cash[0],
        "cash_out_cents": cash_out - opened_cash[1],
        "chips_in_cents": chips_in - opened_chips[0],
        "chips_out_cents": chips_out - opened_chips[1],
        # Chips sold by card or cheque, cash-outs paid by casino cheque or
        # transfer: chips moved with no cash, through the bank (issue 25).
        "bank_in_cents": bank_in,
        "bank_out_cents": bank_out,
    }
