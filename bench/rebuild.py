"""The rebuild: ``rebuild_projections`` against the library reading and decoding
the same log, side by side (issue 23: >= 15,000 events/s and >= 0.3x the read).

A scratch room (SQLite read models and event store, the embedded default,
under a scratch FLOOR_VAR_DIR) runs a shift through the floor's own commands
(tests/support/shift.py: tables of six to nine, honest hands, rests, players
leaving and cashing out, newcomers called from the list, rebuys) until the log
holds ``--events`` events, while a live projector catches up after every round,
in batches of 100, as the projector process does. Then, each in a fresh
process and alternating so that outside load falls on both:

- ``decode``: the library reads the whole log and decodes every event
  (``recorder.select_notifications`` + ``mapper.to_domain_event``): the peer;
- ``rebuild``: ``manage.py rebuild_projections --batch-size N``.

Reported: the build's time and rate, events/s of each and their ratio, the
rebuild's RSS at a quarter, half, three quarters and the end of its run (memory
must stay flat as the log grows); and the journal's mentions of the log found
both ways, in each event's JSON text and by walking its fields (``mentions``:
microseconds an event, best of five, alternating); and the rebuilt hands' and
transactions' values prepared for writing by their fields and by
``floor.kernel.web.rows`` (``prepare``). Checked (exit status 1 when one fails):
the rebuilt read models equal the live ones, ``verify_log`` passes, both ways
find the same mentions for every event, and prepare the same values.

For the largest logs (issue 23: a million events), ``--no-live`` builds with
the projection off, as fast as the commands go, and the projector catches up
once after the build (timed apart); ``--build-seconds`` stops the build at a
wall-clock bound, short of ``--events`` if need be (the log measured is the one
built, its size reported); ``--skip-check`` leaves out the live read models and
their comparison and ``verify_log``, which on such a log would take as long as
the rebuild itself; ``--reuse DIR`` measures a room kept by ``--keep`` without
building it again.

Usage: .venv/bin/python bench/rebuild.py [--events 50000] [--tables 12]
       [--batch-size 500] [--rounds 2] [--keep DIR | --reuse DIR] [--no-live]
       [--build-seconds S] [--skip-check]
Results: printed, and written to var/bench/rebuild-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scratch_env import clean_environ, output_dir, shown  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python")
PAGE = 500  # notifications read per query by the peer


def rss_mb() -> float:
    """This process's resident set now (not its peak), in MB."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


class RssSampler(threading.Thread):
    """RSS every 0.2 s while the measured work runs."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.samples: list[tuple[float, float]] = []
        self.stop = threading.Event()
        self.began = time.perf_counter()

    def run(self) -> None:
        while not self.stop.wait(0.2):
            self.samples.append((time.perf_counter() - self.began, rss_mb()))

    def points(self, seconds: float) -> dict[str, float]:
        """The RSS at 25, 50, 75 and 100 % of the run (the sample nearest each)."""
        points = {}
        for share in (25, 50, 75, 100):
            at = seconds * share / 100
            near = min(self.samples, key=lambda s: abs(s[0] - at), default=(at, rss_mb()))
            points[f"{share}%"] = near[1]
        return points


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


# --- The child processes: each measures one thing on the scratch room. ------------


def build(
    events: int,
    tables: int,
    seed: int,
    projection: str = "live",
    seconds_bound: int = 0,
    progress: str = "",
) -> dict:
    """The shift, up to ``events`` in the log, projected ``live`` as it goes,
    or ``after`` the build (the projector catching up, timed apart), or ``off``.
    ``seconds_bound`` (0: none) stops the build short; ``progress`` names a file
    that shows the log's size as it grows (a long build is watched there)."""
    setup_django()
    from django.core.management import call_command

    from floor import runtime
    from floor.application.floor_app import FloorApplication
    from games.profiles import get_profile
    from tests.support.shift import Shift

    call_command("migrate", verbosity=0)
    # The library's cache of the latest states (the write side's own business,
    # issue 23 item 5): without it a command replays its table from the last
    # snapshot, and building a large log takes hours instead of minutes.
    env = {**runtime.event_store_env(), "AGGREGATE_CACHE_MAXSIZE": "5000"}
    app = FloorApplication(env=env, profile=get_profile("CM"))
    runtime.install(app)
    live = runtime.floor_projector()  # one projector for the run: its states stay in memory
    shift = Shift(app, seed=seed)
    began = time.perf_counter()
    shift.open(tables)
    rounds = 0
    while app.last_position() < events:
        shift.round()
        rounds += 1
        if projection == "live":
            live.catch_up()
        elapsed = time.perf_counter() - began
        if progress and rounds % 50 == 0:
            Path(progress).write_text(f"{app.last_position()} events in {elapsed:.0f} s\n")
        if seconds_bound and elapsed > seconds_bound:
            break
    seconds = time.perf_counter() - began
    projected = None
    if projection == "after":
        live.batch_size = 500
        after = time.perf_counter()
        live.catch_up(timeout=3600)
        projected = round(time.perf_counter() - after, 1)
    return {
        "events": app.last_position(),
        "seconds": round(seconds, 1),
        "projection": projection,
        "projected_after_seconds": projected,
        "commands": shift.accepted,
        "refused": shift.refused,
        "tables": tables,
        "players": shift.players,
        "events_per_second": round(app.last_position() / seconds, 1),
    }


def decode() -> dict:
    """The peer: every notification of the log read and decoded by the library."""
    setup_django()
    from floor.runtime import floor_app

    app = floor_app()
    sampler = RssSampler()
    sampler.start()
    began = time.perf_counter()
    count, start = 0, 0
    while True:
        page = app.recorder.select_notifications(start=start, limit=PAGE, inclusive_of_start=False)
        if not page:
            break
        for notification in page:
            app.mapper.to_domain_event(notification)
        count += len(page)
        start = page[-1].id
    seconds = time.perf_counter() - began
    sampler.stop.set()
    return {"events": count, "seconds": round(seconds, 2), "rss_mb": sampler.points(seconds)}


def rebuild(batch_size: int) -> dict:
    """``rebuild_projections``, as an operator runs it."""
    setup_django()
    from django.core.management import call_command

    from floor.runtime import floor_app

    events = floor_app().last_position()
    sampler = RssSampler()
    sampler.start()
    began = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        call_command("rebuild_projections", "--batch-size", str(batch_size), "--no-progress",
                     stdout=quiet, stderr=quiet)  # fmt: skip
    seconds = time.perf_counter() - began
    sampler.stop.set()
    return {"events": events, "seconds": round(seconds, 2), "rss_mb": sampler.points(seconds)}


def mentions() -> dict:
    """The journal's mentions of every event of the log, found both ways
    (issue 23, fourth pass): in the JSON text of its data, as the reports'
    first index did, and by walking its fields, as the projection does now.
    Each way runs over the whole log five times, alternating; the best of
    each is kept. Both must find the same ids for every event."""
    setup_django()
    from floor.projections.journal import entry_text
    from floor.projections.report_views import event_mentioned_ids, mentioned_ids
    from floor.runtime import floor_app

    app = floor_app()
    events, start = [], 0
    while page := app.recorder.select_notifications(
        start=start, limit=PAGE, inclusive_of_start=False
    ):
        events.extend(app.mapper.to_domain_event(notification) for notification in page)
        start = page[-1].id
    differ = sum(
        1 for event in events if mentioned_ids(entry_text(event)) != event_mentioned_ids(event)
    )

    def in_text(event) -> set[str]:
        return mentioned_ids(entry_text(event))

    text, walk = [], []
    for _ in range(5):
        for way, times in ((in_text, text), (event_mentioned_ids, walk)):
            began = time.perf_counter()
            for event in events:
                way(event)
            times.append(time.perf_counter() - began)
    per_event = 1e6 / max(len(events), 1)
    return {
        "events": len(events),
        "text_us": round(min(text) * per_event, 2),
        "walk_us": round(min(walk) * per_event, 2),
        "differ": differ,
    }


def prepare() -> dict:
    """The values of the rebuilt hands and transactions prepared for writing
    both ways (issue 23, fourth pass): by each field's ``get_db_prep_save``,
    as the ORM does, and by ``floor.kernel.web.rows``' preparers, as a batch's
    rows are written now. Five times each, alternating; the best of each.
    Both must give the same values (PostgreSQL's JSON wrapper by what it
    wraps)."""
    setup_django()
    from django.db import connection, models

    from floor.kernel.web.rows import _preparer
    from floor.models import HandView
    from ledger.models import TransactionView

    tables = [(model, list(model.objects.all())) for model in (HandView, TransactionView)]

    def values(way) -> list[tuple]:
        out = []
        for model, objs in tables:
            fields = [
                field
                for field in model._meta.concrete_fields
                if not (field.primary_key and isinstance(field, models.AutoField))
            ]
            ways = [(field.attname, way(field)) for field in fields]
            out.extend(tuple(prep(getattr(obj, name)) for name, prep in ways) for obj in objs)
        return out

    def by_field(field):
        return lambda value: field.get_db_prep_save(value, connection)

    def by_rows(field):
        return _preparer(field, connection)

    def comparable(rows: list[tuple]) -> list[tuple]:
        return [tuple(getattr(v, "obj", v) for v in row) for row in rows]

    same = comparable(values(by_field)) == comparable(values(by_rows))
    field_times, rows_times = [], []
    for _ in range(5):
        for way, times in ((by_field, field_times), (by_rows, rows_times)):
            began = time.perf_counter()
            values(way)
            times.append(time.perf_counter() - began)
    return {
        "rows": sum(len(objs) for _model, objs in tables),
        "field_ms": round(min(field_times) * 1000, 1),
        "rows_ms": round(min(rows_times) * 1000, 1),
        "same": same,
    }


def snapshot(path: str) -> dict:
    """The read models as they stand (the live ones, or the rebuilt), to a file."""
    setup_django()
    from tests.support.read_models import read_models

    Path(path).write_text(json.dumps(read_models()))
    return {}


def verify() -> dict:
    setup_django()
    from django.core.management import call_command
    from django.core.management.base import CommandError

    try:
        with open(os.devnull, "w") as quiet:
            call_command("verify_log", stdout=quiet)
    except CommandError as error:
        return {"ok": False, "error": str(error)}
    return {"ok": True}


CHILDREN = {"build": build, "decode": decode, "rebuild": rebuild, "snapshot": snapshot,
            "verify": verify, "mentions": mentions, "prepare": prepare}  # fmt: skip


# --- The orchestrator. ------------------------------------------------------------


def child(env: dict[str, str], *args: str) -> dict:
    """Runs one measure in a fresh process on the scratch room; its JSON answer."""
    done = subprocess.run(
        [PYTHON, __file__, "child", *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{args[0]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def rate(run: dict) -> float:
    return run["events"] / run["seconds"] if run["seconds"] else 0.0


def run(args: argparse.Namespace, scratch: Path) -> int:
    env = clean_environ() | {
        "FLOOR_VAR_DIR": str(scratch),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    projection = "after" if args.no_live else "live"
    if args.skip_check:
        projection = "off" if args.no_live else projection
    if args.reuse:
        built = json.loads((scratch / "build.json").read_text())
        print(f"reusing the room in {scratch}: {built['events']} events", flush=True)
    else:
        print(
            f"building a log of {args.events} events through the floor's commands "
            f"(progress in {scratch / 'build-progress.txt'}) ...",
            flush=True,
        )
        built = child(
            env, "build", str(args.events), str(args.tables), str(args.seed), projection,
            str(args.build_seconds), str(scratch / "build-progress.txt"),
        )  # fmt: skip
        (scratch / "build.json").write_text(json.dumps(built))
    after = built.get("projected_after_seconds")
    print(
        f"built {built['events']} events ({built['commands']} commands, {built['tables']} "
        f"tables, {built['players']} players) in {built['seconds']} s: "
        f"{built['events_per_second']} events/s, projection {built.get('projection', 'live')}"
        + (f"; the projector caught up after in {after} s" if after else ""),
        flush=True,
    )
    if not args.skip_check:
        child(env, "snapshot", str(scratch / "live.json"))
    decodes, rebuilds = [], []
    for _ in range(args.rounds):
        decodes.append(child(env, "decode"))
        rebuilds.append(child(env, "rebuild", str(args.batch_size)))
    if args.skip_check:
        child(env, "snapshot", str(scratch / "rebuilt.json"))
        rebuilt = json.loads((scratch / "rebuilt.json").read_text())
        report_rows = sum(len(v) for v in rebuilt.values())
        return report(args, built, decodes, rebuilds, report_rows, None, None)
    child(env, "snapshot", str(scratch / "rebuilt.json"))
    verified = child(env, "verify")
    found = child(env, "mentions")
    prepared = child(env, "prepare")

    from tests.support.read_models import differences

    live = json.loads((scratch / "live.json").read_text())
    rebuilt = json.loads((scratch / "rebuilt.json").read_text())
    differ = differences(live, rebuilt)
    rows = sum(len(v) for v in live.values())
    return report(args, built, decodes, rebuilds, rows, differ, verified, found, prepared)


def report(
    args, built, decodes, rebuilds, rows, differ, verified, found=None, prepared=None
) -> int:
    """Prints and writes the figures; ``differ`` and ``verified`` are None when
    the check was left out (--skip-check)."""
    decode_rate = max(rate(r) for r in decodes)
    rebuild_rate = max(rate(r) for r in rebuilds)
    best = max(rebuilds, key=rate)
    ratio = rebuild_rate / decode_rate if decode_rate else 0.0
    print(f"{'':34}{'events/s':>10}  (best of {args.rounds}, each run in a fresh process)")
    print(f"{'read + decode (the library)':34}{decode_rate:>10.0f}")
    print(f"{'rebuild_projections':34}{rebuild_rate:>10.0f}  batch {args.batch_size}")
    print(f"rebuild / read+decode: {ratio:.3f}")
    print(f"rebuild RSS (MB) at 25/50/75/100 % of its run: {best['rss_mb']}")
    if verified is None:
        print(f"read models: {rows} rows rebuilt; not compared, verify_log not run (--skip-check)")
    else:
        print(f"read models: {rows} rows; rebuilt equal to live: {not differ}")
        print(f"verify_log: {'passes' if verified['ok'] else verified['error']}")
    if found is not None:
        print(
            f"mentions (us/event, best of 5): JSON text {found['text_us']}, "
            f"walk {found['walk_us']} "
            f"({found['text_us'] / found['walk_us'] if found['walk_us'] else 0:.2f}x); "
            f"events where they differ: {found['differ']}"
        )
    if prepared is not None:
        print(
            f"hands' and transactions' values prepared ({prepared['rows']} rows, ms, best of 5): "
            f"by their fields {prepared['field_ms']}, by rows.py {prepared['rows_ms']}; "
            f"the same: {prepared['same']}"
        )
    problems = []
    if differ:
        problems.append(f"rebuilt read models differ from the live ones: {differ}")
    if verified is not None and not verified["ok"]:
        problems.append(f"verify_log: {verified['error']}")
    if not rows:
        problems.append("no read model rows: the shift did nothing")
    if prepared is not None and not prepared["same"]:
        problems.append("rows.py prepares the hands' or transactions' values otherwise")
    if found is not None and found["differ"]:
        problems.append(f"the mentions walked differ from the text's at {found['differ']} events")
    for problem in problems:
        print(f"WRONG: {problem}"[:2000])
    output_dir().mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = output_dir() / f"rebuild-{stamp}.json"
    report = {
        "args": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "build": built,
        "decode": decodes,
        "rebuild": rebuilds,
        "decode_events_per_second": round(decode_rate),
        "rebuild_events_per_second": round(rebuild_rate),
        "ratio": round(ratio, 4),
        "read_model_rows": rows,
        "rebuilt_equal": None if verified is None else not differ,
        "verify_log": verified,
        "mentions": found,
        "prepare": prepared,
        "problems": problems,
    }
    out.write_text(json.dumps(report, indent=2))
    print(f"written to {shown(out)}")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "child":
        name, rest = argv[1], argv[2:]
        measure = CHILDREN[name]
        params = [int(a) if a.isdigit() else a for a in rest]
        print(json.dumps(measure(*params)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=50_000, help="the log's size, at least")
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--batch-size", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=2, help="decode and rebuild runs each")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--keep", type=Path, help="build the room in this (new) directory and keep it"
    )
    parser.add_argument("--reuse", type=Path, help="measure the room --keep kept there")
    parser.add_argument(
        "--no-live", action="store_true", help="projection off while building; caught up after"
    )
    parser.add_argument(
        "--build-seconds", type=int, default=0, help="stop building after this long (0: never)"
    )
    parser.add_argument(
        "--skip-check",
        action="store_true",
        help="no live read models (with --no-live), no comparison, no verify_log",
    )
    args = parser.parse_args(argv)
    if args.events < 1 or args.tables < 1 or args.batch_size < 1 or args.rounds < 1:
        parser.error("--events, --tables, --batch-size and --rounds are at least 1")
    if args.keep and args.reuse:
        parser.error("--keep builds a room, --reuse measures one: not both")
    if args.reuse:
        return run(args, args.reuse)
    if args.keep:
        args.keep.mkdir(parents=True)
        return run(args, args.keep)
    with tempfile.TemporaryDirectory(prefix="rebuild-bench-") as scratch:
        return run(args, Path(scratch))


if __name__ == "__main__":
    sys.exit(main())
