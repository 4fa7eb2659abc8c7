"""Rebuilds every read model from the event log without disturbing anyone.

The read models are made again in a shadow database while the live ones keep
serving, switched in one transaction, and the tail is caught up
(floor.kernel.web.shadow_rebuild; docs/operations.md, "Rebuilding the read
models"). The audit journal is kept as it is.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from floor.kernel.web.shadow_db import RebuildUnderWay, TablesBusy
from floor.kernel.web.shadow_rebuild import ShadowRebuild
from floor.runtime import floor_projector


class Command(BaseCommand):
    help = (
        "Rebuilds every read model from the event log in a shadow database, then "
        "switches to it at once; a progress bar shows events/s and the time left."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--batch-size", type=int, default=2000)
        parser.add_argument("--no-progress", action="store_true")
        parser.add_argument(
            "--if-outdated",
            action="store_true",
            help="Only when the read models were built by an earlier release's shape.",
        )

    def handle(
        self, *args, batch_size: int, no_progress: bool, if_outdated: bool, **options
    ) -> None:
        projector = floor_projector()
        if if_outdated and not projector.outdated():
            self.stdout.write(f"{projector.name}: read models current (shape {projector.version}).")
            return
        if if_outdated:
            self.stdout.write(
                f"{projector.name}: read models built by an earlier release: "
                f"rebuilding them in a shadow while the floor keeps running."
            )
        with tqdm(
            total=projector.application().last_position(),
            unit="event",
            unit_scale=True,
            desc=f"rebuilding {projector.name}",
            disable=no_progress,
            file=self.stderr,
        ) as bar:

            def progress(done: int, total: int) -> None:
                # The live projector and the tail move the end while it runs.
                bar.total = max(bar.total or 0, total)
                bar.update(done - bar.n)

            try:
                position = ShadowRebuild(projector, batch_size=batch_size, progress=progress).run()
            except RebuildUnderWay:
                # One at a time (shadow_db): with --if-outdated, as every
                # projector's start may ask, the one under way does the work.
                if not if_outdated:
                    raise CommandError(
                        "a rebuild is already under way: run this again when it has ended"
                    ) from None
                self.stdout.write(
                    f"{projector.name}: another rebuild is already under way; "
                    f"it brings the read models up to date."
                )
                return
            except TablesBusy as busy:
                raise CommandError(
                    "the rebuilt read models could not be switched in: a long read held "
                    f"their tables through every attempt ({busy}). The live read models "
                    "are as they were; run this again when the reports are done."
                ) from None
        self.stdout.write(self.style.SUCCESS(f"{projector.name}: rebuilt up to event {position}."))
