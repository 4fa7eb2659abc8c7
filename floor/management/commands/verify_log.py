"""Checks that the event log is complete and unaltered, against its journal,
the audit keys and the anchors kept outside the database.

Streams the stored events (the application's notification log, through the
event store's recorder) and the journal side by side, a batch of each at a
time, so a whole day's log never sits in memory. floor.audit decides what is
wrong; this command only reads and reports.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from eventsourcing.application import Application

from floor.audit import (
    CONTENT_FIELDS,
    Anchor,
    JournalRow,
    Problem,
    StoredEntry,
    Summary,
    verify,
)
from floor.audit_files import anchor_file, keyring, read_anchors
from floor.models import EventJournalEntry
from floor.projections.journal import entry_content
from floor.runtime import floor_projector


def stored_entries(app: Application, batch_size: int, until: int) -> Iterator[StoredEntry]:
    """The log's events up to ``until``, decoded again and put as the journal
    would record them."""
    start = 0
    while start < until:
        notifications = app.recorder.select_notifications(
            start=start, limit=batch_size, stop=until, inclusive_of_start=False
        )
        if not notifications:
            return
        for notification in notifications:
            try:
                event = app.mapper.to_domain_event(notification)
                content = entry_content(event, notification.id)
            except Exception as exc:  # noqa: BLE001 - an event that cannot be read is a finding
                yield StoredEntry(notification.id, None, f"{type(exc).__name__}: {exc}")
            else:
                yield StoredEntry(notification.id, content)
        start = notifications[-1].id


def journal_rows(batch_size: int, until: int) -> Iterator[JournalRow]:
    """The journal's rows up to ``until``, in position order (keyset pages),
    without the events' data (the store's, at the same position)."""
    rows = EventJournalEntry.objects.filter(position__lte=until).order_by("position")
    last = None
    while True:
        page = rows if last is None else rows.filter(position__gt=last)
        # Every field but the data, which the row no longer keeps: its link is
        # checked against the stored event's (floor.audit.verify).
        columns = [name for name in CONTENT_FIELDS if name != "data"]
        batch = list(page.values(*columns, "digest", "previous_digest", "key_id")[:batch_size])
        if not batch:
            return
        for values in batch:
            digest, previous = values.pop("digest"), values.pop("previous_digest")
            yield JournalRow(values, digest, previous, values.pop("key_id"))
        last = batch[-1]["position"]


def anchor(text: str) -> Anchor:
    """``POSITION:DIGEST``, as ``--json`` gives ``head_position`` and ``head``
    and the close report prints them."""
    position, _, digest = text.partition(":")
    if not position.isdigit() or not re.fullmatch("[0-9a-f]{64}", digest):
        raise argparse.ArgumentTypeError("expected POSITION:DIGEST (a digest in hex)")
    return Anchor(int(position), digest, source="--anchor", kind="given")


def positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("expected a whole number from 1")
    return int(text)


class Command(BaseCommand):
    help = (
        "Checks the event log against the journal's hash chain: reports gaps, "
        "changed events or rows, and events that do not say who did them."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--batch-size", type=positive, default=1000, help="Events read at a time."
        )
        parser.add_argument(
            "--anchor",
            action="append",
            default=[],
            type=anchor,
            metavar="POSITION:DIGEST",
            help="A row's digest kept elsewhere (a printed close report, the head of an "
            "earlier run); repeatable.",
        )
        parser.add_argument(
            "--anchor-file",
            action="append",
            dest="anchor_files",
            default=[],
            type=Path,
            metavar="PATH",
            help="A copy of the anchor file kept elsewhere, checked besides "
            "FLOOR_AUDIT_ANCHOR_FILE; repeatable.",
        )
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="One JSON object on stdout."
        )

    def handle(
        self,
        *args,
        batch_size: int,
        as_json: bool,
        anchor: list[Anchor],
        anchor_files: list[Path],
        **options,
    ) -> None:
        ring = keyring()
        # The anchors before the projector's position: each one was written
        # from a journal that had already reached it.
        anchors, problems, unkeyed_until = self._anchors(anchor_files, ring)
        anchors += anchor
        projector = floor_projector()
        app = projector.application()
        # The projector's position first: every event up to it has its row.
        projected_to = projector.position()
        last_event = max(app.recorder.max_notification_id() or 0, projected_to)
        summary = Summary(problems=len(problems))
        found = verify(
            stored_entries(app, batch_size, last_event),
            journal_rows(batch_size, projected_to),
            projected_to=projected_to,
            keyring=ring,
            unkeyed_until=unkeyed_until,
            # PostgreSQL burns a sequence value when an insert rolls back.
            ids_may_skip=settings.EVENT_STORE_BACKEND == "postgres",
            anchors=anchors,
            summary=summary,
        )
        if as_json:
            self._json([*problems, *found], summary, len(anchors))
        else:
            for problem in problems:
                self.stdout.write(problem.line())
            for problem in found:
                self.stdout.write(problem.line())
            self._text(summary, len(anchors))
        if summary.problems:
            raise CommandError(
                f"{summary.problems} problem(s) in {summary.events} events: the log is not intact"
            )

    def _anchors(self, extra: list[Path], ring) -> tuple[list[Anchor], list[Problem], int]:
        """The anchors of the anchor file and of the copies named, and the
        last unkeyed position any of them records."""
        anchors, problems, unkeyed_until = [], [], 0
        files = [anchor_file(), *extra]
        for path in files:
            if not path.exists():
                if path in extra:
                    raise CommandError(f"{path}: no such anchor file")
                continue
            kept, wrong, until = read_anchors(path, ring)
            anchors += kept
            problems += wrong
            unkeyed_until = max(unkeyed_until, until)
        return anchors, problems, unkeyed_until

    def _text(self, summary: Summary, anchors: int) -> None:
        for note in summary.notes:
            self.stdout.write(note.line())
        if summary.problems:
            return
        line = f"{summary.events} events, chain intact"
        if summary.pending:
            line += f" ({summary.pending} newer events not journaled yet)"
        self.stdout.write(line)
        last = summary.last_anchor
        if last is None:
            self.stdout.write(
                "no anchor: a removed tail would not show (see FLOOR_AUDIT_ANCHOR_FILE)"
            )
        else:
            self.stdout.write(
                f"{summary.anchors_held} anchor(s) hold, the last at position {last.position}"
                + (f" ({last.at})" if last.at else "")
            )

    def _json(self, problems: list[Problem], summary: Summary, anchors: int) -> None:
        def plain(problem: Problem) -> dict:
            return {"position": problem.position, "kind": problem.kind, "detail": problem.detail}

        report = {
            "intact": not problems,
            "events": summary.events,
            "pending": summary.pending,
            "head": summary.head,
            "head_position": summary.head_position,
            "head_key_id": summary.head_key_id,
            "anchors": anchors,
            "anchors_held": summary.anchors_held,
            "problems": [plain(p) for p in problems],
            "notes": [plain(n) for n in summary.notes],
        }
        self.stdout.write(json.dumps(report, indent=2))
