"""The journal's keyed hash chain, its anchors, and the check of a journal
against its event log.

Why: the journal is the audit trail that inspectors read, and anyone with access
to the database could edit or delete a row of it, or a stored event, without a
trace. Each journal row's digest is an HMAC-SHA256, under a key kept outside the
database, of its content and the digest of the row before, so changing or
removing a row breaks the chain at that row and only the key's holder can chain
a row again; comparing each row with the stored event it came from shows a
change to either side. Anchors (the chain's head, written outside the database
every few minutes and at each gaming day's close) show a removed tail and a
chain rewritten even with the key.

Rows written before the key (migration 0011) keep their plain sha256 links up
to the position that migration recorded in the anchor file (``unkeyed_until``);
past it a row without a key is a finding.

Pure code (no Django, no I/O): the projection that writes the chain and
``manage.py verify_log`` that checks it share these functions, so they agree by
construction, and each can be tested alone.

The file stays whole, over 400 lines: the digest that writes a row and the
check that reads it must be the same code, and keeping the chain, its anchors
and their check in one module keeps them from drifting apart.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

GENESIS = "0" * 64
"""The digest the first journal row chains from."""

UNKEYED = ""
"""The key id of a row chained with plain sha256, before the keyed chain."""

ANCHOR_VERSION = 1
ANCHOR_KINDS = ("head", "close", "rotation", "unkeyed_until")
"""An anchor line is the head seen every few minutes (``head``), at a gaming
day's close (``close``), when the key changed (``rotation``), or where the rows
chained without a key end (``unkeyed_until``, written once by migration 0011)."""

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


def _message(previous: str, content: Mapping[str, Any]) -> bytes:
    """The previous row's digest (hex) followed by the content's canonical JSON
    (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(canonical(content), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return (previous + text).encode("utf-8")


def chain_digest(previous: str, content: Mapping[str, Any]) -> str:
    """The unkeyed link of the rows written before the key (migration 0010):
    sha256 of the message, which anyone can recompute."""
    return hashlib.sha256(_message(previous, content)).hexdigest()


def keyed_digest(key: bytes, previous: str, content: Mapping[str, Any]) -> str:
    """The keyed link: HMAC-SHA256 of the same message under the audit key, so
    only the key's holder can chain a row (the standard library's hmac, as
    RFC 2104 defines it: no home-made construction)."""
    return hmac.new(key, _message(previous, content), hashlib.sha256).hexdigest()


def key_id(secret: bytes) -> str:
    """A key's id, derived from the key (an HMAC of a fixed label): a row or an
    anchor names the key it was made with and cannot name it wrong, and the id
    says nothing of the key."""
    return hmac.new(secret, b"floor audit key id", hashlib.sha256).hexdigest()[:16]


@dataclass(frozen=True)
class Keyring:
    """The audit keys by id; ``current_id`` chains new rows and signs anchors."""

    keys: Mapping[str, bytes]
    current_id: str
    _keyed: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, secrets: Iterable[bytes], current: bytes) -> Keyring:
        keys = {key_id(secret): secret for secret in secrets}
        keys[key_id(current)] = current
        return cls(keys, key_id(current))

    @property
    def current(self) -> bytes:
        return self.keys[self.current_id]

    def digest(self, previous: str, content: Mapping[str, Any]) -> str:
        """The current key's link (from a copy of the HMAC keyed once: the
        same result as ``keyed_digest``, without hashing the key each row)."""
        keyed = self._keyed.get(self.current_id)
        if keyed is None:
            keyed = self._keyed[self.current_id] = hmac.new(self.current, None, hashlib.sha256)
        mac = keyed.copy()
        mac.update(_message(previous, content))
        return mac.hexdigest()


# --- anchors ---------------------------------------------------------------------


@dataclass(frozen=True)
class Anchor:
    """The chain's digest at a position, kept outside the database. ``source``
    says where it was read (a file and line, ``--anchor``), ``at`` when it was
    written."""

    position: int
    digest: str
    key_id: str = ""
    at: str = ""
    source: str = ""
    kind: str = "head"

    def named(self) -> str:
        when = f" of {self.at}" if self.at else ""
        return f"the {self.kind} anchor{when} ({self.source})" if self.source else "an anchor"


class AnchorInvalid(ValueError):
    """An anchor line that is unreadable or whose MAC does not hold."""


def _canonical_json(value: Mapping[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def anchor_line(record: Mapping[str, Any], keyring: Keyring) -> str:
    """One self-describing JSON line: the record, the key id that signs it and
    an HMAC-SHA256 of the rest under that key, so a line edited or made
    without the key shows."""
    body = {"v": ANCHOR_VERSION, **record, "mac_key_id": keyring.current_id}
    body.pop("mac", None)
    mac = hmac.new(keyring.current, _canonical_json(body).encode(), hashlib.sha256).hexdigest()
    return _canonical_json({**body, "mac": mac})


def read_anchor(text: str, keyring: Keyring, source: str) -> tuple[Anchor, dict[str, Any]]:
    """The anchor of a line and the whole record, once its MAC holds."""
    try:
        body = json.loads(text)
        mac, signer = body.pop("mac"), body["mac_key_id"]
        position, digest = body["position"], body["digest"]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise AnchorInvalid(f"{source}: not an anchor line ({type(exc).__name__})") from exc
    key = keyring.keys.get(signer)
    if key is None:
        raise AnchorInvalid(f"{source}: signed with key {signer}, which is not in the key ring")
    expected = hmac.new(key, _canonical_json(body).encode(), hashlib.sha256).hexdigest()
    if not isinstance(mac, str) or not hmac.compare_digest(expected, mac):
        raise AnchorInvalid(f"{source}: its MAC does not match (the line was edited or forged)")
    if (
        body.get("kind") not in ANCHOR_KINDS
        or not isinstance(position, int)
        or not isinstance(digest, str)
    ):
        raise AnchorInvalid(f"{source}: not an anchor line (kind, position or digest)")
    anchor = Anchor(
        position=position,
        digest=digest,
        key_id=str(body.get("key_id", "")),
        at=str(body.get("at", "")),
        source=source,
        kind=body["kind"],
    )
    return anchor, body


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
    """A journal row as read back: its content, its two digests and the id of
    the key it was chained with (``UNKEYED``: plain sha256)."""

    content: Mapping[str, Any]
    digest: str
    previous_digest: str
    key_id: str = UNKEYED

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
    head_key_id: str = UNKEYED
    anchors_held: int = 0
    last_anchor: Anchor | None = None
    notes: list[Problem] = field(default_factory=list)


class ChainCheck:
    """Follows the journal's rows in position order and says where the chain
    does not hold: a row whose digest no longer matches its content under its
    key (it was edited, or chained again without the key), whose link does not
    match the row before (a row was removed or inserted), chained with a key
    the ring does not hold, or without a key past where the keyed chain began."""

    def __init__(self, keyring: Keyring | None = None, unkeyed_until: int = 0) -> None:
        self.keys = keyring.keys if keyring is not None else {}
        self.unkeyed_until = unkeyed_until
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
        if "data" in row.content:
            found += self._digest_problems(row)
        # else: the row's event is missing or unreadable (a finding of its
        # own), and its data with it: the link alone is checked.
        self.last, self.last_position = row.digest, row.position
        return found

    def _digest_problems(self, row: JournalRow) -> list[Problem]:
        if row.key_id == UNKEYED:
            if row.position > self.unkeyed_until:
                return [
                    Problem(
                        row.position,
                        "changed",
                        "the journal row is chained without a key, past the unkeyed rows "
                        f"(up to {self.unkeyed_until})",
                    )
                ]
            expected = chain_digest(row.previous_digest, row.content)
        else:
            key = self.keys.get(row.key_id)
            if key is None:
                return [
                    Problem(
                        row.position,
                        "changed",
                        f"the journal row is chained with key {row.key_id}, "
                        "which is not in the key ring",
                    )
                ]
            expected = keyed_digest(key, row.previous_digest, row.content)
        if not hmac.compare_digest(expected, row.digest):
            return [Problem(row.position, "changed", DIGEST_MISMATCH)]
        return []


DIGEST_MISMATCH = (
    "the journal row's digest does not match its content "
    "with its stored event's data (the row or the stored event was edited)"
)
"""A row's link that does not hold: the row keeps no copy of the data (the
store has it at the same position), so the check cannot tell which side changed."""


def with_stored_data(row: JournalRow, event: StoredEntry | None) -> JournalRow:
    """The row with the data of the stored event at its position, which its
    digest covers: the journal keeps no copy of it (issue 23, item 6). A row
    read with its data (written before, or a test's) keeps its own; a row
    whose event is missing or unreadable stays without."""
    if "data" in row.content or event is None or event.content is None:
        return row
    return JournalRow(
        {**row.content, "data": event.content["data"]}, row.digest, row.previous_digest, row.key_id
    )


def verify(
    stored: Iterable[StoredEntry],
    rows: Iterable[JournalRow],
    *,
    projected_to: int,
    keyring: Keyring | None = None,
    unkeyed_until: int = 0,
    ids_may_skip: bool = False,
    anchors: Iterable[Anchor] = (),
    summary: Summary | None = None,
) -> Iterator[Problem]:
    """Yields every problem of the log and its journal, in position order.

    ``stored`` and ``rows`` come in ascending position (a row without its
    ``data`` is checked with the data of the stored event at its position);
    ``projected_to`` is the position the projector reached (events after it
    are not journaled yet).
    ``keyring``: the keys rows were chained with; ``unkeyed_until``: the last
    position chained with plain sha256 (before the key).
    ``ids_may_skip``: the store may skip an id without an event missing
    (PostgreSQL burns a sequence value on a rolled-back insert), so a hole in
    both the store and the journal across which the chain holds is a note in
    ``summary.notes``, not a problem; had rows been removed, the chain breaks.
    ``anchors``: digests kept outside the database; an intact chain that
    reaches an anchor's digest shows that no row up to it was rewritten, even
    by someone who held the key and chained every row after their change, and
    a journal that ends before an anchor lost its tail.
    """
    summary = summary if summary is not None else Summary()
    chain = ChainCheck(keyring, unkeyed_until)
    unmet: dict[int, list[Anchor]] = {}
    for kept in anchors:
        unmet.setdefault(kept.position, []).append(kept)
    held = 0  # the last anchored position whose digest held
    events, journal = iter(stored), iter(rows)
    event, row = next(events, None), next(journal, None)
    last_seen = 0  # the last position either side had
    last_row = 0

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
            row = with_stored_data(row, event if take_event else None)
            broken = chain.check(row)
            found += broken
            for kept in unmet.pop(row.position, []):
                if hmac.compare_digest(kept.digest, row.digest):
                    held = row.position
                    summary.anchors_held += 1
                    summary.last_anchor = kept
                else:
                    found.append(
                        Problem(
                            row.position,
                            "changed",
                            f"the journal row's digest is not the one of {kept.named()}: "
                            f"a row after {held} was rewritten",
                        )
                    )
            summary.head, summary.head_position = row.digest, row.position
            summary.head_key_id = row.key_id
            last_row = row.position
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
    inside = sorted(p for p in unmet if p <= last_row)
    for position in inside:
        summary.problems += 1
        yield Problem(position, "gap", "the journal has no row at this anchor")
    beyond = [kept for p in sorted(unmet) if p > last_row for kept in unmet[p]]
    if beyond:
        furthest = beyond[-1]
        summary.problems += 1
        yield Problem(
            last_row + 1,
            "gap",
            f"the journal ends at {last_row} but {furthest.named()} recorded a chain up to "
            f"{furthest.position}: rows {last_row + 1}-{furthest.position} were removed",
        )
    if last_seen < projected_to:
        summary.problems += 1
        yield Problem(
            last_seen + 1,
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
