"""An exclusion list's import and the check at seating (issue 25, item 2).

The issue asks that the importer read a 100,000-row list in seconds and that
a check at seating cost under a millisecond. On a scratch SQLite store (the
embedded default), in process: a generated CSV of ``--rows`` rows (valid DNI
numbers, names with accents, birth dates; one row in 1,000 with no document,
one in 500 unreadable) is imported through floor.compliance.exclusions
(the director's command, rows in batches); then, in alternating rounds so
that outside load falls on both, ``--checks`` checks of one identified
patron (floor.compliance.exclusions.check_patron: the document with the
lists' stamp, then the entries matching by document or by name and birth
date; the lists that apply kept in the process) against the baseline, a
plain indexed ORM lookup of one row (ExclusionEntry by document number).

It prints the import's rows per second and seconds, the check's and the
baseline's median microseconds and the ratio check / baseline. Only the ratio
means much on a shared machine. The import must count its rows and bad rows
exactly, a listed patron must be ``excluded``, a patron matched by name and
birth date ``possible`` and another ``clear``; otherwise the exit status is 1.

Usage: .venv/bin/python bench/exclusion_list.py [--rows 100000] [--checks 2000] [--rounds 5]
Results: printed, and written to var/bench/exclusion_list-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from uuid import uuid4

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scratch_env import FOREIGN_ENV, output_dir, shown  # noqa: E402

CHECK_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
NAMES = ["Lucía", "José", "María", "Antón", "Xoán", "Begoña", "Iñaki", "Noemí", "Raúl", "Ana"]
SURNAMES = ["Pérez", "Souto", "Núñez", "Fernández", "García", "Castro", "Otero", "Díaz"]


def setup_django(scratch: Path) -> None:
    """Django on scratch stores only: nothing of the caller's reaches the bench."""
    for name in FOREIGN_ENV:
        os.environ.pop(name, None)
    os.environ["FLOOR_VAR_DIR"] = str(scratch)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def dni(n: int) -> str:
    digits = f"{n:08d}"
    return digits + CHECK_LETTERS[n % 23]


def generate(rows: int, rng: random.Random) -> tuple[str, int, int]:
    """The CSV (the default mapping's columns), its good rows and its bad rows."""
    lines = ["document_number,full_name,birth_date"]
    good = bad = 0
    for i in range(rows):
        born = date(1940, 1, 1) + timedelta(days=rng.randrange(60 * 365))
        name = f"{rng.choice(NAMES)} {rng.choice(SURNAMES)} {rng.choice(SURNAMES)}"
        if i % 500 == 499:
            lines.append(f"{dni(i)},{name},{born.day}/{born.month}/{born.year}")  # bad date
            bad += 1
            continue
        number = "" if i % 1000 == 998 else dni(10_000_000 + i)
        lines.append(f"{number},{name},{born.isoformat()}")
        good += 1
    return "\n".join(lines) + "\n", good, bad


def timed(call, times: int) -> list[float]:
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        call()
        spent.append((time.perf_counter() - started) * 1e6)
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--checks", type=int, default=2000, help="checks a round, each way")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.rows < 1000 or args.checks < 1 or args.rounds < 1:
        parser.error("--rows at least 1000, --checks and --rounds at least 1")

    with tempfile.TemporaryDirectory(prefix="floor-bench-exclusions-") as scratch:
        setup_django(Path(scratch))
        from django.contrib.auth.models import Group, User

        from floor import runtime
        from floor.application.floor_app import FloorApplication
        from floor.compliance.exclusions import check_patron, import_list
        from floor.kernel.clock import ManualClock
        from floor.models import ExclusionEntry, PatronIdentity
        from games.profiles import get_profile

        clock = ManualClock(datetime(2026, 11, 27, 20, 0, tzinfo=UTC))
        app = FloorApplication(
            env=runtime.event_store_env(), profile=get_profile("GA"), clock=clock
        )
        runtime.install(app)
        director = User.objects.create_user("dora")
        director.groups.set([Group.objects.get_or_create(name="director")[0]])

        rng = random.Random(25)
        body, good, bad = generate(args.rows, rng)
        started = time.perf_counter()
        outcome, _ = import_list(
            director, str(uuid4()), source="rgiaj", version="2026-11-01", data=body.encode()
        )
        import_seconds = time.perf_counter() - started
        problems = []
        if (outcome.result["rows"], outcome.result["bad_rows"]) != (good, bad):
            problems.append(f"import counted {outcome.result}, expected {good} and {bad}")
        if ExclusionEntry.objects.count() != good:
            problems.append("the entries kept are not the rows read")

        listed = ExclusionEntry.objects.exclude(document_number="").order_by("id")[args.rows // 2]
        named = ExclusionEntry.objects.filter(document_number="").first()
        patrons = {}
        for kind, number, name, born in (
            ("excluded", listed.document_number, "Someone Else", date(1970, 1, 1)),
            ("possible", "87654321X", named.name_key.title(), named.birth_date),
            ("clear", "00000001R", "Nadie Nunca", date(1971, 2, 3)),
        ):
            player_id = uuid4()
            PatronIdentity.objects.create(
                player_id=player_id,
                document_type="dni",
                document_number=number,
                country="ES",
                full_name=name,
                birth_date=born,
                recorded_at=clock.now(),
                recorded_by="dora",
            )
            patrons[kind] = player_id
            if check_patron(player_id, "GA").result != kind:
                problems.append(f"the {kind} patron was found {check_patron(player_id, 'GA')}")

        clear = patrons["clear"]
        probe = listed.document_number
        check_us: list[float] = []
        baseline_us: list[float] = []
        for _ in range(args.rounds):
            check_us += timed(lambda: check_patron(clear, "GA"), args.checks)
            baseline_us += timed(
                lambda: ExclusionEntry.objects.filter(document_number=probe).first(), args.checks
            )
        check_median = statistics.median(check_us)
        baseline_median = statistics.median(baseline_us)
        figures = {
            "rows": args.rows,
            "rows_read": good,
            "bad_rows": bad,
            "import_seconds": round(import_seconds, 3),
            "rows_per_second": round(args.rows / import_seconds),
            "check_median_us": round(check_median, 1),
            "check_p99_us": round(sorted(check_us)[int(len(check_us) * 0.99) - 1], 1),
            "baseline_median_us": round(baseline_median, 1),
            "ratio_check_over_baseline": round(check_median / baseline_median, 2),
            "problems": problems,
        }
        runtime.install(None)

    print(
        f"import: {args.rows} rows ({bad} bad) in {import_seconds:.2f} s, "
        f"{figures['rows_per_second']} rows/s"
    )
    print(
        f"check at seating: median {check_median:.0f} us (p99 {figures['check_p99_us']:.0f} us); "
        f"baseline (one indexed row): {baseline_median:.0f} us; "
        f"ratio {figures['ratio_check_over_baseline']}x"
    )
    out = output_dir()
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"exclusion_list-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    path.write_text(json.dumps(figures, indent=2))
    print(f"results: {shown(path)}")
    for problem in problems:
        print(f"PROBLEM: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
