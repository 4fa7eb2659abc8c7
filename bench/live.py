"""How soon a change made through the API shows in an open console, and what an
idle console costs (issue 22, item 4: "a remote change visible <= 1 s").

One gunicorn (two sync workers: the console's polls and the API's commands
are two people's requests) on the embedded default in a scratch directory,
with the demo floor `make run` loads. An open console is played as the page's
htmx does it (templates/floor/console/_script.html): the jefe's live part for
Sector A, asked every ``data-poll-ms`` (read from the console page) with
``since=<position>``, the position moved on each 200. Each round, at a random
moment of the poll's cycle, the jefe rests a player of Sector A's first table
through the API (``POST /api/tables/<id>/rest/``, then ``rest/end/`` the next
round); the change is visible when a live answer's HTML shows that seat line
resting (or no longer resting). It prints, over the rounds, p50/p95/max
milliseconds from the command's answer (the change recorded) to the console's
answer showing it, judged against 1000 ms (from 20 rounds up: fewer are the
slowest few, not a percentile), and the command's own time.

The idle console: the 204 poll (nothing Sector A shows changed) against
``/healthz`` side by side, median/p95 milliseconds over HTTP and the SQL
queries each runs (counted in-process on the same stores), and that a change
in Sector B leaves Sector A's poll at 204. A wrong answer is a failure at any
size (exit status 1).

Usage: .venv/bin/python bench/live.py [--rounds 40] [--idle-rounds 200]
Results: printed, and written to var/bench/live-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.commands import free_port, request, run_python, stop  # noqa: E402
from bench.console import LOOPBACK, READY_TIMEOUT, VENV_BIN, get, percentile  # noqa: E402
from bench.scratch_env import clean_environ, output_dir, shown  # noqa: E402

BUDGET_MS = 1000.0  # the figure: a remote change visible within a second
BUDGET_ROUNDS = 20
SHOW_TIMEOUT = 10.0  # a change not shown by then is a failure

# What the server side prints for the harness: ids, a session, a token, and the
# queries of the idle poll and of /healthz (and the 204 after a change elsewhere).
SERVER_SIDE = """
import json
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from knox.models import AuthToken
from floor import runtime
from floor.models import SectorView, TableView

jefe = get_user_model().objects.get(username="jefe")
store = SessionStore()
store["_auth_user_id"] = str(jefe.pk)
store["_auth_user_backend"] = "floor.logins.DoorBackend"
store["_auth_user_hash"] = jefe.get_session_auth_hash()
store.create()
_, token = AuthToken.objects.create(jefe)
director = get_user_model().objects.get(username="director")
_, director_token = AuthToken.objects.create(director)
sector = SectorView.objects.get(name="Sector A")
other = SectorView.objects.get(name="Sector B")
table = TableView.objects.filter(sector=sector).order_by("number").first()
card = table.occupied_seats.order_by("seat").first().player.card_number
client = Client(HTTP_HOST="127.0.0.1")
client.cookies["sessionid"] = store.session_key
live = f"/sectors/{sector.id}/live/"
position = client.get(live)["X-Floor-Position"]
queries = {}
for label, url in (("idle poll (204)", f"{live}?since={position}"), ("healthz", "/healthz")):
    client.get(url)  # warm
    with CaptureQueriesContext(connection) as seen:
        status = client.get(url).status_code
    queries[label] = {"queries": len(seen), "status": status,
                      "sql": [q["sql"] for q in seen.captured_queries]}
print(json.dumps({"sector": str(sector.id), "other": str(other.id), "table": str(table.id),
                  "card": card, "session": store.session_key, "token": token,
                  "director_token": director_token, "queries": queries}))
"""


@contextlib.contextmanager
def server(env: dict[str, str], scratch: Path, workers: int = 2):
    """gunicorn on a free loopback port, stopped when the block exits."""
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
        "--log-level",
        "warning",
    ]
    # The projector is its own process (issue 23): the commands' requests wait
    # for it, and the console's poll sees what it applied.
    projector_command = [str(VENV_BIN / "python"), str(ROOT / "manage.py"), "run_projector"]
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
        projector = subprocess.Popen(
            projector_command,
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
        stop(projector)


def get_text(port: int, url: str, session: str) -> tuple[int, dict[str, str], str]:
    """One GET with the console's session; status, headers and the body."""
    import http.client

    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=60)
    try:
        connection.request(
            "GET", url, headers={"Cookie": f"sessionid={session}", "Accept-Language": "es"}
        )
        response = connection.getresponse()
        body = response.read().decode()
        return response.status, dict(response.getheaders()), body
    finally:
        connection.close()


def resting(html: str, card: str) -> bool | None:
    """Whether the seat line of ``card`` shows it resting (None: not in the HTML)."""
    found = re.search(rf'<tr[^>]*data-card="{re.escape(card)}"[^>]*>(.*?)</tr>', html, re.S)
    return None if found is None else 'data-testid="resting"' in found.group(1)


class Console:
    """An open console's live part, polled as its htmx does: every ``poll_ms``
    with since=<position>; remembers each answer's moment and what it showed."""

    def __init__(self, port: int, url: str, session: str, position: str, poll_ms: int) -> None:
        self.port, self.url, self.session = port, url, session
        self.position, self.poll_s = position, poll_ms / 1000
        self.shown: list[tuple[float, str]] = []  # (when, HTML) of each 200
        self.statuses: dict[int, int] = {}
        self.changed = threading.Condition()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        next_at = time.monotonic()
        while not self.stopping.is_set():
            status, headers, body = get_text(
                self.port, f"{self.url}?since={self.position}", self.session
            )
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status == 200:
                with self.changed:
                    self.position = headers.get("X-Floor-Position", self.position)
                    self.shown.append((time.monotonic(), body))
                    self.changed.notify_all()
            next_at += self.poll_s
            self.stopping.wait(max(0.0, next_at - time.monotonic()))

    def first_showing(self, since: float, card: str, rests: bool) -> float | None:
        """When an answer after ``since`` first showed the card so; None if not in time."""
        deadline = time.monotonic() + SHOW_TIMEOUT
        with self.changed:
            while True:
                for when, html in self.shown:
                    if when >= since and resting(html, card) is rests:
                        return when
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)


def command(port: int, token: str, table: str, card: str, rests: bool) -> tuple[int, float]:
    path = "rest/" if rests else "rest/end/"
    body = {"command_id": str(uuid.uuid4()), "player": card}
    status, _, ms = request(port, "POST", f"/api/tables/{table}/{path}", token, body)
    return status, ms


def measure_changes(port: int, facts: dict, poll_ms: int, rounds: int, problems: list[str]):
    """Each round, a rest (or its end) through the API at a random moment of the
    poll's cycle; how long until the console shows it."""
    live = f"/sectors/{facts['sector']}/live/"
    _, headers, _ = get_text(port, live, facts["session"])
    console = Console(port, live, facts["session"], headers["X-Floor-Position"], poll_ms)
    console.thread.start()
    pace = random.Random(22)
    pause = threading.Event()
    visible, commands = [], []
    try:
        for round_number in range(rounds):
            pause.wait(pace.uniform(0, poll_ms / 1000))  # any moment of the cycle
            rests = round_number % 2 == 0
            status, ms = command(port, facts["token"], facts["table"], facts["card"], rests)
            answered = time.monotonic()
            if status != 201:
                problems.append(f"round {round_number}: the command answered {status}")
                continue
            commands.append(ms)
            shown_at = console.first_showing(answered - ms / 1000, facts["card"], rests)
            if shown_at is None:
                problems.append(f"round {round_number}: not shown within {SHOW_TIMEOUT:.0f} s")
                continue
            visible.append(max(0.0, (shown_at - answered) * 1000))
    finally:
        console.stopping.set()
        console.thread.join(timeout=10)
    if set(console.statuses) - {200, 204}:
        problems.append(f"the live part answered {console.statuses}")
    return visible, commands


def measure_idle(port: int, facts: dict, rounds: int, problems: list[str]):
    """The 204 poll and /healthz, interleaved; then a change in Sector B, after
    which Sector A's poll must still answer 204."""
    live = f"/sectors/{facts['sector']}/live/"
    _, headers, _ = get_text(port, live, facts["session"])
    position = headers["X-Floor-Position"]
    samples: dict[str, list[float]] = {"idle poll (204)": [], "healthz": []}
    for round_number in range(rounds):
        order = list(samples) if round_number % 2 == 0 else list(reversed(samples))
        for label in order:
            url = f"{live}?since={position}" if label.startswith("idle") else "/healthz"
            status, _, ms = get(port, url, facts["session"] if label.startswith("idle") else None)
            if status != (204 if label.startswith("idle") else 200):
                problems.append(f"{label}: {url} answered {status}")
            samples[label].append(ms)
    body = {"command_id": str(uuid.uuid4()), "name": f"Bench {uuid.uuid4().hex[:6]}"}
    status, _, _ = request(port, "POST", "/api/sectors/", facts["director_token"], body)
    elsewhere = get(port, f"{live}?since={position}", facts["session"])[0]
    if status != 201 or elsewhere != 204:
        problems.append(f"a sector opened elsewhere ({status}): Sector A answered {elsewhere}")
    return samples, elsewhere


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--idle-rounds", type=int, default=200)
    args = parser.parse_args()
    if args.rounds < 1 or args.idle_rounds < 1:
        parser.error("--rounds and --idle-rounds are at least 1")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="floor-bench-live-") as tmp:
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
        output = run_python(env, "manage.py", "shell", "-c", SERVER_SIDE)
        facts = json.loads(output.splitlines()[-1])
        with server(env, scratch) as port:
            status, _, page = get_text(port, f"/sectors/{facts['sector']}/", facts["session"])
            found = re.search(r'data-poll-ms="(\d+)"', page)
            if status != 200 or found is None:
                problems.append(f"the console page answered {status} without its poll")
                return report([], [], {}, None, 0, facts, problems, args, stamp)
            poll_ms = int(found.group(1))
            for _ in range(5):  # warm both workers
                get(port, "/healthz", None)
                get_text(port, f"/sectors/{facts['sector']}/live/", facts["session"])
            visible, commands = measure_changes(port, facts, poll_ms, args.rounds, problems)
            idle, elsewhere = measure_idle(port, facts, args.idle_rounds, problems)
    for label, counted in facts["queries"].items():
        if counted["status"] != (204 if label.startswith("idle") else 200):
            problems.append(f"{label}: answered {counted['status']} in-process")
    return report(visible, commands, idle, elsewhere, poll_ms, facts, problems, args, stamp)


def figures(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50_ms": None, "p95_ms": None, "max_ms": None}
    return {
        "p50_ms": round(statistics.median(values), 1),
        "p95_ms": round(percentile(values, 95), 1),
        "max_ms": round(max(values), 1),
    }


def report(visible, commands, idle, elsewhere, poll_ms, facts, problems, args, stamp) -> int:
    seen, sent = figures(visible), figures(commands)
    judged = args.rounds >= BUDGET_ROUNDS and bool(visible)
    verdict = (seen["max_ms"] or 0) <= BUDGET_MS if judged else None
    shown_verdict = {True: "yes", False: "NO", None: f"not judged under {BUDGET_ROUNDS} rounds"}
    print(
        f"\nA change through the API, seen by an open console (Sector A, polled every "
        f"{poll_ms} ms), embedded SQLite, gunicorn 2 sync workers, {args.rounds} rounds\n"
    )
    print(f"{'':34} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for label, row in (("command answered -> shown", seen), ("the command itself", sent)):
        cells = " ".join(f"{row[k]:8.1f}" if row[k] is not None else f"{'-':>8}" for k in row)
        print(f"{label:34} {cells}")
    print(f"\nshown within {BUDGET_MS:.0f} ms at worst: {shown_verdict[verdict]}")
    rows = {}
    if idle:
        print(f"\nAn idle console, {args.idle_rounds} interleaved rounds\n")
        print(f"{'':20} {'median ms':>10} {'p95 ms':>8} {'SQL':>5}")
        for label, values in idle.items():
            rows[label] = {
                "median_ms": round(statistics.median(values), 2),
                "p95_ms": round(percentile(values, 95), 2),
                "queries": facts["queries"][label]["queries"],
            }
            row = rows[label]
            print(f"{label:20} {row['median_ms']:10.1f} {row['p95_ms']:8.1f} {row['queries']:5}")
        print(f"\nA sector opened elsewhere: Sector A's poll answered {elsewhere}")
    for problem in problems[:10]:
        print("unexpected:", problem)
    output_dir().mkdir(parents=True, exist_ok=True)
    out = output_dir() / f"live-{stamp}.json"
    out.write_text(
        json.dumps(
            {
                "rounds": args.rounds,
                "poll_ms": poll_ms,
                "visible": seen,
                "command": sent,
                "idle": rows,
                "idle_sql": {k: v["sql"] for k, v in facts.get("queries", {}).items()},
                "problems": problems,
                "verdict": verdict,
            },
            indent=2,
        )
    )
    print(f"written: {shown(out)}")
    return 0 if verdict is not False and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
