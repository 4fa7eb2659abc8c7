"""Runs the floor projector in a loop (beat's sweep does it too, every few seconds)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from floor.runtime import floor_projector


class Command(BaseCommand):
    help = "Applies new events to the read models as they arrive."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--batch-size", type=int, default=100)
        parser.add_argument("--idle-seconds", type=float, default=0.5)
        parser.add_argument("--once", action="store_true", help="Catch up, then stop.")

    def handle(self, *args, batch_size: int, idle_seconds: float, once: bool, **options):
        projector = floor_projector()
        projector.batch_size = batch_size
        while True:
            applied = projector.run_once()
            if applied:
                continue
            if once and projector.lag() == 0:
                break
            time.sleep(idle_seconds)  # idle poll: nothing new in the log
        self.stdout.write(f"{projector.name} at event {projector.position()}")
