"""Backing up and restoring the embedded default (docs/backup.md).

The embedded default keeps everything under var/: the read models (with the
users, the audit journal and the projector's position) in ``floor.sqlite3``, the
event log in ``events.sqlite3``, and, outside the databases, the Django secret
key, the audit key file and the anchor file (docs/reporting.md, "Audit:
verify_log"). A copy of the databases' files taken with ``cp`` while the service
runs may miss what is still in their write-ahead logs, or catch a page half
written; SQLite's online backup API copies a consistent snapshot of each one
while the service keeps writing.

The two databases cannot be copied in one transaction, so they are copied in
the order that keeps the copy whole for ``verify_log``: the anchor file first,
then the read models, then the event log, then the keys.

- The event log only grows: copied after the read models, it holds every
  event the copied journal names (and perhaps a few newer ones, which the
  projector catches up after a restore; verify_log counts them as "not
  journaled yet"). The other way round, the journal could name events the
  copied log lacks, and verify_log would report them missing.
- An anchor records a journal row that existed when it was written: copied
  before the journal, each anchor is met by the copied journal.
- The key file only grows (a rotation appends a key): copied last, it holds
  every key the copied journal was chained with.

The broker's queue (var/broker) is not copied: its messages are work in
flight that the timers' read model and beat's sweep redo (floor.timers).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import connections

MANIFEST = "manifest.json"
FORMAT = 1


@dataclass(frozen=True)
class Part:
    """One thing a backup holds: its name in the backup, where it lives, and how
    it is copied (``sqlite``: the online backup API; ``file``: read whole)."""

    name: str
    path: Path
    kind: str


def embedded() -> bool:
    """Whether both stores are SQLite files (else: pg_dump, docs/backup.md)."""
    return connections["default"].vendor == "sqlite" and settings.EVENT_STORE_BACKEND == "sqlite"


def database_parts() -> list[Part]:
    """The databases, in the order they are copied: read models, then events."""
    if not embedded():
        return []
    return [
        Part("floor.sqlite3", Path(connections["default"].settings_dict["NAME"]), "sqlite"),
        Part("events.sqlite3", Path(settings.EVENT_STORE_SQLITE_PATH), "sqlite"),
    ]


def anchor_part() -> Part:
    return Part("audit_anchors.jsonl", Path(settings.FLOOR_AUDIT_ANCHOR_FILE), "file")


def key_parts() -> list[Part]:
    return [
        Part("audit_keys", Path(settings.FLOOR_AUDIT_KEY_FILE), "file"),
        Part("secret_key", settings.VAR_DIR / "secret_key", "file"),
    ]


def parts_in_order() -> list[Part]:
    """Anchors, read models, events, keys: the order the module's docstring explains."""
    return [anchor_part(), *database_parts(), *key_parts()]


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of a live SQLite database (WAL included), by SQLite's
    online backup API in one step: one read transaction, so one snapshot."""
    src = sqlite3.connect(source, timeout=30)
    try:
        # Private from its first byte: it holds sessions, password hashes, tokens.
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            # A backup is one self-contained file: no -wal beside it.
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    finally:
        src.close()


def copy_file(source: Path, target: Path, *, whole_lines: bool = False) -> None:
    """A file copied private (0600); ``whole_lines``: an append-only file copied
    up to its last complete line (one being appended this instant is left out)."""
    data = source.read_bytes()
    if whole_lines and not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)


def back_up(directory: Path) -> dict:
    """Copies every part into ``directory`` (new or empty) and writes the manifest."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    if any(directory.iterdir()):
        raise BackupError(f"{directory} is not empty: back up into a new directory")
    directory.chmod(0o700)  # one made beforehand, too: the copies are the casino's secrets
    copied = []
    for part in parts_in_order():
        if not part.path.exists():
            continue  # no anchor yet, a key in the environment: nothing to copy
        target = directory / part.name
        if part.kind == "sqlite":
            copy_database(part.path, target)
        else:
            copy_file(part.path, target, whole_lines=part.name == anchor_part().name)
        copied.append({"name": part.name, "kind": part.kind, "sha256": sha256(target)})
    manifest = {
        "format": FORMAT,
        "taken_at": datetime.now(UTC).isoformat(),
        "embedded": embedded(),
        "parts": copied,
        "events": event_count(directory / "events.sqlite3"),
    }
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


class BackupError(Exception):
    """A backup or restore refused, with the reason to show."""


def _count(path: Path, query: str) -> int:
    if not path.exists():
        return 0
    connection = sqlite3.connect(path, timeout=30)
    try:
        tables = [row[0] for row in connection.execute(query)]
        return sum(
            connection.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0] for table in tables
        )
    finally:
        connection.close()


def event_count(path: Path) -> int:
    """Events stored in an event store file (its ``*_events`` tables)."""
    return _count(
        path, "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE '%_events'"
    )


def held_in(path: Path) -> int:
    """Rows that make a read models file someone's: users and journal rows."""
    return _count(
        path,
        "SELECT name FROM sqlite_master WHERE type='table' "
        "AND name IN ('auth_user', 'floor_eventjournalentry')",
    )


def read_manifest(directory: Path) -> dict:
    path = directory / MANIFEST
    if not path.exists():
        raise BackupError(f"{directory} holds no backup: {MANIFEST} is missing")
    manifest = json.loads(path.read_text())
    if manifest.get("format") != FORMAT:
        raise BackupError(f"{path}: format {manifest.get('format')!r}, expected {FORMAT}")
    for part in manifest["parts"]:
        copy = directory / part["name"]
        if not copy.exists() or sha256(copy) != part["sha256"]:
            raise BackupError(f"{copy} is missing or changed since the backup")
    return manifest


def restore(directory: Path, *, force: bool) -> list[str]:
    """Puts a backup's parts where this deployment keeps them; refuses to
    replace a store that holds a floor unless ``force``. Returns what it restored."""
    manifest = read_manifest(directory)
    names = {part["name"] for part in manifest["parts"]}
    if manifest["embedded"] and not embedded():
        raise BackupError(
            "this backup is of the embedded default (SQLite), but DATABASE_URL "
            "points at PostgreSQL: unset it to restore here"
        )
    wanted = [part for part in parts_in_order() if part.name in names]
    if not force:
        occupied = []
        for part in wanted:
            if part.name == "events.sqlite3" and event_count(part.path):
                occupied.append(f"{part.path} ({event_count(part.path)} events)")
            elif part.name == "floor.sqlite3" and held_in(part.path):
                occupied.append(f"{part.path} ({held_in(part.path)} users and journal rows)")
            elif (
                part.name in ("audit_keys", "audit_anchors.jsonl")
                and part.path.exists()
                and part.path.read_bytes() != (directory / part.name).read_bytes()
            ):
                # Another store's keys or anchors: replaced, its journal would not verify.
                occupied.append(f"{part.path} (other audit keys or anchors)")
        if occupied:
            raise BackupError(
                "the store is not empty: "
                + ", ".join(occupied)
                + ". Restoring would replace it; move it away first, or pass --force."
            )
    connections.close_all()
    restored = []
    for part in wanted:
        part.path.parent.mkdir(parents=True, exist_ok=True)
        if part.kind == "sqlite":
            for stale in (Path(f"{part.path}-wal"), Path(f"{part.path}-shm")):
                stale.unlink(missing_ok=True)
            part.path.unlink(missing_ok=True)
            copy_database(directory / part.name, part.path)
        else:
            copy_file(directory / part.name, part.path)
        restored.append(str(part.path))
    return restored
