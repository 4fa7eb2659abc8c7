"""The ledger as an auditor sees it: rebuilt from the Transaction events of the
log alone, then held against the live Account aggregates and the floor's
Tables. Shared by the ledger's tests.

``check()`` asserts the books' invariants:
- every transaction's postings are whole cents that sum to zero;
- all accounts together sum to zero;
- no guarded account (a tray, a box, a stack, the cage ...) is below zero;
- each guarded account's rebuilt balance and totals are the live aggregate's;
- the chips out of the cage (net of its float and of booked count differences)
  are exactly the chips on the stacks, with the players, in the trays, the
  rake and tip boxes, the jackpot funds and given for hospitality;
- each stack account is the stack its player has at that table, and a player
  who no longer sits there has none.
"""

from __future__ import annotations

from collections import defaultdict
from uuid import UUID

from floor.domain.table import Table
from ledger.domain import accounts
from ledger.domain.account import Account
from ledger.domain.accounts import AccountRef, Kind
from ledger.domain.transaction import Transaction, TransactionKind
from tests.support.money import live_balance

# The transactions that bring chips into the room from outside the books: the
# house's float and the count differences booked at the close.
# A stack the jefe fixed takes its chips from (or gives them to) the table's
# difference account, which stands outside the chips, as the equity does.
CHIPS_FROM_OUTSIDE = {TransactionKind.FLOAT, TransactionKind.ADJUSTMENT, TransactionKind.STACK_FIX}
OFF_CAGE_CHIPS = (
    Kind.STACK,
    Kind.PLAYER,
    Kind.TRAY,
    Kind.RAKE,
    Kind.TIPS,
    Kind.JACKPOT,
    Kind.HOSPITALITY,
)


class Books:
    """The ledger rebuilt from the log, read on from where it was last read."""

    def __init__(self, app) -> None:
        self.app = app
        self.position = 0
        self.balances: dict[str, int] = defaultdict(int)
        self.totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.transactions: list = []  # the Transaction.Posted events, in log order
        self.tables: set[str] = set()  # every table opened
        self.posted_to: set[str] = set()  # the accounts posted to since the last check
        # The chips the house brought into the room (floats, count differences).
        self.chips_from_outside = 0

    # --- reading the log -----------------------------------------------------------------

    def catch_up(self) -> Books:
        while True:
            batch = self.app.recorder.select_notifications(self.position + 1, 500)
            if not batch:
                return self
            for notification in batch:
                self.position = notification.id
                if notification.topic.endswith(":Table.Opened"):
                    self.tables.add(notification.originator_id.hex)
                if not notification.topic.endswith(":Transaction.Posted"):
                    continue
                posted = self.app.mapper.to_domain_event(notification)
                assert isinstance(posted, Transaction.Posted)
                self._apply(posted)

    def _apply(self, posted) -> None:
        postings = posted.postings
        assert postings, f"transaction {posted.originator_id} posts nothing"
        for name, amount in postings.items():
            assert isinstance(amount, int) and not isinstance(amount, bool), (name, amount)
            assert amount != 0, f"{posted.kind} posts 0 to {name}"
            AccountRef.parse(name)  # a well-formed account name
        assert sum(postings.values()) == 0, f"{posted.kind} does not balance: {postings}"
        TransactionKind(posted.kind)
        self.transactions.append(posted)
        for name, amount in postings.items():
            self.posted_to.add(name)
            self.balances[name] += amount
            self.totals[name][0 if amount > 0 else 1] += abs(amount)
            if AccountRef(name).holds_chips and posted.kind in CHIPS_FROM_OUTSIDE:
                self.chips_from_outside += amount

    # --- reading the books --------------------------------------------------------------

    def balance(self, ref: AccountRef) -> int:
        self.catch_up()
        return self.balances.get(ref.name, 0)

    def of_kind(self, *kinds: Kind) -> dict[str, int]:
        self.catch_up()
        return {n: b for n, b in self.balances.items() if AccountRef(n).kind in kinds and b}

    def total_of(self, *kinds: Kind) -> int:
        return sum(self.of_kind(*kinds).values())

    def kinds_posted(self) -> list[str]:
        self.catch_up()
        return [t.kind for t in self.transactions]

    def live_balance(self, ref: AccountRef) -> int:
        """The live Account aggregate's balance (0 when never opened)."""
        return live_balance(self.app, ref)

    # --- the invariants -----------------------------------------------------------------

    def check(self, *, every_account: bool = True) -> None:
        """All the invariants. The live aggregates of the accounts posted to
        since the last check are compared, or of ``every_account``."""
        self.catch_up()
        assert sum(self.balances.values()) == 0, "the accounts do not sum to zero"
        for name, balance in self.balances.items():
            ref = AccountRef(name)
            if not ref.may_go_negative:
                assert balance >= 0, f"{name} is negative: {balance}"
        for name in sorted(self.balances if every_account else self.posted_to):
            ref = AccountRef(name)
            if ref.may_go_negative:
                continue  # the world outside: no aggregate, only this projection
            account = self.app.repository.get(ref.aggregate_id)
            assert isinstance(account, Account) and account.name == name
            assert account.balance == self.balances[name], (name, account.balance)
            assert [account.total_in, account.total_out] == self.totals[name], name
            if every_account:
                assert self.live_balance(ref) == self.balances[name]
        self.posted_to.clear()
        self.check_chips()
        self.check_stacks()

    def check_chips(self) -> None:
        """Every chip out of the cage is somewhere in the room, and no more: the
        chips the cage issued, net of its float, are those on the stacks, with
        the players, in the trays, boxes and jackpot funds, and given for
        hospitality (less any a count difference put in a tray or a box)."""
        in_the_room = self.total_of(*OFF_CAGE_CHIPS)
        from_outside_to_room = sum(
            amount
            for t in self.transactions
            if t.kind in CHIPS_FROM_OUTSIDE
            for name, amount in t.postings.items()
            if AccountRef(name).kind in OFF_CAGE_CHIPS
        )
        assert self.chips_issued() == in_the_room - from_outside_to_room, (
            self.chips_issued(),
            in_the_room,
        )
        # And no chip was made or lost anywhere: all chips, the cage's too, are
        # what the house brought in.
        assert self.total_of(*OFF_CAGE_CHIPS, Kind.CAGE_CHIPS) == self.chips_from_outside

    def chips_issued(self) -> int:
        """-(every cage_chips posting but the float's and the count's)."""
        self.catch_up()
        return -sum(
            t.postings.get(accounts.CAGE_CHIPS.name, 0)
            for t in self.transactions
            if t.kind not in CHIPS_FROM_OUTSIDE
        )

    def check_stacks(self) -> None:
        """The floor's stacks are the ledger's stack accounts, both ways."""
        stacks = {n: b for n, b in self.balances.items() if AccountRef(n).kind is Kind.STACK}
        assert {AccountRef(n).table_id for n in stacks} <= self.tables
        for table_hex in sorted(self.tables):
            table = self.app.repository.get(UUID(table_hex))
            assert isinstance(table, Table)
            seated = {}
            for seat, state in table.occupants.items():
                ref = accounts.stack(table.id, state["player_id"])
                seated[ref.name] = state["stack"]
                assert self.balances.get(ref.name, 0) == state["stack"], (
                    f"seat {seat} of {table_hex}: the floor says {state['stack']}, "
                    f"the books {self.balances.get(ref.name, 0)}"
                )
            for name, balance in stacks.items():
                if AccountRef(name).table_id == table_hex and name not in seated:
                    assert balance == 0, f"{name} holds {balance} but nobody sits there"
