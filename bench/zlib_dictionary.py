"""Builds the zlib preset dictionary of floor.kernel.compression (issue 23, item 6).

A small event state (a few hundred bytes of JSON) compresses poorly alone:
zlib has nothing yet to refer back to, and every key and common value is
spelled once. A preset dictionary (zlib's ``zdict``) gives it that history: a
few typical states of every event type, the most frequent types last (closest
to the data, the cheapest to refer to). Measured by bench/store_size.py.

The states come from the ledger bench's floor (bench/ledger.py: a cage, eight
tables, players registered, seated, bought in) and ``--hands`` hands a table,
on a scratch SQLite store; ids, moments and the bench's user names are made
generic, so the dictionary holds the shape of the states, not one run's values.
The scratch store is written uncompressed (``COMPRESSOR_TOPIC`` empty): the
application compresses states by default, and a dictionary built from
compressed bytes would hold nothing of the JSON it is meant to prime.

It prints the Python lines of a ``DICTIONARY_<n>_STATES`` tuple. Its output is
ADDED to floor/kernel/compression.py beside the dictionaries already there (a
new ``DICTIONARIES`` entry under its literal adler32), never in place of one:
stored states name their dictionary by its adler32 (the zlib header's
dictionary id), and would no longer read.

Usage: .venv/bin/python bench/zlib_dictionary.py [--hands 10] [--per-type 2]
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import ledger as ledger_bench  # noqa: E402  (plugs the books in)
from floor.application.floor_app import FloorApplication  # noqa: E402
from games.profiles import CM  # noqa: E402

WINDOW = 32768  # zlib's window: a longer dictionary's head is never referred to
GENERIC = [
    (
        re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
        b"00000000-0000-0000-0000-000000000000",
    ),
    (re.compile(rb"[0-9a-f]{64}"), b"0" * 64),
    (re.compile(rb"[0-9a-f]{32}"), b"0" * 32),
    (
        re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00"),
        b"2026-01-01T00:00:00.000000+00:00",
    ),
    (re.compile(rb"bench-"), b""),
]


def generic(state: bytes) -> bytes:
    for pattern, replacement in GENERIC:
        state = pattern.sub(replacement, state)
    return state


def states(hands: int) -> list[tuple[str, bytes]]:
    with tempfile.TemporaryDirectory(prefix="zlib-dictionary-") as scratch:
        store = Path(scratch) / "events.sqlite3"
        app = FloorApplication(
            env={
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": str(store),
                # The states as JSON, not compressed (the default): the dictionary primes JSON.
                "COMPRESSOR_TOPIC": "",
            },
            profile=CM,
        )
        tables = ledger_bench.build(app)
        ledger_bench.deal(app, tables, hands, {})
        app.close()
        with sqlite3.connect(store) as db:
            return list(db.execute("SELECT topic, state FROM stored_events ORDER BY rowid"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--per-type", type=int, default=2)
    args = parser.parse_args()
    found = states(args.hands)
    by_topic: dict[str, list[bytes]] = defaultdict(list)
    for topic, state in found:
        by_topic[topic].append(generic(state))
    often = Counter(topic for topic, _ in found)
    picked: list[bytes] = []
    for topic in sorted(by_topic, key=lambda t: (often[t], t)):
        picked += by_topic[topic][-args.per_type :]
    while sum(map(len, picked)) > WINDOW:
        picked.pop(0)
    for state in picked:  # each state in pieces of 80 bytes: lines of code, not one line
        pieces = [state[i : i + 80] for i in range(0, len(state), 80)]
        print("    (\n" + "".join(f"        {piece!r}\n" for piece in pieces) + "    ),")
    return 0


if __name__ == "__main__":
    sys.exit(main())
