"""Command latency on a table after a few hands and after many: equal within noise.

A table lives all day (DESIGN.md, "Snapshots for long-lived aggregates"): its
commands must not slow down as its log grows. Two tables of one floor on a
scratch SQLite event store, built alike (bench/ledger.py's tables: eight
players bought in): the young one dealt ``--young`` hands, the old one
``--old`` hands. Then, in alternating rounds so that outside load falls on
both, each deals the same honest hands (bench/hands.py) and every command's
latency (start_hand, end_hand) is taken; the ratio old / young of the medians
is the figure (issue 23: equal within noise).

The old table must be snapshotted (every 50 events, floor.application.floor_app)
and a load of it must replay fewer events than the snapshot interval; its
chips must add up. Otherwise the exit status is 1.

Usage: .venv/bin/python bench/table_age.py [--young 10] [--old 10000] [--rounds 5] [--hands 20]
Results: printed, and written to var/bench/table_age-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import hands as hands_module  # noqa: E402
from bench import ledger as ledger_bench  # noqa: E402  (plugs the books in)
from bench.scratch_env import output_dir, shown  # noqa: E402
from floor.application.floor_app import FloorApplication  # noqa: E402
from games.profiles import CM  # noqa: E402

SNAPSHOT_INTERVAL = 50  # floor.application.floor_app


def rebuy(app: FloorApplication, table_id: str, rake: dict[str, int]) -> None:
    """Tops up to the first buy-in every seat the rake left short of the
    table's minimum (it must rebuy to be dealt in [CM-16; PT 79]). What is
    bought is taken off ``rake``, so that the ledger bench's check (stacks and
    rake add up to the chips bought at first) still holds; the cage fills the
    tray with what is sold, so a long run never empties it."""
    table = app.repository.get(UUID(table_id))
    for state in table.occupants.values():
        if state["must_rebuy"]:
            amount = ledger_bench.BUY_IN_CENTS - state["stack"]
            # The chips sold come from the table's tray: the cage fills it first.
            asked = app.request_tray_move(
                ledger_bench.JEFE,
                ledger_bench.cid(),
                table_id=table_id,
                move="fill",
                amount_cents=amount,
            )
            app.confirm_tray_move(
                ledger_bench.CAJERO, ledger_bench.cid(), request_id=asked.result["request_id"]
            )
            app.buy_in(
                ledger_bench.DEALER,
                ledger_bench.cid(),
                table_id=table_id,
                player=str(UUID(state["player_id"])),
                amount_cents=amount,
            )
            rake[table_id] = rake.get(table_id, 0) - amount


def hand(app: FloorApplication, table_id: str, rake: dict[str, int]) -> tuple[float, float]:
    """One honest hand at ``table_id``; the seconds its start and its end took.
    A long run pays out a stack in rake: its seat rebuys first, untimed."""
    rebuy(app, table_id, rake)
    table = app.repository.get(UUID(table_id))
    dealt = hands_module.deal(app, table, table.occupied())
    began = time.perf_counter()
    started = app.start_hand(
        ledger_bench.DEALER,
        ledger_bench.cid(),
        table_id=table_id,
        dealt_in=dealt.dealt_in,
        blinds=dealt.blinds,
    )
    start_seconds = time.perf_counter() - began
    end = hands_module.showdown(app, table_id, dealt, started.result, True)
    began = time.perf_counter()
    app.end_hand(ledger_bench.DEALER, ledger_bench.cid(), table_id=table_id, **end)
    end_seconds = time.perf_counter() - began
    rake[table_id] = rake.get(table_id, 0) + end["rake_cents"]
    return start_seconds, end_seconds


def replayed_on_load(app: FloorApplication, table_id: str) -> int:
    """How many events a load of the table replays after its last snapshot."""
    table_uuid = UUID(table_id)
    snapshots = list(app.snapshots.get(table_uuid, desc=True, limit=1))
    after = snapshots[0].originator_version if snapshots else None
    return len(list(app.events.get(table_uuid, gt=after)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--young", type=int, default=10, help="hands the young table played")
    parser.add_argument("--old", type=int, default=10_000, help="hands the old table played")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=20, help="hands per table per round")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.hands < 1 or not 0 <= args.young < args.old:
        parser.error("--rounds and --hands are at least 1, and --young < --old")
    with tempfile.TemporaryDirectory(prefix="table-age-bench-") as scratch:
        return run(args, Path(scratch))


def run(args: argparse.Namespace, scratch: Path) -> int:
    app = FloorApplication(
        env={
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(scratch / "table-age.sqlite3"),
        },
        profile=CM,
    )
    built = ledger_bench.build(app)
    tables = {"young": built[0], "old": built[1]}
    rake: dict[str, int] = {}
    began = time.perf_counter()
    for name, played in (("young", args.young), ("old", args.old)):
        for _ in range(played):
            hand(app, tables[name], rake)
    aging_seconds = time.perf_counter() - began
    latencies: dict[str, dict[str, list[float]]] = {
        name: {"start_hand": [], "end_hand": []} for name in tables
    }
    for _ in range(args.rounds):
        for name, table_id in tables.items():
            for _ in range(args.hands):
                start, end = hand(app, table_id, rake)
                latencies[name]["start_hand"].append(start)
                latencies[name]["end_hand"].append(end)
    problems = ledger_bench.check(app, list(tables.values()), rake, booked=True)
    versions = {name: app.repository.get(UUID(t)).version for name, t in tables.items()}
    replayed = {name: replayed_on_load(app, t) for name, t in tables.items()}
    snapshots = {name: len(list(app.snapshots.get(UUID(t)))) for name, t in tables.items()}
    if versions["old"] >= SNAPSHOT_INTERVAL and snapshots["old"] == 0:
        problems.append("the old table was never snapshotted")
    if replayed["old"] >= SNAPSHOT_INTERVAL:
        problems.append(f"a load of the old table replays {replayed['old']} events")
    app.close()

    medians = {
        name: {command: statistics.median(found) * 1000 for command, found in by.items()}
        for name, by in latencies.items()
    }
    p90 = {
        name: {
            command: statistics.quantiles(found, n=10)[-1] * 1000 if len(found) > 1 else found[0]
            for command, found in by.items()
        }
        for name, by in latencies.items()
    }
    ratios = {
        command: medians["old"][command] / medians["young"][command] for command in medians["old"]
    }
    print(
        f"young table: {args.young} hands before, old: {args.old} "
        f"(aged in {aging_seconds:.0f} s); {args.rounds} rounds x {args.hands} hands each"
    )
    print(
        f"{'':8}{'events':>8}{'snapshots':>11}{'replayed':>10}"
        f"{'start ms':>10}{'p90':>7}{'end ms':>9}{'p90':>7}"
    )
    for name in tables:
        print(
            f"{name:8}{versions[name]:>8}{snapshots[name]:>11}{replayed[name]:>10}"
            f"{medians[name]['start_hand']:>10.2f}{p90[name]['start_hand']:>7.2f}"
            f"{medians[name]['end_hand']:>9.2f}{p90[name]['end_hand']:>7.2f}"
        )
    print("old / young, medians: " + ", ".join(f"{c} {r:.2f}" for c, r in ratios.items()))
    for problem in problems[:10]:
        print(f"WRONG: {problem}")
    output_dir().mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = output_dir() / f"table_age-{stamp}.json"
    report = {
        "args": vars(args),
        "aging_seconds": round(aging_seconds, 1),
        "events": versions,
        "snapshots": snapshots,
        "replayed_on_load": replayed,
        "median_ms": medians,
        "p90_ms": p90,
        "old_over_young": ratios,
        "problems": problems,
    }
    out.write_text(json.dumps(report, indent=2))
    print(f"written to {shown(out)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
