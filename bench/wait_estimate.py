"""How far the estimated wait on a list is from the wait players then had
(issue 24, item 6): the floor's estimate (floor.selectors.waits) against the
naive one, position x the average wait a place on the list took so far.

The day is bench/day.py's (balance.py's floor: games of two or more tables,
players arriving on the lists of random games, seated in list order where the
service accepts them, leaving after a random stay, tables broken when short),
minute by minute on an injected clock through the floor's commands, on the
embedded stores with the projector inline: the read models the estimate
reads are those the room would have. At each registration of the day (the
opening's draws left out) the player's place among those waiting is taken,
and both estimates of their wait; when the player sits down, the wait they
had. The naive estimate of a game is its place times the mean, over the
game's players seated so far, of their wait divided by their place: none
until one was seated.

Reported, over the registrations that were seated and had both estimates:
the median and 90th percentile of the absolute error of each, in minutes,
and their ratio (the floor's over the naive: below 1, the floor's is closer);
also how many registrations the floor gave no estimate (too little history:
the day's first hour, a game whose tables nobody left yet) and how many were
still waiting when the day ended. Exit 1 when no registration was estimated
and seated (a tiny run measured nothing), or when the service refused the
day's workload (balance.py's rule).

Usage: .venv/bin/python bench/wait_estimate.py [--hours 12] [--tables 8]
       [--arrivals 0.5] [--mean-stay 160] [--no-shows 0.1] [--seed 7]
Results: printed, and written to var/bench/wait_estimate-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.day import room_day_class, scratch_django  # noqa: E402
from bench.scratch_env import output_dir, shown  # noqa: E402


def quantile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile by the nearest rank (the reports' percentile)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def estimating_day_class():
    """bench/day.py's day, recording each registration's estimates and each
    seated player's wait (built after Django is set up)."""
    from floor.application.players import waiting_list
    from floor.domain.game import Game
    from floor.domain.waiting_list import EntryStatus
    from floor.kernel.unit_of_work import UnitOfWork
    from floor.selectors.waits import estimate_wait

    RoomDay = room_day_class()

    class EstimatingDay(RoomDay):
        measuring = False
        no_show_share = 0.0

        def make_app(self):
            app = super().make_app()
            # player id -> (game, registered at, place, floor's estimate, naive)
            self.pending: dict[str, tuple] = {}
            self.done: list[dict] = []
            self.per_place: dict[str, list[float]] = {}  # game -> wait / place of those seated
            self.not_estimated = 0
            self.no_shows: set[str] = set()  # players who will not come when called
            self.estimate_seconds = 0.0
            self.timings: list[tuple[datetime, float]] = []  # (when, seconds) of each estimate
            self.estimates = 0
            return app

        def run(self, command: str, actor, **arguments):
            if (
                self.measuring
                and command == "seat_player"
                and str(UUID(arguments["player"])) in self.no_shows
            ):
                # The player does not come for the seat: the call runs out
                # (the sweep removes them, absent [CM-6]) and the next is called.
                return None
            result = super().run(command, actor, **arguments)
            if not self.measuring or result is None:
                return result
            if command == "join_waiting_list":
                self.registered(result)
            elif command == "seat_player":
                self.seated(str(UUID(arguments["player"])))
            return result

        def place_among_waiting(self, game: str, player_id: str) -> int:
            """The player's place among those waiting (a called player holds a seat)."""
            work = UnitOfWork(self.app, self.app.profile)
            listed = waiting_list(work, Game.from_key(game))
            place = 0
            for entry in listed.entries:
                if entry["status"] == EntryStatus.WAITING:
                    place += 1
                if entry["player_id"] == UUID(player_id).hex:
                    return place
            raise RuntimeError(f"{player_id} registered but not on the list of {game}")

        def registered(self, result: dict) -> None:
            game, player = result["game"], result["player_id"]
            if self.rng.random() < self.no_show_share:
                self.no_shows.add(player)
                return  # never seated: no wait to compare
            # The read models show the minute's commands so far, as the page would.
            self.projector.catch_up()
            now = self.clock.now()
            place = self.place_among_waiting(game, player)
            began = time.perf_counter()
            estimate = estimate_wait(game, place, now)
            spent = time.perf_counter() - began
            self.estimate_seconds += spent
            self.timings.append((now, spent))
            self.estimates += 1
            if estimate is None:
                self.not_estimated += 1
            seen = self.per_place.get(game)
            naive = place * statistics.fmean(seen) if seen else None
            floor = None if estimate is None else estimate.expected_minutes
            inside = None if estimate is None else (estimate.low_minutes, estimate.high_minutes)
            self.pending[player] = (game, now, place, floor, inside, naive)

        def seated(self, player: str) -> None:
            if player not in self.pending:
                return  # seated from the opening's draw, or a broken table's
            game, at, place, floor, inside, naive = self.pending.pop(player)
            now = self.clock.now()
            waited = (now - at).total_seconds() / 60
            # The stay begins at the seat, not on the list (balance.py counts
            # it from the arrival: a long wait there made a short stay, and
            # the seats of a busy game turned over faster the longer its list).
            stay = timedelta(minutes=self.rng.expovariate(1 / self.mean_stay))
            self.leaving_at[self.card_of(player)] = now + stay
            self.per_place.setdefault(game, []).append(waited / place)
            self.done.append({"game": game, "place": place, "waited": waited,
                              "floor": floor, "range": inside, "naive": naive})  # fmt: skip

    return EstimatingDay


def simulate(args: argparse.Namespace) -> dict:
    EstimatingDay = estimating_day_class()
    games = max(1, min(8, args.tables // 2))
    per_game = args.tables // games
    EstimatingDay.arrival_scale = args.arrivals
    EstimatingDay.no_show_share = args.no_shows
    EstimatingDay.began = began = time.perf_counter()
    day = EstimatingDay(args.seed, True, games, per_game, args.mean_stay)
    day.catch_up()
    day.measuring = True
    simulated = day.simulate(round(args.hours * 60))
    wall = time.perf_counter() - began
    both = [d for d in day.done if d["floor"] is not None and d["naive"] is not None]
    floor_errors = [abs(d["floor"] - d["waited"]) for d in both]
    naive_errors = [abs(d["naive"] - d["waited"]) for d in both]
    within = [d for d in both if d["range"][0] <= d["waited"] <= d["range"][1]]

    def ratio(a, b):
        return None if a is None or not b else round(a / b, 2)

    floor_median, naive_median = quantile(floor_errors, 0.5), quantile(naive_errors, 0.5)
    floor_p90, naive_p90 = quantile(floor_errors, 0.9), quantile(naive_errors, 0.9)
    # Those with a player ahead of them: the first waiting mostly sits at the
    # next seat, at once when one is free, and both estimates say so.
    behind = [d for d in both if d["place"] >= 2]
    behind_floor = [abs(d["floor"] - d["waited"]) for d in behind]
    behind_naive = [abs(d["naive"] - d["waited"]) for d in behind]
    by_place = {}
    for name, low, high in (("1", 1, 1), ("2-3", 2, 3), ("4-6", 4, 6), ("7+", 7, 10**6)):
        band = [d for d in both if low <= d["place"] <= high]
        if band:
            by_place[name] = {
                "n": len(band),
                "median_wait": quantile([d["waited"] for d in band], 0.5),
                "floor_median_abs_error": _round(
                    quantile([abs(d["floor"] - d["waited"]) for d in band], 0.5)
                ),
                "naive_median_abs_error": _round(
                    quantile([abs(d["naive"] - d["waited"]) for d in band], 0.5)
                ),
                "floor_mean_signed_error": _round(
                    statistics.fmean(d["floor"] - d["waited"] for d in band)
                ),
                "naive_mean_signed_error": _round(
                    statistics.fmean(d["naive"] - d["waited"] for d in band)
                ),
            }
    return {
        "tables": games * per_game,
        "games": games,
        "hours": args.hours,
        "players": day.players,
        "registrations": day.estimates,
        "seated_after_registering": len(day.done),
        "still_waiting_at_the_end": len(day.pending),
        "no_floor_estimate": day.not_estimated,
        "no_shows": len(day.no_shows),
        "compared": len(both),
        "median_wait_minutes": quantile([d["waited"] for d in both], 0.5),
        "p90_wait_minutes": quantile([d["waited"] for d in both], 0.9),
        "floor_median_abs_error_minutes": _round(floor_median),
        "floor_p90_abs_error_minutes": _round(floor_p90),
        "naive_median_abs_error_minutes": _round(naive_median),
        "naive_p90_abs_error_minutes": _round(naive_p90),
        "median_error_ratio_floor_over_naive": ratio(floor_median, naive_median),
        "p90_error_ratio_floor_over_naive": ratio(floor_p90, naive_p90),
        "compared_from_place_2": len(behind),
        "from_place_2_floor_median_abs_error": _round(quantile(behind_floor, 0.5)),
        "from_place_2_floor_p90_abs_error": _round(quantile(behind_floor, 0.9)),
        "from_place_2_naive_median_abs_error": _round(quantile(behind_naive, 0.5)),
        "from_place_2_naive_p90_abs_error": _round(quantile(behind_naive, 0.9)),
        "from_place_2_median_ratio": ratio(
            quantile(behind_floor, 0.5), quantile(behind_naive, 0.5)
        ),
        "from_place_2_p90_ratio": ratio(quantile(behind_floor, 0.9), quantile(behind_naive, 0.9)),
        "share_of_waits_inside_the_floors_range": round(len(within) / len(both), 3)
        if both
        else None,
        "by_place": by_place,
        "balancing_moves": simulated["moves"],
        "tables_broken": simulated["tables_broken"],
        "ms_per_estimate": round(1000 * day.estimate_seconds / max(day.estimates, 1), 2),
        # The first quarter of the day's estimates against the last: the log
        # grew meanwhile, the estimate's cost should not.
        "median_ms_per_estimate_first_quarter": _ms(day.timings[: len(day.timings) // 4]),
        "median_ms_per_estimate_last_quarter": _ms(day.timings[-(len(day.timings) // 4) :]),
        "events": day.app.last_position(),
        "wall_seconds": round(wall, 1),
        "refusals": simulated["refusals"],
        "unexpected": simulated["unexpected"],
        "unexpected_count": simulated["unexpected_count"],
    }


def _ms(timings: list[tuple[datetime, float]]) -> float | None:
    return round(1000 * statistics.median(t for _, t in timings), 2) if timings else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=12, help="length of the day")
    parser.add_argument("--tables", type=int, default=8, help="tables, two a game (8 games most)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--mean-stay",
        type=float,
        default=160,
        help="minutes a player stays, on average (160: the lists of the default floor grow"
        " at times to an hour's wait and more)",
    )
    parser.add_argument(
        "--arrivals",
        type=float,
        default=0.5,
        help="balance.py's arrivals (1.4 a minute) times this",
    )
    parser.add_argument(
        "--no-shows",
        type=float,
        default=0.1,
        help="share of registrations who do not come when called",
    )
    args = parser.parse_args(argv)
    if args.tables < 2 or args.hours <= 0 or args.mean_stay <= 0 or args.arrivals < 0:
        parser.error("--tables 2 or more, --hours and --mean-stay more than 0, --arrivals 0 up")
    if not 0 <= args.no_shows < 1:
        parser.error("--no-shows from 0 to less than 1")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="wait-estimate-bench-") as scratch:
        scratch_django(Path(scratch))
        result = simulate(args)
    for key, value in result.items():
        if key not in ("refusals", "unexpected", "by_place"):
            print(f"{key:40} {value}")
    for band, figures in result["by_place"].items():
        print(f"place {band:5} {figures}")
    print(f"refusals: {result['refusals']}")
    for problem in result["unexpected"][:10]:
        print(f"UNEXPECTED: {problem}")
    problems = []
    if not result["compared"]:
        problems.append("no registration was estimated and then seated: nothing measured")
    if result["unexpected_count"]:
        problems.append(f"{result['unexpected_count']} commands refused unexpectedly")
    for problem in problems:
        print(f"WRONG: {problem}")
    output_dir().mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = output_dir() / f"wait_estimate-{stamp}.json"
    out.write_text(json.dumps({"args": vars(args), **result, "problems": problems}, indent=2))
    print(f"written to {shown(out)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
