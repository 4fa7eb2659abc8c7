"""The history of one table, player or account: every event of the journal
that concerns it, oldest first, with who did it, under which command and rule
profile. The audit trail an inspector reads, in the journal's own shape
(floor.api.serializers.JournalSerializer).

Events name a table or a player by its id, as hex or with dashes, in a field
(``table_id``, ``player_id``), as a key (a draw's ``assignment``), as a value
(a hand's ``players``) or inside an account's name (``stack:<table>:<player>``):
the projection indexes each id an event names (floor.projections.report_views,
issue 23), so a history reads that index, not the whole journal.

The floor answers of its tables and players; what the books add (an account's
history, the fills and credits asked for a table, the money a jefe does not
read) the ledger declares (floor.reports.parts, ledger.reports.history).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING
from uuid import UUID

from django.db.models import QuerySet

from floor.api.serializers import JournalSerializer
from floor.domain.player import Player
from floor.kernel.command_record import CommandRecord
from floor.kernel.errors import DomainError, invalid, not_found
from floor.models import EventJournalEntry
from floor.reports.common import filters, iso, parse_filter
from floor.reports.parts import REPORT_PARTS, HistorySubject, Subject
from floor.selectors import journal
from floor.selectors import reports as selected
from floor.selectors.journal import event_types_of

if TYPE_CHECKING:  # the read models as types; the selectors read them
    from floor.models import EventJournalEntry

# The journal's columns, as its endpoint serializes a row.
COLUMNS = tuple(JournalSerializer.Meta.fields)
# A command's idempotency record repeats its events' command id and answer:
# the history shows the events themselves.
LEFT_OUT = tuple(event_types_of(CommandRecord))


def _table(table_id: UUID) -> Subject:
    if not selected.table_exists(table_id):
        raise not_found("table_not_found")
    subjects = [table_id.hex]
    for more in REPORT_PARTS.table_concerns(table_id):
        subjects += more
    return Subject("table", str(table_id), journal.mentioning(*subjects))


def _player(text: str) -> Subject:
    """A player by id or card number, as the commands take them."""
    try:
        player_id = UUID(text)
    except ValueError:
        try:  # a card names its player's id, as the commands find it
            player_id = Player.create_id(text)
        except DomainError:
            player_id = None
    found = selected.player_or_none(player_id)
    if found is None:
        raise not_found("player_not_found")
    return Subject("player", str(found.id), journal.mentioning(found.id.hex))


def _check_table(reader, subject: Subject) -> None:
    reader.check_table(None, subject.name)


# The floor's subjects: its tables and players; then those the contexts declare
# (the ledger: its accounts).
FLOOR_SUBJECTS = (
    HistorySubject(
        "table",
        lambda params: _table(parse_filter({"table": params["table"]}).table_id),
        _check_table,
    ),
    HistorySubject("player", lambda params: _player(filters(params).text("player"))),
)


def subjects() -> dict[str, HistorySubject]:
    """Every kind of subject, the floor's first, by kind."""
    return {
        **{subject.kind: subject for subject in FLOOR_SUBJECTS},
        **REPORT_PARTS.history_subjects(),
    }


def subject_of(params) -> Subject:
    """The one table, player or account (or other subject declared) the history is asked of."""
    kinds = subjects()
    given = [name for name in kinds if name in params]
    if len(given) != 1:
        raise invalid("report_subject_invalid", given=given)
    extra = [name for name in ("sector", "game") if name in params]
    if extra:
        raise invalid("report_filter_invalid", field=extra[0])
    return kinds[given[0]].find(params)


def for_reader(reader, subject: Subject, rows: JournalRows) -> None:
    """Refuses a reader outside the subject's scope (a jefe, another sector's
    table); from one who does not read everything, hides what the contexts
    declared he may not see (the ledger: the money of other tables)."""
    subjects()[subject.kind].check(reader, subject)
    if not reader.everything:
        rows.entries = REPORT_PARTS.narrow_history(reader, rows.entries)


def journal_row(entry: EventJournalEntry) -> dict:
    """One event as the journal's API shows it."""
    return {
        "position": entry.position,
        "event": entry.topic.rsplit(":", 1)[-1],
        "originator_id": str(entry.originator_id),
        "originator_version": entry.originator_version,
        "occurred_at": iso(entry.occurred_at),
        "actor": entry.actor,
        "actor_role": entry.actor_role,
        "command_id": entry.command_id,
        "rule_profile": entry.rule_profile,
        "data": entry.data,
    }


class JournalRows(Sequence):
    """A history's rows, read from the database a page at a time: ``answer``
    counts and slices them for a JSON page and iterates them for the CSV."""

    def __init__(self, entries: QuerySet) -> None:
        self.entries = entries
        self._count: int | None = None

    def __len__(self) -> int:
        if self._count is None:
            self._count = self.entries.count()
        return self._count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [journal_row(e) for e in self.entries[index]]
        return journal_row(self.entries[index])

    def __iter__(self) -> Iterator[dict]:
        return (journal_row(e) for e in self.entries.iterator(chunk_size=1000))


def history_report(params) -> tuple[Subject, JournalRows]:
    """The subject and its events in the range (``from``, ``to``), in log order."""
    subject = subject_of(params)
    report = parse_filter({k: params[k] for k in ("from", "to") if k in params})
    entries = journal.history(subject.concerns, LEFT_OUT, report.start, report.end)
    return subject, JournalRows(entries)
