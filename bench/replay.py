"""What the library's replay assert costs: our replay against the library's, side by side.

eventsourcing's ``project_aggregate`` asserts ``isinstance(event,
CanMutateProtocol)`` before each event's ``mutate``; on Python 3.11 that
isinstance against a runtime-checkable Protocol is slow. The floor replays
with ``floor.kernel.replay.project_events`` instead (issue 23, item 5). Two
figures, each measured in alternating rounds so that outside load falls on
both alike:

1. replay alone: the same decoded events of every table folded into its
   aggregate, by the library's projector and by ours, and by ours with the
   seats stored by ``dataclasses.asdict`` as before issue 23 (CPU
   microseconds per event);
2. hands: the same floor (one scratch SQLite store, the ledger bench's eight
   tables of eight players, bench/ledger.py) dealt honest hands by two
   applications on that store, one loading with our repository and one with
   the library's (hands per second).

Both replays must give every table the same state, and the hands must leave
the chips as bought (bench/ledger.py's check); otherwise the exit status is 1.

Usage: .venv/bin/python bench/replay.py [--rounds 5] [--hands 10] [--warm-hands 20]
Results: printed, and written to var/bench/replay-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eventsourcing.application import Application, project_aggregate  # noqa: E402

from bench import ledger as ledger_bench  # noqa: E402  (plugs the books in)
from bench.scratch_env import output_dir, shown  # noqa: E402
from floor.application.floor_app import FloorApplication  # noqa: E402
from floor.domain.seat import Seat  # noqa: E402
from floor.kernel.replay import project_events  # noqa: E402
from games.profiles import CM  # noqa: E402


class LibraryReplayFloor(FloorApplication):
    """The same floor, loading with the library's repository and projector:
    the baseline."""

    snapshotting_projectors = {}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.snapshotting_projectors = {}

    def construct_repository(self):
        return Application.construct_repository(self)


def asdict_seats(aggregate, events):
    """Our projector with seats stored by ``dataclasses.asdict``, as before
    issue 23 (floor.domain.seat.Seat.to_state): the seats' baseline."""
    ours = Seat.to_state
    Seat.to_state = asdict
    try:
        return project_events(aggregate, events)
    finally:
        Seat.to_state = ours


def replay_round(events: dict[str, list], projector) -> tuple[float, dict]:
    """CPU seconds to fold every table's events with ``projector``, and the states."""
    started = time.process_time()
    states = {table_id: projector(None, found) for table_id, found in events.items()}
    return time.process_time() - started, states


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=10, help="hands per table per round")
    parser.add_argument(
        "--warm-hands", type=int, default=20, help="hands per table before measuring"
    )
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.hands < 1 or args.warm_hands < 0:
        parser.error("--rounds and --hands are at least 1, --warm-hands at least 0")
    with tempfile.TemporaryDirectory(prefix="replay-bench-") as scratch:
        return run(args, Path(scratch))


def run(args: argparse.Namespace, scratch: Path) -> int:
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(scratch / "replay.sqlite3"),
    }
    apps = {
        "ours": FloorApplication(env=env, profile=CM),
        "library": LibraryReplayFloor(env=env, profile=CM),
    }
    tables = ledger_bench.build(apps["ours"])
    rake: dict[str, int] = {}
    ledger_bench.deal(apps["ours"], tables, args.warm_hands, rake)
    problems: list[str] = []

    # 1. Replay alone: the same decoded events, both projectors.
    events = {t: list(apps["ours"].events.get(UUID(t))) for t in tables}
    count = sum(len(found) for found in events.values())
    projectors = {
        "ours": project_events,
        "library": project_aggregate,
        "asdict seats": asdict_seats,
    }
    replay_seconds: dict[str, list[float]] = {name: [] for name in projectors}
    states: dict[str, dict] = {}
    for _ in range(args.rounds):
        for name, projector in projectors.items():
            seconds, states[name] = replay_round(events, projector)
            replay_seconds[name].append(seconds)
    for table_id in tables:
        for other in ("library", "asdict seats"):
            if vars(states["ours"][table_id]) != vars(states[other][table_id]):
                problems.append(f"table {table_id}: ours and {other} replay differently")

    # 2. Hands: the same floor, dealt by each application in turn.
    hand_seconds: dict[str, list[float]] = {name: [] for name in apps}
    for _ in range(args.rounds):
        for name, app in apps.items():
            hand_seconds[name].append(ledger_bench.deal(app, tables, args.hands, rake))
    problems += ledger_bench.check(apps["ours"], tables, rake, booked=True)

    per_event = {name: round(min(found) / count * 1e6, 2) for name, found in replay_seconds.items()}
    hands = args.rounds * args.hands * len(tables)
    hands_per_second = {name: round(hands / sum(found), 1) for name, found in hand_seconds.items()}
    median_round = {
        name: round(statistics.median(found), 3) for name, found in hand_seconds.items()
    }
    replay_ratio = per_event["library"] / per_event["ours"]
    seats_ratio = per_event["asdict seats"] / per_event["ours"]
    hands_ratio = hands_per_second["ours"] / hands_per_second["library"]
    print(f"{len(tables)} tables, {count} table events replayed per round, {args.rounds} rounds")
    print(f"{'':14}{'us/event':>10}{'hands/s':>10}")
    for name in projectors:
        print(f"{name:14}{per_event[name]:>10}{hands_per_second.get(name, '-'):>10}")
    print(f"replay: library / ours {replay_ratio:.2f}x the CPU time")
    print(f"replay: asdict seats / ours {seats_ratio:.2f}x the CPU time")
    print(f"hands: ours / library {hands_ratio:.2f}x the rate")
    for problem in problems[:10]:
        print(f"WRONG: {problem}")
    output_dir().mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = output_dir() / f"replay-{stamp}.json"
    report = {
        "args": vars(args),
        "python": sys.version.split()[0],
        "events_per_round": count,
        "replay_us_per_event": per_event,
        "hands_per_second": hands_per_second,
        "median_round_seconds": median_round,
        "replay_time_library_over_ours": round(replay_ratio, 2),
        "replay_time_asdict_seats_over_ours": round(seats_ratio, 2),
        "hands_rate_ours_over_library": round(hands_ratio, 2),
        "problems": problems,
    }
    out.write_text(json.dumps(report, indent=2))
    print(f"written to {shown(out)}")
    for app in apps.values():
        app.close()
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
