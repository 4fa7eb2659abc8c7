"""Runs the floor projector in a loop (beat's sweep does it too, every few seconds).

In production it runs as its own service (deploy/floor-projector.service), so the
read models follow the log within a fraction of a second rather than at the next
sweep; several may run, since each batch moves the projector's position with a
compare-and-set (floor.kernel.web.projector). SIGTERM (systemd's stop) ends it
between batches, with exit status 0.
"""

from __future__ import annotations

import signal
import threading

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
        stop = threading.Event()
        previous = None
        if threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
        try:
            while not stop.is_set():
                applied = projector.run_once()
                if applied:
                    continue
                if once and projector.lag() == 0:
                    break
                stop.wait(idle_seconds)  # idle poll: nothing new in the log
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
        self.stdout.write(f"{projector.name} at event {projector.position()}")
