"""How the idle projector process learns that the log has grown.

Issue 23, item 1: the projector is the one process that applies events, so a
command's request waits for it (floor.read_models); the sooner it wakes after
an insert, the sooner the request answers.

- On PostgreSQL the library's recorder NOTIFYs its channel in the transaction
  that inserts events (eventsourcing.postgres, ``channel_name``, as its own
  ``subscribe()`` listens): the projector LISTENs on it from one connection of
  the store's pool and wakes on the first notification, or after ``timeout``
  (the safety net: a notification lost with a dropped connection).
- On SQLite there is nothing to listen to: it polls ``max(id)`` of the events
  table, one indexed query, every ``poll`` seconds (10 ms by default), and a
  command's request nudges it awake between two polls (floor.nudges), so it
  starts on the command's events at once rather than 5 ms later on average.

Either way the caller passes the position it has reached and a stop event, so
SIGTERM ends a wait within a poll (SQLite) or a quarter of a second (PostgreSQL).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any

from psycopg import sql

from floor import nudges

logger = logging.getLogger(__name__)

# PostgreSQL: how often a wait looks at the stop event between notifications.
STOP_CHECK_SECONDS = 0.25


# SQLite with nudges: the longest pause between two polls of an idle log.
LONGEST_NUDGED_POLL = 0.1


class PollingWakeup:
    """Wakes when ``max(id)`` passes the position given (SQLite, or any store);
    between two polls, a nudge in ``inbox`` (floor.nudges) wakes it early.

    With an inbox, the pause between polls doubles from ``poll`` up to
    ``longest`` while the log stays idle, and starts again from ``poll`` after
    a nudge (issue 23): every command's request nudges, so the polls are only
    the safety net of a nudge lost, and an idle projector polling every 10 ms
    spent a hundred queries a second of the cores the requests need (a tenth
    of its CPU per command at one client). A write that nudges nobody waits
    ``longest`` at worst. Without an inbox (a second projector) it polls at
    ``poll``, as before."""

    def __init__(
        self, recorder: Any, poll: float, inbox: Any = None, longest: float = LONGEST_NUDGED_POLL
    ) -> None:
        self.recorder = recorder
        self.poll = poll
        self.inbox = inbox
        self.longest = max(poll, longest)

    def wait(self, after: int, timeout: float, stop: threading.Event) -> bool:
        """True when the log holds an event past ``after``; False on timeout or stop."""
        deadline = time.monotonic() + timeout
        pause = self.poll
        while not stop.is_set():
            if (self.recorder.max_notification_id() or 0) > after:
                return True
            if time.monotonic() >= deadline:
                return False
            if self.inbox is None:
                stop.wait(self.poll)
            elif self.inbox.wait(pause):
                pause = self.poll  # nudged: the log has grown, or soon will
            else:
                pause = min(self.longest, pause * 2)
        return False

    def close(self) -> None:
        """Closes the inbox, if any."""
        if self.inbox is not None:
            self.inbox.close()
            self.inbox = None


class ListeningWakeup:
    """Wakes on the recorder's NOTIFY (PostgreSQL), from a connection it holds."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self._held: contextlib.ExitStack | None = None
        self._connection: Any = None

    def _listen(self) -> Any:
        if self._connection is None:
            held = contextlib.ExitStack()
            connection = held.enter_context(self.recorder.datastore.get_connection())
            connection.execute(
                sql.SQL("LISTEN {0}").format(sql.Identifier(self.recorder.channel_name))
            )
            self._held, self._connection = held, connection
        return self._connection

    def wait(self, after: int, timeout: float, stop: threading.Event) -> bool:
        """True on a notification (or an event already past ``after``); False on
        timeout or stop. A broken connection is dropped and listened again on the
        next wait, after a pause of ``timeout``: the loop polls meanwhile."""
        deadline = time.monotonic() + timeout
        try:
            connection = self._listen()
            # Listening now: an insert committed before the LISTEN is seen here.
            if (self.recorder.max_notification_id() or 0) > after:
                return True
            while not stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                if self._notified(connection, min(left, STOP_CHECK_SECONDS)):
                    return True
            return False
        except Exception:  # the database may be restarting
            logger.exception("listening for new events failed; polling until it answers")
            self.close()
            stop.wait(timeout)
            return True

    @staticmethod
    def _notified(connection: Any, timeout: float) -> bool:
        """Whether a notification came within ``timeout``; every other one
        queued is taken too, so a burst of inserts wakes the loop once."""
        if not list(connection.notifies(timeout=timeout, stop_after=1)):
            return False
        list(connection.notifies(timeout=0.001))
        return True

    def close(self) -> None:
        """Gives the listening connection back to the pool."""
        if self._held is not None:
            with contextlib.suppress(Exception):
                self._held.close()
        self._held, self._connection = None, None


def wakeup_for(recorder: Any, poll: float) -> PollingWakeup | ListeningWakeup:
    """The wake-up that fits the store ``recorder`` records into; a polling one
    also wakes on the requests' nudges (floor.nudges), a listening one needs none."""
    if hasattr(recorder, "channel_name") and hasattr(recorder, "datastore"):
        return ListeningWakeup(recorder)
    return PollingWakeup(recorder, poll, nudges.projector_inbox())
