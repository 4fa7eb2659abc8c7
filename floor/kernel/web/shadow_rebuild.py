"""A rebuild that disturbs no one (issue 23, item 3): the read models are made
again from the log in a shadow database while the live ones keep serving, then
switched in one live transaction; the tail is caught up as usual.

1. **Build.** The projector runs on the shadow (floor.kernel.web.shadow_db:
   its read models and its position row are routed there), batch after batch,
   up to the *live* position and never past it: every event it applies has its
   journal row already (the live projector wrote it in the same transaction as
   its position), so the journal, which skips a position it has, writes
   nothing. Each shadow batch also runs inside a live-side transaction that is
   rolled back: whatever the projection code would do to the live database or
   schedule on its commit (a journal row, a close's anchor in the anchor file,
   a timer's ETA task) is dropped, so a rebuild has no side effect on anyone.
   The audit journal is never rebuilt, rewritten or duplicated.
2. **Switch.** One transaction on the live database locks the live position
   row (SQLite: the write lock its IMMEDIATE transaction takes; PostgreSQL: the
   row's lock, on which a live projector's compare-and-set waits), applies to
   the shadow the few events the live projector did meanwhile (the gap), then
   puts the shadow's read models in place of the live ones (keeping what the
   timers' sweeper wrote on the live ones: shadow_db): PostgreSQL swaps the
   tables, in a few catalog writes whatever their size; SQLite copies the
   rows. The live position
   row is not moved: the switched read models show exactly the events up to
   it, so each event stays applied exactly once whichever projector goes on.
3. **Tail.** The live projector catches up whatever the log holds past that
   position (events the live projector had not reached, or that came during
   the switch), journaling them as it always does.

Readers see the old read models until the switch commits and the rebuilt
ones after: never a partial floor (shadow_db says why for each backend).
One rebuild runs at a time: ``run`` raises shadow_db.RebuildUnderWay, having
touched nothing, while another holds the shadow.

It drives the kernel's ``CatchUpProjector.run_once`` unchanged; what it asks
of it is that the projector and its projection reach the database through the
ORM without naming an alias, which is what lets the router send them to the
shadow.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone

from floor.kernel.web.projector import CatchUpProjector
from floor.kernel.web.shadow_db import ShadowDatabase, TablesBusy, routing_to

# Called after each batch, the shadow's and the tail's, with (the position
# reached, the position it goes to): the progress bar, and the tests' hook to
# read the consoles between batches.
Progress = Callable[[int, int], None]


@contextlib.contextmanager
def live_side_discarded(live: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """A live-side transaction (or savepoint, inside the switch) that is always
    rolled back, with the commit hooks registered in it.

    On SQLite the live connection begins IMMEDIATE (it takes the write lock at
    once, config.settings): this transaction only reads, so it begins DEFERRED
    and never stops a live writer."""
    connection = connections[live]
    mode = getattr(connection, "transaction_mode", None)
    nested = connection.in_atomic_block
    if connection.vendor == "sqlite" and not nested:
        connection.transaction_mode = "DEFERRED"
    try:
        with transaction.atomic(using=live):
            yield
            transaction.set_rollback(True, using=live)
    finally:
        if connection.vendor == "sqlite" and not nested:
            connection.transaction_mode = mode


# The young generation's threshold while a rebuild runs: the interpreter's
# default (700 allocations) collects every few events, each time walking the
# young objects (the batch's rows, the held states) that will stay anyway.
REBUILD_GC_THRESHOLD = 10_000


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Fewer garbage collections while a rebuild runs (issue 23, seventh pass:
    4 to 8 % of its CPU time on a 40,000-event log). What the process holds
    already (the modules, the application, Django's state) is frozen out of
    the collector's walks, and the young generation is collected every 10,000
    allocations instead of 700. Cycles are still collected, later; the rebuild
    makes few (its rows and states are plain trees), so its memory stays flat
    (the bench's RSS). Both are undone at the end, whatever happens.

    A caller's own settings win: one that froze its objects already keeps them
    frozen after (gc.unfreeze takes back every freeze, not one), a threshold of
    0 (automatic collection off) stays off and a higher one stays. The young
    generation is collected before the freeze (a young collection: a few
    hundred objects at most), or its garbage would stay frozen for the whole
    rebuild."""
    threshold = gc.get_threshold()
    freezing = gc.get_freeze_count() == 0
    if freezing:
        gc.collect(0)
        gc.freeze()
    if threshold[0]:
        gc.set_threshold(max(REBUILD_GC_THRESHOLD, threshold[0]), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        if freezing:
            gc.unfreeze()


@dataclass
class ShadowRebuild:
    """Rebuilds ``projector``'s read models through a shadow database."""

    projector: CatchUpProjector
    batch_size: int = 500
    progress: Progress = field(default=lambda shadow, live: None)
    live: str = DEFAULT_DB_ALIAS

    def __post_init__(self) -> None:
        self.tables = list(self.projector.projection.read_models())
        self.shadow = ShadowDatabase(self.tables, self.projector.positions, live=self.live)

    def live_position(self) -> int:
        """The live read models' position, read on the live alias whatever the routing."""
        positions = self.projector.positions.objects.using(self.live)
        row = positions.filter(name=self.projector.name).first()
        return row.position if row else 0

    def shadow_position(self) -> int:
        positions = self.projector.positions.objects.using(self.shadow.alias)
        row = positions.filter(name=self.projector.name).first()
        return row.position if row else 0

    def run(self) -> int:
        """Builds, switches, catches up the tail; returns the position reached."""
        with fewer_collections():
            self.shadow.open()
            try:
                # Chase the live projector until what is left fits in one
                # batch, which the switch applies while it holds the lock.
                while (target := self.live_position()) - self.shadow_position() > self.batch_size:
                    self.build(target)
                self.shadow.analyze()
                switched = self.switch()
            finally:
                self.shadow.close()
            return self.tail(switched)

    def tail(self, switched: int) -> int:
        """Catches the live read models up to the end of the log as it is now
        (a live projector may do some of it: each event is applied once)."""
        self.projector.batch_size = self.batch_size
        end = self.projector.application().recorder.max_notification_id() or 0
        while (position := self.projector.position()) < end:
            self.projector.run_once()
            self.progress(self.projector.position(), end)
        return max(switched, position)

    def build(self, until: int) -> None:
        """Applies the log to the shadow up to position ``until``, batch by batch."""
        routed = [*self.tables, self.projector.positions]
        shadow = self.shadow.alias
        while (position := self.shadow_position()) < until:
            self.projector.batch_size = min(self.batch_size, until - position)
            with (
                routing_to(shadow, routed),
                transaction.atomic(using=shadow),
                live_side_discarded(self.live),
            ):
                applied = self.projector.run_once()
            if not applied:
                raise RuntimeError(
                    f"{self.projector.name}: the shadow stopped at {position}, short of {until}"
                )
            self.progress(self.shadow_position(), until)

    def switch(self) -> int:
        """Puts the shadow in place of the live read models, in one live
        transaction; returns the position they show.

        On SQLite the shadow file is attached to the live connection first
        (shadow_db.ShadowDatabase.attached: one ``INSERT ... SELECT`` a
        table). The switch's transaction then holds the shadow's write lock
        too, so the shadow's own connection could not apply a gap there: if
        the live projector moved since the last shadow batch, that attempt
        is rolled back, and the switch done again unattached.

        On PostgreSQL the tables are swapped, each lock waited for at most
        the shadow's ``lock_timeout_ms``: when a reader holds a table that
        long, the attempt is rolled back and made again, up to
        ``swap_attempts`` times; then shadow_db.TablesBusy goes on, the live
        read models as they were."""
        if self.shadow.vendor == "postgresql":
            for _ in range(self.shadow.swap_attempts - 1):
                with contextlib.suppress(TablesBusy):
                    return self._switch(gap_allowed=True)
            return self._switch(gap_allowed=True)
        with self.shadow.attached():
            try:
                return self._switch(gap_allowed=not self.shadow.is_attached)
            except _GapWhileAttached:
                pass
        return self._switch(gap_allowed=True)

    def _switch(self, *, gap_allowed: bool) -> int:
        name = self.projector.name
        with transaction.atomic(using=self.live):
            positions = self.projector.positions.objects.using(self.live)
            positions.get_or_create(name=name)
            # The lock: a live projector's compare-and-set now waits for the
            # switch. The rows it puts in place have this code's shape.
            positions.filter(name=name).update(
                updated_at=timezone.now(), version=self.projector.version
            )
            live = self.live_position()
            if not gap_allowed and self.shadow_position() < live:
                raise _GapWhileAttached  # nothing changed but the lock row's time
            self.build(live)  # the gap: events the live projector did meanwhile
            self.shadow.replace_live()
        return live


class _GapWhileAttached(Exception):
    """The live projector moved past the shadow while the shadow is attached."""
