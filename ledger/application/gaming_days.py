"""The cage and its gaming day: the float, the open with its counts, the
close's count, its differences explained, and the close with its report
(docs/ledger.md, "The gaming day")."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta

from eventsourcing.domain import Aggregate

from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command, current_command
from floor.kernel.roles import CAGE, Actor, Role
from floor.kernel.service import Decision, Outcome
from ledger.application.books import LedgerBooks
from ledger.application.common import (
    CAGE_ACCOUNTS,
    TABLE_KINDS,
    as_day,
    result_of,
    table_account,
)
from ledger.domain import accounts
from ledger.domain.accounts import AccountRef, Kind
from ledger.domain.cage import Cage
from ledger.domain.gaming_day import COUNTED_KINDS, GamingDay, opening_exception
from ledger.domain.transaction import TransactionKind


class GamingDayCommands(LedgerBooks):
    """The cage and its day."""

    # --- the cage and its day ----------------------------------------------------------

    def cage(self) -> Cage:
        found = self.find(Cage, Cage.ID)
        if found is None:
            found = Cage(id=Cage.ID)
            self.remember(found)
        return found

    def gaming_day_of_now(self) -> str:
        """Transactions belong to the cage's open day. With none open, to the
        day that opens next: the profile's day of the moment, or the day after
        the last one closed if that one was it (a table plays on after the
        cage's close)."""
        cage = self.find(Cage, Cage.ID)
        if cage is not None and cage.open_day is not None:
            return cage.open_day
        return self.next_day(cage)

    def next_day(self, cage: Cage | None) -> str:
        day = super().gaming_day_of_now()
        if cage is not None and cage.days_closed and day <= cage.days_closed[-1]:
            return (date.fromisoformat(cage.days_closed[-1]) + timedelta(days=1)).isoformat()
        return day

    def account(self, ref: AccountRef):
        """The cage counts every table that has a tray or a box at the close."""
        if ref.table_id is not None and ref.kind is not Kind.STACK:
            self.cage().know_table(ref.table_id)
        return super().account(ref)

    def opening_trays(self, cage: Cage) -> dict[str, int]:
        """Each tray's opening figure: what the last close counted in it, so
        chips a table paid out between the close and this open (and the cash
        its drop box took) count in this day's result; a tray never counted
        opens at its balance."""
        counted: dict[str, int] = {}
        if cage.days_closed:
            last = self.find(GamingDay, GamingDay.id_for(cage.days_closed[-1]))
            counted = last.counts if last is not None else {}
        trays = [accounts.tray(t) for t in cage.tables]
        return {ref.name: counted.get(ref.name, self.balance_of(ref)) for ref in trays}

    def _open_day(self) -> tuple[Cage, GamingDay]:
        cage = self.cage()
        day = cage.check_day_open()
        return cage, self.load(GamingDay, GamingDay.id_for(day), "gaming_day")

    # The cage and the books [GA art. 19.1; CM "Personal"]: the cage moves money.
    @command(roles=(Role.DIRECTOR, Role.CAJERO))
    def fund_cage(
        self, actor: Actor, command_id: str, *, cash_cents: int = 0, chips_cents: int = 0
    ) -> Outcome:
        """The house puts cash and chips into the cage (its float)."""
        payload = {"cash_cents": cash_cents, "chips_cents": chips_cents}

        def decide() -> Decision:
            for value in (cash_cents, chips_cents):
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise invalid("amount_invalid")
            changed = self.book(
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

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=CAGE)
    def open_gaming_day(
        self,
        actor: Actor,
        command_id: str,
        *,
        day: str | None = None,
        counts: Mapping[str, int] | None = None,
    ) -> Outcome:
        """Opens the cage's gaming day. The cage may count trays and its own
        cash and chips as it opens: a count that differs from the books is an
        exception of the day, like the close's. A tray's opening figure is its
        count, else what the last close counted, else its balance; the cage's
        is its balance (a difference found is booked as a movement of the day)."""
        payload = {"day": day, "counts": counts}

        def decide() -> Decision:
            cage = self.cage()
            wanted = as_day(day) if day is not None else self.next_day(cage)
            counted = self.opening_counts(cage, counts)
            opening = {ref.name: self.balance_of(ref) for ref in CAGE_ACCOUNTS}
            opening |= self.opening_trays(cage)
            exceptions = []
            for name, cents in sorted(counted.items()):
                booked = self.balance_of(AccountRef(name))
                if AccountRef(name).kind is Kind.TRAY:
                    # What the morning count finds missing (or over) is the
                    # night's, not the day's: the opening figure moves with it.
                    opening[name] += cents - booked
                if cents != booked:
                    exceptions.append(opening_exception(name, booked, cents))
            totals = {ref.name: self.account_totals(ref) for ref in CAGE_ACCOUNTS}
            cage.open_day_of(wanted)  # refuses while a day is open, or a closed day
            gaming_day = GamingDay.open(wanted, opening, totals, exceptions)
            if self.find(GamingDay, gaming_day.id) is not None:
                raise conflict("gaming_day_closed")
            return [cage, gaming_day], {
                "gaming_day": wanted,
                "opening": opening,
                "exceptions": exceptions,
            }

        return self.execute(current_command(), actor, command_id, payload, decide)

    def opening_counts(self, cage: Cage, counts: object) -> dict[str, int]:
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
                ref.kind is Kind.TRAY and ref.table_id in cage.tables
            )
            if not known:
                raise invalid("count_unknown_account")
            if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
                raise invalid("amount_invalid")
            checked[ref.name] = cents
        return checked

    # --- the end of the day ----------------------------------------------------------------

    def expected_counts(self, cage: Cage) -> dict[str, int]:
        """What the books say each counted tray, box and the cage hold."""
        refs = list(CAGE_ACCOUNTS)
        refs += [table_account(kind, t) for t in cage.tables for kind in TABLE_KINDS]
        return {ref.name: self.balance_of(ref) for ref in refs}

    @command(roles=CAGE)
    def count_gaming_day(self, actor: Actor, command_id: str, *, counts: dict) -> Outcome:
        """The cage's count at the close: every tray, drop, rake and tip box and
        its own cash and chips (an account the books hold nothing in may be
        left out: it counts as empty). Each difference is an exception."""
        payload = {"counts": counts}

        def decide() -> Decision:
            cage, gaming_day = self._open_day()
            if not isinstance(counts, Mapping):
                raise invalid("counts_invalid")
            for name in counts:
                if AccountRef.parse(name).kind not in COUNTED_KINDS:
                    raise invalid("count_unknown_account")
            expected = self.expected_counts(cage)
            given = {n: 0 for n, cents in expected.items() if cents == 0} | dict(counts)
            gaming_day.count(given, expected)
            return [gaming_day], {
                "gaming_day": gaming_day.day,
                "exceptions": gaming_day.exceptions,
            }

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=CAGE)
    def explain_difference(
        self, actor: Actor, command_id: str, *, account: str, reason_code: str, note: str = ""
    ) -> Outcome:
        """Gives a count difference its reason code and books it, so the books
        hold what was counted; the difference stays in the day's report."""
        payload = {"account": account, "reason_code": reason_code, "note": note}

        def decide() -> Decision:
            _, gaming_day = self._open_day()
            ref = AccountRef.parse(account)
            difference = gaming_day.explain(ref.name, reason_code, note)
            changed = self.book(
                TransactionKind.ADJUSTMENT,
                [(accounts.EQUITY, -difference), (ref, difference)],
                reason=reason_code if not note else f"{reason_code}: {note}",
                reason_code="count_difference",
                reason_params={"code": reason_code, "note": note},
                table_id=ref.table_id,
            )
            return [gaming_day, *changed], result_of(changed, difference_cents=difference)

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=CAGE)
    def close_gaming_day(self, actor: Actor, command_id: str) -> Outcome:
        """Closes the day: the drop, rake and tip boxes go to the cage, the tips
        are paid out to the staff, and the day's report is kept."""

        def decide() -> Decision:
            cage, gaming_day = self._open_day()
            books = self.expected_counts(cage)
            gaming_day.check_may_close(books)
            flows = self.cage_flows(gaming_day)
            changed: list[Aggregate] = []
            drop_postings, tips = [], 0
            for table in cage.tables:
                cash = self.balance_of(accounts.drop(table))
                rake = self.balance_of(accounts.rake_box(table))
                tip = self.balance_of(accounts.tip_box(table))
                tips += tip
                drop_postings += [
                    (accounts.drop(table), -cash),
                    (accounts.CAGE_CASH, cash),
                    (accounts.rake_box(table), -rake),
                    (accounts.tip_box(table), -tip),
                    (accounts.CAGE_CHIPS, rake + tip),
                ]
            hospitality = self.balance_of(accounts.HOSPITALITY)
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
                changed += self.book(
                    TransactionKind.DROP,
                    drop_postings,
                    reason="day's drop",
                    reason_code="days_drop",
                )
            if tips:
                changed += self.book(
                    TransactionKind.TIPS_PAID,
                    [(accounts.CAGE_CASH, -tips), (accounts.STAFF_TIPS, tips)],
                    reason="tips paid out to the staff",
                    reason_code="tips_paid",
                )
            report = gaming_day.close(books, flows, into_the_cage)
            cage.close_day()
            return [gaming_day, cage, *changed], {"gaming_day": gaming_day.day, "report": report}

        return self.execute(current_command(), actor, command_id, {}, decide)

    def cage_flows(self, gaming_day: GamingDay) -> dict[str, int]:
        """The day's cash in and out and chips out and in, from the cage
        accounts' totals against those at the open."""
        cash_in, cash_out = self.account_totals(accounts.CAGE_CASH)
        chips_in, chips_out = self.account_totals(accounts.CAGE_CHIPS)
        opened_cash = gaming_day.opening_totals.get("cage_cash", [0, 0])
        opened_chips = gaming_day.opening_totals.get("cage_chips", [0, 0])
        return {
            "cash_in_cents": cash_in - opened_cash[0],
            "cash_out_cents": cash_out - opened_cash[1],
            "chips_in_cents": chips_in - opened_chips[0],
            "chips_out_cents": chips_out - opened_chips[1],
        }
