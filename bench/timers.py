"""How late the floor's timers fire on a real Celery worker and beat, against a
sweeper-only baseline.

A timer fires by its ETA task (queued when the projection writes its row) or,
when that is lost, by beat's sweep (DESIGN.md, Time and timers). This bench
measures lateness, ``fired_at - due_at`` of each ``PendingTimer``, over a few
hundred real deadlines: under the TEST profile (CM's minutes read as seconds)
it starts one player action clock per table at staggered moments over
``--spread`` seconds, alternating a small pot (warning 2 s later, dead hand 1 s
after that) and a large one (4 s, then 1 s), so every clock makes two timers
and the worker fires them while new clocks keep starting.

Each backend runs twice, side by side, on fresh scratch stores: as deployed
(ETA tasks plus the sweeper), then with ETA sending disabled (the sweeper alone,
the path a lost ETA message falls back to), which is the baseline the ratio is
taken against. The worker runs through a thin wrapper that records which path
fired each timer; nothing else in the service is changed. The event store and
read models are SQLite files in a scratch directory on both backends, so only
the broker differs: ``filesystem://`` (the embedded default) or Redis.

Every timer must fire, none before its deadline, each with its effect (the
clock warned, the hand dead); otherwise the exit status is 1. A backend that
cannot run (Redis not answering) is reported and also makes it 1.

Usage: .venv/bin/python bench/timers.py [--backend both] [--timers 300]
       [--spread 15] [--sweep-seconds 2] [--concurrency 2] [--redis-url URL]
Results: printed, and written to var/bench/timers-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.scratch_env import clean_environ, output_dir, shown

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"

# A Redis database of its own: the test suite uses 15, `make run` 0.
DEFAULT_REDIS_URL = os.environ.get("FLOOR_BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")

MODES = ("eta", "sweeper")
MODE_TITLES = {"eta": "ETA + sweeper", "sweeper": "sweeper only"}
BACKEND_TITLES = {"embedded": "embedded (filesystem:// broker)", "redis": "Redis broker"}

SMALL_POT, LARGE_POT = 200_00, 200_01  # at most 200 EUR: 2 s first period; more: 4 s
TABLES_PER_SECTOR = 4
PLAYERS_PER_TABLE = 4
# A first buy-in the TEST profile takes at a Hold'em table: 100 EUR [CM-2].
BUY_IN_CENTS = 10_000
READY_TIMEOUT = 90.0  # s: worker and beat up, one sweep run
DRIVE_TIMEOUT = 900.0  # s: one whole run, setup included


# --- Inside the worker: which path fired each timer.


def instrument_worker(fired_log: Path, eta: bool) -> None:
    """Wraps the worker's firing so that each firing appends one JSON line
    (the timer's key and the path that fired it) to ``fired_log``; without
    ``eta``, the worker's own sweeps queue no ETA task either."""
    import floor.projections.timers as projection
    import floor.tasks as tasks
    import floor.timers as timers

    if not eta:
        projection.send_eta = lambda key, due_at: None
    path = threading.local()

    def record(line: dict) -> None:
        with fired_log.open("a") as out:  # one short append per line: atomic
            out.write(json.dumps(line) + "\n")

    fire = timers.fire

    def fire_recorded(timer):
        result = fire(timer)
        record({"key": timer.key, "by": getattr(path, "now", "sweeper")})
        return result

    fire_by_key = tasks.fire_by_key

    def fire_by_key_recorded(key, now=None):
        path.now = "eta"
        try:
            done = fire_by_key(key, now)
        finally:
            path.now = "sweeper"
        record({"key": key, "eta_task": done})
        return done

    timers.fire = fire_recorded  # sweep_timers and fire_by_key call it by name
    tasks.fire_by_key = fire_by_key_recorded


def celery_main(argv: list[str]) -> None:
    """``python -m bench.timers celery worker ...``: the Celery command line,
    with the worker instrumented (prefork children inherit it)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    instrument_worker(Path(os.environ["BENCH_TIMERS_FIRED_LOG"]), os.environ["BENCH_ETA"] == "1")
    from config.celery import app

    app.start(argv=argv)


# --- Inside the driver: the floor, the clocks, the figures.


class Floor:
    """Tables with a hand in progress, built through the floor's own commands."""

    def __init__(self, app) -> None:
        from floor.kernel.roles import Actor, Role

        self.app = app
        self.director = Actor("bench-director", frozenset({Role.DIRECTOR}))
        self.jefe = Actor("bench-jefe", frozenset({Role.JEFE_SECTOR}))
        self.crupier = Actor("bench-crupier", frozenset({Role.CRUPIER}))
        self.cajero = Actor("bench-cajero", frozenset({Role.CAJERO}))
        self.players = 0

    @staticmethod
    def new_id() -> str:
        return str(uuid.uuid4())

    def dealing_tables(self, count: int) -> list[tuple[str, int]]:
        """``count`` tables, each with four players bought in and a hand dealt;
        returns each table and the seat whose player will be slow."""
        from bench import hands

        app, tables = self.app, []
        app.fund_cage(
            self.director, self.new_id(), chips_cents=BUY_IN_CENTS * PLAYERS_PER_TABLE * count
        )
        from ledger.domain.cage import Cage

        cage = app.find(Cage, Cage.ID)
        if cage is None or cage.open_day is None:
            app.open_gaming_day(self.cajero, self.new_id())
        sector_id = None
        for index in range(count):
            if index % TABLES_PER_SECTOR == 0:
                sector_id = app.open_sector(
                    self.director, self.new_id(), name=f"Bench {index // TABLES_PER_SECTOR:04d}"
                ).result["sector_id"]
            table_id = app.open_table(
                self.jefe,
                self.new_id(),
                sector_id=sector_id,
                variant="texas_holdem",
                limit="no_limit",
                # A game of its own per table: the draw completes the open tables
                # of a game first [CM-8], and each table here seats its own four.
                minimum_cents=300,
                maximum_cents=1000 + 2 * index,
                seats=10,
            ).result["table_id"]
            # Only the crupier named to a table reports there (floor.application.staffing).
            app.assign_dealer(
                self.jefe, self.new_id(), table_id=table_id, dealer=self.crupier.username
            )
            cards = []
            for _ in range(PLAYERS_PER_TABLE):
                self.players += 1
                card = f"BENCH-{self.players:05d}"
                app.register_player(self.jefe, self.new_id(), card_number=card, display_name=card)
                app.join_waiting_list(self.jefe, self.new_id(), player=card, table_id=table_id)
                cards.append(card)
            app.draw_seats(self.jefe, self.new_id(), table_ids=[table_id])
            for card in cards:
                app.buy_in_at_cage(  # paid at the cage, chips to the seat
                    self.cajero,
                    self.new_id(),
                    table_id=table_id,
                    player=card,
                    amount_cents=BUY_IN_CENTS,
                )
            table = app.repository.get(uuid.UUID(table_id))
            seats = table.occupied()
            # An honest hand start (bench/hands.py): the blinds on the seats the
            # button puts them on.
            dealt = hands.deal(app, table, seats)
            app.start_hand(
                self.crupier,
                self.new_id(),
                table_id=table_id,
                dealt_in=dealt.dealt_in,
                blinds=dealt.blinds,
            )
            tables.append((table_id, seats[1]))
        return tables


def lateness_figures(values_ms: list[float]) -> dict[str, Any]:
    """Median, p90, p99 and max of the lateness, in milliseconds (nearest rank:
    always a lateness that was observed)."""
    ordered = sorted(values_ms)
    if not ordered:
        return {"count": 0, "median_ms": None, "p90_ms": None, "p99_ms": None, "max_ms": None}

    def rank(pct: float) -> float:
        return ordered[max(1, math.ceil(pct / 100 * len(ordered))) - 1]

    return {
        "count": len(ordered),
        "median_ms": rank(50),
        "p90_ms": rank(90),
        "p99_ms": rank(99),
        "max_ms": ordered[-1],
        "min_ms": ordered[0],
    }


def wait_for(condition, timeout: float, what: str):
    """Polls ``condition`` until it is truthy; fails after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out after {timeout} s waiting for {what}")
        pause.wait(0.1)


def drive(args: argparse.Namespace) -> dict[str, Any]:
    """One run: migrate the scratch stores, build the tables, start worker and
    beat, start the clocks on schedule, wait for every timer, read the figures."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)

    import floor.projections.timers as projection
    from config.celery import app as celery_app
    from floor import runtime
    from floor.kernel.web.gateway import perform_as
    from floor.models import PendingTimer, SchedulerHeartbeat
    from tests.support.processes import running

    eta = args.mode == "eta"
    if not eta:
        projection.send_eta = lambda key, due_at: None
    scratch = Path(settings.VAR_DIR).parent
    clocks = math.ceil(args.timers / 2)

    began = time.monotonic()
    app = runtime.floor_app()
    floor = Floor(app)
    tables = floor.dealing_tables(clocks)
    runtime.floor_projector().catch_up(timeout=120)
    setup_s = time.monotonic() - began
    if settings.CELERY_BROKER_URL.startswith("redis"):
        celery_app.control.purge()  # what a run killed earlier left in our database

    fired_log = scratch / "fired.jsonl"
    env = {**os.environ, "BENCH_TIMERS_FIRED_LOG": str(fired_log), "BENCH_ETA": "1" if eta else "0"}
    worker = [
        sys.executable,
        "-m",
        "bench.timers",
        "celery",
        "worker",
        "--concurrency",
        str(args.concurrency),
        "-l",
        "warning",
        "-n",
        f"bench-timers-{os.getpid()}@%h",
    ]
    beat = [
        sys.executable,
        "-m",
        "bench.timers",
        "celery",
        "beat",
        "-l",
        "warning",
        "--schedule",
        str(scratch / "beat-schedule"),
    ]
    with (
        running(worker, env, scratch / "worker.log") as worker_process,
        running(beat, env, scratch / "beat.log") as beat_process,
    ):
        wait_for(
            lambda: SchedulerHeartbeat.objects.filter(name="sweep").exists(),
            READY_TIMEOUT,
            "worker and beat to run a sweep",
        )
        pause = threading.Event()
        start = time.monotonic()
        behind = []
        for index, (table_id, seat) in enumerate(tables):
            at = start + args.spread * index / clocks
            pause.wait(max(0.0, at - time.monotonic()))
            behind.append(time.monotonic() - at)
            perform_as(  # as the API does: the command, then its read models
                floor.crupier,
                "start_action_clock",
                floor.new_id(),
                table_id=table_id,
                seat=seat,
                pot_cents=SMALL_POT if index % 2 == 0 else LARGE_POT,
            )
        triggers_s = time.monotonic() - start
        expected = 2 * clocks
        done = (PendingTimer.FIRED, PendingTimer.CANCELLED)
        wait_for(
            lambda: PendingTimer.objects.filter(state__in=done).count() >= expected,
            args.spread + 60,
            f"{expected} timers to fire",
        )
        # Both asked to stop at once: a prefork worker's warm shutdown takes
        # seconds, and beat need not wait for it (``running`` then only reaps).
        for process in (beat_process, worker_process):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
    return collect(app, tables, fired_log, setup_s, triggers_s, max(behind))


def collect(app, tables, fired_log: Path, setup_s: float, triggers_s: float, behind_s: float):
    """Lateness of every timer, which path fired it, and whether its effect is
    there (the hand dead); anything wrong is listed in ``problems``."""
    from floor.models import PendingTimer

    by: dict[str, str] = {}
    eta_tasks: dict[str, int] = {}
    with contextlib.suppress(FileNotFoundError), fired_log.open() as lines:
        for line in lines:
            entry = json.loads(line)
            if "by" in entry:
                by[entry["key"]] = entry["by"]
            else:
                eta_tasks[entry["eta_task"]] = eta_tasks.get(entry["eta_task"], 0) + 1
    problems: list[str] = []
    samples = []
    for timer in PendingTimer.objects.order_by("due_at"):
        if timer.state != PendingTimer.FIRED or not (timer.outcome or {}).get("fired"):
            problems.append(f"{timer.key}: {timer.state} {timer.outcome}")
            continue
        late_ms = (timer.fired_at - timer.due_at).total_seconds() * 1000
        if late_ms < 0:
            problems.append(f"{timer.key}: fired {-late_ms:.1f} ms early")
        samples.append((timer.kind, by.get(timer.key, "unknown"), late_ms))
    for table_id, seat in tables:
        table = app.repository.get(uuid.UUID(table_id))
        if seat not in (table.hand or {}).get("dead", []):
            problems.append(f"table {table_id}: seat {seat}'s hand is not dead")
    kinds = sorted({kind for kind, _, _ in samples})
    return {
        "timers": len(samples),
        "lateness": lateness_figures([ms for _, _, ms in samples]),
        "by_kind": {k: lateness_figures([ms for kk, _, ms in samples if kk == k]) for k in kinds},
        "fired_by": {
            path: sum(1 for _, b, _ in samples if b == path) for path in ("eta", "sweeper")
        },
        "lateness_by_path": {
            path: lateness_figures([ms for _, b, ms in samples if b == path])
            for path in ("eta", "sweeper")
        },
        "eta_tasks": eta_tasks,
        "setup_s": setup_s,
        "triggers_s": triggers_s,
        "trigger_behind_max_s": behind_s,
        "problems": problems[:20],
        "problem_count": len(problems),
    }


# --- The harness: scratch stores and one driver per backend and mode.


def run_env(backend: str, scratch: Path, args: argparse.Namespace) -> dict[str, str]:
    """This environment minus anything pointing elsewhere, plus the scratch
    var dir, the TEST profile, the sweep interval and the broker."""
    env = clean_environ()
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        FLOOR_VAR_DIR=str(scratch / "var"),
        FLOOR_RULE_PROFILE="TEST",
        FLOOR_SWEEP_SECONDS=str(args.sweep_seconds),
        # No projector process here: the driver and the worker apply their own
        # commands' events, as before issue 23 (floor.read_models), so a timer's
        # lateness is the timers' alone.
        FLOOR_READ_MODELS="inline",
        FLOOR_LOG_LEVEL="WARNING",
        DJANGO_DEBUG="0",
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    if backend == "redis":
        env["CELERY_BROKER_URL"] = args.redis_url
    return env


def redis_problem(url: str) -> str | None:
    """Why Redis at ``url`` cannot be used, or None when it answers."""
    try:
        import redis
    except ImportError:
        return "the redis package is missing: run `make bench` to install it"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3).ping()
    except redis.RedisError as error:
        return f"Redis at {url} does not answer ({error})"
    return None


def redis_cleanup(url: str) -> None:
    """Removes what Celery left in the bench's Redis database (its queue's
    bindings and anything unacknowledged), so that a run leaves nothing behind."""
    import redis

    with contextlib.suppress(redis.RedisError):
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        for pattern in ("_kombu.*", "celery*", "unacked*"):
            keys = list(client.scan_iter(match=pattern))
            if keys:
                client.delete(*keys)


def run_mode(backend: str, mode: str, args: argparse.Namespace, stamp: str) -> dict[str, Any]:
    """One driver process on fresh scratch stores; its logs are kept when it fails."""
    with tempfile.TemporaryDirectory(prefix="floor-bench-timers-") as name:
        scratch = Path(name)
        out = scratch / "result.json"
        command = [str(VENV_PYTHON), "-m", "bench.timers", "drive", "--mode", mode]
        command += ["--timers", str(args.timers), "--spread", str(args.spread)]
        command += ["--concurrency", str(args.concurrency), "--out", str(out)]
        print(f"  {BACKEND_TITLES[backend]}, {MODE_TITLES[mode]} ...", flush=True)
        driver = subprocess.Popen(
            command, cwd=ROOT, env=run_env(backend, scratch, args), stdin=subprocess.DEVNULL
        )
        try:
            returncode = driver.wait(timeout=DRIVE_TIMEOUT)
        except BaseException:  # Ctrl-C, SIGTERM or the timeout: let it stop its worker
            stop_driver(driver)
            raise
        if returncode != 0 or not out.exists():
            kept = keep_logs(scratch, stamp, backend, mode)
            return {"error": f"the run exited with {returncode}; logs in {kept}"}
        result = json.loads(out.read_text())
        if result["problem_count"]:
            result["logs"] = str(keep_logs(scratch, stamp, backend, mode))
        return result


def stop_driver(driver: subprocess.Popen) -> None:
    """SIGTERM first: the driver unwinds and stops its worker and beat, which a
    SIGKILL would leave running."""
    if driver.poll() is None:
        driver.send_signal(signal.SIGTERM)
        try:
            driver.wait(timeout=45)
        except subprocess.TimeoutExpired:
            driver.kill()
            driver.wait(timeout=15)


def keep_logs(scratch: Path, stamp: str, backend: str, mode: str) -> Path:
    """Copies the worker's and beat's logs next to the results before the
    scratch directory goes: a failed run is only worth a report with them."""
    kept = output_dir() / f"timers-{stamp}-{backend}-{mode}"
    kept.mkdir(parents=True, exist_ok=True)
    for log in ("worker.log", "beat.log", "fired.jsonl"):
        with contextlib.suppress(OSError):
            shutil.copyfile(scratch / log, kept / log)
    return kept


# --- Output.


def fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    if not numerator or not denominator:
        return None
    return numerator / denominator


FIGURES = ("median_ms", "p90_ms", "p99_ms", "max_ms")


def print_backend(backend: str, runs: dict[str, Any], args: argparse.Namespace) -> None:
    """The table of one backend: lateness as deployed and with the sweeper alone."""
    print(
        f"\n{BACKEND_TITLES[backend]}, SQLite stores: {2 * math.ceil(args.timers / 2)} timers "
        f"from clocks started over {args.spread:g} s, worker prefork x{args.concurrency}, "
        f"sweep every {args.sweep_seconds:g} s; lateness = fired_at - due_at"
    )
    header = ("path", "timers", "by ETA", "by sweep", "median ms", "p90 ms", "p99 ms", "max ms")
    print(f"{header[0]:<15}" + "".join(f"{h:>11}" for h in header[1:]))
    for mode in MODES:
        run = runs[mode]
        if "error" in run:
            print(f"{MODE_TITLES[mode]:<15} FAILED: {run['error']}")
            continue
        late = run["lateness"]
        cells = [run["timers"], run["fired_by"]["eta"], run["fired_by"]["sweeper"]]
        cells += [fmt(late[f]) for f in FIGURES]
        print(f"{MODE_TITLES[mode]:<15}" + "".join(f"{c!s:>11}" for c in cells))
        if run["problem_count"]:
            print(f"  {run['problem_count']} problems, e.g. {run['problems'][:3]}")
        if run["trigger_behind_max_s"] > 0.5:
            print(f"  clocks started up to {run['trigger_behind_max_s']:.1f} s behind schedule")
    ratios = runs.get("ratio_sweeper_to_eta")
    if ratios:
        shown = ", ".join(f"{f[:-3]} {fmt(ratios[f], 1)}x" for f in FIGURES)
        print(f"sweeper only / ETA + sweeper: {shown}")


def git(*args: str) -> str | None:
    """A read-only git query, or None outside a repository."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        completed = subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10
        )
        return completed.stdout.strip() if completed.returncode == 0 else None
    return None


# --- Entry points.


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("embedded", "redis", "both"), default="both")
    parser.add_argument("--timers", type=int, default=300, help="timers per run (two a clock)")
    parser.add_argument(
        "--spread", type=float, default=15.0, help="seconds over which the clocks start"
    )
    parser.add_argument(
        "--sweep-seconds", type=float, default=2.0, help="FLOOR_SWEEP_SECONDS (deployed: 2)"
    )
    parser.add_argument("--concurrency", type=int, default=2, help="worker prefork children")
    parser.add_argument(
        "--redis-url",
        default=DEFAULT_REDIS_URL,
        help="broker for the redis backend (env FLOOR_BENCH_REDIS_URL); its queue is purged",
    )
    args = parser.parse_args(argv)
    if args.timers < 2 or args.concurrency < 1 or args.spread < 0 or args.sweep_seconds <= 0:
        parser.error("--timers is at least 2, --concurrency 1, --spread >= 0, --sweep-seconds > 0")
    return args


def unwind_on_signals() -> None:
    """SIGTERM unwinds like Ctrl-C, so scratch directories are removed."""

    def handler(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, signal.default_int_handler)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    unwind_on_signals()
    sys.stdout.reconfigure(line_buffering=True)  # in order with the runs' stderr
    if not VENV_PYTHON.exists():
        sys.stderr.write(f"{VENV_PYTHON} is missing: run `make bench` to install it\n")
        return 2
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    backends = ("embedded", "redis") if args.backend == "both" else (args.backend,)
    results: dict[str, Any] = {
        "benchmark": "timers",
        "started_at": stamp,
        # The commit measured, and whether the tree had changes beyond it.
        "commit": git("rev-parse", "HEAD") or None,
        "uncommitted_changes": bool(git("status", "--porcelain", "--untracked-files=no")),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "options": vars(args),
        "workload": {
            "profile": "TEST",
            "per_clock": {"action_clock_warning": 1, "action_clock_expiry": 1},
            "pots_cents": [SMALL_POT, LARGE_POT],
            "stores": "SQLite in a scratch directory",
        },
        "backends": {},
    }
    failed = False
    print(f"timers bench: {', '.join(backends)}")
    for backend in backends:
        if backend == "redis" and (problem := redis_problem(args.redis_url)):
            print(f"\n{BACKEND_TITLES[backend]}: NOT RUN, {problem}", file=sys.stderr)
            results["backends"][backend] = {"error": problem}
            failed = True
            continue
        try:
            runs: dict[str, Any] = {mode: run_mode(backend, mode, args, stamp) for mode in MODES}
        finally:
            if backend == "redis":
                redis_cleanup(args.redis_url)
        if all("error" not in runs[m] for m in MODES):
            eta, sweeper = runs["eta"]["lateness"], runs["sweeper"]["lateness"]
            runs["ratio_sweeper_to_eta"] = {f: ratio(sweeper[f], eta[f]) for f in FIGURES}
        failed |= any("error" in runs[m] or runs[m]["problem_count"] for m in MODES)
        results["backends"][backend] = runs
        print_backend(backend, runs, args)
    output_dir().mkdir(parents=True, exist_ok=True)
    # One backend's run names its file: two may run at once (CI's tiny run).
    suffix = "" if args.backend == "both" else f"-{args.backend}"
    path = output_dir() / f"timers-{stamp}{suffix}.json"
    path.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(f"\nresults written to {shown(path)}")
    return 1 if failed else 0


def driver_main(argv: list[str]) -> int:
    """``python -m bench.timers drive ...``: one run, inside the scratch env."""
    parser = argparse.ArgumentParser(prog="bench.timers drive")
    parser.add_argument("--mode", choices=MODES, required=True)
    parser.add_argument("--timers", type=int, required=True)
    parser.add_argument("--spread", type=float, required=True)
    parser.add_argument("--concurrency", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    unwind_on_signals()
    result = drive(args)
    args.out.write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["celery"]:
        celery_main(sys.argv[2:])
    elif sys.argv[1:2] == ["drive"]:
        sys.exit(driver_main(sys.argv[2:]))
    else:
        try:
            sys.exit(main())
        except KeyboardInterrupt:
            sys.stderr.write("interrupted: workers stopped, scratch stores removed\n")
            sys.exit(130)
