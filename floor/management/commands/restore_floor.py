"""Restores a backup made by backup_floor (docs/backup.md), the service stopped.

Refuses while the service runs from this var directory (``runfloor``'s
processes live), and to replace a store that holds a floor (events, users or
journal rows) unless ``--force``. Afterwards ``verify_log`` checks the restored log against
its journal, keys and anchors, and ``rebuild_projections`` can rebuild every
read model from the restored events.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from floor.backups import BackupError, restore
from floor.liveness import supervised_alive


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
        # Even with --force: a running service holds the stores open and would
        # write on over the restored ones (its projector, its timers).
        alive = supervised_alive()
        if alive:
            raise CommandError(
                f"The floor service runs from {settings.VAR_DIR}: {', '.join(alive)}. "
                "Stop it first (Ctrl-C where it runs), then restore."
            )
        try:
            restored = restore(directory, force=force)
        except BackupError as error:
            raise CommandError(str(error)) from error
        for path in restored:
            self.stdout.write(f"restored {path}")
        self.stdout.write("now check it: manage.py verify_log")
