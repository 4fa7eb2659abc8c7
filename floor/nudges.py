"""Wake-up hints between the web workers and the projector on one machine.

Issue 23: a command's request waits for the projector process to apply its
events (floor.read_models). Measured on SQLite, that wait was about twice the
projector's own work, made of two polls: the idle projector reads the log's
last id every 10 ms (5 ms late on average), and the waiting request reads the
position after pauses doubling to 10 ms (up to 10 ms late again). Polling
faster would buy the latency with queries on a machine whose cores the
commands need.

So each side tells the other, with a datagram on a Unix socket in
``VAR_DIR/nudges``: a request whose command recorded events nudges the
projector's socket (``projector.sock``), and the projector, after a batch
committed, nudges every waiting web worker's socket (``waiter-<pid>.sock``, one
per process: a sync worker waits for one request at a time). A wait then ends
as soon as the other side has done its part instead of at the next poll.

A nudge is only a hint: it carries nothing, every wait still reads the
position (or the log) from the database and still ends at its poll's timeout
when no nudge comes, so a lost datagram, a full socket buffer, a projector on
another machine (PostgreSQL: it also wakes on the store's NOTIFY) or a
directory that cannot hold sockets only cost the latency of the poll, as
before. Nothing here can apply an event twice or skip one.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import select
import socket
import threading
import time
from pathlib import Path

from django.conf import settings

logger = logging.getLogger(__name__)

PROJECTOR = "projector.sock"
WAITER_PREFIX = "waiter-"

# The longest path a Unix socket's address may have (sun_path, less its NUL).
LONGEST_ADDRESS = 107


def directory() -> Path:
    """Where the sockets live: the var dir of this deployment, so two floors
    on one machine (or two test runs) never nudge each other."""
    return Path(settings.VAR_DIR) / "nudges"


def _listened(path: Path) -> bool:
    """Whether a live socket is bound at ``path`` (a datagram to it is taken)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        probe.setblocking(False)
        probe.sendto(b"!", str(path))
    except (BlockingIOError, InterruptedError):
        return True  # bound, its buffer full
    except OSError:
        return False  # nobody there (refused), or no file
    finally:
        probe.close()
    return True


class Inbox:
    """A bound datagram socket that a wait can block on for a nudge."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.pid = os.getpid()
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            self.sock.setblocking(False)
            if _listened(path):
                # A live process's (a second projector): it keeps its inbox,
                # and this one polls.
                raise OSError(errno.EADDRINUSE, "a live process's inbox", str(path))
            with contextlib.suppress(FileNotFoundError):
                path.unlink()  # a dead process's, or our own from before a fork
            self.sock.bind(str(path))
            self.inode = path.stat().st_ino
            # poll, not select: select refuses a descriptor of 1024 or more.
            self.poller = select.poll()
            self.poller.register(self.sock, select.POLLIN)
        except OSError:
            self.sock.close()
            raise

    def drain(self) -> int:
        """Takes every nudge queued (they are old news once the caller reads
        the position itself); returns how many there were."""
        taken = 0
        while True:
            try:
                self.sock.recv(64)
            except (BlockingIOError, InterruptedError):
                return taken
            except OSError:
                return taken
            taken += 1

    def wait(self, timeout: float) -> bool:
        """Blocks up to ``timeout`` seconds; True when a nudge came (taken,
        with any queued behind it)."""
        try:
            ready = self.poller.poll(max(0.0, timeout) * 1000)
        except (OSError, ValueError):
            # Never a busy loop: the pause the caller asked for, without the hint.
            time.sleep(max(0.0, timeout))
            return False
        if not ready:
            return False
        self.drain()
        return True

    def close(self) -> None:
        """Closes the socket and removes its file (only the process that made it)."""
        self.sock.close()
        if os.getpid() == self.pid:
            with contextlib.suppress(OSError):
                if self.path.stat().st_ino == self.inode:  # not another's since
                    self.path.unlink()


_sender: socket.socket | None = None


def _send(path: Path) -> bool:
    """One empty-ish datagram to ``path``, never blocking; False when nobody
    listens there (the file is then a dead process's and is removed, unless it
    is the projector's, which a restarted projector binds again)."""
    global _sender
    if _sender is None:
        try:
            _sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        except OSError:  # no descriptor left: no hint, the polls go on
            return False
        _sender.setblocking(False)
    try:
        _sender.sendto(b"!", str(path))
    except (BlockingIOError, InterruptedError):
        return True  # its buffer is full of nudges: it will wake anyway
    except OSError as error:
        if error.errno == errno.ECONNREFUSED and path.name.startswith(WAITER_PREFIX):
            with contextlib.suppress(OSError):
                path.unlink()
        return False
    return True


def nudge_projector() -> None:
    """Tells the projector that the log has grown (a command recorded events)."""
    _send(directory() / PROJECTOR)


def nudge_waiters() -> int:
    """Tells every waiting web worker that the projector's position moved;
    returns how many sockets took the nudge."""
    try:
        names = os.listdir(directory())
    except OSError:
        return 0
    return sum(
        _send(directory() / name)
        for name in names
        if name.startswith(WAITER_PREFIX) and name.endswith(".sock")
    )


def _inbox(name: str) -> Inbox | None:
    """A fresh inbox at ``name`` in the directory, or None when it cannot be
    made (then the caller polls, as before)."""
    path = directory() / name
    if len(os.fsencode(path)) > LONGEST_ADDRESS:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return Inbox(path)
    except OSError:
        logger.warning("no nudges at %s: polling only", path, exc_info=True)
        return None


def projector_inbox() -> Inbox | None:
    """The projector's inbox (one projector per machine takes the nudges; a
    second one polls, as before)."""
    return _inbox(PROJECTOR)


_waiter: Inbox | None = None
_making_waiter = threading.Lock()
_no_waiter_in: int | None = None  # the pid that could not make its inbox


def waiter_inbox() -> Inbox | None:
    """This process's inbox for the projector's nudges, made on its first wait
    (and made again in a forked child, whose pid differs); None, and not tried
    again, where it cannot be made. Threads of one process (runserver, threaded
    workers) share it: one may take a nudge meant for another, whose pause
    then ends at its poll, as without nudges."""
    global _waiter, _no_waiter_in
    pid = os.getpid()
    if _waiter is not None and _waiter.pid == pid:
        return _waiter
    with _making_waiter:  # two threads' first waits make one inbox
        if _waiter is not None and _waiter.pid == pid:
            return _waiter
        if _no_waiter_in == pid:
            return None
        _waiter = _inbox(f"{WAITER_PREFIX}{pid}.sock")
        if _waiter is None:
            _no_waiter_in = pid
        return _waiter
