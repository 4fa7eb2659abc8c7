"""The catch-up projector: reads the log past its position and applies it.

It is the kernel's (issue 21): a projection of either context runs on it, and
it knows nothing of them but the ``Projection`` protocol and the model its
positions are kept in (the floor's ``ProjectionPosition``, given by
floor.runtime), so it imports nothing of the floor.

Each batch moves the projector's position row with a
compare-and-set update *first*, then applies the batch's events to the read
models, all in one database transaction. The update takes the row's lock, so a
second projector (another process, the request that needs its own write, the
beat sweep) waits and then finds the position moved and re-reads; a projector
killed mid-batch leaves nothing applied. Each event is applied exactly once, on
SQLite and PostgreSQL alike.

Reading "after the position" never skips an event: SQLite has one writer at a
time, and the library's PostgreSQL recorder locks the events table while it
inserts, so ids become visible in order (keep POSTGRES_ENABLE_DB_FUNCTIONS off,
which would insert through a function without that guarantee being ours to check).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from django.db import connections, models, transaction
from django.utils import timezone
from eventsourcing.application import Application
from eventsourcing.domain import DomainEventProtocol

logger = logging.getLogger(__name__)


class Projection(Protocol):
    """Read models and how one event changes them."""

    name: str

    def read_models(self) -> Iterable[type[models.Model]]:
        """The models this projection owns, children before parents."""
        ...

    def apply(self, event: DomainEventProtocol, position: int) -> None:
        """Changes the read models for one event (inside the batch transaction)."""
        ...

    # Optional: ``version``, the shape of the read models (1 when absent),
    # raised by a release that changes what they hold, so that read models an
    # earlier release built are rebuilt (CatchUpProjector.outdated).


def batch_of(projection: Projection, after: int | None) -> AbstractContextManager[object]:
    """The projection's batch, if it has one: ``batch(after)``, a context
    entered around a batch's events inside its transaction, where a
    projection writes what it gathered per event in bulk (issue 23, item 2:
    the floor's journal rows). ``after`` is the position the read models
    show before the batch when nobody but this projector wrote them since its
    last batch (its compare-and-set has just checked both), else None, so a
    projection holding rows in memory from its earlier batches knows whether
    they still are the database's (floor.projections.floor_views). A
    projection without it applies event by event."""
    batch = getattr(projection, "batch", None)
    return batch(after) if batch is not None else contextlib.nullcontext()


class ProjectionLagging(RuntimeError):
    """The read models did not reach a position in time."""


@dataclass
class CatchUpProjector:
    """Applies ``projection`` to the log of ``application``; ``positions`` is
    the model its position is kept in, a row per projection (``name``, unique;
    ``position``; ``updated_at``)."""

    projection: Projection
    application: Callable[[], Application]
    positions: type[models.Model]
    batch_size: int = 100
    # The position the last ``run_once`` left the read models at, as far as
    # it knows (None: unknown), so that the projector process waits for the
    # log to pass it without reading it back (run_projector); and whether the
    # position row is known to be there (made once, not asked every batch).
    reached: int | None = field(default=None, init=False)
    _row_made: bool = field(default=False, init=False)
    # Where its own last batch left the position row and the ``updated_at``
    # it wrote there: the next batch's guessed start, tried only with both,
    # so that anyone else's write on the row (another projector, ``reset``,
    # a rebuild's switch, which replaces the read models and leaves the
    # position where it was, a caller's transaction rolled back) makes the
    # position be read again and the rows a projection holds be dropped.
    _left: int | None = field(default=None, init=False)
    _stamp: datetime | None = field(default=None, init=False)
    # Whether its batches commit without waiting for the write-ahead log's
    # flush on PostgreSQL (``relax_commits``).
    relaxed_commit: bool = field(default=False, init=False)

    @property
    def name(self) -> str:
        return self.projection.name

    @property
    def version(self) -> int:
        """The shape of the read models this code builds (Projection.version)."""
        return int(getattr(self.projection, "version", 1))

    def outdated(self) -> bool:
        """Whether the read models were built by an earlier shape of the
        projection and show events: a release that added a read model finds
        it empty for the events before it, so they must be rebuilt. Read models
        that show no event yet are simply stamped with this shape."""
        row = self.positions.objects.filter(name=self.name).first()
        if row is None or row.version == self.version:
            return False
        if row.position == 0:
            self.positions.objects.filter(name=self.name, position=0).update(version=self.version)
            return False
        return True

    def position(self) -> int:
        """The last event the read models show (0: none).

        One plain SELECT of the column on the database the model is read from
        (so a rebuild's routing to its shadow holds): a request waiting for the
        projector reads it after every pause (the projector process, only
        when it does not know where its last batch left it: ``reached``);
        measured on SQLite, 15 us a read where the ORM's ``.first()``, building
        a model for one integer, took 250 (bench/README.md, commands.py)."""
        meta = self.positions._meta
        connection = connections[self.positions.objects.db]
        quote = connection.ops.quote_name
        column, name = meta.get_field("position").column, meta.get_field("name").column
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {quote(column)} FROM {quote(meta.db_table)} WHERE {quote(name)} = %s",
                [self.name],
            )
            row = cursor.fetchone()
        return row[0] if row else 0

    def relax_commits(self) -> None:
        """Lets this projector's batches commit on PostgreSQL without waiting
        for the write-ahead log's flush to disk (the projector process's,
        run_projector): ``SET LOCAL synchronous_commit TO off`` in each batch's
        own transaction, just before it commits (``_relax_this_commit``).

        Why (issue 23): a command's request waits for its batch's commit, and
        that flush was the largest single part of a batch (2.4 ms of 18 at
        load 4, measured by bench/wait_stages.py). The read models are the
        log's projection, and the log stays durable (the event store's saves
        keep the server's setting). A server crash may take back the last
        batches' commits, but whole and in order, the position row with the
        rows it moved (one transaction): the projector then applies those
        events again, exactly once, as after any rollback. It is what the read
        models have on SQLite already (Django's WAL connection,
        ``synchronous=NORMAL``).

        Transaction-scoped, never the session's: behind PgBouncer in
        transaction pooling (docs/architecture.md) a session's setting stays
        on the server connection and reaches whoever gets it next, such as the
        event store's saves. A batch whose commit sets off something outside
        the database (an ETA task, the anchor file's line:
        ``transaction.on_commit``) sends nothing and commits as the server's
        setting says (which may be stricter than ``on``), so nothing outside
        can follow a commit a crash would take back."""
        self.relaxed_commit = True

    def _relax_this_commit(self, alias: str) -> None:
        """``synchronous_commit`` off for the commit of the batch's own
        transaction on ``alias`` (PostgreSQL), unless a hook waits for that
        commit (``relax_commits``). Called last inside the batch's atomic
        block, after the projection's batch context registered its hooks."""
        connection = connections[alias]
        if connection.vendor == "postgresql" and not connection.run_on_commit:
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO off")

    def lag(self) -> int:
        """Events in the log that the read models do not show yet."""
        last = self.application().recorder.max_notification_id() or 0
        return max(0, last - self.position())

    def run_once(self) -> int:
        """Applies the next batch; returns how many events it applied.

        Returns 0 when the log is exhausted, or when another projector moved the
        position first (the caller reads the position again).
        """
        # First from where its own last batch left the position, unread: the
        # compare-and-set checks it. Moved by anyone else (or this is another
        # database's, a rebuild's shadow), it is read, and the batch tried again.
        if self._left is not None and self._row_made:
            applied = self._apply_from(self._left, guessed=True)
            if applied is not None:
                return applied
        for made_here in (False, True):
            if not self._row_made or made_here:
                # Made once, not asked every batch; asked again when the
                # compare-and-set found nothing (the row may not be there: a
                # reset, a rebuild's switch, a shadow's new database).
                self.positions.objects.get_or_create(
                    name=self.name, defaults={"version": self.version}
                )
                self._row_made = True
                made_here = True
            applied = self._apply_from(self.position())
            if applied is not None:
                return applied
            if made_here:
                break
        return 0  # another projector moved it first

    def _apply_from(self, start: int, guessed: bool = False) -> int | None:
        """The batch after position ``start``, in one transaction; None when
        the position row is not at ``start`` (nothing applied), or when
        ``start`` is ``guessed`` and the log has nothing past it (the position
        may be behind it: read it)."""
        self.reached = None
        app = self.application()
        notifications = app.recorder.select_notifications(
            start=start, limit=self.batch_size, inclusive_of_start=False
        )
        if not notifications:
            if guessed:
                return None
            self.reached = start
            return 0
        end = notifications[-1].id
        stamp = timezone.now()
        # The positions' database, as position() reads it (a rebuild's routing
        # sends them to its shadow): the batch's transaction is that one's.
        alias = self.positions.objects.db
        # Relaxed only when the batch's transaction is its own: inside a
        # caller's, SET LOCAL would relax the caller's commit too.
        relax = self.relaxed_commit and transaction.get_autocommit(using=alias)
        with transaction.atomic(using=alias):
            row = self.positions.objects.filter(name=self.name, position=start)
            if guessed:  # and nobody else wrote the row since this projector's last batch
                row = row.filter(updated_at=self._stamp)
            if not row.update(position=end, updated_at=stamp):
                return None
            # Held rows go on only from where this projector's own last batch
            # left them, the row untouched since (the guess); otherwise the
            # projection reads them again.
            with batch_of(self.projection, start if guessed else None):
                for notification in notifications:
                    event = app.mapper.to_domain_event(notification)
                    self.projection.apply(event, notification.id)
            if relax:
                self._relax_this_commit(alias)
        self._left, self._stamp = end, stamp
        # Committed (not in a caller's transaction)?
        if transaction.get_autocommit(using=alias):
            self.reached = end
        return len(notifications)

    def catch_up(self, until: int | None = None, timeout: float = 30.0) -> int:
        """Applies events until the read models reach ``until`` (default: the
        end of the log as it is now). Returns the number applied here."""
        target = until
        if target is None:
            target = self.application().recorder.max_notification_id() or 0
        applied = 0
        deadline = time.monotonic() + timeout
        while self.position() < target:
            count = self.run_once()
            applied += count
            if count == 0 and time.monotonic() > deadline:
                raise ProjectionLagging(
                    f"{self.name} stayed at {self.position()}, short of {target}"
                )
        return applied

    def reset(self) -> None:
        """Empties the read models and rewinds the position, in one transaction."""
        self.reached = self._left = None
        with transaction.atomic():
            self.positions.objects.update_or_create(
                name=self.name,
                defaults={"position": 0, "updated_at": timezone.now(), "version": self.version},
            )
            for model in self.projection.read_models():
                model.objects.all().delete()
