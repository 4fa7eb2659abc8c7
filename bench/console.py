"""How fast the consoles load on the demo floor, over HTTP, against the API's
own view of the same sector, side by side.

One gunicorn (sync, one worker: one person's requests, one at a time) on the
embedded default in a scratch directory, with the demo floor `make run` loads.
In interleaved rounds, so that outside load falls on every page alike, it asks:

- the jefe's console page (``/sectors/<Sector A>/``), the full live part the
  console polls after a change (``/live/?since=0``) and the poll when nothing
  changed (``/live/?since=<position>``, 204);
- the dealer's table view, the cage console, the room's board;
- the peers: ``/api/sectors/<Sector A>/floor/`` (the same sector as JSON, what a
  client-side console would have fetched) and ``/healthz`` (the stack's floor).

It prints median, p95 and max milliseconds per page, each page's median over the
API's, and the SQL queries each page runs (counted in-process on the same
stores). The issue's figure is the console page's load: under 300 ms at p95,
judged from 20 rounds up. A page answering anything but what it should is a
failure at any size (exit status 1).

Usage: .venv/bin/python bench/console.py [--rounds 200]
Results: printed, and written to var/bench/console-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.commands import free_port, run_python, stop  # noqa: E402
from bench.scratch_env import clean_environ, output_dir, shown  # noqa: E402

LOOPBACK = "127.0.0.1"
VENV_BIN = ROOT / ".venv" / "bin"
BUDGET_MS = 300.0  # the figure for the console page
# A p95 of fewer rounds is one of the slowest few requests, not a percentile: a
# shorter run (CI's tiny one) reports it, and only the answers decide its status.
BUDGET_ROUNDS = 20
READY_TIMEOUT = 30.0
PEER = "API sector floor"

# What the server side prints for the harness: ids, sessions, query counts.
SERVER_SIDE = """
import json
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from floor.models import SectorView, TableView

sector = SectorView.objects.get(name="Sector A")
table = TableView.objects.filter(sector=sector).order_by("number").first()
sessions = {}
for username in ("jefe", "cajero", "crupier"):
    user = get_user_model().objects.get(username=username)
    store = SessionStore()
    store["_auth_user_id"] = str(user.pk)
    store["_auth_user_backend"] = "floor.logins.DoorBackend"
    store["_auth_user_hash"] = user.get_session_auth_hash()
    store.create()
    sessions[username] = store.session_key
pages = {PAGES}
queries = {}
watcher = Client(HTTP_HOST="127.0.0.1")
watcher.cookies["sessionid"] = sessions["jefe"]
position = watcher.get(f"/sectors/{sector.id}/live/?since=0")["X-Floor-Position"]
for label, (who, url) in pages.items():
    client = Client(HTTP_HOST="127.0.0.1")
    client.cookies["sessionid"] = sessions[who] if who else ""
    url = url.format(sector=sector.id, table=table.id, position=position)
    client.get(url)  # warm
    with CaptureQueriesContext(connection) as seen:
        status = client.get(url).status_code
    queries[label] = {"queries": len(seen), "status": status}
print(json.dumps({"sector": str(sector.id), "table": str(table.id), "sessions": sessions,
                  "queries": queries}))
"""

# label: (who asks, url); {position} is the floor's position when asked.
PAGES = {
    "jefe console page": ("jefe", "/sectors/{sector}/"),
    "console live, changed": ("jefe", "/sectors/{sector}/live/?since=0"),
    "console live, unchanged": ("jefe", "/sectors/{sector}/live/?since={position}"),
    "dealer table view": ("crupier", "/tables/{table}/"),
    "cage console": ("cajero", "/cage/"),
    "public board": (None, "/board/"),
    PEER: ("jefe", "/api/sectors/{sector}/floor/"),
    "healthz": (None, "/healthz"),
}


def get(port: int, url: str, session: str | None) -> tuple[int, dict[str, str], float]:
    """One GET on a fresh connection; status, headers and milliseconds."""
    headers = {"Accept-Language": "es"}
    if session:
        headers["Cookie"] = f"sessionid={session}"
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=60)
    start = time.perf_counter()
    try:
        connection.request("GET", url, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, dict(response.getheaders()), (time.perf_counter() - start) * 1000
    finally:
        connection.close()


@contextlib.contextmanager
def server(env: dict[str, str], scratch: Path):
    """gunicorn on a free loopback port, stopped when the block exits."""
    port = free_port()
    log = scratch / "server.log"
    command = [
        str(VENV_BIN / "gunicorn"),
        "config.wsgi",
        "--bind",
        f"{LOOPBACK}:{port}",
        "--workers",
        "1",
        "--chdir",
        str(ROOT),
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
        deadline = time.monotonic() + READY_TIMEOUT
        pause = threading.Event()
        while True:
            with contextlib.suppress(OSError):
                if get(port, "/healthz", None)[0] == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start:\n{log.read_text()[-3000:]}")
            pause.wait(0.1)
        yield port
    finally:
        stop(process)


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def measure(port: int, facts: dict, rounds: int) -> tuple[dict[str, list[float]], list[str]]:
    """Every page once per round, in a rotating order; unexpected answers listed."""
    samples: dict[str, list[float]] = {label: [] for label in PAGES}
    problems: list[str] = []
    labels = list(PAGES)
    expected = {"console live, unchanged": 204}
    jefe = facts["sessions"]["jefe"]
    for round_number in range(rounds):
        # Where the floor is now, as the open console last saw it.
        live = f"/sectors/{facts['sector']}/live/?since=0"
        position = get(port, live, jefe)[1].get("X-Floor-Position", "")
        shift = round_number % len(labels)
        for label in labels[shift:] + labels[:shift]:
            who, url = PAGES[label]
            target = url.format(sector=facts["sector"], table=facts["table"], position=position)
            status, _, ms = get(port, target, facts["sessions"].get(who) if who else None)
            if status != expected.get(label, 200):
                problems.append(f"{label}: {target} answered {status}")
            samples[label].append(ms)
    return samples, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds is at least 1")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    with tempfile.TemporaryDirectory(prefix="floor-bench-console-") as tmp:
        scratch = Path(tmp)
        env = clean_environ()
        env.update(
            FLOOR_VAR_DIR=str(scratch / "var"),
            DJANGO_SETTINGS_MODULE="config.settings",
            DJANGO_DEBUG="0",
            FLOOR_LOG_LEVEL="WARNING",
            PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        )
        run_python(env, "manage.py", "migrate", "--noinput")
        run_python(env, "manage.py", "load_demo_floor")
        code = SERVER_SIDE.replace("{PAGES}", repr(PAGES))
        facts = json.loads(run_python(env, "manage.py", "shell", "-c", code).splitlines()[-1])
        with server(env, scratch) as port:
            for _ in range(5):  # warm the worker
                for who, url in PAGES.values():
                    target = url.format(sector=facts["sector"], table=facts["table"], position="")
                    get(port, target, facts["sessions"].get(who) if who else None)
            samples, problems = measure(port, facts, args.rounds)
    expected = {"console live, unchanged": 204}
    for label, counted in facts["queries"].items():
        if counted["status"] != expected.get(label, 200):
            problems.append(f"{label}: answered {counted['status']} in-process")
    return report(samples, problems, facts["queries"], args, stamp)


def report(samples, problems, queries, args, stamp) -> int:
    peer = statistics.median(samples[PEER])
    rows = {}
    print(
        f"\nConsoles on the demo floor, embedded SQLite, gunicorn 1 sync worker, "
        f"{args.rounds} interleaved rounds, one request at a time\n"
    )
    print(f"{'page':26} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'x API':>7} {'SQL':>5}")
    for label, values in samples.items():
        median = statistics.median(values)
        rows[label] = {
            "median_ms": round(median, 2),
            "p95_ms": round(percentile(values, 95), 2),
            "max_ms": round(max(values), 2),
            "ratio_to_api": round(median / peer, 2),
            "queries": queries.get(label, {}).get("queries"),
        }
        row = rows[label]
        print(
            f"{label:26} {row['median_ms']:10.1f} {row['p95_ms']:8.1f} {row['max_ms']:8.1f} "
            f"{row['ratio_to_api']:7.2f} {row['queries'] if row['queries'] is not None else '':>5}"
        )
    console = rows["jefe console page"]
    judged = args.rounds >= BUDGET_ROUNDS
    verdict = console["p95_ms"] < BUDGET_MS if judged else None
    shown_verdict = {True: "yes", False: "NO", None: f"not judged under {BUDGET_ROUNDS} rounds"}
    print(
        f"\nThe console page: median {console['median_ms']:.1f} ms, p95 {console['p95_ms']:.1f} ms "
        f"-> under {BUDGET_MS:.0f} ms: {shown_verdict[verdict]}"
    )
    for problem in problems[:10]:
        print("unexpected:", problem)
    output_dir().mkdir(parents=True, exist_ok=True)
    out = output_dir() / f"console-{stamp}.json"
    out.write_text(
        json.dumps(
            {"rounds": args.rounds, "pages": rows, "problems": problems, "verdict": verdict},
            indent=2,
        )
    )
    print(f"written: {shown(out)}")
    return 0 if verdict is not False and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
