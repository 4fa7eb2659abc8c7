"""A day of the room at N x real time: 40 tables, 16 hours, with the projector
and the timers (issue 23: ">= 50x real time").

The day is bench/balance.py's (10 sectors of 4 tables, 8 games of 5, players
arriving on the lists, seated where the service accepts them, leaving, tables
broken, balancing moves accepted, a hand a table every few minutes), minute by
minute on an injected clock through the floor's commands, here on the
embedded default: the SQLite event store and read models under a scratch
FLOOR_VAR_DIR, as a deployment without PostgreSQL runs. The projector applies
the events as the day goes, in batches of 100: by default in its own process
(``manage.py run_projector``, as runfloor starts it), working while the
commands run, the day waiting at each simulated minute's end until it shows
that minute's events, so that no deadline is scheduled late; with
``--projector inline``, in this process between minutes. Its timers read
model schedules the deadlines; then the timer sweeper fires every timer due
by the simulated minute, as beat's sweep would in the room (a call window
that runs out, a suspended table that closes, when the day leaves them
running). The day adds what balance.py leaves out because it needs the
clock: players step away on the absence clock [CM-18], most come back, some
are warned and lose their seat or post their blinds (then they are called
back); at half the deals one table's hand is slow and the dealer puts the
player to act on the action clock [CM-21, CM-22]: half act after the
warning, the others' hands are declared dead, and the hand ends at the next
deal (meanwhile the table refuses, as it should, whoever would leave or buy
in during the hand: refusals, not failures). And a newcomer is dealt in
where the table takes them, which balance.py never does.

Reported: simulated seconds over wall seconds (the "x real time"), commands,
events, hands, timers fired by kind, the projector's lag when the day ends
(the events the last sweep recorded), the most it had to catch up at a
minute's end, and the wall time the day spent waiting for it.
Then the read models are rebuilt (``rebuild_projections``) and compared to
the live ones (tests/support/read_models.py): the exit status is 1 when they
differ, when the service refused the day's workload (balance.py's rule), or
when a day of half an hour or more fired no timer.

With balance.py's arrivals (1.4 players a minute, 150-minute stays) the floor
settles at about 210 players after its opening 392: ``--arrivals 2`` doubles
them, and the 40 tables stay full all day, their lists growing.

Usage: .venv/bin/python bench/day.py [--hours 16] [--tables 40] [--seed 7]
       [--arrivals 1] [--projector process|inline]
Results: printed, and written to var/bench/day-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scratch_env import FOREIGN_ENV, clean_environ, output_dir, shown  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python")
# The longest the day waits for the projector at a minute's end before it
# calls the projector stuck and fails.
PROJECTOR_PATIENCE = 120.0

# The share of seated players who step away on the absence clock in a minute,
# and how long they stay away: most are back well within the twenty minutes,
# the others are warned, then lose their seat or post their blinds [CM-18].
AWAY_PER_MINUTE = 0.004
BACK_WITHIN_MINUTES = (3, 40)
# The chance that one table's hand of a deal is slow and goes on the clock.
SLOW_HAND_PER_DEAL = 0.5


def scratch_django(var_dir: Path) -> None:
    """Django on scratch stores: nothing of the caller's environment reaches
    them (bench/scratch_env.py), the embedded default under ``var_dir``."""
    for name in FOREIGN_ENV:
        os.environ.pop(name, None)
    os.environ["FLOOR_VAR_DIR"] = str(var_dir)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class ProjectorProcess:
    """``manage.py run_projector`` on the scratch stores, as runfloor starts it."""

    def __init__(self, var_dir: Path) -> None:
        env = clean_environ() | {
            "FLOOR_VAR_DIR": str(var_dir),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        self.log = open(var_dir / "projector.log", "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            [PYTHON, str(ROOT / "manage.py"), "run_projector", "--batch-size", "100"],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def stop(self) -> int | None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # ends between batches
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return self.process.returncode


def room_day_class():
    """The day of balance.py on the embedded stores, with the projector and
    the timers (built after Django is set up: the models need it)."""
    from bench import balance
    from floor import runtime
    from floor.application.floor_app import FloorApplication
    from floor.domain import positions
    from floor.timers import sweep_timers
    from games.profiles import CM

    class RoomDay(balance.Day):
        # Set before the day opens: None projects in this process.
        projector_process: ProjectorProcess | None = None
        began = 0.0  # when the day began opening (wall)
        arrival_scale = 1.0  # balance.py's arrivals, times this

        def make_app(self) -> FloorApplication:
            # The library's cache of the latest states, as bench/rebuild.py
            # gives its build: the write side's own business (issue 23 item 5).
            env = {**runtime.event_store_env(), "AGGREGATE_CACHE_MAXSIZE": "5000"}
            app = FloorApplication(env=env, profile=CM, clock=self.clock)
            # The sweeper fires timers through the running floor's application.
            runtime.install(app)
            self.projector = runtime.floor_projector()  # batches of 100, as run_projector's
            self.fired = 0
            self.most_behind = 0  # events the projector had to catch up at a minute's end
            self.lag_at_end = 0
            self.waited = 0.0  # wall seconds the day waited for the projector
            self.away: dict[tuple[str, str], datetime] = {}  # (table, card) -> back at
            self.absences = 0
            # table -> (deal, start's result, seat on the clock, acts at or None, ends at)
            self.slow: dict[str, tuple] = {}
            self.slow_hands = 0
            return app

        def run(self, command: str, actor, **arguments):
            """balance.py's, but a command a slow hand's table refuses while
            the hand runs is what the room answers, not a failure."""
            before = len(self.unexpected)
            result = super().run(command, actor, **arguments)
            if (
                len(self.unexpected) > before
                and arguments.get("table_id") in self.slow
                and " refused hand_in_progress:" in self.unexpected[-1]
            ):
                self.unexpected.pop()
            return result

        def deal_hands(self) -> None:
            """balance.py's deal, but a newcomer (seated after the opening) is
            dealt in where the table takes them, as tests/support/shift.py
            does: balance.py never deals one in, so over a long day more and
            more of its seats never play a hand. The table refuses a newcomer
            who must wait for the big blind: then the hand goes without them."""
            for table_ids in self.tables.values():
                for table_id in table_ids:
                    table = self.table(table_id)
                    if table.status != "running" or table_id in self.slow:
                        continue
                    regulars = self.ready_seats(table)
                    everyone = self.ready_seats(table, newcomers=True)
                    for dealt_in in [everyone] + ([regulars] if regulars != everyone else []):
                        if len(dealt_in) < 2:
                            break
                        dealt, started = self.begin_hand(
                            table_id, table, dealt_in, probe=dealt_in != regulars
                        )
                        if started:
                            self.hands += 1
                            end = balance.hands.showdown(
                                self.app, table_id, dealt, started, self.hands % 2 == 0
                            )
                            self.run("end_hand", balance.DEALER, table_id=table_id, **end)
                            break
            if self.rng.random() < SLOW_HAND_PER_DEAL:
                self.slow_hand()

        def begin_hand(self, table_id: str, table, dealt_in: list[int], probe: bool = False):
            """``start_hand`` with ``dealt_in``: its deal and the start's result
            (None: refused). A table that emptied and filled again has no
            button: the dealer names the first seat in play [GA art. 23.1], as
            tests/support/shift.py does. With newcomers in (``probe``) a
            refusal is the table's answer, counted, not a failure."""
            try:
                dealt, named = balance.hands.deal(self.app, table, dealt_in), {}
            except RuntimeError:
                button = sorted(dealt_in)[0]
                direction = positions.step(self.app.profile)
                small, big = positions.blind_seats(button, table.seats, direction, dealt_in)
                share = self.app.profile.blinds.small_share_of_minimum
                blinds = {str(small): int(table.minimum_cents * share),
                          str(big): table.minimum_cents}  # fmt: skip
                dealt = balance.hands.Deal(sorted(dealt_in), blinds, small, big)
                named = {"button": button}
            arguments = {"table_id": table_id, "dealt_in": dealt.dealt_in,
                         "blinds": dealt.blinds, **named}  # fmt: skip
            if not probe:
                return dealt, self.run("start_hand", balance.DEALER, **arguments)
            self.commands += 1
            self.seen.clear()
            try:
                return dealt, self.app.start_hand(balance.DEALER, balance.cid(), **arguments).result
            except balance.DomainError as refused:
                self.refusals[f"newcomer_dealt_in:{refused.code}"] += 1
                return dealt, None

        def slow_hand(self) -> None:
            """One more hand at a random table that has just dealt, on the clock."""
            candidates = [
                t for ids in self.tables.values() for t in ids
                if t not in self.slow and self.table(t).status == "running"
                and len(self.ready_seats(self.table(t))) >= 3
            ]  # fmt: skip
            if not candidates:
                return
            table_id = self.rng.choice(candidates)  # in the floor's order: ids are random
            table = self.table(table_id)
            dealt, started = self.begin_hand(table_id, table, self.ready_seats(table))
            if not started:
                return
            self.hands += 1
            slow = next(s for s in dealt.dealt_in if s not in (dealt.small, dealt.big))
            pot = sum(dealt.blinds.values())
            if self.run("start_action_clock", balance.DEALER, table_id=table_id, seat=slow,
                        pot_cents=pot) is None:  # fmt: skip
                return
            self.slow_hands += 1
            now = self.clock.now()
            # Two minutes (a small pot), then the last one [CM-22]: half act
            # after the warning, the others' hands die at its end.
            acts = now + timedelta(minutes=2) if self.rng.random() < 0.5 else None
            self.slow[table_id] = (dealt, started, slow, acts, now + timedelta(minutes=4))

        def end_slow_hands(self) -> None:
            now = self.clock.now()
            for table_id, (dealt, started, seat, acts, ends) in list(self.slow.items()):
                if acts is not None and acts <= now:
                    self.run("stop_action_clock", balance.DEALER, table_id=table_id, seat=seat)
                    self.slow[table_id] = (dealt, started, seat, None, ends)
                if ends <= now:
                    # Everybody folds to the blinds; the slow seat put nothing in.
                    end = balance.hands.showdown(self.app, table_id, dealt, started, True)
                    self.run("end_hand", balance.DEALER, table_id=table_id, **end)
                    del self.slow[table_id]

        def arrivals(self) -> int:
            return round(super().arrivals() * self.arrival_scale)

        def ready_seats(self, table, newcomers: bool = False) -> list[int]:
            """balance.py's, newcomers too if asked; never a player away on
            the clock (nor posting, unless the courtesy ran out: then their
            blinds are the table's)."""
            return [
                int(seat)
                for seat, state in table.occupants.items()
                if state["stack"] > 0
                and not state["must_rebuy"]
                and (newcomers or not state["newcomer"])
                and not state.get("away")
            ]

        def minute(self) -> None:
            self.end_slow_hands()
            self.step_away()
            super().minute()  # ends with the clock a minute on
            self.catch_up()
            # Beat's sweep at the simulated minute: what the projector scheduled.
            self.fired += sweep_timers(self.clock.now())
            self.lag_at_end = self.projector.lag()
            self.seen.clear()  # the timers' commands moved tables
            self.progress()

        def progress(self) -> None:
            """A line each simulated hour: a long day is watched as it goes."""
            simulated = (self.clock.now() - self.start).total_seconds()
            if simulated % 3600 == 0:
                wall = time.perf_counter() - self.began
                events = self.app.last_position()
                print(
                    f"  hour {simulated / 3600:.0f}: {events} events, {wall:.0f} s, "
                    f"{simulated / wall:.1f}x real time so far",
                    flush=True,
                )

        def catch_up(self) -> None:
            """The read models show the minute's events before its timers are
            swept: the projector's process is waited for, or, inline, does its
            batches here."""
            behind = self.projector.lag()
            self.most_behind = max(self.most_behind, behind)
            if self.projector_process is None:
                self.projector.catch_up()
                return
            target = self.app.last_position()
            began = time.perf_counter()
            while self.projector.position() < target:
                if self.projector_process.process.poll() is not None:
                    raise RuntimeError("the projector process ended")
                if time.perf_counter() - began > PROJECTOR_PATIENCE:
                    raise RuntimeError(f"the projector stayed {self.projector.lag()} behind")
                time.sleep(0.005)  # wall time of the bench's own wait, not the day's clock
            self.waited += time.perf_counter() - began

        def step_away(self) -> None:
            """Players leave their seat on the absence clock; those due back return."""
            now = self.clock.now()
            for (table_id, card), back_at in list(self.away.items()):
                away = self.seated_cards(table_id).get(card, {}).get("away")
                # Back when they said, or called back once the courtesy ran
                # out and their blinds are being posted [CM-18].
                if back_at <= now or (away and away.get("posting_blinds")):
                    del self.away[(table_id, card)]
                    if away:
                        self.run("end_absence", balance.DEALER, table_id=table_id, player=card)
            for table_ids in self.tables.values():
                for table_id in table_ids:
                    for card, state in self.seated_cards(table_id).items():
                        if state.get("away") or self.rng.random() >= AWAY_PER_MINUTE:
                            continue
                        # Once a gaming day, two a table at most [CM-19]: tried,
                        # the service decides.
                        if self.run("start_absence", balance.DEALER, table_id=table_id,
                                    player=card) is not None:  # fmt: skip
                            self.absences += 1
                            minutes = self.rng.randint(*BACK_WITHIN_MINUTES)
                            self.away[(table_id, card)] = now + timedelta(minutes=minutes)

        def seated_cards(self, table_id: str) -> dict[str, dict]:
            table = self.table(table_id)
            return {self.card_of(state["player_id"]): state for state in table.occupants.values()}

    # The absence clock is tried like a seat: the service may refuse it (once
    # a day, two a table), and ending one may find it already over.
    balance.PROBES = balance.PROBES | {"start_absence", "end_absence", "stop_action_clock"}
    return RoomDay


def rebuilt_equal() -> dict:
    """The live read models against a rebuild of the same log."""
    from django.core.management import call_command

    from tests.support.read_models import differences, read_models

    live = read_models()
    with open(os.devnull, "w") as quiet:
        call_command("rebuild_projections", "--no-progress", stdout=quiet, stderr=quiet)
    differ = differences(live, read_models())
    return {"rows": sum(len(v) for v in live.values()), "differences": differ}


def simulate(args: argparse.Namespace, var_dir: Path) -> dict:
    from floor.models import PendingTimer

    RoomDay = room_day_class()
    # 8 games as balance.py's floor; fewer tables: fewer games, two tables each.
    games = max(1, min(8, args.tables // 2))
    per_game = args.tables // games
    RoomDay.arrival_scale = args.arrivals
    if args.projector == "process":
        RoomDay.projector_process = ProjectorProcess(var_dir)
    try:
        began = RoomDay.began = time.perf_counter()
        day = RoomDay(args.seed, True, games, per_game, args.mean_stay)
        day.catch_up()
        day.most_behind = 0  # the opening's events are not the day's
        opened = time.perf_counter() - began
        minutes = minutes_long(args)
        simulated = day.simulate(minutes)
        wall = time.perf_counter() - began
        day.catch_up()
    finally:
        if RoomDay.projector_process is not None:
            RoomDay.projector_process.stop()
    fired = Counter(
        PendingTimer.objects.filter(state=PendingTimer.FIRED).values_list("kind", flat=True)
    )
    events = day.app.last_position()
    return {
        "tables": games * per_game,
        "games": games,
        "simulated_seconds": minutes * 60,
        "wall_seconds": round(wall, 1),
        "opening_seconds": round(opened, 1),
        "x_real_time": round(minutes * 60 / wall, 1),
        "commands": day.commands,
        "events": events,
        "events_per_wall_second": round(events / wall, 1),
        "hands": day.hands,
        "players": day.players,
        "moves": simulated["moves"],
        "tables_broken": simulated["tables_broken"],
        "absences": day.absences,
        "slow_hands_on_the_clock": day.slow_hands,
        "timers_fired": day.fired,
        "timers_fired_by_kind": dict(sorted(fired.items())),
        "timers_pending": PendingTimer.objects.filter(state=PendingTimer.PENDING).count(),
        "projector": args.projector,
        "projector_lag_at_end": day.lag_at_end,
        "most_behind_at_a_minute_end": day.most_behind,
        "wall_seconds_waiting_for_projector": round(day.waited, 1),
        "refusals": simulated["refusals"],
        "unexpected": simulated["unexpected"],
        "unexpected_count": simulated["unexpected_count"],
    }


def minutes_long(args: argparse.Namespace) -> int:
    return round(args.hours * 60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=16, help="length of the day")
    parser.add_argument("--tables", type=int, default=40, help="tables, 8 games (fewer: 1 a game)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--mean-stay", type=float, default=150, help="minutes a player stays, on average"
    )
    parser.add_argument(
        "--arrivals",
        type=float,
        default=1.0,
        help="balance.py's arrivals (1.4 a minute) times this: 2 keeps 40 tables full all day",
    )
    parser.add_argument(
        "--projector",
        choices=("process", "inline"),
        default="process",
        help="its own process, as deployed, or in this process between minutes",
    )
    args = parser.parse_args(argv)
    if args.tables < 2 or args.hours <= 0 or args.mean_stay <= 0 or args.arrivals < 0:
        parser.error("--tables 2 or more, --hours and --mean-stay more than 0, --arrivals 0 up")
    # CI's timeout stops a hung run with TERM: unwind, so the projector
    # process is stopped and the scratch stores removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="day-bench-") as scratch:
        scratch_django(Path(scratch))
        result = simulate(args, Path(scratch))
        check = rebuilt_equal()
    for key, value in result.items():
        if key not in ("refusals", "unexpected"):
            print(f"{key:30} {value}")
    print(f"refusals: {result['refusals']}")
    for problem in result["unexpected"][:10]:
        print(f"UNEXPECTED: {problem}")
    print(f"read models: {check['rows']} rows; rebuilt equal to live: {not check['differences']}")
    problems = []
    if check["differences"]:
        problems.append(f"rebuilt read models differ from the live ones: {check['differences']}")
    if minutes_long(args) >= 30 and not result["timers_fired"]:
        problems.append("no timer fired: the day measured no timers")
    if result["unexpected_count"]:
        problems.append(f"{result['unexpected_count']} commands refused unexpectedly")
    for problem in problems:
        print(f"WRONG: {problem}"[:2000])
    output_dir().mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = output_dir() / f"day-{stamp}.json"
    report = {"args": vars(args), **result, "read_model_rows": check["rows"],
              "rebuilt_equal": not check["differences"], "problems": problems}  # fmt: skip
    out.write_text(json.dumps(report, indent=2, default=str))
    print(f"written to {shown(out)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
