"""A day on a floor of 40 tables in 8 games: how well the tables stay balanced,
and what it costs the players in moves (RULES.md section 7).

The floor: 10 sectors of 4 tables, 8 games (Hold'em and Omaha, four stakes
each), 5 tables a game, opened with 49 players (four full tables and nine at the
fifth). Then a day, minute
by minute on an injected clock: players arrive on the lists of random games and
are seated in list order where the service accepts them (it refuses a seat
that would unbalance the tables, CM-10); seated players leave after a random
while; a called player takes the seat offered; every running table deals a hand
every few minutes; a table below four players whose game has room elsewhere is
broken. Everything goes through the floor's commands, in process, on the
in-memory event store.

Two runs on the same seed, side by side: the jefe accepts every move the service
proposes, and the baseline where proposals are ignored. For each: moves per
player, the worst spread between tables of one game, and how many game-minutes
the floor spent more than one player apart.

Usage: .venv/bin/python bench/balance.py [--minutes 480] [--seed 7]
Results: printed, and written to var/bench/balance-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID, uuid4

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import hands  # noqa: E402
from bench.scratch_env import output_dir, shown  # noqa: E402
from floor.application.floor_app import FloorApplication  # noqa: E402
from floor.application.players import waiting_list  # noqa: E402
from floor.domain import balance  # noqa: E402
from floor.domain.balance_group import BalanceGroup  # noqa: E402
from floor.kernel.clock import ManualClock  # noqa: E402
from floor.kernel.errors import DomainError  # noqa: E402
from floor.kernel.roles import Actor, Role  # noqa: E402
from floor.kernel.unit_of_work import UnitOfWork  # noqa: E402
from games.profiles import CM  # noqa: E402
from ledger.apps import plug_in_the_books  # noqa: E402

# The ledger (the cage that funds the buy-ins) plugs into the floor as Django
# loads it (ledger.apps); this bench runs without Django, so it plugs it in.
plug_in_the_books()

DIRECTOR = Actor("bench-director", frozenset({Role.DIRECTOR}))
JEFE = Actor("bench-jefe", frozenset({Role.JEFE_SECTOR}))
DEALER = Actor("bench-dealer", frozenset({Role.CRUPIER}))
CAJERO = Actor("bench-cajero", frozenset({Role.CAJERO}))
GAMES = [
    {"variant": variant, "limit": limit, "minimum_cents": minimum, "maximum_cents": 1000 * k}
    for variant, limit in (("texas_holdem", "no_limit"), ("omaha", "pot_limit"))
    for k, minimum in ((1, 200), (2, 400), (5, 1000), (10, 2000))
]
OPENING_PLAYERS = 9
HAND_EVERY_MINUTES = 4
# The commands the simulation tries for the service to decide: a player is seated
# where it accepts them (it refuses a seat that would unbalance the tables,
# CM-10), a proposal is accepted unless the floor moved on, a suspended table is
# broken if it may be. Any other command refused means the service no longer
# takes the day's workload: the run fails.
PROBES = frozenset({"seat_player", "accept_move", "break_table"})


def cid() -> str:
    return str(uuid4())


class Day:
    """One simulated day on a fresh floor."""

    def __init__(
        self,
        seed: int,
        accept_proposals: bool,
        games: int = 8,
        tables_per_game: int = 5,
        mean_stay: float = 150,
    ) -> None:
        # The games spread over the list, Hold'em and Omaha alike when fewer.
        self.games = [GAMES[i * len(GAMES) // games] for i in range(games)]
        self.tables_per_game = tables_per_game
        self.mean_stay = mean_stay
        self.rng = random.Random(seed)
        self.clock = ManualClock(datetime(2026, 11, 22, 16, 0, tzinfo=UTC))
        self.app = self.make_app()
        self.app.random = random.Random(seed + 1)
        self.accept = accept_proposals
        self.players = 0
        self.leaving_at: dict[str, datetime] = {}  # card -> when they go
        self.refusals: Counter = Counter()
        self.unexpected: list[str] = []  # refusals outside PROBES, wrong answers
        self.hands = 0
        self.moves: Counter = Counter()  # player id -> times moved
        self.commands = 0
        self.worst = 0
        self.minutes_out = 0
        self.breaks = 0
        self.tables: dict[int, list[str]] = {}  # game -> table ids
        # What the simulation reads between two commands: a table as it
        # stands (forgotten at every command), a player's card (never changes).
        self.seen: dict[str, object] = {}
        self.cards: dict[str, str] = {}
        self.open_floor()

    def make_app(self) -> FloorApplication:
        """The floor the day runs on: the in-memory store here; bench/day.py
        runs the same day on the embedded default's stores."""
        return FloorApplication(env={}, profile=CM, clock=self.clock)

    def arrivals(self) -> int:
        """How many players come to the room this minute (1.4 on average)."""
        return self.rng.choice((0, 1, 1, 2, 3))

    def ready_seats(self, table) -> list[int]:
        """The seats a hand is dealt to: chips, no rebuy owed, no newcomer
        waiting for the big blind."""
        return [
            int(s)
            for s, st in table.occupants.items()
            if st["stack"] > 0 and not st["must_rebuy"] and not st["newcomer"]
        ]

    def run(self, command: str, actor: Actor, **arguments) -> dict | None:
        """One command; a refusal is counted, and is a failure of the run unless
        the command is one the simulation tries for the service to decide."""
        self.commands += 1
        self.seen.clear()
        try:
            return getattr(self.app, command)(actor, cid(), **arguments).result
        except DomainError as refused:
            self.refusals[refused.code] += 1
            if command not in PROBES:
                self.unexpected.append(f"{command} refused {refused.code}: {arguments}")
            return None

    def new_player(self) -> str:
        self.players += 1
        card = f"B-{self.players:05d}"
        self.run("register_player", JEFE, card_number=card, display_name=card)
        stay = timedelta(minutes=self.rng.expovariate(1 / self.mean_stay))
        self.leaving_at[card] = self.clock.now() + stay
        return card

    def open_floor(self) -> None:
        # The house funds the cage: every buy-in of the day takes its chips there.
        self.run("fund_cage", DIRECTOR, chips_cents=10**11)
        self.run("open_gaming_day", CAJERO)
        slots = [(g, n) for g in range(len(self.games)) for n in range(self.tables_per_game)]
        for sector in range(-(-len(slots) // 4)):
            sector_id = self.run("open_sector", DIRECTOR, name=f"Bench {sector + 1}")["sector_id"]
            for game, _ in slots[sector * 4 : sector * 4 + 4]:
                game_spec = self.games[game]
                table = self.run("open_table", JEFE, sector_id=sector_id, seats=10, **game_spec)
                self.tables.setdefault(game, []).append(table["table_id"])
                # Only the crupier named to a table reports its hands
                # (floor.application.staffing).
                self.run("assign_dealer", JEFE, table_id=table["table_id"], dealer=DEALER.username)
        # One draw seats a game's tables but the last, full [PT 25]; the last
        # is drawn after, its players left once the open tables are full [CM-8].
        for table_ids in self.tables.values():
            full = table_ids[:-1]
            for group, players in ((full, 10 * len(full)), (table_ids[-1:], OPENING_PLAYERS)):
                for _ in range(players):
                    self.run("join_waiting_list", JEFE, player=self.new_player(), table_id=group[0])
                self.run("draw_seats", JEFE, table_ids=group)
                for table_id in group:
                    self.buy_in_all(table_id)

    def buy_in_all(self, table_id: str) -> None:
        table = self.app.repository.get(UUID(table_id))
        # The table's maximum, or the house's for its game [CM-2].
        house = self.app.profile.buy_in.bounds_for(table.variant)
        amount = house.maximum_cents if house else table.maximum_cents
        for state in table.occupants.values():
            if state["stack"] == 0:
                player = str(UUID(state["player_id"]))
                self.run(
                    "buy_in_at_cage",  # paid at the cage, chips to the seat
                    CAJERO,
                    table_id=table_id,
                    player=player,
                    amount_cents=amount,
                )

    def table(self, table_id: str):
        """The table as it stands; read again only after a command ran."""
        if table_id not in self.seen:
            self.seen[table_id] = self.app.repository.get(UUID(table_id))
        return self.seen[table_id]

    def card_of(self, player_id: str) -> str:
        if player_id not in self.cards:
            self.cards[player_id] = self.app.repository.get(UUID(player_id)).card_number
        return self.cards[player_id]

    def seat_from_list(self, game: int) -> None:
        """The first free player on the game's list sits where the service
        accepts them, emptiest table first."""
        tables = [self.table(t) for t in self.tables[game]]
        waiting = waiting_list(UnitOfWork(self.app, self.app.profile), tables[0].game)
        for entry in waiting.entries if waiting else []:
            if entry["status"] == "called":  # the called player comes for the seat [CM-6]
                call = entry["call"]
                table_id = str(UUID(call["table_id"]))
                player = str(UUID(entry["player_id"]))
                seat = None if self.table(table_id).draw_open else call["seat"]
                if self.run("seat_player", JEFE, table_id=table_id, player=player, seat=seat):
                    self.buy_in_all(table_id)
        first = waiting.first_waiting() if waiting else None
        if first is None:
            return
        player = str(UUID(first["player_id"]))
        for table in sorted(tables, key=lambda t: t.player_count):
            if table.status not in ("running", "suspended") or not table.free_seats():
                continue
            seat = None if table.draw_open else table.free_seats()[0]
            if self.run("seat_player", JEFE, table_id=str(table.id), player=player, seat=seat):
                self.buy_in_all(str(table.id))
                return

    def minute(self) -> None:
        now = self.clock.now()
        for _ in range(self.arrivals()):
            game = self.rng.randrange(len(self.games))
            self.run(
                "join_waiting_list", JEFE, player=self.new_player(), table_id=self.tables[game][0]
            )
        for game, table_ids in self.tables.items():
            for table_id in table_ids:
                table = self.table(table_id)
                for state in list(table.occupants.values()):
                    card = self.card_of(state["player_id"])
                    if self.leaving_at.get(card, now) <= now:
                        self.run("leave_table", JEFE, table_id=table_id, player=card)
            self.seat_from_list(game)
            self.seat_from_list(game)
            self.break_short_tables(game)
            if self.accept:
                self.accept_proposals(game)
        if int((now - self.start).total_seconds() // 60) % HAND_EVERY_MINUTES == 0:
            self.deal_hands()
        self.measure()
        self.clock.advance(timedelta(minutes=1))

    def break_short_tables(self, game: int) -> None:
        tables = [self.table(t) for t in self.tables[game]]
        playing = [t for t in tables if t.status in ("running", "suspended")]
        for table in playing:
            others = [t for t in playing if t.id != table.id]
            room = sum(len(t.free_seats()) for t in others)
            if table.status == "suspended" and others and room >= table.player_count:
                if self.run("break_table", JEFE, table_id=str(table.id)):
                    self.breaks += 1
                return

    def accept_proposals(self, game: int) -> None:
        group_id = BalanceGroup.id_for(self.table(self.tables[game][0]).game)
        for _ in range(3):
            group = self.app.repository.get(group_id)
            if group.proposal is None:
                return
            moved = self.run(
                "accept_move", JEFE, group_id=str(group_id), proposal_id=group.proposal["id"]
            )
            if moved is None:
                return
            self.moves[moved["player_id"]] += 1

    def deal_hands(self) -> None:
        for table_ids in self.tables.values():
            for table_id in table_ids:
                table = self.table(table_id)
                ready = self.ready_seats(table)
                if table.status != "running" or len(ready) < 2:
                    continue
                # An honest hand (bench/hands.py): blinds posted, the small
                # blind calls, the big blind and the small take turns to win.
                dealt = hands.deal(self.app, table, ready)
                started = self.run(
                    "start_hand",
                    DEALER,
                    table_id=table_id,
                    dealt_in=dealt.dealt_in,
                    blinds=dealt.blinds,
                )
                if started:
                    self.hands += 1
                    end = hands.showdown(self.app, table_id, dealt, started, self.hands % 2 == 0)
                    self.run("end_hand", DEALER, table_id=table_id, **end)

    def measure(self) -> None:
        for table_ids in self.tables.values():
            counts = {
                t: self.table(t).player_count
                for t in table_ids
                if self.table(t).status in ("running", "suspended")
            }
            wide = balance.spread(counts)
            self.worst = max(self.worst, wide)
            self.minutes_out += wide > 1

    def simulate(self, minutes: int) -> dict:
        self.start = self.clock.now()
        began = time.perf_counter()
        for _ in range(minutes):
            self.minute()
        elapsed = time.perf_counter() - began
        moved = list(self.moves.values())
        return {
            "players": self.players,
            "moves": sum(moved),
            "players_moved": len(moved),
            "moves_per_player": round(sum(moved) / self.players, 4),
            "most_moves_one_player": max(moved, default=0),
            "players_moved_twice_or_more": sum(1 for m in moved if m >= 2),
            "worst_spread": self.worst,
            "game_minutes_out_of_tolerance": self.minutes_out,
            "tables_broken": self.breaks,
            "commands": self.commands,
            "commands_per_second": round(self.commands / elapsed, 1),
            "hands": self.hands,
            "refusals": dict(self.refusals.most_common()),
            "unexpected": self.unexpected[:20],
            "unexpected_count": len(self.unexpected),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=int, default=480, help="length of the day")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--games", type=int, default=len(GAMES), help=f"games, 1 to {len(GAMES)}")
    parser.add_argument(
        "--tables-per-game", type=int, default=5, help="tables a game, the last one short"
    )
    parser.add_argument(
        "--mean-stay", type=float, default=150, help="minutes a player stays, on average"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.games <= len(GAMES) or args.tables_per_game < 2 or args.minutes < 1:
        parser.error(f"--games 1 to {len(GAMES)}, --tables-per-game 2 or more, --minutes 1")
    if args.mean_stay <= 0:
        parser.error("--mean-stay is more than 0 minutes")
    runs = {}
    for name, accept in (("proposals accepted", True), ("proposals ignored", False)):
        day = Day(args.seed, accept, args.games, args.tables_per_game, args.mean_stay)
        runs[name] = day.simulate(args.minutes)
    print(
        f"{args.games * args.tables_per_game} tables, {args.games} games x "
        f"{args.tables_per_game}, {args.minutes} minutes, "
        f"seed {args.seed}"
    )
    keys = [k for k in runs["proposals accepted"] if k not in ("refusals", "unexpected")]
    print(f"{'':32}" + "".join(f"{name:>22}" for name in runs))
    for key in keys:
        print(f"{key:32}" + "".join(f"{run[key]:>22}" for run in runs.values()))
    for name, run in runs.items():
        print(f"refusals, {name}: {run['refusals']}")
        for problem in run["unexpected"][:10]:
            print(f"UNEXPECTED, {name}: {problem}")
    output_dir().mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = output_dir() / f"balance-{stamp}.json"
    out.write_text(json.dumps({"args": vars(args), "runs": runs}, indent=2))
    print(f"written to {shown(out)}")
    return 1 if any(run["unexpected_count"] for run in runs.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
