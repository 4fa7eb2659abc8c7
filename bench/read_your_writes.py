"""How long a command waits to show its own effect: behind the projector process,
against applying the events in the request (issue 23, item 1).

For each backend (SQLite files in a scratch directory; PostgreSQL in a scratch
database) a driver process runs ``open_sector`` commands one after the other on
the floor application, and after each one brings the read models to the
command's position the way a request does:

- ``inline`` (before issue 23): the driver applies the events itself
  (``CatchUpProjector.catch_up``), no projector process running;
- ``projector``: ``manage.py run_projector`` runs beside it, woken by the
  store's NOTIFY on PostgreSQL or its 10 ms poll of ``max(id)`` on SQLite, and
  the driver waits for its position as the gateway does
  (``floor.read_models.wait_for``: reads of the position row with pauses
  doubling from 1 to 10 ms).

The two alternate by round (inline, projector, projector, inline, ...) so that
outside load falls on both; only the ratio projector / inline is meaningful
across machines. It prints, per mode, the p50 and p99 of the wait (the part a
request spends on read-your-writes) and of the whole command, and how many
position reads a wait took: the figures that decided polling over a LISTEN in
the request (docs/architecture.md, "Read side").

The exit status is 1 when a wait timed out (FLOOR_READ_YOUR_WRITES_SECONDS).

Usage: .venv/bin/python bench/read_your_writes.py [--backend both] [--commands 40]
       [--rounds 4]
Results: printed, and written to var/bench/read_your_writes-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.commands import (
    PG_ADMIN,
    PG_BENCH_DB,
    ROOT,
    percentile,
    projector,
    run_python,
    scratch_database,
)
from bench.scratch_env import clean_environ, output_dir, shown

MODES = ("inline", "projector")
READY_TIMEOUT = 60.0  # s: the projector's first heartbeat on a busy machine


def driver_env(backend: str, scratch: Path, mode: str) -> dict[str, str]:
    env = clean_environ()
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        FLOOR_VAR_DIR=str(scratch / "var"),
        FLOOR_LOG_LEVEL="WARNING",
        FLOOR_READ_MODELS=mode,
        DJANGO_DEBUG="0",
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    if backend == "postgres":
        env["DATABASE_URL"] = (
            f"postgresql://{PG_ADMIN['user']}:{PG_ADMIN['password']}@{PG_ADMIN['host']}:"
            f"{PG_ADMIN['port']}/{PG_BENCH_DB}"
        )
    return env


# --- The driver, in the scratch stores' environment.


def drive(mode: str, commands: int, tag: str) -> dict[str, Any]:
    """Runs ``commands`` commands and shows each; returns the milliseconds."""
    import django

    django.setup()
    from django.utils import timezone

    from floor import read_models, runtime
    from floor.kernel.registry import COMMANDS
    from floor.kernel.roles import Actor, Role
    from floor.models import SchedulerHeartbeat

    app = runtime.floor_app()
    shown_by = runtime.floor_projector()
    actor = Actor("bench-director", frozenset({Role.DIRECTOR}))
    open_sector = COMMANDS.bound(app, "open_sector")
    if mode == "projector":
        # This round's projector: a heartbeat written since this driver started.
        started = timezone.now()
        deadline = time.monotonic() + READY_TIMEOUT
        beats = SchedulerHeartbeat.objects.filter(name="projector", last_run_at__gte=started)
        while not beats.exists():
            if time.monotonic() > deadline:
                raise RuntimeError("the projector did not start")
            threading.Event().wait(0.05)
    else:
        shown_by.catch_up()
    samples = []
    for index in range(commands):
        began = time.perf_counter()
        outcome = open_sector(actor, str(uuid.uuid4()), name=f"{tag} {index:04d}")
        saved = time.perf_counter()
        reads = 0
        if mode == "inline":
            shown_by.catch_up(until=outcome.position, timeout=5.0)
        else:
            reads = read_models.wait_for(shown_by.position, outcome.position, 5.0)
        done = time.perf_counter()
        samples.append(
            {"save_ms": (saved - began) * 1000, "show_ms": (done - saved) * 1000, "reads": reads}
        )
    return {"samples": samples}


# --- The orchestrator.


def run_round(backend: str, scratch: Path, mode: str, commands: int, tag: str) -> list[dict]:
    env = driver_env(backend, scratch, mode)
    args = ("bench/read_your_writes.py", "--drive", mode, "--commands", str(commands))
    args += ("--tag", tag)
    with contextlib.ExitStack() as stack:
        if mode == "projector":
            stack.enter_context(projector(env, scratch))
        output = run_python(env, *args)
    return json.loads(output.strip().splitlines()[-1])["samples"]


def figures(samples: list[dict]) -> dict[str, Any]:
    show = sorted(s["show_ms"] for s in samples)
    total = sorted(s["save_ms"] + s["show_ms"] for s in samples)
    reads = [s["reads"] for s in samples]
    return {
        "commands": len(samples),
        "show_p50_ms": percentile(show, 50),
        "show_p99_ms": percentile(show, 99),
        "command_p50_ms": percentile(total, 50),
        "command_p99_ms": percentile(total, 99),
        "reads_mean": statistics.fmean(reads) if reads else None,
        "reads_max": max(reads) if reads else None,
    }


def run_backend(backend: str, args: argparse.Namespace) -> dict[str, Any]:
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="floor-ryw-")))
        if backend == "postgres":
            stack.enter_context(scratch_database())
        run_python(driver_env(backend, scratch, "inline"), "manage.py", "migrate", "--noinput")
        samples: dict[str, list[dict]] = {mode: [] for mode in MODES}
        for index in range(args.rounds):
            order = MODES if index % 2 == 0 else MODES[::-1]
            for mode in order:
                tag = f"r{index} {mode}"
                samples[mode] += run_round(backend, scratch, mode, args.commands, tag)
        result = {mode: figures(samples[mode]) for mode in MODES}
        inline, behind = result["inline"], result["projector"]
        result["ratio_projector_to_inline"] = {
            key: behind[key] / inline[key] if inline[key] else None
            for key in ("show_p50_ms", "show_p99_ms", "command_p50_ms", "command_p99_ms")
        }
        return result


def fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def print_backend(backend: str, result: dict[str, Any], args: argparse.Namespace) -> None:
    title = {"embedded": "embedded default (SQLite)", "postgres": "PostgreSQL"}[backend]
    print(f"\n{title}: {args.commands} commands per round, {args.rounds} rounds per mode")
    header = ("mode", "show p50", "show p99", "cmd p50", "cmd p99", "reads", "max")
    print(f"{header[0]:<11}" + "".join(f"{h:>10}" for h in header[1:]))
    for mode in MODES:
        r = result[mode]
        cells = (r["show_p50_ms"], r["show_p99_ms"], r["command_p50_ms"], r["command_p99_ms"])
        row = [fmt(c) for c in cells] + [fmt(r["reads_mean"]), str(r["reads_max"])]
        print(f"{mode:<11}" + "".join(f"{c:>10}" for c in row))
    ratios = result["ratio_projector_to_inline"]
    print(
        f"projector/inline: show p50 {fmt(ratios['show_p50_ms'], 2)}x, "
        f"p99 {fmt(ratios['show_p99_ms'], 2)}x; command p50 {fmt(ratios['command_p50_ms'], 2)}x, "
        f"p99 {fmt(ratios['command_p99_ms'], 2)}x"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("embedded", "postgres", "both"), default="both")
    parser.add_argument("--commands", type=int, default=40, help="commands per round")
    parser.add_argument("--rounds", type=int, default=4, help="rounds per mode, alternating")
    parser.add_argument("--drive", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--tag", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.drive:
        print(json.dumps(drive(args.drive, args.commands, args.tag)))
        return 0
    if args.commands < 1 or args.rounds < 1:
        parser.error("--commands and --rounds must be at least 1")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    backends = ("embedded", "postgres") if args.backend == "both" else (args.backend,)
    results: dict[str, Any] = {"benchmark": "read_your_writes", "started_at": stamp}
    results["options"] = {"commands": args.commands, "rounds": args.rounds}
    results["backends"] = {}
    for backend in backends:
        results["backends"][backend] = run_backend(backend, args)
        print_backend(backend, results["backends"][backend], args)
    output_dir().mkdir(parents=True, exist_ok=True)
    path = output_dir() / f"read_your_writes-{stamp}.json"
    path.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(f"\nresults written to {shown(path)}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.stderr.write("interrupted: processes stopped, scratch stores removed\n")
        sys.exit(130)
