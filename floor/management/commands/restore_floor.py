"""Restores a backup made by backup_floor (docs/backup.md), the service stopped.

Refuses to replace a store that holds a floor (events, users or journal rows)
unless ``--force``. Afterwards ``verify_log`` checks the restored log against
its journal, keys and anchors, and ``rebuild_projections`` can rebuild every
read model from the restored events.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from floor.backups import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restores a backup_floor directory into this deployment's var/ (stop the service "
        "first); refuses to replace a non-empty store without --force."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser) -> None:
        parser.add_argument("directory", type=Path, help="A directory made by backup_floor.")
        parser.add_argument(
            "--force", action="store_true", help="Replace a store that holds a floor already."
        )

    def handle(self, *args, directory: Path, force: bool, **options) -> None:
        try:
            restored = restore(directory, force=force)
        except BackupError as error:
            raise CommandError(str(error)) from error
        for path in restored:
            self.stdout.write(f"restored {path}")
        self.stdout.write("now check it: manage.py verify_log")
