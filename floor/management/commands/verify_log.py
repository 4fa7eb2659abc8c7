"""Checks that the event log is complete and unaltered, against its journal.

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

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from eventsourcing.application import Application

from floor.audit import CONTENT_FIELDS, JournalRow, Problem, StoredEntry, Summary, verify
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
    """The journal's rows up to ``until``, in position order (keyset pages)."""
    rows = EventJournalEntry.objects.filter(position__lte=until).order_by("position")
    last = None
    while True:
        page = rows if last is None else rows.filter(position__gt=last)
        batch = list(page.values(*CONTENT_FIELDS, "digest", "previous_digest")[:batch_size])
        if not batch:
            return
        for values in batch:
            digest, previous = values.pop("digest"), values.pop("previous_digest")
            yield JournalRow(values, digest, previous)
        last = batch[-1]["position"]


def anchor(text: str) -> tuple[int, str]:
    """``POSITION:DIGEST``, as ``--json`` gives ``head_position`` and ``head``."""
    position, _, digest = text.partition(":")
    if not position.isdigit() or not re.fullmatch("[0-9a-f]{64}", digest):
        raise argparse.ArgumentTypeError("expected POSITION:DIGEST (a sha256 in hex)")
    return int(position), digest


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
            help="A row's digest kept elsewhere (the head of an earlier run); repeatable.",
        )
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="One JSON object on stdout."
        )

    def handle(
        self, *args, batch_size: int, as_json: bool, anchor: list[tuple[int, str]], **options
    ) -> None:
        projector = floor_projector()
        app = projector.application()
        # The projector's position first: every event up to it has its row.
        projected_to = projector.position()
        last_event = max(app.recorder.max_notification_id() or 0, projected_to)
        summary = Summary()
        problems = verify(
            stored_entries(app, batch_size, last_event),
            journal_rows(batch_size, projected_to),
            projected_to=projected_to,
            # PostgreSQL burns a sequence value when an insert rolls back.
            ids_may_skip=settings.EVENT_STORE_BACKEND == "postgres",
            anchors=dict(anchor),
            summary=summary,
        )
        if as_json:
            self._json(list(problems), summary)
        else:
            for problem in problems:
                self.stdout.write(problem.line())
            self._text(summary)
        if summary.problems:
            raise CommandError(
                f"{summary.problems} problem(s) in {summary.events} events: the log is not intact"
            )

    def _text(self, summary: Summary) -> None:
        for note in summary.notes:
            self.stdout.write(note.line())
        if summary.problems:
            return
        line = f"{summary.events} events, chain intact"
        if summary.pending:
            line += f" ({summary.pending} newer events not journaled yet)"
        self.stdout.write(line)

    def _json(self, problems: list[Problem], summary: Summary) -> None:
        def plain(problem: Problem) -> dict:
            return {"position": problem.position, "kind": problem.kind, "detail": problem.detail}

        report = {
            "intact": not problems,
            "events": summary.events,
            "pending": summary.pending,
            "head": summary.head,
            "head_position": summary.head_position,
            "problems": [plain(p) for p in problems],
            "notes": [plain(n) for n in summary.notes],
        }
        self.stdout.write(json.dumps(report, indent=2))
