"""What a rebuild costs the people reading the floor: the shadow rebuild
against the in-place one it replaced (issue 23, item 3), side by side.

On each backend (a scratch var/ directory for the embedded SQLite default; a
scratch PostgreSQL database ``floor_bench_shadow``), one process migrates, builds
bench/ledger.py's floor (a funded cage, ``--tables`` tables of eight players,
bought in) and deals ``--hands`` hands at every table, projected live. Then it
rebuilds the read models twice, while a reader thread counts the open tables
and the seated players as a console does, over and over:

- **in place**: the rebuild before issue 23 (empty the read models, replay);
- **shadow**: ``rebuild_projections``'s (floor.kernel.web.shadow_rebuild).

Reported: events/s of each and their ratio (what the shadow's extra work
costs), how long the switch held the live lock and how many rows it copied (0
on PostgreSQL, which swaps the tables), and
how many of the reader's reads showed a partial floor. The exit status is 1 when
a read during the shadow rebuild showed a partial floor, or when a rebuild does
not end with the read models it started from.

Usage: .venv/bin/python bench/rebuild_shadow.py [--backend both] [--tables 8] [--hands 40]
Results: printed, and written to var/bench/rebuild_shadow-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scratch_env import clean_environ, output_dir, shown  # noqa: E402

PG_DB = os.environ.get("FLOOR_BENCH_SHADOW_PG_DB", "floor_bench_shadow")
# The role CI's services make (.ci/services), as bench/commands.py uses it.
PG_URL = f"postgresql://floor:floor@127.0.0.1:5432/{PG_DB}"


@contextlib.contextmanager
def scratch_database() -> Iterator[None]:
    """A PostgreSQL database of the bench's own, dropped at the end."""
    import psycopg

    def admin(sql: str) -> None:
        with psycopg.connect(PG_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as c:
            c.execute(sql)

    admin(f"DROP DATABASE IF EXISTS {PG_DB} WITH (FORCE)")
    admin(f"CREATE DATABASE {PG_DB} OWNER floor")
    try:
        yield
    finally:
        admin(f"DROP DATABASE IF EXISTS {PG_DB} WITH (FORCE)")


def run_backend(backend: str, args: argparse.Namespace, scratch: Path) -> dict[str, Any]:
    """The measuring process on ``backend``: its JSON result."""
    env = {**clean_environ(), "FLOOR_VAR_DIR": str(scratch / backend), "FLOOR_RULE_PROFILE": "CM"}
    if backend == "postgres":
        env["DATABASE_URL"] = PG_URL
    out = scratch / f"{backend}.json"
    command = [
        *(sys.executable, __file__, "measure"),
        *(str(args.tables), str(args.hands), str(args.batch_size), str(out)),
    ]
    with scratch_database() if backend == "postgres" else contextlib.nullcontext():
        subprocess.run(command, env=env, check=True, cwd=ROOT, stdin=subprocess.DEVNULL)
    return json.loads(out.read_text())


# --- the measuring process (Django set up on the scratch stores) -----------------------


class Reader(threading.Thread):
    """Reads what a console shows (open tables, seated players) until stopped,
    counting the reads that differ from the whole floor."""

    def __init__(self, whole: tuple[int, int]) -> None:
        super().__init__(daemon=True)
        self.whole = whole
        self.reads = 0
        self.partial = 0
        self.stop = threading.Event()

    def run(self) -> None:
        from django.db import connection

        from floor.models import SeatView, TableView

        try:
            while not self.stop.is_set():
                shown = (
                    TableView.objects.filter(closed_at__isnull=True).count(),
                    SeatView.objects.count(),
                )
                self.reads += 1
                self.partial += shown != self.whole
                time.sleep(0.005)  # a console's polling, not a busy loop
        finally:
            connection.close()


def read_models(projection) -> dict[str, list[str]]:
    """The read models' rows (surrogate ids and the sweeper's timers out)."""
    rows = {}
    for model in projection.read_models():
        if model._meta.model_name == "pendingtimer":
            continue
        fields = [
            f.attname
            for f in model._meta.concrete_fields
            if not (f.primary_key and f.get_internal_type() in ("AutoField", "BigAutoField"))
        ]
        rows[model._meta.label] = sorted(
            json.dumps(row, sort_keys=True, default=str) for row in model.objects.values(*fields)
        )
    return rows


def measure(tables_wanted: int, hands: int, batch_size: int, out: Path) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from bench import ledger as floor_builder
    from floor import runtime
    from floor.kernel.web.shadow_rebuild import ShadowRebuild
    from floor.models import SeatView, TableView

    call_command("migrate", verbosity=0)
    app = runtime.floor_app()
    floor_builder.TABLES = tables_wanted  # in sectors of four
    tables = floor_builder.build(app)
    floor_builder.deal(app, tables, hands, {})
    projector = runtime.floor_projector()
    projector.batch_size = batch_size
    projector.catch_up(timeout=3600)
    events = app.last_position()
    whole = (TableView.objects.filter(closed_at__isnull=True).count(), SeatView.objects.count())
    before = read_models(projector.projection)
    result: dict[str, Any] = {"backend": connection.vendor, "events": events, "whole": whole}
    problems: list[str] = []

    def in_place() -> dict[str, Any]:
        projector.reset()
        while projector.position() < events:
            projector.run_once()
        return {}

    def shadow() -> dict[str, Any]:
        rebuild = ShadowRebuild(projector, batch_size=batch_size)
        switch = rebuild.switch
        timed: dict[str, Any] = {}

        def timed_switch() -> int:
            started = time.perf_counter()
            position = switch()
            timed["switch_seconds"] = round(time.perf_counter() - started, 3)
            return position

        rebuild.switch = timed_switch
        copy = rebuild.shadow.replace_live

        def counted_copy() -> int:
            timed["rows_copied"] = copy()
            return timed["rows_copied"]

        rebuild.shadow.replace_live = counted_copy
        rebuild.run()
        return timed

    for name, rebuild in (("shadow", shadow), ("in_place", in_place)):
        reader = Reader(whole)
        reader.start()
        started = time.perf_counter()
        extra = rebuild()
        seconds = time.perf_counter() - started
        reader.stop.set()
        reader.join()
        result[name] = {
            "seconds": round(seconds, 3),
            "events_per_second": round(events / seconds, 1),
            "reads": reader.reads,
            "partial_reads": reader.partial,
            **extra,
        }
        if read_models(projector.projection) != before:
            problems.append(f"{name}: the read models differ from the live ones it rebuilt")
    if result["shadow"]["partial_reads"]:
        problems.append("a read during the shadow rebuild showed a partial floor")
    result["ratio_shadow_to_in_place"] = round(
        result["shadow"]["events_per_second"] / result["in_place"]["events_per_second"], 2
    )
    result["problems"] = problems
    out.write_text(json.dumps(result))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "measure":
        measure(int(argv[1]), int(argv[2]), int(argv[3]), Path(argv[4]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("embedded", "postgres", "both"), default="both")
    parser.add_argument("--tables", type=int, default=8, help="a multiple of 4 (sectors of four)")
    parser.add_argument("--hands", type=int, default=40, help="hands dealt at each table")
    parser.add_argument("--batch-size", type=int, default=500)
    args = parser.parse_args(argv)
    if args.tables < 4 or args.tables % 4 or args.hands < 1:
        parser.error("--tables is a multiple of 4, --hands at least 1")
    backends = ["embedded", "postgres"] if args.backend == "both" else [args.backend]
    runs = {}
    with tempfile.TemporaryDirectory(prefix="rebuild-shadow-bench-") as scratch:
        for backend in backends:
            runs[backend] = run_backend(backend, args, Path(scratch))
    print(f"{args.tables} tables x 8 players, {args.hands} hands each", end="")
    print(f", batches of {args.batch_size}")
    print(
        f"{'':10}{'events':>8}{'rebuild':>9}{'ev/s':>9}{'partial reads':>15}"
        f"{'switch s':>10}{'rows':>8}{'shadow/in place':>17}"
    )
    for backend, run in runs.items():
        for name in ("in_place", "shadow"):
            row = run[name]
            print(
                f"{backend:10}{run['events']:>8}{name:>9}{row['events_per_second']:>9}"
                f"{row['partial_reads']:>9} of {row['reads']:<4}"
                f"{row.get('switch_seconds', ''):>10}{row.get('rows_copied', ''):>8}"
                + (f"{run['ratio_shadow_to_in_place']:>17}" if name == "shadow" else "")
            )
        for problem in run["problems"]:
            print(f"WRONG, {backend}: {problem}")
    output_dir().mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = output_dir() / f"rebuild_shadow-{stamp}.json"
    out.write_text(json.dumps({"args": vars(args), "runs": runs}, indent=2))
    print(f"written to {shown(out)}")
    return 1 if any(run["problems"] for run in runs.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
