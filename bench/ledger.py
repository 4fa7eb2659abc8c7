"""What the books cost a hand: hands per second with the ledger booking every
hand, against the same floor with the booking switched off, side by side.

Two floors on scratch SQLite event stores (the embedded default), built alike:
a funded cage, its day open, eight tables of eight players, their trays filled,
everyone bought in. Then, in alternating rounds so that outside load falls on
both, each floor deals and ends the same honest hands (bench/hands.py): the
blinds posted, the others fold, the small blind calls, the big blind wins the
pot less the table's most rake. With the books on, each hand also saves a
transaction and the stack and rake box accounts it moves. Only the ratio is
meaningful. Afterwards each table's stacks and rake must add up to the chips
bought, and with the books on each stack account must hold the table's stack;
a refused command or a wrong figure makes the exit status 1.

Usage: .venv/bin/python bench/ledger.py [--rounds 5] [--hands 20]
Results: printed, and written to var/bench/ledger-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID, uuid4

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import hands as hands_module  # noqa: E402
from bench.scratch_env import output_dir, shown  # noqa: E402
from floor.application.floor_app import FloorApplication  # noqa: E402
from floor.kernel.composition import ROOM  # noqa: E402
from floor.kernel.roles import Actor, Role  # noqa: E402
from games.profiles import CM  # noqa: E402
from ledger.apps import plug_in_the_books  # noqa: E402
from ledger.domain import accounts  # noqa: E402

# The ledger plugs into the floor as Django loads it (ledger.apps); this bench
# builds its floors without Django, so it plugs the ledger in itself.
plug_in_the_books()

DIRECTOR = Actor("bench-director", frozenset({Role.DIRECTOR}))
JEFE = Actor("bench-jefe", frozenset({Role.JEFE_SECTOR}))
DEALER = Actor("bench-dealer", frozenset({Role.CRUPIER}))
CAJERO = Actor("bench-cajero", frozenset({Role.CAJERO}))
TABLES, PLAYERS = 8, 8
BUY_IN_CENTS = 100_000  # the house's most for Hold'em [CM-2]: stacks last any run


def unbooked_floor(**kwargs) -> FloorApplication:
    """The same floor, its stack changes not booked: the baseline (every
    policy the contexts declared but the ledger's books)."""
    policies = {name: p for name, p in ROOM.policies().items() if name != "books"}
    return FloorApplication(policies=policies, **kwargs)


def cid() -> str:
    return str(uuid4())


def build(app: FloorApplication) -> list[str]:
    """The floor of the run; returns its tables."""
    app.fund_cage(DIRECTOR, cid(), cash_cents=10**9, chips_cents=10**9)
    app.open_gaming_day(CAJERO, cid())
    tables = []
    for sector_number in range(TABLES // 4):
        sector = app.open_sector(DIRECTOR, cid(), name=f"Ledger {sector_number}").result
        for index in range(4):
            table_id = app.open_table(
                JEFE,
                cid(),
                sector_id=sector["sector_id"],
                variant="texas_holdem",
                limit="no_limit",
                minimum_cents=4_000,
                maximum_cents=10_000 + 2 * (sector_number * 4 + index),  # a game each
                seats=10,
            ).result["table_id"]
            # Only the crupier named to a table reports there (floor.application.staffing).
            app.assign_dealer(JEFE, cid(), table_id=table_id, dealer=DEALER.username)
            asked = app.request_tray_move(
                JEFE, cid(), table_id=table_id, move="fill", amount_cents=2_000_000
            )
            app.confirm_tray_move(CAJERO, cid(), request_id=asked.result["request_id"])
            for n in range(PLAYERS):
                card = f"LB-{table_id[:8]}-{n}"
                app.register_player(JEFE, cid(), card_number=card, display_name=card)
                app.join_waiting_list(JEFE, cid(), player=card, table_id=table_id)
            app.draw_seats(JEFE, cid(), table_ids=[table_id])
            table = app.repository.get(UUID(table_id))
            for state in table.occupants.values():
                app.buy_in(
                    DEALER,
                    cid(),
                    table_id=table_id,
                    player=str(UUID(state["player_id"])),
                    amount_cents=BUY_IN_CENTS,
                )
            tables.append(table_id)
    return tables


def deal(app: FloorApplication, tables: list[str], hands: int, rake: dict[str, int]) -> float:
    """Seconds to play ``hands`` honest hands at every table (bench/hands.py):
    the blinds posted, everybody else folds, the small blind calls and the big
    blind wins the pot less the most rake the table allows. The big blind always
    wins, so each player's stack moves by a big blind and back each orbit and
    lasts the run; ``rake`` adds up what each table's rake box took."""
    started = time.perf_counter()
    for _ in range(hands):
        for table_id in tables:
            table = app.repository.get(UUID(table_id))
            dealt = hands_module.deal(app, table, table.occupied())
            begun = app.start_hand(
                DEALER, cid(), table_id=table_id, dealt_in=dealt.dealt_in, blinds=dealt.blinds
            )
            end = hands_module.showdown(app, table_id, dealt, begun.result, True)
            app.end_hand(DEALER, cid(), table_id=table_id, **end)
            rake[table_id] = rake.get(table_id, 0) + end["rake_cents"]
    return time.perf_counter() - started


def check(app: FloorApplication, tables: list[str], rake: dict[str, int], booked: bool) -> list:
    """What the hands must have left: at each table the stacks and the rake
    add up to the chips bought (not a cent made or lost), and with the books
    on each player's stack account holds what the table says they have."""
    problems = []
    for table_id in tables:
        table = app.repository.get(UUID(table_id))
        stacks = {s: state["stack"] for s, state in table.occupants.items()}
        if sum(stacks.values()) + rake.get(table_id, 0) != BUY_IN_CENTS * len(stacks):
            problems.append(
                f"table {table_id}: stacks {sum(stacks.values())} + rake "
                f"{rake.get(table_id, 0)} != bought {BUY_IN_CENTS * len(stacks)}"
            )
        if table.hand is not None:
            problems.append(f"table {table_id}: a hand is still in progress")
        if not booked:
            continue
        for seat, state in table.occupants.items():
            ref = accounts.stack(table_id, state["player_id"])
            account = app.repository.get(ref.aggregate_id)
            if account.balance != state["stack"]:
                problems.append(
                    f"table {table_id} seat {seat}: stack account {account.balance} "
                    f"!= stack {state['stack']}"
                )
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=20, help="hands per table per round")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.hands < 1:
        parser.error("--rounds and --hands are at least 1")
    with tempfile.TemporaryDirectory(prefix="ledger-bench-") as scratch:
        return run(args, Path(scratch))


def run(args: argparse.Namespace, scratch: Path) -> int:
    """Both floors in ``scratch``, the rounds, the checks, the report."""
    floors = {}
    for name, cls in (("books on", FloorApplication), ("books off", unbooked_floor)):
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(scratch / f"{name.replace(' ', '-')}.sqlite3"),
        }
        app = cls(env=env, profile=CM)
        floors[name] = (app, build(app))
    seconds = {name: [] for name in floors}
    events = {name: 0 for name in floors}
    rake = {name: {} for name in floors}
    for _ in range(args.rounds):
        for name, (app, tables) in floors.items():
            before = app.last_position()
            seconds[name].append(deal(app, tables, args.hands, rake[name]))
            events[name] += app.last_position() - before
    problems = {
        name: check(app, tables, rake[name], booked=name == "books on")
        for name, (app, tables) in floors.items()
    }
    hands = args.rounds * args.hands * TABLES
    result = {}
    for name in floors:
        total = sum(seconds[name])
        result[name] = {
            "hands": hands,
            "hands_per_second": round(hands / total, 1),
            "median_round_seconds": round(statistics.median(seconds[name]), 3),
            "events_per_hand": round(events[name] / hands, 2),
        }
    ratio = result["books on"]["hands_per_second"] / result["books off"]["hands_per_second"]
    print(f"{TABLES} tables x {PLAYERS} players, {args.rounds} rounds x {args.hands} hands")
    print(f"{'':24}{'hands/s':>10}{'events/hand':>14}")
    for name, row in result.items():
        print(f"{name:24}{row['hands_per_second']:>10}{row['events_per_hand']:>14}")
    print(f"books on / books off: {ratio:.2f}")
    if result["books on"]["events_per_hand"] <= result["books off"]["events_per_hand"]:
        problems["books on"].append("the books on recorded no more events than the books off")
    for name, found in problems.items():
        for problem in found[:10]:
            print(f"WRONG, {name}: {problem}")
    output_dir().mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = output_dir() / f"ledger-{stamp}.json"
    report = {"args": vars(args), "runs": result, "ratio": ratio, "problems": problems}
    out.write_text(json.dumps(report, indent=2))
    print(f"written to {shown(out)}")
    return 1 if any(problems.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
