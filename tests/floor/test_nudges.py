"""The wake-up hints between web workers and the projector (floor.nudges,
issue 23): a nudge ends the other side's wait at once, a lost one costs only
the poll, and a dead worker's socket is cleared, never a live one's."""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
from pathlib import Path

import pytest

from floor import nudges, read_models
from floor.projector_wakeup import PollingWakeup
from tests.support.floor import open_sector


@pytest.fixture
def nudge_dir(settings, monkeypatch):
    """A short var dir of the test's own (a socket's path is at most 107 bytes),
    and no inbox left over from another test."""
    var = Path(tempfile.mkdtemp(prefix="nudge-"))
    settings.VAR_DIR = var
    monkeypatch.setattr(nudges, "_waiter", None)
    monkeypatch.setattr(nudges, "_no_waiter_in", None)
    yield var / "nudges"
    if nudges._waiter is not None:
        nudges._waiter.close()
    shutil.rmtree(var, ignore_errors=True)


def test_a_waiter_is_woken_by_the_projectors_nudge_and_not_without_one(nudge_dir):
    inbox = nudges.waiter_inbox()
    assert inbox is not None and inbox.path.parent == nudge_dir
    assert nudges.waiter_inbox() is inbox  # one per process
    assert inbox.wait(0) is False  # nothing sent

    assert nudges.nudge_waiters() == 1

    assert inbox.wait(30) is True  # at once: the nudge is there, not after 30 s
    assert inbox.wait(0) is False  # taken with the wait


def test_drain_takes_every_queued_nudge(nudge_dir):
    inbox = nudges.waiter_inbox()
    for _ in range(3):
        nudges.nudge_waiters()
    assert inbox.drain() == 3
    assert inbox.wait(0) is False


def test_a_dead_workers_socket_is_removed_and_a_live_ones_kept(nudge_dir):
    live = nudges.waiter_inbox()
    dead_path = nudge_dir / f"{nudges.WAITER_PREFIX}999999999.sock"
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    dead.bind(str(dead_path))
    dead.close()  # a killed worker leaves its file behind, nobody bound to it

    assert nudges.nudge_waiters() == 1

    assert not dead_path.exists()
    assert live.path.exists() and live.wait(0) is True


def test_nudging_nobody_is_harmless(nudge_dir):
    nudges.nudge_projector()  # no projector: no socket at all
    assert nudges.nudge_waiters() == 0
    (nudge_dir).mkdir(parents=True, exist_ok=True)
    (nudge_dir / nudges.PROJECTOR).touch()  # a stopped projector's file
    nudges.nudge_projector()
    assert (nudge_dir / nudges.PROJECTOR).exists()  # its next start binds it again


def test_no_inbox_where_the_path_is_too_long_for_a_socket(settings, monkeypatch, tmp_path):
    settings.VAR_DIR = tmp_path / ("x" * 120)
    monkeypatch.setattr(nudges, "_waiter", None)
    monkeypatch.setattr(nudges, "_no_waiter_in", None)
    assert nudges.waiter_inbox() is None
    assert nudges.projector_inbox() is None


def test_an_inbox_that_cannot_be_made_is_not_tried_again_by_the_process(
    settings, monkeypatch, tmp_path
):
    """A var dir where no socket can be bound (here: ``nudges`` is a file) means
    polling, with one warning, not one per request."""
    settings.VAR_DIR = tmp_path
    (tmp_path / "nudges").write_text("not a directory")
    monkeypatch.setattr(nudges, "_waiter", None)
    monkeypatch.setattr(nudges, "_no_waiter_in", None)
    tried: list[str] = []
    made = nudges._inbox

    def counted(name: str):
        tried.append(name)
        return made(name)

    monkeypatch.setattr(nudges, "_inbox", counted)
    assert nudges.waiter_inbox() is None
    assert nudges.waiter_inbox() is None
    assert len(tried) == 1


@pytest.mark.django_db
def test_the_polling_projector_wakes_on_a_requests_nudge_before_its_poll(
    nudge_dir, floor_app, monkeypatch
):
    """A poll of an hour: only the nudge can end the wait in time. The event is
    recorded once the projector is inside its wait, as a request's would be."""
    inbox = nudges.projector_inbox()
    inside = threading.Event()
    waited = nudges.Inbox.wait

    def entering(self, timeout: float) -> bool:
        inside.set()
        return waited(self, timeout)

    monkeypatch.setattr(nudges.Inbox, "wait", entering)
    wakeup = PollingWakeup(floor_app.recorder, poll=3600, inbox=inbox)
    last = floor_app.last_position()
    stop = threading.Event()
    woke: list[bool] = []
    waiting = threading.Thread(target=lambda: woke.append(wakeup.wait(last, 3600, stop)))
    waiting.start()
    try:
        assert inside.wait(timeout=30)
        open_sector(floor_app, "Sector N")
        nudges.nudge_projector()
        waiting.join(timeout=30)
        assert not waiting.is_alive() and woke == [True]
    finally:
        stop.set()
        nudges.nudge_projector()  # ends a wait that is still polling
        waiting.join(timeout=30)
        wakeup.close()
    assert not (nudge_dir / nudges.PROJECTOR).exists()


@pytest.fixture
def spied_waits(monkeypatch) -> list[bool]:
    """Whether each pause of a waiting request ended on a nudge."""
    woke: list[bool] = []
    waited = nudges.Inbox.wait

    def spied(self, timeout: float) -> bool:
        nudged = waited(self, timeout)
        if self.path.name.startswith(nudges.WAITER_PREFIX):  # not the projector's
            woke.append(nudged)
        return nudged

    monkeypatch.setattr(nudges.Inbox, "wait", spied)
    return woke


class Projector:
    """The read models' position as a request reads it (each read counted),
    and the log's end (a repeated command's wait reads it)."""

    def __init__(self, position: int = 0, last: int = 5) -> None:
        self.at = position
        self.reads: list[int] = []
        self.last = last

    def position(self) -> int:
        self.reads.append(self.at)
        return self.at

    def application(self):
        last = self.last

        class Recorder:
            def max_notification_id(self) -> int:
                return last

        return type("App", (), {"recorder": Recorder()})()


def test_a_request_nudges_the_projector_and_reads_the_position_when_it_nudges_back(
    nudge_dir, settings, monkeypatch, spied_waits
):
    """Behind the projector, ``show`` tells the projector about its command;
    no batch having committed since its last wait, the position cannot be
    there yet, so its first pause, the longest (30 s here), comes before
    any read and ends as soon as the projector nudges back: one read of the
    position (issue 23: the read before the pause never found it)."""
    settings.FLOOR_READ_MODELS = "projector"
    monkeypatch.setattr(read_models, "LONGEST_PAUSE", 30.0)
    nudges.waiter_inbox()  # made by an earlier wait of this process
    projector_inbox = nudges.projector_inbox()
    projector = Projector()

    def project() -> None:
        # The projector: takes the request's nudge, commits, nudges back.
        if projector_inbox.wait(30):
            projector.at = 5
            nudges.nudge_waiters()

    running = threading.Thread(target=project)
    running.start()
    try:
        read_models.show(projector, until=5, timeout=60)
    finally:
        running.join(timeout=30)
        projector_inbox.close()
    assert projector.reads == [5]
    assert spied_waits == [True]  # the pause ended on the nudge, not after its 30 s


def test_a_batch_committed_before_the_wait_began_is_read_at_once(
    nudge_dir, settings, monkeypatch, spied_waits
):
    """A nudge already queued when the wait begins may be the batch of the
    command's own events: the position is read before any pause."""
    settings.FLOOR_READ_MODELS = "projector"
    monkeypatch.setattr(read_models, "LONGEST_PAUSE", 30.0)
    nudges.waiter_inbox()
    nudges.nudge_waiters()  # the projector committed the command's batch already
    projector = Projector(position=5)
    read_models.show(projector, until=5, timeout=60)
    assert projector.reads == [5]
    assert spied_waits == []


def test_a_repeated_commands_wait_reads_the_position_at_once(
    nudge_dir, settings, monkeypatch, spied_waits
):
    """A repeated command's events are in the log already, and likely shown:
    read at once, though no nudge is queued."""
    settings.FLOOR_READ_MODELS = "projector"
    monkeypatch.setattr(read_models, "LONGEST_PAUSE", 30.0)
    nudges.waiter_inbox()
    projector = Projector(position=5, last=5)
    read_models.show(projector, until=None, timeout=60)
    assert projector.reads == [5]
    assert spied_waits == []


def test_a_command_nobody_reads_nudges_the_projector_without_waiting(nudge_dir, settings):
    settings.FLOOR_READ_MODELS = "projector"
    projector_inbox = nudges.projector_inbox()

    class Unread:
        def position(self) -> int:  # pragma: no cover - must not be read
            raise AssertionError("waited")

    try:
        read_models.show(Unread(), until=5, timeout=3600, wait=False)
        assert projector_inbox.wait(0) is True
    finally:
        projector_inbox.close()


def test_a_second_projector_polls_and_leaves_the_first_ones_inbox_alone(nudge_dir):
    first = nudges.projector_inbox()
    assert first is not None
    first.drain()
    assert nudges.projector_inbox() is None  # the first one is alive: this one polls
    first.drain()  # the second's probe was a nudge: harmless
    nudges.nudge_projector()
    assert first.wait(0) is True  # the nudges still reach the first

    first.close()
    assert not first.path.exists()
    again = nudges.projector_inbox()  # the first one gone: a restart takes over
    assert again is not None
    again.close()


def test_an_inbox_closed_after_another_took_its_path_leaves_the_others_file(nudge_dir):
    old = nudges.projector_inbox()
    old.path.unlink()  # as a process that found it dead would have
    new = nudges.projector_inbox()
    old.close()
    assert new.path.exists()
    nudges.nudge_projector()
    assert new.wait(0) is True
    new.close()


def test_an_inbox_waits_on_a_descriptor_past_select_s_limit(nudge_dir):
    """select() refuses descriptors of 1024 and more (its wait then returned at
    once, and a request's wait spun on the position row); a busy worker has
    that many open."""
    import os
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert hard == resource.RLIM_INFINITY or hard >= 1200, f"{hard} descriptors allowed"
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    opened = []
    try:
        while not opened or opened[-1] < 1030:
            opened.append(os.open(os.devnull, os.O_RDONLY))
        inbox = nudges.waiter_inbox()
        assert inbox.sock.fileno() >= 1024
        assert inbox.wait(0) is False
        nudges.nudge_waiters()
        assert inbox.wait(30) is True
    finally:
        for descriptor in opened:
            os.close(descriptor)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_idle_polls_grow_apart_and_start_again_after_a_nudge():
    """Nudged by every request, the polling projector's polls are a safety
    net: idle, their pause doubles up to ``longest``; a nudge starts it again."""

    class Recorder:
        def max_notification_id(self) -> int:
            return 7  # never past the position: the log stays idle

    stop = threading.Event()

    class Inbox:
        pauses: list[float] = []
        nudged_at = {4}  # the fifth wait ends on a nudge

        def wait(self, timeout: float) -> bool:
            self.pauses.append(timeout)
            if len(self.pauses) == 9:
                stop.set()
            return len(self.pauses) - 1 in self.nudged_at

    inbox = Inbox()
    wakeup = PollingWakeup(Recorder(), poll=0.01, inbox=inbox, longest=0.05)
    assert wakeup.wait(7, 3600, stop) is False
    assert inbox.pauses == [0.01, 0.02, 0.04, 0.05, 0.05, 0.01, 0.02, 0.04, 0.05]
    # Without an inbox (a second projector), the poll keeps its pace.
    assert PollingWakeup(Recorder(), poll=0.5, inbox=None, longest=0.05).longest == 0.5
