"""How a command's request comes to show its own effect (read-your-writes).

Issue 23, item 1: the projection runs out of the request path. Under
``FLOOR_READ_MODELS = "projector"`` (the default) the projector process
(``manage.py run_projector``) applies every event, and a request only waits,
bounded, until that process's position reaches its command's: one cheap read of
the position row, then short sleeps doubling from 1 ms to 10 ms. No request
projects anyone's events, so the web workers no longer queue on the position row's
lock. Waiting by polling, not by LISTEN on PostgreSQL: a request would need a
connection of its own to listen on. Instead the projector nudges the waiting
web workers after each batch (floor.nudges, a datagram on a Unix socket), so a
wait ends as soon as the batch is committed, not at the next of its polls; the
request also nudges the idle projector about its command's events first. The
nudges are hints only: the position row decides, and without them (a projector
on another machine) the polls answer as before.

``"inline"`` is the seam for processes with no projector beside them: the test
suite under Django's test client (tests/conftest.py), the POPO store, and
one-shot loaders (load_demo_floor); there the caller applies the events itself,
as every request did before issue 23.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings

from floor import nudges
from floor.kernel.web.projector import CatchUpProjector, ProjectionLagging

# The first pause, and the longest, between two reads of the position (seconds).
FIRST_PAUSE = 0.001
LONGEST_PAUSE = 0.010


def inline() -> bool:
    """Whether this process applies its own commands' events (module docstring)."""
    return settings.FLOOR_READ_MODELS == "inline"


def show(
    projector: CatchUpProjector, until: int | None, timeout: float, *, wait: bool = True
) -> None:
    """The read models at ``until`` or past it within ``timeout`` seconds, or
    ProjectionLagging: applied here when ``inline()``, else awaited.

    ``until`` None: a repeated command, whose first outcome's events are in
    the log already, so the log's end as it is now, read at once (never a
    failure: a client's retry or a double click answers as the first did). ``wait`` False: the
    caller shows nothing (the clock firing a timer), so behind the projector
    it does not wait at all.

    The cost of skipping the first read: with a nudge inbox and none queued,
    the first read comes after the first pause, the longest, so where no
    nudge ever comes (the projector on another machine, or the beat sweep,
    applying the events) the wait takes up to LONGEST_PAUSE (10 ms) more than
    a read before the pause would have, even for events already shown."""
    repeated = until is None
    if repeated:
        until = projector.application().recorder.max_notification_id() or 0
    if inline():
        projector.catch_up(until=until, timeout=timeout)
        return
    if not wait:
        nudges.nudge_projector()
        return
    # The inbox first: a batch committed from here on leaves its nudge in it.
    inbox = nudges.waiter_inbox()
    queued = inbox.drain() if inbox is not None else 0
    nudges.nudge_projector()
    # Nudged, a pause ends when the projector's batch is in, so there is no
    # point in reading the position at 1, 3 and 7 ms (measured: 4.4 reads per
    # wait, most before the projector could have finished): the longest pause
    # from the start, the position read when nudged or at worst every 10 ms.
    first = LONGEST_PAUSE if inbox is not None else FIRST_PAUSE
    # Nor in reading it before that pause when no batch has committed since
    # this process's last wait (no nudge queued): the command's events, saved
    # since, cannot be shown yet (measured, one client: the first read never
    # found them, on SQLite nor on PostgreSQL, where it is a round trip).
    # A queued nudge may be the batch of these very events, committed before
    # this wait began: then it is read at once, as before. (A batch another
    # projector committed nudges nobody: read at the pause's end, 10 ms.)
    read_first = repeated or inbox is None or queued > 0
    wait_for(projector.position, until, timeout, sleep=pause, first=first, read_first=read_first)


def pause(seconds: float) -> None:
    """The pause between two reads of the position: ``seconds``, or less when
    the projector nudges this process that it committed a batch (floor.nudges);
    a plain sleep where no inbox could be made."""
    inbox = nudges.waiter_inbox()
    if inbox is None:
        time.sleep(seconds)
    else:
        inbox.wait(seconds)


def wait_for(
    position: Callable[[], int],
    until: int,
    timeout: float,
    *,
    sleep: Callable[[float], None] | None = None,
    monotonic: Callable[[], float] | None = None,
    first: float | None = None,
    read_first: bool = True,
) -> int:
    """Reads ``position()`` until it reaches ``until``; returns the reads it took.

    Raises ProjectionLagging once ``timeout`` seconds have passed without it
    (the gateway's ReadModelsBehind: the command is recorded all the same).
    ``sleep`` and ``monotonic``: time's, unless a test gives its own (``show``
    gives ``pause``, which a nudge from the projector ends early). ``first``:
    the first pause (FIRST_PAUSE unless given), doubling to LONGEST_PAUSE.
    ``read_first`` False: that pause comes before the first read (``show``:
    the position cannot be there yet)."""
    sleep = sleep or time.sleep
    monotonic = monotonic or time.monotonic
    deadline = monotonic() + timeout
    pause = FIRST_PAUSE if first is None else first
    if not read_first:
        sleep(pause)
        pause = min(LONGEST_PAUSE, pause * 2)
    reads = 1
    while position() < until:
        if monotonic() >= deadline:
            raise ProjectionLagging(f"the projector stayed short of event {until}")
        sleep(pause)
        pause = min(LONGEST_PAUSE, pause * 2)
        reads += 1
    return reads
