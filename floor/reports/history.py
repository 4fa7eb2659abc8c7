"""The history of one table, player or account: every event of the journal
that concerns it, oldest first, with who did it, under which command and rule
profile. The audit trail an inspector reads, in the journal's own shape
(floor.api.serializers.JournalSerializer).

Events name a table or a player by its id, as hex or with dashes, in a field
(``table_id``, ``player_id``), as a key (a draw's ``assignment``), as a value
(a hand's ``players``) or inside an account's name (``stack:<table>:<player>``):
a text match on the id finds them all, on SQLite and PostgreSQL alike. An
account is named exactly: its own aggregate's events (each posting with the
balance after it), the transactions that post to it, and the gaming days
that opened, counted or explained it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from uuid import UUID

from django.db.models import Q, QuerySet

from floor.api.serializers import JournalSerializer
from floor.domain.player import Player
from floor.kernel.command_record import CommandRecord
from floor.kernel.errors import DomainError, invalid, not_found
from floor.models import EventJournalEntry
from floor.reports.common import filters, iso, parse_filter
from floor.selectors import journal
from floor.selectors import reports as selected
from floor.selectors.journal import event_types_of
from ledger import selectors as books
from ledger.domain.account import Account
from ledger.domain.accounts import AccountRef
from ledger.domain.gaming_day import GamingDay
from ledger.domain.transaction import Transaction
from ledger.domain.tray_request import TrayRequest

if TYPE_CHECKING:  # the read models as types; the selectors read them
    from floor.models import EventJournalEntry

# The journal's columns, as its endpoint serializes a row.
COLUMNS = tuple(JournalSerializer.Meta.fields)
SUBJECTS = ("table", "player", "account")
# A command's idempotency record repeats its events' command id and answer:
# the history shows the events themselves.
LEFT_OUT = tuple(event_types_of(CommandRecord))
# A transaction posting to an account; the gaming days that opened, counted or
# explained it (every event of a day).
POSTED = (Transaction.Posted,)
DAY_EVENTS = tuple(event_types_of(GamingDay))


@dataclass(frozen=True)
class Subject:
    """What the history is of, and which journal rows concern it."""

    kind: str
    name: str
    concerns: Q


def _table(table_id: UUID) -> Subject:
    if not selected.table_exists(table_id):
        raise not_found("table_not_found")
    # A fill or credit names its table when asked; its confirmation or
    # cancellation, only the request.
    requests = journal.originators_of(TrayRequest.Requested, table_id=table_id.hex)
    return Subject(
        "table", str(table_id), journal.mentioning(table_id) | Q(originator_id__in=requests)
    )


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
    return Subject("player", str(found.id), journal.mentioning(found.id))


def _account_name(text: str) -> str:
    """An account by its name (``tray:<table>``, ``cage_cash`` ...; ids with or
    without dashes) or by the id of the aggregate that guards it."""
    try:
        some_id = UUID(text)
    except ValueError:
        pass
    else:
        opened = journal.first_event(Account.Opened, some_id)
        if opened is None:
            raise not_found("account_not_found")
        return opened.data["name"]
    kind, *parts = text.split(":")
    try:
        parts = [UUID(p).hex for p in parts]
        return AccountRef.parse(":".join([kind, *parts])).name
    except (ValueError, DomainError):
        raise invalid("report_filter_invalid", field="account") from None


def _account(text: str) -> Subject:
    name = _account_name(text)
    if not books.account_exists(name):
        raise not_found("account_not_found")
    concerns = (
        Q(originator_id=AccountRef(name).aggregate_id)
        | journal.of_types_with_key(POSTED, name)
        # The name as a whole JSON string: a key or a value, never part of one.
        | journal.of_types_naming(DAY_EVENTS, f'"{name}"')
    )
    return Subject("account", name, concerns)


def subject_of(params) -> Subject:
    """The one table, player or account the history is asked of."""
    given = [name for name in SUBJECTS if name in params]
    if len(given) != 1:
        raise invalid("report_subject_invalid", given=given)
    extra = [name for name in ("sector", "game") if name in params]
    if extra:
        raise invalid("report_filter_invalid", field=extra[0])
    if given == ["table"]:
        return _table(parse_filter({"table": params["table"]}).table_id)
    if given == ["player"]:
        return _player(filters(params).text("player"))
    return _account(filters(params).text("account"))


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
