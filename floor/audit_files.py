"""The audit trail's part outside the database: the key ring and the anchor file.

Why: a chain whose key and whose end are both in the database proves nothing
against whoever holds the database's credentials (issue 18). The key lives in
the environment (``FLOOR_AUDIT_KEY``) or in a key file made once under var/,
as the Django secret key is (mode 0600, O_EXCL so processes starting together
agree on one key); the anchors are appended to a file the database user cannot
reach (O_APPEND, one self-describing JSON line each, signed with the key), and
logged, so a log shipper can carry them off the machine.

Key file: one ``KEY_ID SECRET`` line per key, the last one current; a rotation
appends a line, and every process takes the new key at its next journal row (a
``stat`` per row tells, no query).
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connections, transaction

from floor.audit import (
    UNKEYED,
    Anchor,
    AnchorInvalid,
    Keyring,
    Problem,
    anchor_line,
    key_id,
    read_anchor,
)

logger = logging.getLogger("floor.audit")

MIN_SECRET = 32
"""Characters a secret needs at least (``secrets.token_urlsafe(32)`` gives 43)."""

_lock = threading.Lock()
_cached: dict[str, Any] = {}


def _secrets_of(text: str) -> list[bytes]:
    return [s.encode() for s in text.replace(",", " ").split()]


def _checked(secret: bytes, where: str) -> bytes:
    if len(secret) < MIN_SECRET:
        raise ImproperlyConfigured(f"{where}: an audit key needs {MIN_SECRET} characters or more")
    return secret


def _create_key_file(path: Path) -> None:
    """The first key, made once: O_EXCL so two processes agree, 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    secret = secrets.token_urlsafe(MIN_SECRET)
    with os.fdopen(fd, "w") as out:
        out.write(f"{key_id(secret.encode())} {secret}\n")


def _file_secrets(path: Path) -> list[bytes]:
    """The key file's secrets, oldest first; each line's id must be its key's."""
    found = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if len(words) != 2:
            raise ImproperlyConfigured(f"{path} line {number}: expected KEY_ID SECRET")
        secret = _checked(words[1].encode(), f"{path} line {number}")
        if key_id(secret) != words[0]:
            raise ImproperlyConfigured(f"{path} line {number}: the id is not its key's")
        found.append(secret)
    return found


def _state_of(path: Path) -> tuple[int, int, int] | None:
    """What tells that the key file changed (one stat, no read)."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return None
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)


def keyring() -> Keyring:
    """The audit keys: FLOOR_AUDIT_KEY (current) or the key file's last line,
    the key file's other lines and FLOOR_AUDIT_KEYS (retired keys). The key
    file is made when there is no FLOOR_AUDIT_KEY; read again when it changes."""
    env_key = settings.FLOOR_AUDIT_KEY.strip().encode()
    path = Path(settings.FLOOR_AUDIT_KEY_FILE)
    state = _state_of(path)
    if state is None and not env_key:
        _create_key_file(path)
        state = _state_of(path)
    signature = (env_key, settings.FLOOR_AUDIT_KEYS, str(path), state)
    with _lock:
        if _cached.get("signature") == signature:
            return _cached["ring"]
    in_file = _file_secrets(path) if state is not None else []
    for _attempt in range(50):  # another process may be writing the first key this instant
        if in_file or env_key or state is None:
            break
        time.sleep(0.01)
        in_file = _file_secrets(path)
    retired = [_checked(s, "FLOOR_AUDIT_KEYS") for s in _secrets_of(settings.FLOOR_AUDIT_KEYS)]
    if env_key:
        current = _checked(env_key, "FLOOR_AUDIT_KEY")
    elif in_file:
        current = in_file[-1]
    else:
        raise ImproperlyConfigured(f"{path} holds no key: delete it or set FLOOR_AUDIT_KEY")
    ring = Keyring.of(in_file + retired, current)
    with _lock:
        _cached.update(signature=signature, ring=ring)
    return ring


def rotate_key() -> tuple[str, str]:
    """Appends a new key to the key file; returns the old and the new key id.
    With FLOOR_AUDIT_KEY the key is the environment's to change."""
    if settings.FLOOR_AUDIT_KEY.strip():
        raise ImproperlyConfigured(
            "The audit key comes from FLOOR_AUDIT_KEY: put the new key there and the old one "
            "in FLOOR_AUDIT_KEYS, then restart the services."
        )
    old = keyring().current_id
    secret = secrets.token_urlsafe(MIN_SECRET)
    new = key_id(secret.encode())
    fd = os.open(settings.FLOOR_AUDIT_KEY_FILE, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, f"{new} {secret}\n".encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    return old, new


# --- the anchor file ---------------------------------------------------------------


def anchor_file() -> Path:
    return Path(settings.FLOOR_AUDIT_ANCHOR_FILE)


def now_text(moment: datetime | None = None) -> str:
    return (moment or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="seconds")


def append_anchor(
    kind: str, position: int, digest: str, key: str, *, at: str | None = None, **extra: Any
) -> dict[str, Any]:
    """Appends one anchor line (O_APPEND: written after whatever is there,
    never over it; one write, then fsync) and logs it. Returns the record."""
    record = {
        "kind": kind,
        "position": position,
        "digest": digest,
        "key_id": key,
        "at": at or now_text(),
        **extra,
    }
    line = anchor_line(record, keyring())
    path = anchor_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
    try:
        os.write(fd, (line + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    logger.info("audit anchor %s", line)
    return record


def last_anchor_line(path: Path) -> dict[str, Any] | None:
    """The file's last line as JSON (unchecked), reading only its tail."""
    try:
        with path.open("rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 4096))
            tail = f.read().decode(errors="replace").strip().splitlines()
    except FileNotFoundError:
        return None
    try:
        return json.loads(tail[-1]) if tail else None
    except ValueError:
        return None


def read_anchors(path: Path, ring: Keyring) -> tuple[list[Anchor], list[Problem], int]:
    """Every anchor of a file whose MAC holds, the lines that do not (as
    problems of kind ``anchor``), and the last unkeyed position it records."""
    anchors: list[Anchor] = []
    problems: list[Problem] = []
    unkeyed_until = 0
    with path.open(encoding="utf-8", errors="replace") as lines:
        for number, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            try:
                anchor, _record = read_anchor(text, ring, f"{path.name} line {number}")
            except AnchorInvalid as invalid:
                problems.append(Problem(0, "anchor", str(invalid)))
                continue
            anchors.append(anchor)
            if anchor.kind == "unkeyed_until" and anchor.key_id == UNKEYED:
                unkeyed_until = max(unkeyed_until, anchor.position)
    return anchors, problems, unkeyed_until


def anchor_head(kind: str = "head", **extra: Any) -> dict[str, Any] | None:
    """Appends the journal's head (one query) unless the file's last line
    already holds it; returns the record written, or None.

    The head is durable before it is anchored. On PostgreSQL the projector
    process commits its batches, the journal's rows among them, without
    waiting for the WAL's flush (CatchUpProjector.relax_commits): a row can be
    visible and still be lost to a server crash, until the projector applies
    its event again, maybe under another key (rotate_audit_key). An anchor of
    such a row would never match again (a false finding of verify_log). So
    the head is read with a row lock (``FOR NO KEY UPDATE``; journal rows are
    never updated, so it holds nobody up) in a transaction of its own: the
    lock is WAL-logged and takes a transaction id, which makes the commit a
    synchronous one (the server's ``synchronous_commit``), and it waits for
    the WAL's flush up to its commit record, past every commit the read saw.
    A transaction id alone (``pg_current_xact_id()``) would not do: a
    transaction that wrote no WAL but its commit record commits without the
    flush (checked on PostgreSQL 15). The lock, not a wait on
    ``pg_current_wal_flush_lsn()``: no polling. Called inside a caller's
    transaction, the durability is that transaction's commit's. SQLite has
    no row locks and no relaxed commits: there the head is a plain read,
    outside any transaction of its own (the read models' connection begins
    its transactions IMMEDIATE, taking the write lock: a transaction here
    would queue the anchor behind a rebuild's switch, and past the busy
    timeout beat's anchor would fail)."""
    from floor.models import EventJournalEntry  # the models need the app registry

    alias = EventJournalEntry.objects.db
    journal = EventJournalEntry.objects.order_by("-position")
    if connections[alias].vendor == "postgresql":
        with transaction.atomic(using=alias):
            head = (
                journal.select_for_update(no_key=True)
                .values_list("position", "digest", "key_id")
                .first()
            )
    else:
        head = journal.values_list("position", "digest", "key_id").first()
    if head is None:
        return None
    position, digest, key = head
    last = last_anchor_line(anchor_file())
    if not extra and last and (last.get("position"), last.get("digest")) == (position, digest):
        return None
    return append_anchor(kind, position, digest, key, **extra)
