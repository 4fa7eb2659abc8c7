"""What other contexts add to the floor's reports, declared where they live.

The floor imports nothing of the ledger (pyproject.toml, [tool.importlinter]),
yet two of its reports reach into the books: the rake report dates a hand's
rake by the gaming day its money was booked in, and the history report follows
a table into the fills and credits asked for it, an account through its
postings, and hides from a jefe the money he does not read. So the floor
declares these parts here, with what it answers alone, and the ledger fills
them when Django loads it (ledger.reports, through floor.ports.report_reads).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.db.models import Q, QuerySet


@dataclass(frozen=True)
class Subject:
    """What a history is of, and which journal rows concern it."""

    kind: str
    name: str
    concerns: Q


@dataclass(frozen=True)
class HistorySubject:
    """A kind of thing the history report is asked of (``?<kind>=...``).

    ``find`` reads the request's parameters into the subject (refusing one not
    found or not valid); ``check`` refuses a reader outside its scope."""

    kind: str
    find: Callable[[Any], Subject]
    check: Callable[[Any, Subject], None] = lambda reader, subject: None


class ReportParts:
    """The parts the contexts declared; what the floor answers without them."""

    def __init__(self) -> None:
        self._booked_days: Callable[[Sequence[str]], dict[str, str]] | None = None
        self._subjects: dict[str, HistorySubject] = {}
        self._table_concerns: list[Callable[[UUID], Iterable[str]]] = []
        self._narrowings: list[Callable[[Any, QuerySet], QuerySet]] = []
        self._cash_outs: Callable[[Sequence[str], Sequence[str]], dict] | None = None

    # --- the rake report's gaming days ---------------------------------------------------

    def date_rake_by(self, booked_days: Callable[[Sequence[str]], dict[str, str]]) -> None:
        """Declares where the gaming day of each raking command is booked:
        command ids -> {command id: gaming day} (declaring it again replaces it)."""
        self._booked_days = booked_days

    def booked_days(self, command_ids: Sequence[str]) -> dict[str, str]:
        """The booked gaming day of each raking command; none without the books
        (the rake report then dates a rake by the profile's gaming day)."""
        return self._booked_days(command_ids) if self._booked_days is not None else {}

    # --- the history report --------------------------------------------------------------

    def add_history_subject(self, subject: HistorySubject) -> None:
        """Declares a kind of history subject, after the floor's (tables,
        players) and those declared before."""
        self._subjects[subject.kind] = subject

    def history_subjects(self) -> dict[str, HistorySubject]:
        """The kinds of subject declared, in the order they were declared."""
        return dict(self._subjects)

    def add_table_concerns(self, concerns: Callable[[UUID], Iterable[str]]) -> None:
        """Declares more journal rows a table's history holds: table id -> the
        subjects whose mentions it adds (floor.selectors.journal.mentioning);
        declaring it again changes nothing."""
        if concerns not in self._table_concerns:
            self._table_concerns.append(concerns)

    def table_concerns(self, table_id: UUID) -> list[Iterable[str]]:
        return [concerns(table_id) for concerns in self._table_concerns]

    def add_history_narrowing(self, narrow: Callable[[Any, QuerySet], QuerySet]) -> None:
        """Declares what a reader who does not read everything may not see in a
        history: (reader, rows) -> the rows left; declaring it again changes nothing."""
        if narrow not in self._narrowings:
            self._narrowings.append(narrow)

    def narrow_history(self, reader: Any, entries: QuerySet) -> QuerySet:
        for narrow in self._narrowings:
            entries = narrow(reader, entries)
        return entries

    # --- the players' rating (issue 26) ---------------------------------------------------

    def count_cash_outs_by(
        self, cash_outs: Callable[[Sequence[str], Sequence[str]], dict[tuple[str, str], int]]
    ) -> None:
        """Declares where the cage's cash-outs of the players are booked:
        (player ids as hex, gaming days) -> {(player, day): cents}."""
        self._cash_outs = cash_outs

    def cash_outs(
        self, player_ids: Sequence[str], days: Sequence[str]
    ) -> dict[tuple[str, str], int] | None:
        """What the cage paid each player each gaming day for their chips;
        None without the books (the rating then shows no cash-outs)."""
        if self._cash_outs is None:
            return None
        return self._cash_outs(player_ids, days)


# The reports' parts, as the contexts declared them.
REPORT_PARTS = ReportParts()
