"""Backs up the floor into a new directory, while the service runs (docs/backup.md).

Embedded default: both SQLite databases by SQLite's online backup API, and the
files outside them (audit anchors, audit keys, secret key), in the order
floor.backups explains. On PostgreSQL only those files: the database is
dumped with ``pg_dump -Fc`` (docs/backup.md).
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from floor.backups import BackupError, back_up


class Command(BaseCommand):
    help = (
        "Backs up the embedded floor (both SQLite databases, consistently, while the "
        "service runs) and the audit keys, anchors and secret key into a new directory."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser) -> None:
        parser.add_argument("directory", type=Path, help="A new (or empty) directory.")

    def handle(self, *args, directory: Path, **options) -> None:
        try:
            manifest = back_up(directory)
        except BackupError as error:
            raise CommandError(str(error)) from error
        for part in manifest["parts"]:
            self.stdout.write(f"{part['name']}: copied")
        if manifest["embedded"]:
            self.stdout.write(f"{manifest['events']} events; backup in {directory}")
        else:
            self.stdout.write(
                f"the keys and anchors are in {directory}; the database is PostgreSQL: "
                "dump it with pg_dump -Fc (docs/backup.md)"
            )
