"""Which embedded broker holds up under several processes: the evidence for
``embedded://`` (issue 20).

Each candidate gets the same stress, side by side on scratch folders: several
publisher processes put small messages on one queue while several consumer
processes take them; every consumer also binds its own queue to a fanout
exchange (as a Celery worker's remote control does) and every publisher
broadcasts on it now and then. Counted per candidate:

- sent, received, lost (sent, never received) and duplicated;
- **fatal**: errors a Celery worker would die of (anything that is not one of
  the transport's connection or channel errors, which Celery retries), such as
  the ``JSONDecodeError`` of a half-written message file;
- messages per second.

The candidates: kombu's own ``filesystem://`` (the old default),
``embedded://`` (config.broker: the same, with atomic writes and claims) and,
when SQLAlchemy is installed, kombu's ``sqla+sqlite://`` on one SQLite file.

Usage: .venv/bin/python bench/broker.py [--seconds 20] [--publishers 3]
       [--consumers 3] [--rate 100] [--candidates filesystem,embedded,sqlalchemy]
Exit status 1 when ``embedded://`` loses, duplicates or dies of a message.
Results: printed, and written to var/bench/broker-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import sys
import tempfile
import time
import traceback
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.scratch_env import output_dir

QUEUE = "stress"
FANOUT = "stress.broadcast"


def connection_for(candidate: str, folder: str):
    """A kombu connection to ``candidate``'s broker kept under ``folder``."""
    from kombu import Connection

    import config.celery  # noqa: F401 - registers embedded://

    if candidate == "sqlalchemy":
        return Connection(f"sqla+sqlite:///{folder}/broker.sqlite3")
    for sub in ("queue", "control"):
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    options = {
        "data_folder_in": f"{folder}/queue",
        "data_folder_out": f"{folder}/queue",
        "control_folder": f"{folder}/control",
        "processed_folder": f"{folder}/processed",
        "store_processed": False,
    }
    return Connection(f"{candidate}://", transport_options=options)


def recoverable(connection) -> tuple[type[BaseException], ...]:
    """The errors Celery's consumer recovers from (reconnects) for this transport."""
    return tuple(connection.connection_errors) + tuple(connection.channel_errors)


def publisher(candidate, folder, index, seconds, rate, results):
    """Publishes numbered messages, ``rate`` a second, until the time is up; a
    broadcast every tenth."""
    from kombu import Exchange

    sent, fatal, errors = 0, 0, []
    with connection_for(candidate, folder) as connection:
        queue = connection.SimpleQueue(QUEUE)
        broadcast = connection.Producer(exchange=Exchange(FANOUT, type="fanout"))
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                queue.put({"publisher": index, "n": sent})
                sent += 1
                if sent % 10 == 0:
                    broadcast.publish({"broadcast": index}, exchange=FANOUT, declare=[])
            except recoverable(connection):
                continue
            except Exception as error:  # noqa: BLE001 - what a worker would die of
                fatal += 1
                errors.append(repr(error))
            time.sleep(1 / rate)  # a paced load, not a flood the consumers never drain
    results.put(("sent", index, sent, fatal, errors[:3]))


def consumer(candidate, folder, index, stop, results):
    """Takes messages until told to stop and the queue stays empty a moment."""
    from kombu import Exchange, Queue

    received, fatal, errors, broadcasts = [], 0, [], 0
    with connection_for(candidate, folder) as connection:
        queue = connection.SimpleQueue(QUEUE)
        mine = connection.SimpleQueue(
            Queue(f"{FANOUT}.{index}", Exchange(FANOUT, type="fanout"), auto_delete=False)
        )
        quiet_since = None
        while True:
            try:
                message = queue.get(timeout=0.05)
                received.append((message.payload["publisher"], message.payload["n"]))
                message.ack()
                quiet_since = None
            except queue.Empty:
                if stop.is_set():
                    quiet_since = quiet_since or time.monotonic()
                    if time.monotonic() - quiet_since > 2.0:
                        break
            except recoverable(connection):
                continue
            except Exception as error:  # noqa: BLE001
                fatal += 1
                errors.append("".join(traceback.format_exception_only(error)).strip())
            try:
                mine.get(block=False).ack()
                broadcasts += 1
            except mine.Empty:
                pass
            except recoverable(connection):
                pass
            except Exception as error:  # noqa: BLE001
                fatal += 1
                errors.append("".join(traceback.format_exception_only(error)).strip())
    results.put(("received", index, received, fatal, errors[:3], broadcasts))


def stress(candidate: str, seconds: float, publishers: int, consumers: int, rate: float) -> dict:
    """One candidate under the stress; its counts."""
    folder = tempfile.mkdtemp(prefix=f"floor-broker-{candidate}-")
    context = mp.get_context("spawn")
    results = context.Queue()
    stop = context.Event()
    # Declare once before the crowd arrives, as a deployment's first process does.
    with connection_for(candidate, folder) as connection:
        connection.SimpleQueue(QUEUE).close()
    takers = [
        context.Process(target=consumer, args=(candidate, folder, i, stop, results))
        for i in range(consumers)
    ]
    givers = [
        context.Process(target=publisher, args=(candidate, folder, i, seconds, rate, results))
        for i in range(publishers)
    ]
    began = time.monotonic()
    for process in takers + givers:
        process.start()
    for process in givers:
        process.join()
    stop.set()
    # Drain the answers before joining: a process with a large answer in its
    # pipe does not exit until it is read.
    sent: dict[int, int] = {}
    received: list[tuple[int, int]] = []
    fatal, errors, broadcasts, answers = 0, [], 0, 0
    while answers < publishers + consumers:
        try:
            row = results.get(timeout=seconds + 120)
        except Exception:  # noqa: BLE001 - a process that died answers nothing
            break
        answers += 1
        if row[0] == "sent":
            sent[row[1]] = row[2]
        else:
            received.extend(row[2])
            broadcasts += row[5]
        fatal += row[3]
        errors.extend(row[4])
    for process in takers:
        process.join(timeout=10)
    elapsed = time.monotonic() - began
    dead = [p.exitcode for p in takers + givers if p.exitcode not in (0, None)]
    expected = {(p, n) for p, count in sent.items() for n in range(count)}
    got = set(received)
    return {
        "candidate": candidate,
        "sent": sum(sent.values()),
        "received": len(received),
        "lost": len(expected - got),
        "duplicated": len(received) - len(got),
        "fatal": fatal,
        "processes_died": len(dead),
        "broadcasts_received": broadcasts,
        "messages_per_second": round(len(received) / elapsed, 1),
        "first_errors": errors[:3],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--publishers", type=int, default=3)
    parser.add_argument("--consumers", type=int, default=3)
    parser.add_argument("--rate", type=float, default=100, help="messages/s per publisher")
    parser.add_argument("--candidates", default="filesystem,embedded,sqlalchemy")
    args = parser.parse_args()
    candidates = [c for c in args.candidates.split(",") if c]
    if "sqlalchemy" in candidates:
        try:
            import sqlalchemy  # noqa: F401
        except ImportError:
            print("sqlalchemy: not installed, left out")
            candidates.remove("sqlalchemy")
    rows = [stress(c, args.seconds, args.publishers, args.consumers, args.rate) for c in candidates]
    print(
        f"\nbroker stress: {args.publishers} publishers, {args.consumers} consumers, "
        f"{args.rate:g} msg/s each, {args.seconds:g} s, {platform.node()}, {os.cpu_count()} cores"
    )
    print(f"{'candidate':<12}{'sent':>8}{'recv':>8}{'lost':>6}{'dup':>5}{'fatal':>7}{'msg/s':>9}")
    for row in rows:
        print(
            f"{row['candidate']:<12}{row['sent']:>8}{row['received']:>8}{row['lost']:>6}"
            f"{row['duplicated']:>5}{row['fatal']:>7}{row['messages_per_second']:>9}"
        )
        for error in row["first_errors"]:
            print(f"    {error[:160]}")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = output_dir() / f"broker-{stamp}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"args": vars(args), "results": rows}, indent=2))
    print(f"written to {out}")
    ours = next((row for row in rows if row["candidate"] == "embedded"), None)
    if ours and (ours["lost"] or ours["duplicated"] or ours["fatal"] or ours["processes_died"]):
        print("embedded:// lost, duplicated or died of a message", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
