"""Where one HTTP command's time goes, behind the projector process (issue 23).

bench/commands.py says how fast the command path is against the ORM baseline;
this says why. It migrates scratch stores as commands.py does, starts
``manage.py run_projector`` beside, and runs sector cycles (a sector, four
tables, the refused fifth) in this process through Django's test client, so
every request passes the whole middleware stack, DRF's authentication and
permission, the gateway, the command service, the wait for the projector
(floor.read_models) and the response's read, under cProfile. It prints the
milliseconds per command spent in each of those parts and the distribution of
the wait for the projector. The profiler's overhead inflates every part alike,
so read the parts against each other, and a tree against another in the same
conditions (bench/README.md, commands.py, has the figures). The same cycles
then run again unprofiled, for the CPU a command costs each process without
the profiler's overhead (which weighs most on the many small Python calls).

Each backend runs in its own child process (Django is set up once per process).
The exit status is 1 when a command got an unexpected answer.

With ``--profile-projector N`` the projector process runs under cProfile
too, during the profiled cycles only (signalled on and off: SIGUSR1, SIGUSR2),
and its top N functions by own time and by cumulative time are printed, with
its batches (how many, events each): where the projector's fixed cost per
batch goes. Its CPU per command is then inflated by its profiler; the
unprofiled cycles after stop it first.

Usage: .venv/bin/python bench/profile_command.py [--backend embedded|postgres|both]
       [--cycles 20] [--top 0] [--profile-projector 0]
Results: printed, and written to var/bench/profile_command-<timestamp>-<backend>.json.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import json
import os
import pstats
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

# Its own scratch database: commands.py may run beside it (.ci/benches' lanes).
bench_commands.PG_BENCH_DB = os.environ.get("FLOOR_BENCH_PROFILE_PG_DB", "floor_bench_profile")

WARM_CYCLES = 2  # not profiled: imports, first queries, the projector's start
PROJECTOR_READY_TIMEOUT = 30.0  # s
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


# The parts of a request, as (file suffix, function): the largest cumulative
# time of that function is the part's (its outermost call).
PARTS = {
    "whole request": ("django/test/client.py", "request"),
    "DRF dispatch (auth, permission, view)": ("rest_framework/views.py", "dispatch"),
    "authentication (knox token)": ("rest_framework/views.py", "perform_authentication"),
    "permission check": ("rest_framework/views.py", "check_permissions"),
    "actor_for (the user's roles)": ("floor/kernel/web/gateway.py", "actor_for"),
    "command service (unit of work, save)": ("floor/kernel/service.py", "run"),
    "  of which the event store's save": ("eventsourcing/application.py", "save"),
    "wait for the projector": ("floor/read_models.py", "wait_for"),
    "  of which reads of its position": ("floor/kernel/web/projector.py", "position"),
    "answer's read (table_with_sector)": ("floor/selectors/tables.py", "table_with_sector"),
    "answer's read (sector_of_tables)": ("floor/selectors/tables.py", "sector_of_tables"),
    "answer's serializer": ("rest_framework/serializers.py", "data"),
}


def profiled_projector(out: str) -> int:
    """``manage.py run_projector`` in this process, its main thread under
    cProfile between SIGUSR1 and SIGUSR2 (the stats written to ``out`` then),
    counting its batches (the applied counts of ``run_once``)."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from floor.kernel.web.projector import CatchUpProjector

    # CPU time, not wall time: the projector's waits and its preemption by the
    # other processes on a loaded machine are not its cost.
    profile = cProfile.Profile(time.process_time)
    batches: list[int] = []
    counting = {"on": False}
    statements: dict[str, int] = {}

    def logged(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if counting["on"]:
            key = " ".join(sql.split()[:6])[:120]
            if key.startswith(("SAVEPOINT", "RELEASE SAVEPOINT")):
                key = key.rsplit(" ", 1)[0]
            statements[key] = statements.get(key, 0) + 1
        return execute(sql, params, many, context)

    for alias in connections:
        connections[alias].execute_wrappers.append(logged)
    run_once = CatchUpProjector.run_once

    def counted(self: CatchUpProjector) -> int:
        applied = run_once(self)
        if counting["on"] and applied:
            batches.append(applied)
        return applied

    CatchUpProjector.run_once = counted  # type: ignore[method-assign]

    def start(*_: Any) -> None:
        counting["on"] = True
        profile.enable()

    def finish(*_: Any) -> None:
        profile.disable()
        counting["on"] = False
        profile.dump_stats(out)
        Path(out + ".statements.json").write_text(json.dumps(statements))
        Path(out + ".batches.json").write_text(json.dumps(batches))

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, finish)
    call_command("run_projector")
    return 0


@contextlib.contextmanager
def projector_under_profile(env: dict[str, str], scratch: Path) -> Any:
    """bench.commands.projector, but through ``profiled_projector``."""
    log = scratch / "projector.log"
    with log.open("ab") as sink:
        process = subprocess.Popen(
            [sys.executable, __file__, "--projector-child", str(scratch / "projector.prof")],
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


def print_projector_profile(path: Path, commands: int, top: int) -> dict[str, Any]:
    """The projector's profile: its batches, then its top functions."""
    deadline = time.monotonic() + PROJECTOR_READY_TIMEOUT
    while not Path(str(path) + ".batches.json").exists():
        if time.monotonic() > deadline:
            raise RuntimeError("the projector wrote no profile")
        time.sleep(0.05)
    time.sleep(0.2)  # the stats are written before the batches' file
    batches = json.loads(Path(str(path) + ".batches.json").read_text())
    stats = pstats.Stats(str(path))
    total = stats.total_tt  # type: ignore[attr-defined]
    summary = {
        "batches": len(batches),
        "events": sum(batches),
        "events_per_batch": sum(batches) / len(batches) if batches else 0.0,
        "profiled_ms_per_command": total / commands * 1000,
        "profiled_ms_per_batch": total / len(batches) * 1000 if batches else 0.0,
    }
    print(
        f"  the projector under cProfile: {summary['batches']} batches, "
        f"{summary['events_per_batch']:.1f} events each, "
        f"{summary['profiled_ms_per_batch']:.2f} ms a batch, "
        f"{summary['profiled_ms_per_command']:.2f} ms a command (profiled)"
    )
    statements = json.loads(Path(str(path) + ".statements.json").read_text())
    summary["orm_statements_per_batch"] = (
        sum(statements.values()) / len(batches) if batches else 0.0
    )
    print(f"  its ORM statements, {summary['orm_statements_per_batch']:.1f} a batch:")
    for sql, count in sorted(statements.items(), key=lambda item: -item[1])[:top]:
        print(f"    {count:6d}  {sql}")
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return summary


def parts(profile: cProfile.Profile, commands: int) -> dict[str, dict[str, float]]:
    """Milliseconds per command of each part, and how often it was called."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    found: dict[str, dict[str, float]] = {}
    for label, (suffix, function) in PARTS.items():
        best, calls = 0.0, 0
        for (path, _, name), (_, ncalls, _, cumulative, _) in stats.items():
            if path.endswith(suffix) and name == function and cumulative > best:
                best, calls = cumulative, ncalls
        found[label] = {"ms_per_command": best / commands * 1000, "calls": calls}
    return found


def child(backend: str, cycles: int, top: int, projector_top: int = 0) -> int:
    """One backend, in this process: stores, projector, the profiled cycles."""
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="floor-prof-")))
        if backend == "postgres":
            stack.enter_context(bench_commands.scratch_database())
        env = bench_commands.server_env(backend, scratch)
        env["FLOOR_READ_MODELS"] = "projector"
        tokens = bench_commands.prepare(env)
        if projector_top:
            projector = stack.enter_context(projector_under_profile(env, scratch))
        else:
            projector = stack.enter_context(bench_commands.projector(env, scratch))
        os.environ.clear()
        os.environ.update(env)
        import django

        django.setup()
        from django.test import Client

        from floor import read_models
        from floor.liveness import liveness

        deadline = time.monotonic() + PROJECTOR_READY_TIMEOUT
        while liveness()["projector_seconds_ago"] is None:
            if projector.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the projector did not start")
            time.sleep(0.1)

        waits: list[float] = []
        wait_for = read_models.wait_for

        def timed(*args: Any, **kwargs: Any) -> int:
            began = time.perf_counter()
            try:
                return wait_for(*args, **kwargs)
            finally:
                waits.append((time.perf_counter() - began) * 1000)

        read_models.wait_for = timed
        sectors = bench_commands.InProcessCycles(Client(HTTP_HOST="127.0.0.1"), tokens)
        unexpected = sectors.unexpected
        cycle = sectors.cycle

        for index in range(WARM_CYCLES):
            cycle(f"warm {index}")
        waits.clear()
        profile = cProfile.Profile()
        began = time.perf_counter()
        web_cpu, projector_cpu = time.process_time(), cpu_seconds(projector.pid)
        if projector_top:
            os.kill(projector.pid, signal.SIGUSR1)
        profile.enable()
        for index in range(cycles):
            cycle(f"profiled {index}")
        profile.disable()
        commands = cycles * (bench_commands.TABLES_PER_SECTOR + 2)
        projector_profile = None
        if projector_top:
            time.sleep(0.5)  # its last batch
            os.kill(projector.pid, signal.SIGUSR2)
            projector_profile = print_projector_profile(
                scratch / "projector.prof", commands, projector_top
            )
        elapsed = time.perf_counter() - began
        web_cpu = time.process_time() - web_cpu
        projector_cpu = cpu_seconds(projector.pid) - projector_cpu
        # The same cycles again without the profiler: the CPU a command really
        # costs each side (the profiler's overhead is not spread evenly).
        profiled_waits = list(waits)
        plain_began = time.perf_counter()
        plain_web, plain_projector = time.process_time(), cpu_seconds(projector.pid)
        for index in range(cycles):
            cycle(f"plain {index}")
        plain_elapsed = time.perf_counter() - plain_began
        plain_web = time.process_time() - plain_web
        plain_projector = cpu_seconds(projector.pid) - plain_projector
    found = parts(profile, commands)
    ordered = sorted(profiled_waits)
    results = {
        "benchmark": "profile_command",
        "backend": backend,
        "commit": bench_commands.git_commit(),
        "commands": commands,
        "ms_per_command_profiled": elapsed / commands * 1000,
        # CPU per command: this process (the web side, profiler included) and
        # the projector process (not profiled), while the cycles ran.
        "cpu_ms_per_command": {
            "web_profiled": web_cpu / commands * 1000,
            "projector": projector_cpu / commands * 1000,
            "web_not_profiled": plain_web / commands * 1000,
            "projector_not_profiled": plain_projector / commands * 1000,
        },
        "ms_per_command_not_profiled": plain_elapsed / commands * 1000,
        "parts": found,
        "waits_ms": {
            "count": len(ordered),
            **{f"p{pct}": bench_commands.percentile(ordered, pct) for pct in (10, 50, 90, 99)},
        },
        "unexpected": unexpected[:10],
        "projector_profile": projector_profile,
    }
    print(
        f"\n{bench_commands.BACKEND_TITLES[backend]}: {commands} commands under cProfile, "
        f"{results['ms_per_command_profiled']:.1f} ms each"
    )
    cpu = results["cpu_ms_per_command"]
    print(
        f"  CPU per command: this process {cpu['web_profiled']:.1f} ms (profiled), "
        f"the projector process {cpu['projector']:.1f} ms (not profiled)"
    )
    print(
        f"  the same {commands} commands again, nothing profiled: "
        f"{results['ms_per_command_not_profiled']:.1f} ms each, CPU per command "
        f"{cpu['web_not_profiled']:.1f} ms this process, "
        f"{cpu['projector_not_profiled']:.1f} ms the projector"
    )
    for label, part in found.items():
        print(f"  {label:<40}{part['ms_per_command']:8.2f} ms/command  ({part['calls']} calls)")
    w = results["waits_ms"]
    print(
        f"  the wait for the projector, {w['count']} waits: "
        + ", ".join(f"p{pct} {bench_commands.fmt(w[f'p{pct}'])}" for pct in (10, 50, 90, 99))
        + " ms"
    )
    if top:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(top)
    if unexpected:
        print(f"  UNEXPECTED answers: {unexpected[:10]}")
    output_dir().mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    path = output_dir() / f"profile_command-{stamp}-{backend}.json"
    path.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(f"  results written to {shown(path)}")
    return 1 if unexpected else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("embedded", "postgres", "both"), default="both")
    parser.add_argument("--cycles", type=int, default=20, help="sector cycles profiled (6 each)")
    parser.add_argument("--top", type=int, default=0, help="also print cProfile's top N")
    parser.add_argument(
        "--profile-projector",
        type=int,
        default=0,
        metavar="N",
        help="also profile the projector process and print its top N functions",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--projector-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cycles < 1:
        parser.error("--cycles must be at least 1")
    if args.projector_child:
        return profiled_projector(args.projector_child)
    bench_commands.unwind_on_signals()
    if args.child:
        return child(args.backend, args.cycles, args.top, args.profile_projector)
    backends = ("embedded", "postgres") if args.backend == "both" else (args.backend,)
    status = 0
    for backend in backends:
        command = [sys.executable, __file__, "--child", "--backend", backend]
        command += ["--cycles", str(args.cycles), "--top", str(args.top)]
        command += ["--profile-projector", str(args.profile_projector)]
        status = max(status, subprocess.run(command, check=False).returncode)
    return status


if __name__ == "__main__":
    sys.exit(main())
