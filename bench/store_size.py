"""What 1,000 hands leave in the store: the events, by type, and the read models.

A floor on a scratch SQLite event store (the embedded default), built as the
ledger bench builds it (bench/ledger.py: a funded cage, eight tables of eight
players, everyone bought in), then dealt honest hands (bench/hands.py). The
store's growth over the hands alone is measured, in bytes per 1,000 hands:

- the events, per event type: their encoded state (the transcoder's JSON),
  that state as stored (compressed by default: floor.kernel.compression), the
  bytes of their rows with their keys, and their share of all;
- the CommandRecord's share (the idempotency record, floor.kernel.command_record)
  and what the options of issue 23, item 6 would save, figured on the very
  records written: its result dropped (a digest in its place), its audit
  fields dropped; every event's state compressed with plain zlib and with the
  preset dictionary, and what each costs a state to compress and to read
  (microseconds, the best of three passes: CPU, so the machine's load shows);
- the read models: ``manage.py migrate`` and ``rebuild_projections`` run on the
  scratch store in a subprocess, then each table's pages (SQLite's dbstat),
  the audit journal's included, before and after the hands.

Nothing here is a ratio against a peer: it is the figure issue 23 asks for
(<= 3 MB per 1,000 hands), measured on the service's own store. The exit status
is 1 when a command is refused, the chips do not add up, or the rebuild fails.

Usage: .venv/bin/python bench/store_size.py [--hands 125] [--no-read-models]
(--hands is per table; eight tables: 125 make 1,000 hands.)
Results: printed, and written to var/bench/store_size-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import zlib
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import ledger as ledger_bench  # noqa: E402  (plugs the books in)
from bench.scratch_env import clean_environ, output_dir, shown  # noqa: E402
from floor.application.floor_app import FloorApplication  # noqa: E402
from floor.kernel.compression import ZlibWithDictionary, inflate  # noqa: E402
from games.profiles import CM  # noqa: E402

RECORD_TOPIC = "floor.domain.command_record:CommandRecord.Recorded"
AUDIT_FIELDS = ("actor", "actor_role", "command_id", "rule_profile")
# A row's own bytes besides its state: the originator id (a UUID as text),
# its version, its topic (the library's SQLite row; the notification id is the rowid).
ROW_KEYS = 36 + 4


def events_after(path: Path, position: int) -> list[tuple[str, bytes, bytes]]:
    """(topic, encoded state, stored state) of every event after ``position``."""
    with sqlite3.connect(path) as db:
        stored = db.execute("SELECT topic, state FROM stored_events WHERE rowid > ?", (position,))
        return [(topic, inflate(state), state) for topic, state in stored]


def by_type(events: list[tuple[str, bytes, bytes]]) -> dict[str, dict[str, int]]:
    """Per event type: how many, their encoded states' bytes, as stored, their rows' bytes."""
    rows: dict[str, dict[str, int]] = defaultdict(
        lambda: {"count": 0, "state": 0, "stored": 0, "row": 0}
    )
    for topic, state, stored in events:
        row = rows[topic]
        row["count"] += 1
        row["state"] += len(state)
        row["stored"] += len(stored)
        row["row"] += len(stored) + len(topic) + ROW_KEYS
    return dict(rows)


def best_microseconds(work, items: list, passes: int = 3) -> float:
    """The best of ``passes`` runs of ``work`` over ``items``, per item."""
    best = float("inf")
    for _ in range(passes):
        started = time.perf_counter()
        for item in items:
            work(item)
        best = min(best, time.perf_counter() - started)
    return round(best / len(items) * 1e6, 1)


def codec_costs(states: list[bytes]) -> dict[str, float]:
    """Microseconds a state, on the run's states: to compress and to read back
    with plain zlib and with the dictionary, and, for scale, to parse the
    JSON the transcoder then decodes (every read does)."""
    plain = [zlib.compress(s) for s in states]
    dictionary = ZlibWithDictionary()
    with_dictionary = [dictionary.compress(s) for s in states]
    return {
        "zlib compress": best_microseconds(zlib.compress, states),
        "dictionary compress": best_microseconds(dictionary.compress, states),
        "zlib read": best_microseconds(inflate, plain),
        "dictionary read": best_microseconds(inflate, with_dictionary),
        "plain read (passed through)": best_microseconds(inflate, states),
        "json.loads (for scale)": best_microseconds(json.loads, states),
    }


def record_options(events: list[tuple[str, bytes]]) -> dict[str, int]:
    """The CommandRecords' state bytes as written, and as each option would
    write them: no result (a 64-character digest of it instead), no audit fields,
    both; and every event's state compressed with zlib (level 6)."""
    options = {"as written": 0, "result as a digest": 0, "no audit fields": 0, "both": 0}
    for topic, state, _stored in events:
        if topic != RECORD_TOPIC:
            continue
        body = json.loads(state)
        options["as written"] += len(state)
        digest = {**body, "result": "0" * 64}
        options["result as a digest"] += len(json.dumps(digest, separators=(",", ":")))
        bare = {k: v for k, v in body.items() if k not in AUDIT_FIELDS}
        options["no audit fields"] += len(json.dumps(bare, separators=(",", ":")))
        both = {**bare, "result": "0" * 64}
        options["both"] += len(json.dumps(both, separators=(",", ":")))
    return options


def read_model_pages(path: Path) -> dict[str, int]:
    """Bytes of every table and index of the read models' database (dbstat)."""
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"))


def rebuild_read_models(var_dir: Path) -> dict[str, int]:
    """Migrates a read-model database beside the scratch event store and
    rebuilds it from the log; its bytes per table."""
    env = {**clean_environ(), "FLOOR_VAR_DIR": str(var_dir), "FLOOR_RULE_PROFILE": "CM"}
    manage = [sys.executable, str(ROOT / "manage.py")]
    for command in (["migrate", "-v", "0"], ["rebuild_projections", "--no-progress"]):
        subprocess.run([*manage, *command], env=env, check=True, cwd=ROOT, capture_output=True)
    return read_model_pages(var_dir / "floor.sqlite3")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=125, help="hands per table (8 tables)")
    parser.add_argument("--no-read-models", action="store_true", help="events only")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands is at least 1")
    with tempfile.TemporaryDirectory(prefix="store-size-bench-") as scratch:
        return run(args, Path(scratch))


def per_thousand(value: float, hands: int) -> int:
    return round(value * 1000 / hands)


def run(args: argparse.Namespace, scratch: Path) -> int:
    store = scratch / "events.sqlite3"
    app = FloorApplication(
        env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(store)},
        profile=CM,
    )
    tables = ledger_bench.build(app)
    built_at = app.last_position()
    read_before: dict[str, int] = {}
    problems: list[str] = []
    if not args.no_read_models:
        read_before = rebuild_read_models(scratch)
    rake: dict[str, int] = {}
    ledger_bench.deal(app, tables, args.hands, rake)
    problems += ledger_bench.check(app, tables, rake, booked=True)
    app.close()
    hands = args.hands * len(tables)
    events = events_after(store, built_at)
    types = by_type(events)
    total_rows = sum(t["row"] for t in types.values())
    total_states = sum(t["state"] for t in types.values())
    total_stored = sum(t["stored"] for t in types.values())
    compressed = sum(len(zlib.compress(state)) for _, state, _ in events)
    dictionary = ZlibWithDictionary()
    with_dictionary = sum(len(dictionary.compress(state)) for _, state, _ in events)
    costs = codec_costs([state for _, state, _ in events])
    options = record_options(events)
    read_after = {} if args.no_read_models else rebuild_read_models(scratch)
    read_growth = {
        name: read_after.get(name, 0) - read_before.get(name, 0)
        for name in read_after
        if read_after.get(name, 0) != read_before.get(name, 0)
    }
    read_total = sum(read_growth.values())

    print(f"{hands} hands on {len(tables)} tables: {len(events)} events")
    print(
        f"per 1,000 hands, bytes:     {'events':>8}{'state':>11}{'stored':>11}{'rows':>11}"
        f"{'share':>8}"
    )
    for topic, row in sorted(types.items(), key=lambda kv: -kv[1]["row"]):
        name = topic.split(":")[-1]
        print(
            f"  {name:28}{per_thousand(row['count'], hands):>8}"
            f"{per_thousand(row['state'], hands):>11}{per_thousand(row['stored'], hands):>11}"
            f"{per_thousand(row['row'], hands):>11}{row['row'] / total_rows:>8.1%}"
        )
    print(
        f"  {'all events':28}{per_thousand(len(events), hands):>8}"
        f"{per_thousand(total_states, hands):>11}{per_thousand(total_stored, hands):>11}"
        f"{per_thousand(total_rows, hands):>11}"
    )
    print("CommandRecord states per 1,000 hands, bytes, by option:")
    for option, size in options.items():
        print(f"  {option:28}{per_thousand(size, hands):>11}")
    print(
        f"every event's state zlib-compressed: {per_thousand(compressed, hands)} bytes "
        f"({compressed / total_states:.0%} of the states); with the dictionary: "
        f"{per_thousand(with_dictionary, hands)} bytes ({with_dictionary / total_states:.0%}); "
        f"as stored: {total_stored / total_states:.0%}"
    )
    print("microseconds a state (the best of three passes):")
    for name, value in costs.items():
        print(f"  {name:28}{value:>11}")
    if read_after:
        grown = per_thousand(read_total, hands)
        print(f"read models per 1,000 hands (SQLite pages, growth): {grown} bytes")
        for name, grown in sorted(read_growth.items(), key=lambda kv: -kv[1])[:12]:
            print(f"  {name:40}{per_thousand(grown, hands):>11}")
    for problem in problems[:10]:
        print(f"WRONG: {problem}")
    output_dir().mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = output_dir() / f"store_size-{stamp}.json"
    report = {
        "args": vars(args),
        "hands": hands,
        "events": len(events),
        "per_1000_hands": {
            "event_rows_bytes": per_thousand(total_rows, hands),
            "event_states_bytes": per_thousand(total_states, hands),
            "event_states_stored_bytes": per_thousand(total_stored, hands),
            "event_states_zlib_bytes": per_thousand(compressed, hands),
            "event_states_dictionary_bytes": per_thousand(with_dictionary, hands),
            "read_models_bytes": per_thousand(read_total, hands) if read_after else None,
            "by_type": {
                topic: {k: per_thousand(v, hands) for k, v in row.items()}
                for topic, row in types.items()
            },
            "command_record_options": {k: per_thousand(v, hands) for k, v in options.items()},
            "read_models_by_table": {k: per_thousand(v, hands) for k, v in read_growth.items()},
        },
        "codec_microseconds": costs,
        "problems": problems,
    }
    out.write_text(json.dumps(report, indent=2))
    print(f"written to {shown(out)}")
    return 1 if problems else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
