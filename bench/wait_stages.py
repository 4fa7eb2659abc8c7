"""Where a command's wait for its read models goes, stage by stage (issue 23).

bench/profile_command.py says how long a request waits for the projector
process; this says where that wait goes. It runs sector cycles in this process
through Django's test client (as profile_command.py does, one client, nothing
profiled) beside a ``manage.py run_projector`` started by this script in a
child process, and both processes stamp the stages of every command with
``time.monotonic()`` (CLOCK_MONOTONIC: one clock for every process of the
machine):

- ``saved``: the request is done with its command (the event store's save
  committed: on PostgreSQL its NOTIFY is sent then) and starts to wait;
- ``woke``: the projector's wait for the log returned (a NOTIFY on
  PostgreSQL, a nudge or a poll on SQLite), the last one before its batch;
- ``batch``: the projector's batch began (reading the log past its position);
- ``committed``: the batch's transaction committed;
- ``nudged``: the projector nudged the waiting web workers;
- ``heard``: the request's pause ended on that nudge;
- ``shown``: the request read the position past its command and answers.

It also times the projector's statements (wall time, a round trip each, and
its commits), which is where a batch waits on PostgreSQL.

A command is matched to the projector's batch whose events hold its last one.
It prints each stage's p50 and p90 in milliseconds and how many reads of the
position a wait took. A wake or batch already under way when the command was
saved (several clients; not here) shows as a negative stage.

Usage: .venv/bin/python bench/wait_stages.py [--backend embedded|postgres|both] [--cycles 30]
Results: printed, and written to var/bench/wait_stages-<timestamp>-<backend>.json.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import commands as bench_commands
from bench.scratch_env import output_dir, shown

# Its own scratch database: commands.py may run beside it.
bench_commands.PG_BENCH_DB = os.environ.get("FLOOR_BENCH_STAGES_PG_DB", "floor_bench_stages")

WARM_CYCLES = 2
READY_TIMEOUT = 30.0  # s
STAGES = ("saved", "woke", "batch", "committed", "nudged", "heard", "shown")


def stamped_projector(out: str) -> int:
    """``manage.py run_projector`` in this process, stamping its wakes, its
    batches and its nudges; written to ``out`` (JSON) on SIGUSR2."""
    import django

    django.setup()
    from django.core.management import call_command

    from floor import nudges, projector_wakeup
    from floor.kernel.web.projector import CatchUpProjector

    wakes: list[float] = []
    batches: list[list[float]] = []  # began, committed, start, end
    nudged: list[float] = []

    def stamp_wait(original: Any) -> Any:
        def wait(self: Any, *args: Any, **kwargs: Any) -> bool:
            result = original(self, *args, **kwargs)
            wakes.append(time.monotonic())
            return result

        return wait

    for kind in (projector_wakeup.ListeningWakeup, projector_wakeup.PollingWakeup):
        kind.wait = stamp_wait(kind.wait)  # type: ignore[method-assign]
    apply_from = CatchUpProjector._apply_from

    def stamped_apply(self: CatchUpProjector, start: int, guessed: bool = False) -> int | None:
        began = time.monotonic()
        applied = apply_from(self, start, guessed)
        if applied:
            batches.append([began, time.monotonic(), start, self._left or 0])
        return applied

    CatchUpProjector._apply_from = stamped_apply  # type: ignore[method-assign]
    nudge_waiters = nudges.nudge_waiters

    def stamped_nudge() -> int:
        taken = nudge_waiters()
        nudged.append(time.monotonic())
        return taken

    nudges.nudge_waiters = stamped_nudge

    # Each statement's wall time, by its first words, and the commits':
    # what a batch waits for on the server (a round trip each).
    from django.db import connections
    from django.db.backends.base.base import BaseDatabaseWrapper

    statements: dict[str, list[float]] = {}

    def timed(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        began = time.monotonic()
        try:
            return execute(sql, params, many, context)
        finally:
            key = " ".join(sql.split()[:4])[:60]
            statements.setdefault(key, []).append(time.monotonic() - began)

    for alias in connections:
        connections[alias].execute_wrappers.append(timed)
    commit = BaseDatabaseWrapper._commit

    def timed_commit(self: Any) -> Any:
        began = time.monotonic()
        try:
            return commit(self)
        finally:
            statements.setdefault("COMMIT", []).append(time.monotonic() - began)

    BaseDatabaseWrapper._commit = timed_commit  # type: ignore[method-assign]

    def dump(*_: Any) -> None:
        record = {
            "wakes": wakes,
            "batches": batches,
            "nudged": nudged,
            "statements": {key: [len(times), sum(times)] for key, times in statements.items()},
        }
        Path(out + ".tmp").write_text(json.dumps(record))
        Path(out + ".tmp").rename(out)

    signal.signal(signal.SIGUSR2, dump)
    call_command("run_projector")
    return 0


@contextlib.contextmanager
def projector_stamping(env: dict[str, str], scratch: Path) -> Any:
    """The projector process, through ``stamped_projector``."""
    log = scratch / "projector.log"
    with log.open("ab") as sink:
        process = subprocess.Popen(
            [sys.executable, __file__, "--projector-child", str(scratch / "stages.json")],
            cwd=bench_commands.ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        bench_commands.stop(process)


def first_after(stamps: list[float], moment: float) -> float | None:
    """The first of the sorted ``stamps`` at or after ``moment``."""
    return next((stamp for stamp in stamps if stamp >= moment), None)


def last_before(stamps: list[float], moment: float) -> float | None:
    """The last of the sorted ``stamps`` at or before ``moment``."""
    found = None
    for stamp in stamps:
        if stamp > moment:
            break
        found = stamp
    return found


def match(waits: list[dict[str, Any]], record: dict[str, Any]) -> list[dict[str, float]]:
    """Each wait's stages, from the request's stamps and the projector's."""
    wakes, nudged = sorted(record["wakes"]), sorted(record["nudged"])
    matched = []
    for wait in waits:
        batch = next(
            (b for b in record["batches"] if b[2] < wait["until"] <= b[3]),
            None,
        )
        if batch is None:
            continue
        woke = last_before(wakes, batch[0])
        stages = {
            "saved": wait["saved"],
            "woke": woke if woke is not None else batch[0],
            "batch": batch[0],
            "committed": batch[1],
            "nudged": first_after(nudged, batch[1]) or batch[1],
            "heard": first_after(wait["heard"], batch[1]) or wait["shown"],
            "shown": wait["shown"],
            "reads": wait["reads"],
        }
        matched.append(stages)
    return matched


def child(backend: str, cycles: int) -> int:
    """One backend, in this process: stores, projector, the stamped cycles."""
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="floor-stages-")))
        if backend == "postgres":
            stack.enter_context(bench_commands.scratch_database())
        env = bench_commands.server_env(backend, scratch)
        env["FLOOR_READ_MODELS"] = "projector"
        tokens = bench_commands.prepare(env)
        projector = stack.enter_context(projector_stamping(env, scratch))
        os.environ.clear()
        os.environ.update(env)
        import django

        django.setup()
        from django.test import Client

        from floor import nudges, read_models
        from floor.liveness import liveness

        deadline = time.monotonic() + READY_TIMEOUT
        while liveness()["projector_seconds_ago"] is None:
            if projector.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the projector did not start")
            time.sleep(0.1)

        waits: list[dict[str, Any]] = []
        heard: list[float] = []
        show, wait_for, inbox_wait = read_models.show, read_models.wait_for, nudges.Inbox.wait

        def stamped_show(projector: Any, until: int | None, *args: Any, **kwargs: Any) -> None:
            saved = time.monotonic()
            heard.clear()
            show(projector, until, *args, **kwargs)
            if until is not None and kwargs.get("wait", True):
                waits.append(
                    {
                        "until": until,
                        "saved": saved,
                        "shown": time.monotonic(),
                        "heard": list(heard),
                        "reads": reads[-1] if reads else 0,
                    }
                )

        reads: list[int] = []

        def counted_wait_for(*args: Any, **kwargs: Any) -> int:
            count = wait_for(*args, **kwargs)
            reads.append(count)
            return count

        def stamped_inbox_wait(self: Any, timeout: float) -> bool:
            nudged = inbox_wait(self, timeout)
            if nudged:
                heard.append(time.monotonic())
            return nudged

        read_models.show = stamped_show
        read_models.wait_for = counted_wait_for
        nudges.Inbox.wait = stamped_inbox_wait  # type: ignore[method-assign]
        sectors = bench_commands.InProcessCycles(Client(HTTP_HOST="127.0.0.1"), tokens)
        unexpected = sectors.unexpected
        cycle = sectors.cycle

        for index in range(WARM_CYCLES):
            cycle(f"warm {index}")
        waits.clear()
        began = time.perf_counter()
        for index in range(cycles):
            cycle(f"stamped {index}")
        elapsed = time.perf_counter() - began
        time.sleep(0.3)  # its last nudge
        os.kill(projector.pid, signal.SIGUSR2)
        out = scratch / "stages.json"
        deadline = time.monotonic() + READY_TIMEOUT
        while not out.exists():
            if time.monotonic() > deadline:
                raise RuntimeError("the projector wrote no stamps")
            time.sleep(0.05)
        record = json.loads(out.read_text())
    matched = match(waits, record)
    commands = cycles * (bench_commands.TABLES_PER_SECTOR + 2)
    spans: dict[str, dict[str, float | None]] = {}
    steps = [*itertools.pairwise(STAGES), ("saved", "shown")]
    for first, second in steps:
        ordered = sorted((m[second] - m[first]) * 1000 for m in matched)
        spans[f"{first} -> {second}"] = {
            f"p{pct}": bench_commands.percentile(ordered, pct) for pct in (10, 50, 90)
        }
    ordered_reads = sorted(float(m["reads"]) for m in matched)
    results = {
        "benchmark": "wait_stages",
        "backend": backend,
        "commit": bench_commands.git_commit(),
        "commands": commands,
        "waits_matched": len(matched),
        "ms_per_command": elapsed / commands * 1000,
        "stages_ms": spans,
        "position_reads_mean": sum(ordered_reads) / len(ordered_reads) if matched else None,
        "unexpected": unexpected[:10],
    }
    print(
        f"\n{bench_commands.BACKEND_TITLES[backend]}: {commands} commands, one client, "
        f"{results['ms_per_command']:.1f} ms each; {len(matched)} waits matched to their batch"
    )
    print(f"  {'stage (ms)':<26}{'p10':>8}{'p50':>8}{'p90':>8}")
    for label, span in spans.items():
        print(
            f"  {label:<26}"
            + "".join(f"{bench_commands.fmt(span[f'p{pct}'], 2):>8}" for pct in (10, 50, 90))
        )
    if matched:
        print(f"  reads of the position per wait: {results['position_reads_mean']:.2f}")
    # The projector's statements (its start's too), per batch of the cycles.
    count = len(record["batches"]) or 1
    by_time = sorted(record["statements"].items(), key=lambda item: -item[1][1])
    results["projector_statements"] = {
        key: {"per_batch": n / count, "ms_each": total * 1000 / n} for key, (n, total) in by_time
    }
    print(f"  the projector's statements, {len(record['batches'])} batches (wall ms):")
    for key, (n, total) in by_time[:14]:
        print(f"    {n / count:5.2f} a batch  {total * 1000 / n:6.2f} ms each  {key}")
    if unexpected:
        print(f"  UNEXPECTED answers: {unexpected[:10]}")
    if not matched:  # the stamps no longer reach a stage: the figures would all be "-"
        print("  NO WAIT MATCHED to its batch: the stages were not stamped")
    output_dir().mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    path = output_dir() / f"wait_stages-{stamp}-{backend}.json"
    path.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(f"  results written to {shown(path)}")
    return 1 if unexpected or not matched else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("embedded", "postgres", "both"), default="both")
    parser.add_argument("--cycles", type=int, default=30, help="sector cycles (6 commands each)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--projector-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cycles < 1:
        parser.error("--cycles must be at least 1")
    if args.projector_child:
        return stamped_projector(args.projector_child)
    bench_commands.unwind_on_signals()
    if args.child:
        return child(args.backend, args.cycles)
    backends = ("embedded", "postgres") if args.backend == "both" else (args.backend,)
    status = 0
    for backend in backends:
        command = [sys.executable, __file__, "--child", "--backend", backend]
        command += ["--cycles", str(args.cycles)]
        status = max(status, subprocess.run(command, check=False).returncode)
    return status


if __name__ == "__main__":
    sys.exit(main())
