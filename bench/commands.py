"""Commands per second and latency of the floor's first slice, against a baseline.

Starts a real gunicorn on loopback for each backend (the embedded default: SQLite
files in a scratch directory; PostgreSQL: a scratch database ``floor_bench``),
drives the slice's commands over HTTP with concurrent clients, and measures the
same workload twice in the same server: through the event-sourced API and
through a bench-only endpoint that writes the same rows with the plain Django
ORM (bench/baseline_views.py), in alternating rounds so that outside load on a
shared machine falls on both. Only the ratio between the two is meaningful
across machines; no figure is asserted.

Each client opens a sector, then four tables in it, then asks for a fifth, which
the floor must refuse with 409 sector_full (counted as ``refused``, not as an
error), and repeats with a new sector; ``commands`` counts both kinds of
expected answer, ``errors`` everything else. Afterwards the read models are checked
(every sector answered 201 is there with tables 1 to 4) and so is the event
log (each accepted command's events, filed under its command id with one
idempotency record; none from a refused command or from anywhere else; none
left unprojected).
The exit status is 1 when a command got an unexpected answer or a check failed.

Who applies the events (issue 23, item 1): ``--read-models projector`` (the
default, as deployed) starts ``manage.py run_projector`` beside gunicorn and the
requests wait for it; ``inline`` is the path before issue 23, each request
applying the events itself; ``both`` runs one after the other, each with its
own scratch stores and its own ORM baseline, so the ratios compare. ``--workers
1 2`` runs each configuration with 1 and then 2 gunicorn workers (issue 23,
item 7: how throughput moves with the web workers).

Half load (issue 23: p99 at half load <= 50 ms): after the rounds at full
throughput, both paths run an open-loop load paced at half the event-sourced
path's measured rate (commands arrive on a schedule, whether or not the ones
before have been answered), and each command's latency counts from its
scheduled arrival, so queueing shows. ``--half-load-sectors 0`` skips it.

The raw store (issue 23: HTTP commands >= 0.3x the raw store's append rate for
saves of the same events): once the rounds are done, bench/raw_store.py
appends every save the run made (each command's events, as stored) with the
library's own recorder into a fresh store of the same backend, one at a time,
and the event-sourced path's commands/s is given as a ratio to those saves/s.
``--no-raw-store`` skips it.

Usage: .venv/bin/python bench/commands.py [--backend both] [--clients 8]
       [--sectors-per-client 25] [--rounds 5] [--workers 2 [...]]
       [--read-models projector|inline|both] [--half-load-sectors N]
Results: printed, and written to var/bench/commands-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.scratch_env import clean_environ, output_dir, shown

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
LOOPBACK = "127.0.0.1"

PG_ADMIN = {"host": LOOPBACK, "port": 5432, "user": "floor", "password": "floor"}
# The scratch database, created and dropped by the run (FLOOR_BENCH_PG_DB: another
# name, for a second checkout benching on the same server).
PG_BENCH_DB = os.environ.get("FLOOR_BENCH_PG_DB", "floor_bench")

TABLE = {
    "variant": "texas_holdem",
    "limit": "no_limit",
    "minimum_cents": 200,
    "maximum_cents": 1000,
    "seats": 10,
}
TABLES_PER_SECTOR = 4  # the CM profile's limit; one more is asked for and refused


class InProcessCycles:
    """The sector cycle through Django's test client in this process, the
    whole middleware stack included (the profiling benches, which time or
    profile what a request does: profile_command.py, wait_stages.py). Every
    answer other than the expected one is kept in ``unexpected``."""

    def __init__(self, client: Any, tokens: dict[str, str]) -> None:
        self.client = client
        self.tokens = tokens
        self.unexpected: list[str] = []

    def post(self, url: str, body: dict, role: str, expected: int) -> Any:
        answer = self.client.post(
            url,
            json.dumps(body),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {self.tokens[role]}",
        )
        if answer.status_code != expected:
            self.unexpected.append(f"{url} {answer.status_code} {answer.content[:200]!r}")
            return None
        return answer.json()

    def cycle(self, name: str) -> None:
        """A sector, its four tables, and a fifth refused ``sector_full``."""
        body = {"command_id": str(uuid.uuid4()), "name": name}
        sector = self.post("/api/sectors/", body, "director", 201)
        if sector is None:
            return
        url = f"/api/sectors/{sector['id']}/tables/"
        for index in range(TABLES_PER_SECTOR + 1):
            refused = index == TABLES_PER_SECTOR
            body = {"command_id": str(uuid.uuid4()), **TABLE}
            self.post(url, body, "jefe_sector", 409 if refused else 201)


REQUEST_TIMEOUT = 60.0  # s: one command, queued behind the others at worst
READY_TIMEOUT = 30.0  # s: gunicorn up and answering /healthz
SUBPROCESS_TIMEOUT = 300.0  # s: migrate or setup on a slow disk


@dataclass(frozen=True)
class Target:
    """One way of running the commands: the product's API or the ORM baseline."""

    label: str
    sectors_url: str
    tables_url: str  # with {sector_id}
    name_prefix: str  # sector names must not collide between the two paths


TARGETS = (
    Target("event-sourced", "/api/sectors/", "/api/sectors/{sector_id}/tables/", "ES"),
    Target("ORM baseline", "/bench/orm/sectors/", "/bench/orm/sectors/{sector_id}/tables/", "ORM"),
)


@dataclass(frozen=True)
class Sample:
    """One command as the client saw it."""

    kind: str  # open_sector, open_table or refused_table (the expected fifth)
    ms: float
    ok: bool  # the answer the workload expects (201, or 409 sector_full)
    status: int  # 0 when no HTTP answer came
    code: str  # the error body's code, or the transport error's name
    command_id: str  # what the journal files the command's events under


@dataclass(frozen=True)
class Server:
    """A running bench server: where it listens and the tokens it accepts."""

    port: int
    tokens: dict[str, str]
    log: Path
    process: subprocess.Popen
    env: dict[str, str]  # what it runs with, for the checks run beside it


# --- HTTP, with nothing but the standard library.


def request(
    port: int, method: str, url: str, token: str, body: dict | None = None
) -> tuple[int, Any, float]:
    """One request on a fresh connection (gunicorn's sync workers close each one
    anyway); returns status, decoded body and milliseconds. A transport failure
    is status 0 with the exception's name, so it counts as an error, not a crash."""
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=REQUEST_TIMEOUT)
    start = time.perf_counter()
    try:
        connection.request(method, url, body=payload, headers=headers)
        response = connection.getresponse()
        raw = response.read()
        status = response.status
    except (OSError, http.client.HTTPException) as error:
        return 0, {"code": type(error).__name__}, (time.perf_counter() - start) * 1000
    finally:
        connection.close()
    elapsed = (time.perf_counter() - start) * 1000
    try:
        decoded = json.loads(raw) if raw else None
    except ValueError:
        decoded = {"code": "not_json", "message": raw[:200].decode(errors="replace")}
    return status, decoded, elapsed


def error_code(body: Any) -> str:
    """The ``code`` of an error body, the one field every refusal carries."""
    return str(body.get("code", "")) if isinstance(body, dict) else ""


# --- The workload.


def open_sector(server: Server, target: Target, name: str) -> tuple[Sample, str | None]:
    """The director opens a sector; returns the sample and the new sector's id."""
    body = {"command_id": str(uuid.uuid4()), "name": name}
    status, answer, ms = request(
        server.port, "POST", target.sectors_url, server.tokens["director"], body
    )
    ok = status == 201 and isinstance(answer, dict) and "id" in answer
    code = "" if ok else error_code(answer)
    sample = Sample("open_sector", ms, ok, status, code, body["command_id"])
    return sample, answer["id"] if ok else None


def open_table(server: Server, target: Target, sector_id: str, refused: bool) -> Sample:
    """The jefe de sector opens a table; the fifth of a sector must be refused."""
    body = {"command_id": str(uuid.uuid4()), **TABLE}
    url = target.tables_url.format(sector_id=sector_id)
    status, answer, ms = request(server.port, "POST", url, server.tokens["jefe_sector"], body)
    code = error_code(answer)
    if refused:
        ok = status == 409 and code == "sector_full"
        return Sample("refused_table", ms, ok, status, code, body["command_id"])
    return Sample("open_table", ms, status == 201, status, code, body["command_id"])


def sector_cycle(server: Server, target: Target, name: str) -> tuple[list[Sample], str | None]:
    """One sector, its four tables and the refused fifth, in the client's order."""
    sample, sector_id = open_sector(server, target, name)
    samples = [sample]
    if sector_id is None:
        return samples, None
    for index in range(TABLES_PER_SECTOR + 1):
        samples.append(open_table(server, target, sector_id, refused=index == TABLES_PER_SECTOR))
    return samples, sector_id


def client(
    index: int,
    server: Server,
    target: Target,
    sectors: int,
    tag: str,
    start: threading.Barrier,
    results: list,
) -> None:
    """One concurrent client: waits for the others, then runs its sectors."""
    samples: list[Sample] = []
    opened: list[str] = []
    start.wait(timeout=READY_TIMEOUT)
    for iteration in range(sectors):
        name = f"{target.name_prefix} {tag} c{index:02d} s{iteration:04d}"
        cycle, sector_id = sector_cycle(server, target, name)
        samples.extend(cycle)
        if sector_id is not None:
            opened.append(sector_id)
    results[index] = (samples, opened)


def run_phase(
    server: Server, target: Target, clients: int, sectors: int, tag: str
) -> tuple[list[Sample], list[str], float]:
    """Runs ``clients`` threads at once; the clock starts when all are ready, so
    thread start-up is not measured. Returns samples, opened ids and seconds."""
    results: list = [None] * clients
    start = threading.Barrier(clients + 1)
    threads = [
        threading.Thread(
            target=client,
            args=(i, server, target, sectors, tag, start, results),
            name=f"bench-client-{i}",
            daemon=True,  # never keeps a Ctrl-C'd run alive
        )
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    start.wait(timeout=READY_TIMEOUT)
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    samples = [s for result in results if result for s in result[0]]
    opened = [i for result in results if result for i in result[1]]
    lost_clients = sum(1 for result in results if result is None)
    if lost_clients:
        raise RuntimeError(f"{lost_clients} client threads died; see the traceback above")
    return samples, opened, elapsed


# --- Half load: an open-loop, paced phase.

# Threads that may hold a paced command at once: far above what half of a
# measured rate keeps in flight, so the pacing, not the pool, sets the arrivals.
PACED_THREADS = 32


def paced_command(
    server: Server,
    target: Target,
    slot: int,
    previous: Future | None,
    name: str,
    due: float,
) -> tuple[Sample, str | None]:
    """One scheduled command of a sector's six (slot 0 opens it; 1 to 4 open its
    tables; 5 is the refused fifth), timed from when it was due, not from when
    it was sent: a server that falls behind shows as latency, not as a slower
    schedule (no coordinated omission). A table's command is sent once the
    sector's previous command has been answered, as a client would (the fifth
    must be refused, so the four before it must have landed): at half load
    that answer came long before, a sector's commands being an interval apart."""
    if slot == 0:
        sample, sector_id = open_sector(server, target, name)
    else:
        sector_id = previous.result()[1] if previous is not None else None
        if sector_id is None:  # its sector was not opened: counted as an error
            return Sample("open_table", 0.0, False, 0, "no_sector", ""), None
        sample = open_table(server, target, sector_id, refused=slot == TABLES_PER_SECTOR + 1)
    ms = (time.perf_counter() - due) * 1000
    return Sample(sample.kind, ms, sample.ok, sample.status, sample.code, sample.command_id), (
        sector_id
    )


def run_paced(
    server: Server, target: Target, sectors: int, rate: float, tag: str
) -> tuple[list[Sample], list[str], float]:
    """``sectors`` sector cycles (6 commands each) as arrivals every ``1/rate``
    seconds, each sent by a pool thread when due. Returns samples, opened ids,
    seconds."""
    interval = 1.0 / rate
    per_sector = TABLES_PER_SECTOR + 2
    pause = threading.Event()
    futures: list[Future] = []
    with ThreadPoolExecutor(PACED_THREADS, thread_name_prefix="bench-paced") as pool:
        began = time.perf_counter()
        previous: Future | None = None
        for index in range(sectors * per_sector):
            number, slot = divmod(index, per_sector)
            due = began + index * interval
            ahead = due - time.perf_counter()
            if ahead > 0:
                pause.wait(ahead)
            name = f"{target.name_prefix} {tag} s{number:04d}"
            chained = previous if slot else None
            previous = pool.submit(paced_command, server, target, slot, chained, name, due)
            futures.append(previous)
        results = [f.result() for f in futures]
    elapsed = time.perf_counter() - began
    opened = [i for (sample, i) in results if sample.kind == "open_sector" and i]
    return [r[0] for r in results], opened, elapsed


# --- Figures.


def percentile(ordered: list[float], pct: float) -> float | None:
    """Nearest-rank percentile: always a latency that was actually observed."""
    if not ordered:
        return None
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def latency(samples: list[Sample]) -> dict[str, Any]:
    """p50 and p99 of the samples' milliseconds."""
    ordered = sorted(s.ms for s in samples)
    return {
        "count": len(ordered),
        "p50_ms": percentile(ordered, 50),
        "p99_ms": percentile(ordered, 99),
    }


def summarise(samples: list[Sample], seconds: float) -> dict[str, Any]:
    """Throughput and latency of the commands that got their expected answer;
    everything else is an error, listed by status and code."""
    good = [s for s in samples if s.ok]
    errors = Counter(f"{s.kind} {s.status} {s.code}".strip() for s in samples if not s.ok)
    kinds = sorted({s.kind for s in samples})
    return {
        "commands": len(good),
        "refused": sum(1 for s in good if s.kind == "refused_table"),
        "errors": sum(errors.values()),
        "seconds": seconds,
        "commands_per_s": len(good) / seconds if seconds > 0 else None,
        **{k: v for k, v in latency(good).items() if k != "count"},
        "by_kind": {kind: latency([s for s in good if s.kind == kind]) for kind in kinds},
        "error_kinds": dict(errors),
    }


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """A ratio, or None when either side is missing or zero."""
    if not numerator or not denominator:
        return None
    return numerator / denominator


# --- Checking what the run left in the stores.


def verify(server: Server, opened: list[str]) -> dict[str, Any]:
    """Every sector answered 201 must be in the read models with table_count 4
    and tables numbered 1 to 4: a lost or doubled command shows here."""
    status, sectors, _ = request(server.port, "GET", "/api/sectors/", server.tokens["director"])
    if status != 200 or not isinstance(sectors, list):
        return {"ok": False, "error": f"GET /api/sectors/ answered {status}"}
    by_id = {s["id"]: s for s in sectors}
    missing = [i for i in opened if i not in by_id]
    expected = list(range(1, TABLES_PER_SECTOR + 1))
    wrong = [
        i
        for i in opened
        if i in by_id
        and (
            by_id[i]["table_count"] != TABLES_PER_SECTOR
            or sorted(t["number"] for t in by_id[i]["tables"]) != expected
        )
    ]
    return {
        "ok": not missing and not wrong,
        "sectors_checked": len(opened),
        "missing": missing[:10],
        "wrong_tables": wrong[:10],
    }


def projection_lag(server: Server) -> int | None:
    """Events the read models do not show yet, from /healthz (None: no answer)."""
    status, body, _ = request(server.port, "GET", "/healthz", server.tokens["director"])
    if status != 200 or not isinstance(body, dict):
        return None
    return body.get("projections", {}).get("floor", {}).get("lag")


RECORD_TOPIC = "floor.domain.command_record:CommandRecord.Recorded"


def verify_log(server: Server, sent: list[Sample]) -> dict[str, Any]:
    """The event log must hold exactly what the commands sent did, derived from
    the commands rather than from a count of events each should make (the count
    changes whenever the domain records more, e.g. a balance group's events):

    - every event is in the journal once (``stored == journal``) and projected
      (lag 0);
    - every journal row was made by a command this run sent and saw accepted:
      a refused command records nothing, and nothing else writes;
    - every accepted command left its one idempotency record and at least one
      event of its own: a lost command shows as none, one applied twice as two.

    ``events_expected`` is the sum of what the accepted commands recorded, which
    the store and the journal must both equal."""
    counts = json.loads(run_python(server.env, "-m", "bench.server_side", "count"))
    by_command: dict[str, int] = counts["by_command"]
    topics: dict[str, dict[str, int]] = counts["topics_by_command"]
    accepted = [s for s in sent if s.ok and s.kind != "refused_table"]
    accepted_ids = {s.command_id for s in accepted}
    refused_recorded = [
        s.command_id
        for s in sent
        if s.command_id not in accepted_ids and by_command.get(s.command_id)
    ]
    strays = sorted(c for c in by_command if c not in {s.command_id for s in sent})
    unrecorded = [
        s.command_id
        for s in accepted
        if topics.get(s.command_id, {}).get(RECORD_TOPIC) != 1
        or by_command.get(s.command_id, 0) < 2  # the record and at least one event
    ]
    expected = sum(by_command.get(s.command_id, 0) for s in accepted)
    per_kind: dict[str, list[int]] = {}
    for s in accepted:
        per_kind.setdefault(s.kind, []).append(by_command.get(s.command_id, 0))
    lag = projection_lag(server)
    return {
        "ok": counts["stored"] == counts["journal"] == expected
        and not refused_recorded
        and not strays
        and not unrecorded
        and lag == 0,
        "commands_accepted": len(accepted),
        "events_expected": expected,
        "events_stored": counts["stored"],
        "journal_rows": counts["journal"],
        "events_per_command": {
            kind: {"min": min(n), "max": max(n)} for kind, n in sorted(per_kind.items())
        },
        "refused_but_recorded": refused_recorded[:10],
        "unexpected_command_ids": strays[:10],
        "accepted_without_record": unrecorded[:10],
        "lag": lag,
    }


# --- Scratch stores and the server.


def server_env(backend: str, scratch: Path) -> dict[str, str]:
    """The server's environment: this one minus anything pointing elsewhere,
    plus the scratch var dir and, on PostgreSQL, the scratch database."""
    env = clean_environ()
    env.update(
        DJANGO_SETTINGS_MODULE="bench.settings",
        FLOOR_VAR_DIR=str(scratch / "var"),
        FLOOR_LOG_LEVEL="WARNING",
        DJANGO_DEBUG="0",  # DEBUG keeps every query in memory: not what is deployed
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    if backend == "postgres":
        user, password = PG_ADMIN["user"], PG_ADMIN["password"]
        env["DATABASE_URL"] = (
            f"postgresql://{user}:{password}@{LOOPBACK}:{PG_ADMIN['port']}/{PG_BENCH_DB}"
        )
    return env


def postgres_admin(statement: str) -> None:
    """Runs one statement outside a transaction on the maintenance database."""
    import psycopg

    with psycopg.connect(dbname="postgres", autocommit=True, connect_timeout=5, **PG_ADMIN) as db:
        db.execute(statement)


@contextlib.contextmanager
def scratch_database() -> Iterator[None]:
    """A fresh ``floor_bench`` for the run, dropped afterwards (FORCE: a server
    killed mid-run may leave connections behind)."""
    postgres_admin(f"DROP DATABASE IF EXISTS {PG_BENCH_DB} WITH (FORCE)")
    postgres_admin(f"CREATE DATABASE {PG_BENCH_DB} OWNER {PG_ADMIN['user']}")
    try:
        yield
    finally:
        postgres_admin(f"DROP DATABASE IF EXISTS {PG_BENCH_DB} WITH (FORCE)")


def run_python(env: dict[str, str], *args: str) -> str:
    """Runs the venv's Python in the project with ``env``; returns its stdout and
    shows its output when it fails, since that is the only clue there is."""
    completed = subprocess.run(
        [str(VENV_BIN / "python"), *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT,
        check=False,
    )
    if completed.returncode != 0:
        sys.stderr.write(completed.stdout[-4000:] + completed.stderr[-4000:])
        raise RuntimeError(f"{' '.join(args)} exited with {completed.returncode}")
    return completed.stdout


def prepare(env: dict[str, str]) -> dict[str, str]:
    """Migrates the scratch stores and makes the users; returns their tokens."""
    run_python(env, "manage.py", "migrate", "--noinput")
    output = run_python(env, "-m", "bench.server_side", "setup")
    return json.loads(output.strip().splitlines()[-1])["tokens"]


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def stop(process: subprocess.Popen) -> None:
    """Stops the server's process group (master and workers): TERM, then KILL."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)


def log_tail(log: Path, lines: int = 40) -> str:
    """The end of the server's log, to show why it failed."""
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@contextlib.contextmanager
def gunicorn(
    env: dict[str, str], scratch: Path, workers: int, tokens: dict[str, str]
) -> Iterator[Server]:
    """A gunicorn on a free loopback port, in its own session so that only this
    harness stops it, and always stopped when the block exits."""
    port = free_port()
    log = scratch / "server.log"
    command = [
        str(VENV_BIN / "gunicorn"),
        "config.wsgi",
        "--bind",
        f"{LOOPBACK}:{port}",
        "--workers",
        str(workers),
        "--chdir",
        str(ROOT),
        "--timeout",
        "120",
        "--graceful-timeout",
        "5",
        "--log-level",
        "warning",
    ]
    with log.open("ab") as sink:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield Server(port, tokens, log, process, env)
    finally:
        stop(process)


@contextlib.contextmanager
def projector(env: dict[str, str], scratch: Path) -> Iterator[subprocess.Popen]:
    """``manage.py run_projector`` on the scratch stores, in its own session,
    always stopped when the block exits (FLOOR_READ_MODELS=projector)."""
    log = scratch / "projector.log"
    with log.open("ab") as sink:
        process = subprocess.Popen(
            [str(VENV_BIN / "python"), "manage.py", "run_projector"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        stop(process)
        # Its last line: where it stopped, and how large its batches grew
        # (issue 23: under load a batch takes several commands' events).
        print(f"  the projector process: {log_tail(log, 1)}")


def wait_projector(server: Server, process: subprocess.Popen) -> None:
    """Waits until the projector's heartbeat shows in /healthz: before it runs,
    every command would answer 202 read_models_lagging."""
    deadline = time.monotonic() + READY_TIMEOUT
    pause = threading.Event()
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the projector exited early:\n{log_tail(server.log)}")
        status, body, _ = request(server.port, "GET", "/healthz", server.tokens["director"])
        seen = body.get("scheduler", {}).get("projector_seconds_ago") if status == 200 else None
        if seen is not None:
            return
        pause.wait(0.1)
    raise RuntimeError(f"the projector did not start in {READY_TIMEOUT} s")


def wait_ready(server: Server) -> None:
    """Polls /healthz until it answers 200, for at most READY_TIMEOUT seconds."""
    deadline = time.monotonic() + READY_TIMEOUT
    pause = threading.Event()
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited early:\n{log_tail(server.log)}")
        status, _, _ = request(server.port, "GET", "/healthz", server.tokens["director"])
        if status == 200:
            return
        pause.wait(0.1)
    raise RuntimeError(f"gunicorn did not answer in {READY_TIMEOUT} s:\n{log_tail(server.log)}")


# --- One backend, both paths.


def round_sizes(sectors: int, rounds: int) -> list[int]:
    """Splits each client's sectors into rounds as evenly as possible."""
    rounds = min(rounds, sectors)
    return [sectors // rounds + (1 if r < sectors % rounds else 0) for r in range(rounds)]


def measure(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    """Warms both paths up (not measured), then runs them in alternating rounds
    (A B, B A, ...): on a shared machine a burst of outside load then falls on
    both paths instead of on whichever ran second. Checks the results after."""
    labels = [t.label for t in TARGETS]
    samples: dict[str, list[Sample]] = {label: [] for label in labels}
    opened: dict[str, list[str]] = {label: [] for label in labels}
    seconds = dict.fromkeys(labels, 0.0)
    warmup_errors = {}
    sent: list[Sample] = []  # every event-sourced command, warm-up included
    for target in TARGETS:
        warm, ids, _ = run_phase(server, target, args.clients, 1, "warm")
        warmup_errors[target.label] = sum(1 for s in warm if not s.ok)
        if target.label == "event-sourced":
            sent += warm
        opened[target.label] += ids  # checked with the rest, not measured
    for index, size in enumerate(round_sizes(args.sectors_per_client, args.rounds)):
        for target in TARGETS if index % 2 == 0 else TARGETS[::-1]:
            got, ids, elapsed = run_phase(server, target, args.clients, size, f"r{index}")
            samples[target.label] += got
            opened[target.label] += ids
            seconds[target.label] += elapsed
    paths = {}
    for label in labels:
        paths[label] = summarise(samples[label], seconds[label])
        paths[label]["warmup_errors"] = warmup_errors[label]
    sent += samples["event-sourced"]
    es_rate = paths["event-sourced"]["commands_per_s"]
    if args.half_load_sectors and es_rate:
        # Both paths at the same pace, half of what the event-sourced one held.
        for target in TARGETS:
            got, ids, elapsed = run_paced(
                server, target, args.half_load_sectors, es_rate / 2, "half"
            )
            paths[target.label]["half_load"] = {
                "rate_per_s": es_rate / 2,
                **summarise(got, elapsed),
            }
            opened[target.label] += ids
            if target.label == "event-sourced":
                sent += got
    for label in labels:
        paths[label]["read_models"] = verify(server, opened[label])
    paths["event-sourced"]["event_log"] = verify_log(server, sent)
    return paths


def run_backend(
    backend: str, args: argparse.Namespace, stamp: str, read_models: str, workers: int
) -> dict[str, Any]:
    """Scratch stores, migrate, users, gunicorn (and the projector), both paths;
    everything torn down on the way out, whatever happens."""
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="floor-bench-")))
        if backend == "postgres":
            stack.enter_context(scratch_database())
        env = server_env(backend, scratch)
        env["FLOOR_READ_MODELS"] = read_models
        tokens = prepare(env)
        server = stack.enter_context(gunicorn(env, scratch, workers, tokens))
        running = None
        if read_models == "projector":
            running = stack.enter_context(projector(env, scratch))
        try:
            wait_ready(server)
            if running is not None:
                wait_projector(server, running)
            paths = measure(server, args)
        except Exception:
            keep_log(server.log, stamp, backend)
            raise
        if any(p["errors"] or p["warmup_errors"] for p in paths.values()):
            paths["server_log"] = str(keep_log(server.log, stamp, backend))
        if not args.no_raw_store:
            # The same saves appended by the library alone, into a fresh store
            # beside this one (bench/raw_store.py).
            output = run_python(env, "-m", "bench.raw_store", str(scratch))
            paths["raw_store"] = json.loads(output.strip().splitlines()[-1])
        return paths


def keep_log(log: Path, stamp: str, backend: str) -> Path:
    """Copies the server log next to the results before the scratch dir goes,
    because errors are only worth a report with their tracebacks."""
    output_dir().mkdir(parents=True, exist_ok=True)
    kept = output_dir() / f"commands-{stamp}-{backend}-server.log"
    with contextlib.suppress(OSError):
        shutil.copyfile(log, kept)
        sys.stderr.write(f"server log kept at {kept}\n")
    return kept


# --- Output.

BACKEND_TITLES = {"embedded": "embedded default (SQLite)", "postgres": "PostgreSQL"}
READ_MODELS_TITLES = {
    "projector": "by the projector process",
    "inline": "inline in the request (before issue 23)",
}


def print_summary(runs: list[dict[str, Any]]) -> None:
    """One line per run: the event-sourced path against its own baseline."""
    print("\nsummary (event-sourced path; ratio to the ORM baseline of the same run)")
    header = ("backend", "read models", "workers", "ES cmd/s", "ORM cmd/s", "ratio", "ES p99")
    header += ("half ES p99", "half ORM p99", "half ratio", "raw saves/s", "ES/raw")
    print(f"{header[0]:<10}{header[1]:<12}" + "".join(f"{h:>13}" for h in header[2:]))
    for run in runs:
        es, orm = run["paths"]["event-sourced"], run["paths"]["ORM baseline"]
        ratios = run["paths"]["ratio_event_sourced_to_baseline"]
        cells = (run["workers"], fmt(es["commands_per_s"]), fmt(orm["commands_per_s"]))
        cells += (fmt(ratios["commands_per_s"], 2), fmt(es["p99_ms"]))
        cells += (
            fmt(es.get("half_load", {}).get("p99_ms")),
            fmt(orm.get("half_load", {}).get("p99_ms")),
            fmt(ratios.get("half_load_p99_ms"), 2),
            fmt(run["paths"].get("raw_store", {}).get("saves_per_s")),
            fmt(run["paths"].get("ratio_event_sourced_to_raw_store"), 2),
        )
        print(
            f"{run['backend']:<10}{run['read_models']:<12}" + "".join(f"{c!s:>13}" for c in cells)
        )


def fmt(value: float | None, digits: int = 1) -> str:
    """A figure for the table, or a dash when there is none."""
    return "-" if value is None else f"{value:.{digits}f}"


def print_backend(
    backend: str, paths: dict[str, Any], args: argparse.Namespace, read_models: str, workers: int
) -> None:
    """The table of one run, then the ratios and the read-model checks."""
    rounds = len(round_sizes(args.sectors_per_client, args.rounds))
    print(
        f"\n{BACKEND_TITLES[backend]}, read models {READ_MODELS_TITLES[read_models]}: "
        f"gunicorn {workers} workers, {args.clients} clients, "
        f"{args.sectors_per_client} sectors per client in {rounds} alternating rounds"
    )
    header = ("path", "commands", "refused", "commands/s", "p50 ms", "p99 ms", "errors")
    print(f"{header[0]:<14}" + "".join(f"{h:>12}" for h in header[1:]))
    for target in TARGETS:
        p = paths[target.label]
        cells = (p["commands"], p["refused"], fmt(p["commands_per_s"]))
        cells += (fmt(p["p50_ms"]), fmt(p["p99_ms"]), p["errors"])
        print(f"{target.label:<14}" + "".join(f"{c!s:>12}" for c in cells))
    ratios = paths["ratio_event_sourced_to_baseline"]
    print(
        f"event-sourced/baseline: throughput {fmt(ratios['commands_per_s'], 2)}x, "
        f"p50 {fmt(ratios['p50_ms'], 2)}x, p99 {fmt(ratios['p99_ms'], 2)}x"
    )
    if "half_load" in paths["event-sourced"]:
        rate = paths["event-sourced"]["half_load"]["rate_per_s"]
        print(f"half load, open loop at {fmt(rate)} commands/s (half the event-sourced rate):")
        print(f"{'path':<14}" + "".join(f"{h:>12}" for h in header[1:]))
        for target in TARGETS:
            p = paths[target.label]["half_load"]
            cells = (p["commands"], p["refused"], fmt(p["commands_per_s"]))
            cells += (fmt(p["p50_ms"]), fmt(p["p99_ms"]), p["errors"])
            print(f"{target.label:<14}" + "".join(f"{c!s:>12}" for c in cells))
        print(
            f"event-sourced/baseline at half load: p50 {fmt(ratios.get('half_load_p50_ms'), 2)}x, "
            f"p99 {fmt(ratios.get('half_load_p99_ms'), 2)}x"
        )
    if "raw_store" in paths:
        raw = paths["raw_store"]
        print(
            f"the same {raw['saves']} saves ({raw['events']} events) appended by the library "
            f"alone, one at a time: {fmt(raw['saves_per_s'])} saves/s; HTTP commands/s to "
            f"it: event-sourced {fmt(paths['ratio_event_sourced_to_raw_store'], 2)}x, "
            f"ORM baseline {fmt(paths['ratio_baseline_to_raw_store'], 2)}x"
        )
    for target in TARGETS:
        p = paths[target.label]
        checks = [("read models", p["read_models"])]
        if "event_log" in p:
            checks.append(("event log", p["event_log"]))
        shown = ", ".join(
            f"{what} {'ok' if c['ok'] else 'WRONG ' + json.dumps(c)}" for what, c in checks
        )
        print(f"  {target.label}: {shown}")
        if p["error_kinds"]:
            print(f"  {target.label} errors: {json.dumps(p['error_kinds'])}")
        if p.get("half_load", {}).get("error_kinds"):
            print(f"  {target.label} half-load errors: {json.dumps(p['half_load']['error_kinds'])}")


def add_ratios(paths: dict[str, Any]) -> None:
    """Event-sourced over baseline, for throughput and latency."""
    es, orm = paths["event-sourced"], paths["ORM baseline"]
    paths["ratio_event_sourced_to_baseline"] = {
        key: ratio(es[key], orm[key]) for key in ("commands_per_s", "p50_ms", "p99_ms")
    }
    if "raw_store" in paths:
        # The baseline's too: what the HTTP stack alone leaves of the raw rate.
        paths["ratio_event_sourced_to_raw_store"] = ratio(
            es["commands_per_s"], paths["raw_store"]["saves_per_s"]
        )
        paths["ratio_baseline_to_raw_store"] = ratio(
            orm["commands_per_s"], paths["raw_store"]["saves_per_s"]
        )
    if "half_load" in es and "half_load" in orm:
        paths["ratio_event_sourced_to_baseline"].update(
            {
                f"half_load_{key}": ratio(es["half_load"][key], orm["half_load"][key])
                for key in ("p50_ms", "p99_ms")
            }
        )


def git_commit() -> str | None:
    """The commit measured, so that results can be compared across changes."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        completed = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        )
        return completed.stdout.strip() or None
    return None


def write_results(results: dict[str, Any], stamp: str) -> Path:
    """Writes the run as JSON under var/bench/."""
    output_dir().mkdir(parents=True, exist_ok=True)
    path = output_dir() / f"commands-{stamp}.json"
    path.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    return path


# --- Entry point.


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The options; the defaults keep a run of both backends around a minute."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("embedded", "postgres", "both"), default="both")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (threads)")
    parser.add_argument(
        "--sectors-per-client",
        type=int,
        default=25,
        help="sectors each client opens per path (6 commands each)",
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="alternating rounds the sectors are split into"
    )
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=[2],
        help="gunicorn sync workers; several (1 2) run each configuration with each",
    )
    parser.add_argument(
        "--read-models",
        choices=("projector", "inline", "both"),
        default="projector",
        help="who applies the events: the projector process, the request, or both runs",
    )
    parser.add_argument(
        "--half-load-sectors",
        type=int,
        default=None,
        help="sectors per path in the open-loop phase at half the event-sourced rate "
        "(6 commands each; default: half the sectors of the full-load rounds; 0: none)",
    )
    parser.add_argument(
        "--no-raw-store",
        action="store_true",
        help="skip appending the run's saves with the library alone (bench/raw_store.py)",
    )
    args = parser.parse_args(argv)
    if args.half_load_sectors is None:
        args.half_load_sectors = max(1, args.clients * args.sectors_per_client // 2)
    if args.half_load_sectors < 0:
        parser.error("--half-load-sectors must be 0 or more")
    for name in ("clients", "sectors_per_client", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if min(args.workers) < 1:
        parser.error("--workers must be at least 1")
    return args


def unwind_on_signals() -> None:
    """SIGTERM unwinds like Ctrl-C, and Ctrl-C works even when the shell started
    us with SIGINT ignored (a background job): either way every server,
    database and scratch directory is cleaned up on the way out."""

    def handler(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, signal.default_int_handler)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    unwind_on_signals()
    for tool in ("python", "gunicorn"):
        if not (VENV_BIN / tool).exists():
            sys.stderr.write(f"{VENV_BIN / tool} is missing: run `make bench` to install it\n")
            return 2
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    backends = ("embedded", "postgres") if args.backend == "both" else (args.backend,)
    results: dict[str, Any] = {
        "benchmark": "commands",
        "started_at": stamp,
        "commit": git_commit(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "options": vars(args),
        "workload": {
            "per_sector": {"open_sector": 1, "open_table": TABLES_PER_SECTOR, "refused_table": 1},
            "table": TABLE,
        },
        "runs": [],
    }
    modes = ("inline", "projector") if args.read_models == "both" else (args.read_models,)
    for backend in backends:
        for workers in args.workers:
            for read_models in modes:
                paths = run_backend(backend, args, stamp, read_models, workers)
                add_ratios(paths)
                results["runs"].append(
                    {
                        "backend": backend,
                        "read_models": read_models,
                        "workers": workers,
                        "paths": paths,
                    }
                )
                print_backend(backend, paths, args, read_models, workers)
    print_summary(results["runs"])
    print(f"\nresults written to {shown(write_results(results, stamp))}")
    failed = any(
        run["paths"][t.label]["errors"]
        or run["paths"][t.label]["warmup_errors"]
        or not run["paths"][t.label]["read_models"]["ok"]
        or not run["paths"][t.label].get("event_log", {"ok": True})["ok"]
        or run["paths"][t.label].get("half_load", {}).get("errors")
        for run in results["runs"]
        for t in TARGETS
    )
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.stderr.write("interrupted: servers stopped, scratch stores removed\n")
        sys.exit(130)
