"""The gaming day: opened, counted, reconciled, closed.

At the open the day takes each tray's and the cage's balance as its opening
figures. Fills and credits are noted as they are confirmed. At the end the cage
counts every tray, drop box, rake box and tip box and its own cash and chips;
each count that differs from the books is an exception, and the day closes only
once every exception has a reason code. Each table's result is then closing
tray + credits + drop - opening tray - fills, the drop being the cash drop and
the rake box as counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from uuid import UUID

from eventsourcing.domain import event

from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict, invalid
from floor.kernel.identity import name_based_id
from ledger.domain.accounts import AccountRef, Kind

# Why a count may differ from the books; "other" needs a note.
REASON_CODES = (
    "count_error",
    "dealer_error",
    "unrecorded_fill",
    "unrecorded_credit",
    "chips_missing",
    "chips_found",
    "cash_short",
    "cash_over",
    "other",
)
# What the cage counts at the end of the day.
COUNTED_KINDS = (Kind.TRAY, Kind.DROP, Kind.RAKE, Kind.TIPS, Kind.CAGE_CASH, Kind.CAGE_CHIPS)


def opening_exception(account: str, booked: int, counted: int) -> dict:
    """A difference the count at the open found."""
    return {
        "account": account,
        "expected_cents": booked,
        "counted_cents": counted,
        "difference_cents": counted - booked,
        "reason_code": None,
        "note": "",
        "at": "open",
    }


class DayStatus:
    OPEN = "open"
    COUNTED = "counted"
    CLOSED = "closed"


class GamingDay(AuditedAggregate):
    @staticmethod
    def id_for(day: str) -> UUID:
        return name_based_id("gaming_day", day)

    @classmethod
    def open(
        cls,
        day: str,
        opening: Mapping[str, int],
        opening_totals: Mapping[str, list[int]],
        exceptions: list[dict] | None = None,
    ) -> GamingDay:
        try:
            date.fromisoformat(day)
        except (TypeError, ValueError):
            raise invalid("gaming_day_invalid") from None
        return cls(
            id=cls.id_for(day),
            day=day,
            opening=dict(opening),
            opening_totals={k: list(v) for k, v in opening_totals.items()},
            exceptions=list(exceptions or []),
        )

    @event("Opened")
    def __init__(
        self,
        id: UUID,  # noqa: A002
        day: str,
        opening: dict[str, int],
        opening_totals: dict[str, list[int]],
        exceptions: list[dict] | None = None,
    ) -> None:
        self.day = day
        self.opening = opening
        # The cage accounts' totals in and out at the open [in, out].
        self.opening_totals = opening_totals
        self.status = DayStatus.OPEN
        self.fills: dict[str, int] = {}
        self.credits: dict[str, int] = {}
        self.counts: dict[str, int] = {}
        self.expected: dict[str, int] = {}
        # Differences found by the counts: at the open ("at": "open") and the close.
        self.exceptions: list[dict] = exceptions or []
        self.report: dict | None = None
        # The entries voided in the day (ledger.application.corrections), in order.
        self.voids: list[dict] = []
        # Per patron (player id hex), the day's chip purchases and cash-outs at
        # the cage, [bought, cashed] in cents: the linked operations the
        # money-laundering threshold sums (ledger.application.aml). Kept here,
        # by events, so a command checks it on the state it saves against.
        self.patron_cage: dict[str, list[int]] = {}
        # Per patron, [bought by card or cheque, paid by casino cheque] in
        # cents: what a Portuguese casino cheque is capped by [Lei 83/2017].
        self.traceable: dict[str, list[int]] = {}
        # The certificates of winnings given (number, player_id, amount).
        self.certificates: list[dict] = []

    def check_not_closed(self) -> None:
        if self.status == DayStatus.CLOSED:
            raise conflict("gaming_day_closed")

    def note_tray_move(self, table_id: str, move: str, amount: int) -> None:
        self.check_not_closed()
        self._tray_moved(table_id=table_id, move=move, amount=amount)

    @event("TrayMoved")
    def _tray_moved(self, table_id: str, move: str, amount: int) -> None:
        totals = self.fills if move == "fill" else self.credits
        totals[table_id] = totals.get(table_id, 0) + amount

    def note_void(self, transaction_id: str, kind: str, table_id: str | None, amount: int) -> None:
        """Records in the day an entry voided: every void is an event of the
        day, saved with it, so a void and the day's count or close cannot both
        commit on the same state (the one saved second finds the other and is
        decided again); a count is taken against the books, so no void once
        counted [GA art. 19.1]. A fill or credit voided comes off the day's
        tray moves, as if never confirmed."""
        self.check_not_closed()
        if self.status != DayStatus.OPEN:
            raise conflict("entry_day_counted", gaming_day=self.day)
        self._void_noted(transaction_id=transaction_id, kind=kind, table_id=table_id, amount=amount)

    @event("VoidNoted")
    def _void_noted(
        self, transaction_id: str, kind: str, table_id: str | None, amount: int
    ) -> None:
        self.voids.append(
            {"transaction_id": transaction_id, "kind": kind, "table_id": table_id, "amount": amount}
        )
        if kind in ("fill", "credit") and table_id:
            totals = self.fills if kind == "fill" else self.credits
            totals[table_id] = totals.get(table_id, 0) - amount

    def patron_totals(self, player_id: str) -> tuple[int, int]:
        """(bought, cashed) at the cage today by that patron, in cents."""
        bought, cashed = getattr(self, "patron_cage", {}).get(player_id, (0, 0))
        return bought, cashed

    def patron_traceable(self, player_id: str) -> tuple[int, int]:
        """(bought by card or cheque, paid by casino cheque) today by that
        patron, in cents: what a Portuguese casino cheque is capped by
        (ledger.application.aml)."""
        by_card, by_cheque = getattr(self, "traceable", {}).get(player_id, (0, 0))
        return by_card, by_cheque

    def bank_totals(self) -> tuple[int, int]:
        """(in, out) through the casino's bank today, in cents: cards and
        cheques taken for chips, casino cheques and transfers paid."""
        bank_in, bank_out = getattr(self, "bank", (0, 0))
        return bank_in, bank_out

    def certified(self, player_id: str) -> int:
        """The winnings certified today to that patron, in cents."""
        return sum(
            c["amount"] for c in getattr(self, "certificates", []) if c["player_id"] == player_id
        )

    def note_patron_cage(
        self, player_id: str, direction: str, amount: int, instrument: str = "cash"
    ) -> None:
        """Adds a cage operation of a patron to the day's totals: ``direction``
        is "bought" (chips sold to the patron, at the cage or onto a seat) or
        "cashed" (chips bought back); a negative amount takes a voided one
        off. ``instrument`` is how the money moved: "cash", "card" or
        "cheque" for a purchase, "cash", "cheque" or "transfer" for a
        cash-out. Allowed until the day closes, as the operation itself is."""
        self.check_not_closed()
        self._patron_cage_noted(
            player_id=player_id, direction=direction, amount=amount, instrument=instrument
        )

    @event("PatronCageNoted")
    def _patron_cage_noted(
        self, player_id: str, direction: str, amount: int, instrument: str = "cash"
    ) -> None:
        if not hasattr(self, "patron_cage"):  # a day opened before the totals were kept
            self.patron_cage = {}
        if not hasattr(self, "traceable"):  # ... or before the instruments were
            self.traceable = {}
        bought, cashed = self.patron_cage.get(player_id, [0, 0])
        if direction == "bought":
            bought += amount
        else:
            cashed += amount
        self.patron_cage[player_id] = [bought, cashed]
        # The day's money through the bank, [in, out] (the close's report).
        bank_in, bank_out = getattr(self, "bank", [0, 0])
        if direction == "bought" and instrument in ("card", "cheque"):
            bank_in += amount
        elif direction == "cashed" and instrument in ("cheque", "transfer"):
            bank_out += amount
        self.bank = [bank_in, bank_out]
        by_card, by_cheque = self.traceable.get(player_id, [0, 0])
        if direction == "bought" and instrument in ("card", "cheque"):
            by_card += amount
        elif direction == "cashed" and instrument == "cheque":
            by_cheque += amount
        if player_id in self.traceable or instrument != "cash":
            self.traceable[player_id] = [by_card, by_cheque]

    def certify_winnings(self, player_id: str, amount: int) -> str:
        """Records a certificate of winnings given to a patron; answers its
        number (the day and its place in the day: "2026-11-27/3")."""
        self.check_not_closed()
        number = f"{self.day}/{len(getattr(self, 'certificates', [])) + 1}"
        self._winnings_certified(player_id=player_id, amount=amount, number=number)
        return number

    @event("WinningsCertified")
    def _winnings_certified(self, player_id: str, amount: int, number: str) -> None:
        if not hasattr(self, "certificates"):
            self.certificates = []
        self.certificates.append({"number": number, "player_id": player_id, "amount": amount})

    def count(self, counts: Mapping[str, int], expected: Mapping[str, int]) -> None:
        """The cage's end-of-day count against the books. ``expected`` names
        every account that must be counted. The cage may count again until the
        day closes (money moved since, say): differences already explained
        were booked, so they stay in the day's list and the new count is
        against the books as they stand."""
        self.check_not_closed()
        # A difference found at the open is booked once explained; counting
        # before that would find it again.
        unexplained = [e["account"] for e in self.exceptions if not e["reason_code"]]
        opening = [e["account"] for e in self.exceptions if e.get("at") == "open"]
        waiting = sorted(set(unexplained) & set(opening))
        if waiting:
            raise conflict("exceptions_unexplained", accounts=waiting)
        missing = sorted(set(expected) - set(counts))
        if missing:
            raise invalid("count_missing", accounts=missing)
        unknown = sorted(set(counts) - set(expected))
        if unknown:
            raise invalid("count_unknown_account", accounts=unknown)
        for cents in counts.values():
            if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
                raise invalid("amount_invalid")
        kept = [e for e in self.exceptions if e["reason_code"] or e.get("at") == "open"]
        exceptions = kept + [
            {
                "account": name,
                "expected_cents": expected[name],
                "counted_cents": counts[name],
                "difference_cents": counts[name] - expected[name],
                "reason_code": None,
                "note": "",
                "at": "close",
            }
            for name in sorted(expected)
            if counts[name] != expected[name]
        ]
        self._counted(counts=dict(counts), expected=dict(expected), exceptions=exceptions)

    @event("Counted")
    def _counted(self, counts: dict, expected: dict, exceptions: list) -> None:
        self.status = DayStatus.COUNTED
        self.counts = counts
        self.expected = expected
        self.exceptions = exceptions

    def exception_for(self, account: str) -> dict:
        """The difference on ``account`` still waiting for its reason."""
        found = next(
            (e for e in self.exceptions if e["account"] == account and not e["reason_code"]),
            None,
        )
        if found is None:
            raise invalid("exception_not_found")
        return found

    def explain(self, account: str, reason_code: str, note: str) -> int:
        """Gives a difference its reason; returns the difference to book."""
        self.check_not_closed()
        found = self.exception_for(account)
        if reason_code not in REASON_CODES:
            raise invalid("reason_code_invalid", choices=list(REASON_CODES))
        if reason_code == "other" and not str(note).strip():
            raise invalid("note_required")
        self._explained(account=account, reason_code=reason_code, note=str(note).strip())
        return found["difference_cents"]

    @event("ExceptionExplained")
    def _explained(self, account: str, reason_code: str, note: str) -> None:
        for exception in self.exceptions:
            if exception["account"] == account and not exception["reason_code"]:
                exception["reason_code"] = reason_code
                exception["note"] = note
                break  # one difference, one reason, one booking

    def check_may_close(self, books: Mapping[str, int]) -> None:
        """Every difference explained, and the books still what was counted:
        money moved since the count (a hand raked, a cash-out) would be in no
        day's report, so the cage counts again."""
        self.check_not_closed()
        if self.status != DayStatus.COUNTED:
            raise conflict("gaming_day_not_counted")
        open_ones = [e["account"] for e in self.exceptions if not e["reason_code"]]
        if open_ones:
            raise conflict("exceptions_unexplained", accounts=open_ones)
        moved = sorted(
            name
            for name in set(books) | set(self.counts)
            if books.get(name, 0) != self.counts.get(name, 0)
        )
        if moved:
            raise conflict("books_moved_since_count", accounts=moved)

    def table_results(self) -> dict[str, dict]:
        """closing tray + credits + drop - opening tray - fills, per table."""
        tables = {AccountRef(n).table_id for n in self.counts} - {None}
        results = {}
        for table in sorted(tables):
            opening = self.opening.get(f"tray:{table}", 0)
            closing = self.counts.get(f"tray:{table}", 0)
            cash_drop = self.counts.get(f"drop:{table}", 0)
            rake = self.counts.get(f"rake:{table}", 0)
            fills = self.fills.get(table, 0)
            credited = self.credits.get(table, 0)
            results[table] = {
                "opening_tray_cents": opening,
                "closing_tray_cents": closing,
                "fills_cents": fills,
                "credits_cents": credited,
                "cash_drop_cents": cash_drop,
                "rake_drop_cents": rake,
                "tips_cents": self.counts.get(f"tips:{table}", 0),
                "result_cents": closing + credited + cash_drop + rake - opening - fills,
            }
        return results

    def close(
        self,
        books: Mapping[str, int],
        cage_flows: Mapping[str, int],
        into_the_cage: Mapping[str, int],
    ) -> dict:
        """Closes the day with its report; ``books`` are the counted accounts'
        balances now, ``cage_flows`` the day's cage movements from the books
        (cash in and out, chips out and in) up to the count, ``into_the_cage``
        what the close itself moves (the drop in, the tips paid out)."""
        self.check_may_close(books)
        results = self.table_results()
        report = {
            "gaming_day": self.day,
            "tables": results,
            "total_result_cents": sum(r["result_cents"] for r in results.values()),
            "cage": {
                "opening_cash_cents": self.opening.get("cage_cash", 0),
                "opening_chips_cents": self.opening.get("cage_chips", 0),
                **dict(cage_flows),
                "expected_cash_cents": self.expected.get("cage_cash", 0),
                "counted_cash_cents": self.counts.get("cage_cash", 0),
                "expected_chips_cents": self.expected.get("cage_chips", 0),
                "counted_chips_cents": self.counts.get("cage_chips", 0),
                # The close empties the boxes into the cage and pays the tips:
                # the next day opens on these.
                "close_transfers": dict(into_the_cage),
                "cash_after_close_cents": self.counts.get("cage_cash", 0)
                + into_the_cage.get("cash_in_cents", 0)
                - into_the_cage.get("cash_out_cents", 0),
                "chips_after_close_cents": self.counts.get("cage_chips", 0)
                + into_the_cage.get("chips_in_cents", 0),
            },
            "exceptions": self.exceptions,
        }
        self._closed(report=report)
        return report

    @event("Closed")
    def _closed(self, report: dict) -> None:
        self.status = DayStatus.CLOSED
        self.report = report
