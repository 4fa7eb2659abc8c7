"""The cage's commands: floats, chips sold and cashed out, fills and credits,
tips and hospitality, jackpots, and the gaming day from open to close.

Each runs through the floor's command pipeline (idempotent command ids, the
actor's role, all events or none) and books its money in ledger.application.books.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta

from eventsourcing.domain import Aggregate

from floor.application.service import Decision, Outcome
from floor.domain.errors import conflict, invalid
from floor.domain.roles import Actor
from floor.domain.table import Table
from games.banked import settle_jackpot
from games.hands import Category
from ledger.application.books import LedgerBooks
from ledger.domain import accounts
from ledger.domain.accounts import AccountRef, Kind
from ledger.domain.cage import Cage
from ledger.domain.gaming_day import COUNTED_KINDS, GamingDay, opening_exception
from ledger.domain.jackpot import Jackpot
from ledger.domain.transaction import Transaction, TransactionKind
from ledger.domain.tray_request import TrayMove, TrayRequest

CAGE_ACCOUNTS = (accounts.CAGE_CASH, accounts.CAGE_CHIPS)
TABLE_KINDS = (Kind.TRAY, Kind.DROP, Kind.RAKE, Kind.TIPS)


def as_day(value: object) -> str:
    """A gaming day as YYYY-MM-DD, however the date was spelled."""
    try:
        return date.fromisoformat(str(value)).isoformat()
    except ValueError:
        raise invalid("gaming_day_invalid", f"{value!r} is not a date (YYYY-MM-DD).") from None


def _cents(value: object, what: str = "amount_cents") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise invalid("amount_invalid", f"{what} is a positive whole number of cents.")
    return value


def _result(transactions: list[Aggregate], **more: object) -> dict:
    """A command's answer: the transactions it posted (for receipts)."""
    ids = [str(a.id) for a in transactions if isinstance(a, Transaction)]
    return {"transaction_ids": ids, **more}


def table_account(kind: Kind, table_id: str) -> AccountRef:
    return AccountRef(f"{kind}:{table_id}")


class CageCommands(LedgerBooks):
    """The cage and the money commands of the floor."""

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

    def fund_cage(
        self, actor: Actor, command_id: str, *, cash_cents: int = 0, chips_cents: int = 0
    ) -> Outcome:
        """The house puts cash and chips into the cage (its float)."""
        payload = {"cash_cents": cash_cents, "chips_cents": chips_cents}

        def decide() -> Decision:
            for value in (cash_cents, chips_cents):
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise invalid("amount_invalid", "Amounts are whole, non-negative cents.")
            changed = self.book(
                TransactionKind.FLOAT,
                [
                    (accounts.EQUITY, -(cash_cents + chips_cents)),
                    (accounts.CAGE_CASH, cash_cents),
                    (accounts.CAGE_CHIPS, chips_cents),
                ],
                reason="cage float",
            )
            return changed, _result(changed)

        return self.execute("fund_cage", actor, command_id, payload, decide)

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
                raise conflict("gaming_day_closed", f"The gaming day {wanted} was already closed.")
            return [cage, gaming_day], {
                "gaming_day": wanted,
                "opening": opening,
                "exceptions": exceptions,
            }

        return self.execute("open_gaming_day", actor, command_id, payload, decide)

    def opening_counts(self, cage: Cage, counts: object) -> dict[str, int]:
        """The counts given at the open: trays of tables the books know, and
        the cage's cash and chips."""
        if counts is None:
            return {}
        if not isinstance(counts, Mapping):
            raise invalid("counts_invalid", "Counts are an object of account -> cents.")
        checked = {}
        for name, cents in counts.items():
            ref = AccountRef.parse(name)
            known = ref.kind in (Kind.CAGE_CASH, Kind.CAGE_CHIPS) or (
                ref.kind is Kind.TRAY and ref.table_id in cage.tables
            )
            if not known:
                raise invalid("count_unknown_account", f"{name} is not counted at the open.")
            if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
                raise invalid("amount_invalid", f"The count of {name} is not whole cents.")
            checked[ref.name] = cents
        return checked

    # --- players' chips ------------------------------------------------------------------

    def sell_chips(
        self, actor: Actor, command_id: str, *, player: str, amount_cents: int
    ) -> Outcome:
        """The cage sells a player chips for cash (a buy-in at the cage); the
        player takes them to a table or buys in there with them."""
        payload = {"player": player, "amount_cents": amount_cents}

        def decide() -> Decision:
            self._open_day()
            amount = _cents(amount_cents)
            found = self.player(player)
            changed = self.book(
                TransactionKind.CHIPS_SOLD,
                [
                    (accounts.EXTERNAL, -amount),
                    (accounts.CAGE_CASH, amount),
                    (accounts.CAGE_CHIPS, -amount),
                    (accounts.player_chips(found.id), amount),
                ],
                reason="chips sold at the cage",
                player_id=found.id,
            )
            return changed, _result(changed, player_id=str(found.id))

        return self.execute("sell_chips", actor, command_id, payload, decide)

    def buy_in_at_cage(
        self, actor: Actor, command_id: str, *, table_id: str, player: str, amount_cents: int
    ) -> Outcome:
        """A seated player pays at the cage and the chips go to their seat:
        the cage takes the cash and gives the chips, within the table's
        limits and between hands like any buy-in [CM-2; GA art. 21; PT 14]."""
        payload = {"table_id": str(table_id), "player": player, "amount_cents": amount_cents}

        def decide() -> Decision:
            self._open_day()
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            stack = table.buy_in(
                found.id,
                amount_cents,
                table_average=self.profile.seating.newcomer_stack_is_table_average,
                paid_with="cage",
            )
            return [table], {"table_id": str(table.id), "stack_cents": stack}

        return self.execute("buy_in_at_cage", actor, command_id, payload, decide)

    def cash_out(
        self, actor: Actor, command_id: str, *, player: str, amount_cents: int | None = None
    ) -> Outcome:
        """The cage pays a player cash for their chips (all of them unless an
        amount is given). Only chips off the tables: a stack is cashed once its
        player leaves the table."""
        payload = {"player": player, "amount_cents": amount_cents}

        def decide() -> Decision:
            self._open_day()
            found = self.player(player)
            held = accounts.player_chips(found.id)
            amount = self.balance_of(held) if amount_cents is None else _cents(amount_cents)
            if amount == 0:
                raise conflict("no_chips_to_cash", "That player has no chips at the cage.")
            changed = self.book(
                TransactionKind.CASH_OUT,
                [
                    (held, -amount),
                    (accounts.CAGE_CHIPS, amount),
                    (accounts.CAGE_CASH, -amount),
                    (accounts.EXTERNAL, amount),
                ],
                reason="cash-out",
                player_id=found.id,
            )
            return changed, _result(changed, player_id=str(found.id), amount_cents=amount)

        return self.execute("cash_out", actor, command_id, payload, decide)

    def take_chips_off(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        player: str,
        amount_cents: int,
        purpose: str,
    ) -> Outcome:
        """Chips off a stack for a tip (to the tip box) or hospitality, at most
        15 EUR at a time [CM-15]; any other chips stay on the table."""
        payload = {
            "table_id": str(table_id),
            "player": player,
            "amount_cents": amount_cents,
            "purpose": purpose,
        }

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            stack = table.take_off(
                found.id, amount_cents, purpose, self.profile.chips_off_table_most_cents
            )
            return [table], {"table_id": str(table.id), "stack_cents": stack}

        return self.execute("take_chips_off", actor, command_id, payload, decide)

    # --- fills and credits ---------------------------------------------------------------

    def request_tray_move(
        self, actor: Actor, command_id: str, *, table_id: str, move: str, amount_cents: int
    ) -> Outcome:
        """The jefe asks the cage for a fill or a credit of a table's tray."""
        payload = {"table_id": str(table_id), "move": move, "amount_cents": amount_cents}

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            table.check_not_closed()
            request = TrayRequest.ask(move, table.id.hex, amount_cents, actor.username)
            return [request], {
                "request_id": str(request.id),
                "move": request.move,
                "table_id": str(table.id),
                "amount_cents": request.amount,
            }

        return self.execute("request_tray_move", actor, command_id, payload, decide)

    def confirm_tray_move(self, actor: Actor, command_id: str, *, request_id: str) -> Outcome:
        """The cage confirms a fill or credit: the chips move now, and the day
        notes them for the table's result."""
        payload = {"request_id": str(request_id)}

        def decide() -> Decision:
            _, gaming_day = self._open_day()
            request = self.load(TrayRequest, request_id, "tray_request")
            request.check_pending()
            amount, tray = request.amount, accounts.tray(request.table_id)
            fill = request.move == TrayMove.FILL
            postings = [(accounts.CAGE_CHIPS, -amount), (tray, amount)]
            if not fill:
                postings = [(accounts.CAGE_CHIPS, amount), (tray, -amount)]
            changed = self.book(
                TransactionKind.FILL if fill else TransactionKind.CREDIT,
                postings,
                reason=f"{request.move} asked by {request.requested_by}",
                table_id=request.table_id,
                reference=str(request.id),
            )
            request.confirm(actor.username, changed[0].id.hex)
            gaming_day.note_tray_move(request.table_id, request.move, amount)
            return [request, gaming_day, *changed], _result(
                changed, request_id=str(request.id), move=request.move
            )

        return self.execute("confirm_tray_move", actor, command_id, payload, decide)

    def cancel_tray_move(
        self, actor: Actor, command_id: str, *, request_id: str, reason: str = ""
    ) -> Outcome:
        payload = {"request_id": str(request_id), "reason": reason}

        def decide() -> Decision:
            request = self.load(TrayRequest, request_id, "tray_request")
            request.cancel(str(reason)[:200])
            return [request], {"request_id": str(request.id), "status": str(request.status)}

        return self.execute("cancel_tray_move", actor, command_id, payload, decide)

    # --- jackpots ------------------------------------------------------------------------

    def create_jackpot(
        self,
        actor: Actor,
        command_id: str,
        *,
        name: str,
        stake_cents: int,
        seed_cents: int,
        table_ids: list,
        scheme: str | None = None,
    ) -> Outcome:
        """A progressive jackpot for one or several tables [GA art. 8b], its
        fund brought to its starting amount from the cage's chips [PT-SD 10]."""
        scheme = scheme or ("PT-SD" if self.profile.code == "PT" else "GA")
        payload = {
            "name": name,
            "stake_cents": stake_cents,
            "seed_cents": seed_cents,
            "table_ids": [str(t) for t in table_ids or []],
            "scheme": scheme,
        }

        def decide() -> Decision:
            self._open_day()
            if not isinstance(table_ids, list):
                raise invalid("jackpot_tables_required", "A jackpot is fed by a list of tables.")
            tables = [self.load(Table, t, "table").id.hex for t in table_ids]
            jackpot = Jackpot.create(name, scheme, stake_cents, seed_cents, tables)
            changed = self.book(
                TransactionKind.JACKPOT_SEED,
                [
                    (accounts.CAGE_CHIPS, -seed_cents),
                    (accounts.jackpot_fund(jackpot.id), seed_cents),
                ],
                reason="starting amount",
                reference=jackpot.id.hex,
            )
            return [jackpot, *changed], _result(changed, jackpot_id=str(jackpot.id))

        return self.execute("create_jackpot", actor, command_id, payload, decide)

    def stake_jackpot(
        self, actor: Actor, command_id: str, *, jackpot_id: str, table_id: str, stakes: dict
    ) -> Outcome:
        """The jackpot stakes of one hand, seat by seat, into the fund."""
        payload = {"jackpot_id": str(jackpot_id), "table_id": str(table_id), "stakes": stakes}

        def decide() -> Decision:
            jackpot = self.load(Jackpot, jackpot_id, "jackpot")
            table = self.load(Table, table_id, "table")
            jackpot.check_table(table.id)
            by_seat = _by_seat(stakes)
            for cents in by_seat.values():
                jackpot.check_stake(cents, table.minimum_cents)
            staked = table.stake_jackpot(jackpot.id, by_seat)
            return [table], {"table_id": str(table.id), "stakes": staked}

        return self.execute("stake_jackpot", actor, command_id, payload, decide)

    def pay_jackpot(
        self, actor: Actor, command_id: str, *, jackpot_id: str, table_id: str, winners: dict
    ) -> Outcome:
        """Pays the jackpot winners of the hand just played, among the seats
        that staked on it, once, by the settlement rules (smallest prize first,
        the top prize takes the rest, equal prizes split [PT-SD 12; GA art.
        8b]); the fund is brought back to its starting amount."""
        payload = {"jackpot_id": str(jackpot_id), "table_id": str(table_id), "winners": winners}

        def decide() -> Decision:
            self._open_day()
            jackpot = self.load(Jackpot, jackpot_id, "jackpot")
            table = self.load(Table, table_id, "table")
            jackpot.check_table(table.id)
            categories = _by_seat(winners, Category)
            staked = table.check_jackpot_winners(jackpot.id, list(categories))
            fund = accounts.jackpot_fund(jackpot.id)
            settled = settle_jackpot(
                jackpot.rules,
                self.balance_of(fund),
                [(seat, category, staked[str(seat)]) for seat, category in categories.items()],
            )
            prizes = {seat: cents for seat, cents in settled.won_cents.items() if cents}
            if not prizes:
                raise conflict("no_jackpot_prize", "None of those hands wins a jackpot prize.")
            table.pay_jackpot(jackpot.id, prizes)
            changed = [table]
            short = jackpot.seed_cents - settled.fund_after_cents
            if short > 0:
                changed += self.book(
                    TransactionKind.JACKPOT_SEED,
                    [(accounts.CAGE_CHIPS, -short), (fund, short)],
                    reason="back to the starting amount",
                    reference=jackpot.id.hex,
                )
            return changed, {
                "table_id": str(table.id),
                "prizes": {str(s): c for s, c in prizes.items()},
                "fund_after_cents": max(settled.fund_after_cents, jackpot.seed_cents),
            }

        return self.execute("pay_jackpot", actor, command_id, payload, decide)

    # --- the end of the day ----------------------------------------------------------------

    def expected_counts(self, cage: Cage) -> dict[str, int]:
        """What the books say each counted tray, box and the cage hold."""
        refs = list(CAGE_ACCOUNTS)
        refs += [table_account(kind, t) for t in cage.tables for kind in TABLE_KINDS]
        return {ref.name: self.balance_of(ref) for ref in refs}

    def count_gaming_day(self, actor: Actor, command_id: str, *, counts: dict) -> Outcome:
        """The cage's count at the close: every tray, drop, rake and tip box and
        its own cash and chips (an account the books hold nothing in may be
        left out: it counts as empty). Each difference is an exception."""
        payload = {"counts": counts}

        def decide() -> Decision:
            cage, gaming_day = self._open_day()
            if not isinstance(counts, Mapping):
                raise invalid("counts_invalid", "Counts are an object of account -> cents.")
            for name in counts:
                if AccountRef.parse(name).kind not in COUNTED_KINDS:
                    raise invalid("count_unknown_account", f"{name} is not counted at the close.")
            expected = self.expected_counts(cage)
            given = {n: 0 for n, cents in expected.items() if cents == 0} | dict(counts)
            gaming_day.count(given, expected)
            return [gaming_day], {
                "gaming_day": gaming_day.day,
                "exceptions": gaming_day.exceptions,
            }

        return self.execute("count_gaming_day", actor, command_id, payload, decide)

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
                table_id=ref.table_id,
            )
            return [gaming_day, *changed], _result(changed, difference_cents=difference)

        return self.execute("explain_difference", actor, command_id, payload, decide)

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
                changed += self.book(TransactionKind.DROP, drop_postings, reason="day's drop")
            if tips:
                changed += self.book(
                    TransactionKind.TIPS_PAID,
                    [(accounts.CAGE_CASH, -tips), (accounts.STAFF_TIPS, tips)],
                    reason="tips paid out to the staff",
                )
            report = gaming_day.close(books, flows, into_the_cage)
            cage.close_day()
            return [gaming_day, cage, *changed], {"gaming_day": gaming_day.day, "report": report}

        return self.execute("close_gaming_day", actor, command_id, {}, decide)

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


def _by_seat(values: object, convert=None) -> dict[int, object]:
    """``{"3": x}`` from a client as ``{3: x}``, or a clear refusal."""
    if not isinstance(values, Mapping) or not values:
        raise invalid("seats_required", "Give the amounts or hands seat by seat.")
    result = {}
    for seat, value in values.items():
        try:
            number = int(seat)
        except (TypeError, ValueError):
            raise invalid(
                "seat_invalid", f"{seat!r} is not a seat number.", seat=str(seat)[:10]
            ) from None
        if convert is not None:
            try:
                value = convert(value)
            except ValueError:
                raise invalid(
                    "hand_category_invalid", f"{value!r} is not a hand category."
                ) from None
        result[number] = value
    return result
