"""The embedded broker (config.broker): kombu's filesystem transport with atomic
writes and claims (issue 20: the stock one's half-written files killed the
worker). No Django database: a channel on a scratch folder, and threads and
processes that use it at once, as web, worker and beat do."""

from __future__ import annotations

import multiprocessing
import os
import threading
from pathlib import Path

import pytest
from kombu import Connection
from kombu.transport.filesystem import Empty

from config.broker import Transport

QUEUE = "floor-test"


def options(root: Path) -> dict[str, object]:
    """The folders config.settings gives the embedded broker, under ``root``."""
    for sub in ("queue", "processed", "control"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": str(root / "queue"),
        "data_folder_out": str(root / "queue"),
        "processed_folder": str(root / "processed"),
        "control_folder": str(root / "control"),
        "store_processed": False,
    }


def open_channel(root: Path):
    """A connection of its own (as each process has) and its channel."""
    connection = Connection(transport=Transport, transport_options=options(root))
    return connection, connection.channel()


@pytest.fixture
def channel(tmp_path):
    connection, channel = open_channel(tmp_path)
    yield channel
    connection.release()


def queue_folder(root: Path) -> Path:
    return root / "queue"


def test_a_message_put_is_got_whole(channel):
    payload = {"body": "x" * 100_000, "headers": {"task": "floor.tasks.sweep"}, "n": 1}
    channel._put(QUEUE, payload)
    assert channel._get(QUEUE) == payload
    with pytest.raises(Empty):
        channel._get(QUEUE)


def test_messages_come_in_the_order_they_were_sent(channel):
    for n in range(20):
        channel._put(QUEUE, {"n": n})
    assert [channel._get(QUEUE)["n"] for _ in range(20)] == list(range(20))


def test_a_half_written_hidden_temporary_file_is_never_read(channel, tmp_path):
    folder = queue_folder(tmp_path)
    # What write_atomically leaves while it writes, named as it names it, and
    # a hidden file ending like a message: neither is a message yet.
    half = folder / ".000000000000001_half.floor-test.msg.0f0f.tmp"
    half.write_bytes(b'{"body": "not yet')
    hidden = folder / ".000000000000002_hidden.floor-test.msg"
    hidden.write_bytes(b'{"body": "not yet')
    with pytest.raises(Empty):
        channel._get(QUEUE)
    assert half.exists() and hidden.exists()  # left to their writer
    channel._put(QUEUE, {"n": 1})
    assert channel._get(QUEUE) == {"n": 1}


def test_a_corrupt_message_goes_to_broken_and_the_next_good_one_is_returned(
    channel, tmp_path, caplog
):
    folder = queue_folder(tmp_path)
    corrupt = "000000000000001_corrupt.floor-test.msg"
    (folder / corrupt).write_bytes(b"")  # what the stock transport's race left
    channel._put(QUEUE, {"n": "good"})
    assert channel._get(QUEUE) == {"n": "good"}  # no exception
    assert (tmp_path / "broken" / corrupt).read_bytes() == b""
    assert not (folder / corrupt).exists()
    assert corrupt in caplog.text
    with pytest.raises(Empty):
        channel._get(QUEUE)


def drain(root: Path, got: list, stop: threading.Event) -> None:
    """Gets messages until the producer is done and the queue is empty."""
    connection, channel = open_channel(root)
    try:
        while True:
            try:
                got.append(channel._get(QUEUE)["n"])
            except Empty:
                if stop.is_set():
                    return
    finally:
        connection.release()


def test_consumers_claiming_at_once_never_get_the_same_message(channel, tmp_path):
    total = 400
    done = threading.Event()
    takes: list[list[int]] = [[], [], []]
    consumers = [
        threading.Thread(target=drain, args=(tmp_path, got, done), daemon=True) for got in takes
    ]
    for consumer in consumers:
        consumer.start()
    for n in range(total):  # published while the three consume
        channel._put(QUEUE, {"n": n})
    done.set()
    for consumer in consumers:
        consumer.join(timeout=60)
        assert not consumer.is_alive()
    everything = [n for got in takes for n in got]
    assert len(everything) == len(set(everything))  # no message twice
    assert sorted(everything) == list(range(total))  # and none lost
    assert os.listdir(tmp_path / "claimed") == []


def bind_many(root: str, worker: int, count: int) -> None:
    """A process binding its own queues to one exchange (spawned: no shared state)."""
    connection, channel = open_channel(Path(root))
    try:
        for n in range(count):
            channel._queue_bind("floor-x", f"key-{worker}-{n}", "", f"queue-{worker}-{n}")
    finally:
        connection.release()


def test_exchange_bindings_survive_concurrent_binds_from_processes(channel, tmp_path):
    workers, count = 3, 25
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(target=bind_many, args=(str(tmp_path), worker, count))
        for worker in range(workers)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    table = channel.get_table("floor-x")
    expected = {
        (f"key-{w}-{n}", "", f"queue-{w}-{n}") for w in range(workers) for n in range(count)
    }
    assert {tuple(row) for row in table} == expected
    assert len(table) == len(expected)
    # Unbinding one rewrites the table under the same lock, the rest kept.
    channel._delete("queue-0-0", "floor-x", "key-0-0", "")
    assert len(channel.get_table("floor-x")) == len(expected) - 1


def test_a_connection_names_no_host_and_kombu_warns_of_none(tmp_path, caplog):
    """The broker is a directory: kombu's "No hostname was supplied" warning,
    once logged on every command that sent a timer, has nothing to say."""
    connection = Connection("embedded://", transport_options=options(tmp_path))
    with caplog.at_level("WARNING", logger="kombu.connection"):
        connection.ensure_connection(max_retries=1)
        info = connection.info()
    connection.release()
    assert info["hostname"] is None
    assert not [r for r in caplog.records if "hostname" in r.getMessage()]
