"""The journal's hash chain, and the check of a journal against its event log.

Why: the journal is the audit trail that inspectors read, and anyone with access
to the database could edit or delete a row of it, or a stored event, without a
trace. Each journal row's digest covers its content and the digest of the row
before, so changing or removing a row breaks the chain at that row; comparing
each row with the stored event it came from shows a change to either side.

Pure code (no Django, no I/O): the projection that writes the chain and
``manage.py verify_log`` that checks it share these functions, so they agree by
construction, and each can be tested alone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

GENESIS = "0" * 64
"""The digest the first journal row chains from."""

CONTENT_FIELDS = (
    "position",
    "topic",
    "originator_id",
    "originator_version",
    "occurred_at",
    "actor",
    "actor_role",
    "command_id",
    "rule_profile",
    "data",
)
"""What a journal row attests: everything but its digests."""

ATTRIBUTION_FIELDS = ("actor", "actor_role", "command_id", "rule_profile")
"""Who, in which role, under which command and rule profile: every event names them."""


def canonical(content: Mapping[str, Any]) -> dict[str, Any]:
    """The content in one JSON-ready form, whether it comes from an event or
    from a row read back from either database (a UUID or its text, any UTC
    offset)."""
    plain = {name: content[name] for name in CONTENT_FIELDS}
    plain["originator_id"] = str(plain["originator_id"])
    occurred = plain["occurred_at"]
    if isinstance(occurred, datetime):
        plain["occurred_at"] = occurred.astimezone(UTC).isoformat()
    return plain


def chain_digest(previous: str, content: Mapping[str, Any]) -> str:
    """sha256 of the previous row's digest (hex) followed by the content's
    canonical JSON (sorted keys, no spaces, UTF-8): anyone can recompute it."""
    text = json.dumps(
        canonical(content),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256((previous + text).encode("utf-8")).hexdigest()


def unattributed(content: Mapping[str, Any]) -> list[str]:
    """The attribution fields that are missing or empty."""
    return [name for name in ATTRIBUTION_FIELDS if not content.get(name)]


@dataclass(frozen=True)
class Problem:
    """One finding, at one position of the log: a ``gap`` (an event or a row
    missing), a ``changed`` event or row, or an ``unattributable`` event."""

    position: int
    kind: str
    detail: str

    def line(self) -> str:
        return f"position {self.position}: {self.kind}: {self.detail}"


@dataclass(frozen=True)
class StoredEntry:
    """A stored event as the journal would record it (``error``: it cannot be
    decoded, and ``content`` is None)."""

    position: int
    content: Mapping[str, Any] | None
    error: str = ""


@dataclass(frozen=True)
class JournalRow:
    """A journal row as read back: its content and its two digests."""

    content: Mapping[str, Any]
    digest: str
    previous_digest: str

    @property
    def position(self) -> int:
        return self.content["position"]


@dataclass
class Summary:
    """Counts a verification keeps while it streams; complete once its
    problems have all been read."""

    events: int = 0
    pending: int = 0
    problems: int = 0
    head: str = GENESIS
    head_position: int = 0
    notes: list[Problem] = field(default_factory=list)


class ChainCheck:
    """Follows the journal's rows in position order and says where the chain
    does not hold: a row whose digest no longer matches its content (it was
    edited), or whose link does not match the row before (a row was removed
    or inserted)."""

    def __init__(self) -> None:
        self.last = GENESIS
        self.last_position: int | None = None

    def check(self, row: JournalRow) -> list[Problem]:
        found = []
        if row.previous_digest != self.last:
            before = "genesis" if self.last_position is None else f"row {self.last_position}"
            found.append(
                Problem(
                    row.position,
                    "changed",
                    f"the journal row does not chain from {before} "
                    "(a row before it was removed, added or rewritten)",
                )
            )
        if chain_digest(row.previous_digest, row.content) != row.digest:
            found.append(
                Problem(
                    row.position, "changed", "the journal row's digest does not match its content"
                )
            )
        self.last, self.last_position = row.digest, row.position
        return found


def verify(
    stored: Iterable[StoredEntry],
    rows: Iterable[JournalRow],
    *,
    projected_to: int,
    ids_may_skip: bool = False,
    anchors: Mapping[int, str] | None = None,
    summary: Summary | None = None,
) -> Iterator[Problem]:
    """Yields every problem of the log and its journal, in position order.

    ``stored`` and ``rows`` come in ascending position; ``projected_to`` is the
    position the projector reached (events after it are not journaled yet).
    ``ids_may_skip``: the store may skip an id without an event missing
    (PostgreSQL burns a sequence value on a rolled-back insert), so a hole in
    both the store and the journal across which the chain holds is a note in
    ``summary.notes``, not a problem; had rows been removed, the chain breaks.
    ``anchors``: digests kept elsewhere, by position; an intact chain that
    reaches an anchor's digest shows that no row up to it was rewritten, even
    by someone who rechained every row after their change.
    """
    summary = summary if summary is not None else Summary()
    chain = ChainCheck()
    unmet = dict(anchors or {})
    events, journal = iter(stored), iter(rows)
    event, row = next(events, None), next(journal, None)
    last_seen = 0  # the last position either side had

    while event is not None or row is not None:
        take_event = event is not None and (row is None or event.position <= row.position)
        take_row = row is not None and (event is None or row.position <= event.position)
        position = event.position if take_event else row.position
        hole = _hole(last_seen, position)
        found = []
        if hole and not ids_may_skip:
            found.append(Problem(last_seen + 1, "gap", f"the store has no event at {hole}"))
        if take_event:
            found += _event_problems(event)
        if take_row:
            broken = chain.check(row)
            found += broken
            anchored = unmet.pop(row.position, None)
            if anchored is not None and anchored != row.digest:
                found.append(
                    Problem(
                        row.position, "changed", "the journal row's digest is not the anchored one"
                    )
                )
            summary.head, summary.head_position = row.digest, row.position
            if hole and ids_may_skip and broken:
                # The chain breaks across it: rows went, not merely an unused id.
                found.insert(0, Problem(last_seen + 1, "gap", f"the store has no event at {hole}"))
                hole = None
        if hole and ids_may_skip:
            summary.notes.append(
                Problem(last_seen + 1, "note", f"ids {hole} were never used (a rolled-back insert)")
            )
        if take_event and take_row:
            summary.events += 1
            found += _differences(event, row)
        elif take_event and event.position <= projected_to:
            summary.events += 1
            found.append(
                Problem(event.position, "gap", "the journal has no row for this stored event")
            )
        elif take_event:
            summary.pending += 1
        else:
            found.append(
                Problem(row.position, "gap", "the store has no event for this journal row")
            )
            found += _row_problems(row)
        summary.problems += len(found)
        yield from found
        last_seen = position
        if take_event:
            event = next(events, None)
        if take_row:
            row = next(journal, None)
    for position in sorted(unmet):
        summary.problems += 1
        yield Problem(position, "gap", "the journal has no row at this anchor")
    if last_seen < projected_to:
        summary.problems += 1
        yield Problem(
            projected_to,
            "gap",
            f"the log ends at {last_seen} but the projector had reached {projected_to}",
        )


def _hole(last_seen: int, position: int) -> str | None:
    """The positions between two that neither the store nor the journal has
    (the two streams are read merged, so nothing of either lies between)."""
    start = last_seen + 1
    if start >= position:
        return None
    return str(start) if start == position - 1 else f"{start}-{position - 1}"


def _event_problems(event: StoredEntry) -> list[Problem]:
    if event.content is None:
        return [
            Problem(event.position, "changed", f"the stored event cannot be decoded: {event.error}")
        ]
    missing = unattributed(event.content)
    if missing:
        return [Problem(event.position, "unattributable", f"no {', '.join(missing)}")]
    return []


def _row_problems(row: JournalRow) -> list[Problem]:
    missing = unattributed(row.content)
    if missing:
        return [Problem(row.position, "unattributable", f"no {', '.join(missing)}")]
    return []


def _differences(event: StoredEntry, row: JournalRow) -> list[Problem]:
    if event.content is None:
        return []  # reported as undecodable
    stored, journaled = canonical(event.content), canonical(row.content)
    differ = [name for name in CONTENT_FIELDS if stored[name] != journaled[name]]
    if not differ:
        return []
    return [
        Problem(
            event.position,
            "changed",
            f"the journal row and the stored event differ in {', '.join(differ)}",
        )
    ]
