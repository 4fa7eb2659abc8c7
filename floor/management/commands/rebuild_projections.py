"""Drops every read model and rebuilds it from the event log."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from tqdm import tqdm

from floor.runtime import floor_projector


class Command(BaseCommand):
    help = "Rebuilds every read model from the event log, with a progress bar."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--batch-size", type=int, default=500)
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args, batch_size: int, no_progress: bool, **options) -> None:
        projector = floor_projector()
        projector.batch_size = batch_size
        projector.reset()
        total = projector.application().last_position()
        with tqdm(
            total=total,
            unit="event",
            desc=f"rebuilding {projector.name}",
            disable=no_progress,
            file=self.stderr,
        ) as bar:
            while True:
                before = projector.position()
                applied = projector.run_once()
                bar.update(max(0, projector.position() - before))
                if applied == 0 and projector.position() >= total:
                    break
        self.stdout.write(
            self.style.SUCCESS(f"{projector.name}: rebuilt up to event {projector.position()}.")
        )
