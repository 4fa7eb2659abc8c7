"""A 12-hour shift of dealer rotation (issue 26, "Dealer rotation", item 5):
the sector's plan (floor.domain.dealer_rotation) followed minute by minute
while tables open and close, every planned push carried out when due, every
break taken when the plan calls it and ended when its length is up.

The floor's commands carry out the same plan one push at a time
(floor.application.dealers); here the plan alone is exercised, with no store,
so that a shift of any length runs in a second and the plan's promises are
measured over it:

- tables ever without a qualified dealer (a minute an open table had none
  after the minute's pushes): must be 0, GA art. 19;
- the longest stretch a dealer dealt without a break (the house's most is
  ``break_after``);
- the spread of breaks between the dealers: the most and fewest breaks taken,
  and the most and least minutes of dealing.

The games are Hold'em and Omaha; every dealer deals Hold'em, a share of them
Omaha too. Tables open and close at random through the shift (``--churn`` per
hour), never fewer than one nor more than ``--tables``. Exit 1 when a table
was ever without a dealer, or a dealer dealt past ``break_after`` + one down
(a push that waited for a relief).

Usage: .venv/bin/python bench/dealer_rotation.py [--hours 12] [--tables 8]
       [--dealers 12] [--omaha 0.5] [--churn 1.0] [--seed 7]
Results: printed, and written to var/bench/dealer_rotation-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scratch_env import output_dir, shown
from floor.domain.dealer_rotation import (
    DEALING,
    IDLE,
    ON_BREAK,
    TO_BREAK,
    DealerSlot,
    TableSlot,
    plan,
)
from games.profile_rules import DealerRotationRules

START = datetime(2026, 11, 27, 16, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)
HOLDEM, OMAHA = "texas_holdem", "omaha"


class Shift:
    """The sector's tables and dealers, as the plan reads them."""

    def __init__(self, rules: DealerRotationRules, dealers: list[DealerSlot]) -> None:
        self.rules = rules
        self.tables: dict[str, TableSlot] = {}
        self.dealers = {d.username: d for d in dealers}
        self.breaks = {d.username: 0 for d in dealers}
        self.dealt = {d.username: 0 for d in dealers}
        self.longest = timedelta(0)
        self.uncovered_minutes = 0
        self.ever_uncovered: set[str] = set()
        self.pushes = 0
        self._numbers = iter(range(1, 10_000))

    def open_table(self, games: frozenset[str]) -> str:
        number = next(self._numbers)
        table_id = f"t{number}"
        self.tables[table_id] = TableSlot(table_id, number, games)
        return table_id

    def close_table(self, table_id: str, now: datetime) -> None:
        table = self.tables.pop(table_id)
        dealer = self.dealers.get(table.dealer or "")
        if dealer is not None and dealer.table_id == table_id:
            self.dealers[dealer.username] = replace(
                dealer, state=IDLE, since=now, dealt=dealer.dealt_by(now), table_id=None
            )

    def minute(self, now: datetime) -> None:
        """Breaks that are up end; the pushes due are carried out, each
        re-planning the sector; idle dealers due a break take it."""
        for name, dealer in list(self.dealers.items()):
            if dealer.state == ON_BREAK and dealer.since + self.rules.break_length <= now:
                self.dealers[name] = replace(dealer, state=IDLE, since=now, dealt=timedelta(0))
        for _ in range(100):
            current = plan(list(self.tables.values()), list(self.dealers.values()), self.rules, now)
            due = [p for p in current.pushes if p.at <= now]
            if not due:
                break
            self.push(due[0], now)
        for name in current.breaks_due:
            self.dealers[name] = replace(self.dealers[name], state=ON_BREAK, since=now)
            self.breaks[name] += 1
        for table in self.tables.values():
            dealer = self.dealers.get(table.dealer or "")
            ok = dealer is not None and dealer.state == DEALING and dealer.may_deal(table)
            if not ok:
                self.uncovered_minutes += 1
                self.ever_uncovered.add(table.table_id)
        for name, dealer in self.dealers.items():
            if dealer.state == DEALING:
                self.dealt[name] += 1
                self.longest = max(self.longest, dealer.dealt_by(now + MINUTE))

    def push(self, push, now: datetime) -> None:
        self.pushes += 1
        table = self.tables[push.table_id]
        incoming = self.dealers[push.dealer_in]
        if push.dealer_out and push.dealer_out in self.dealers:
            leaving = self.dealers[push.dealer_out]
            if push.out_to == TO_BREAK:
                self.dealers[leaving.username] = replace(
                    leaving, state=ON_BREAK, since=now, dealt=timedelta(0), table_id=None
                )
                self.breaks[leaving.username] += 1
            elif leaving.table_id == table.table_id:
                self.dealers[leaving.username] = replace(
                    leaving, state=IDLE, since=now, dealt=leaving.dealt_by(now), table_id=None
                )
        if incoming.state == ON_BREAK:  # called back as the break ends
            incoming = replace(incoming, dealt=timedelta(0))
        self.dealers[incoming.username] = replace(
            incoming, state=DEALING, since=now, table_id=table.table_id
        )
        self.tables[table.table_id] = replace(table, dealer=incoming.username, since=now)


def run(
    *,
    hours: int,
    tables: int,
    dealers: int,
    omaha: float,
    churn: float,
    seed: int,
    rules: DealerRotationRules | None = None,
) -> dict:
    """The shift's figures (see the module's docstring)."""
    rules = rules or DealerRotationRules()
    rng = random.Random(seed)
    staff = [
        DealerSlot(
            f"dealer{n:02d}",
            frozenset({HOLDEM, OMAHA}) if rng.random() < omaha else frozenset({HOLDEM}),
            IDLE,
            START,
        )
        for n in range(1, dealers + 1)
    ]
    shift = Shift(rules, staff)
    game_of = {}
    for _ in range(max(1, tables // 2)):
        game = OMAHA if rng.random() < omaha / 2 else HOLDEM
        game_of[shift.open_table(frozenset({game}))] = game
    opened, closed = len(shift.tables), 0
    now = START
    end = START + timedelta(hours=hours)
    while now < end:
        if rng.random() < churn / 60:
            if len(shift.tables) < tables and (len(shift.tables) <= 1 or rng.random() < 0.5):
                game = OMAHA if rng.random() < omaha / 2 else HOLDEM
                game_of[shift.open_table(frozenset({game}))] = game
                opened += 1
            elif len(shift.tables) > 1:
                shift.close_table(rng.choice(sorted(shift.tables)), now)
                closed += 1
        shift.minute(now)
        now += MINUTE
    minutes_dealt = sorted(shift.dealt.values())
    breaks = sorted(shift.breaks.values())
    return {
        "hours": hours,
        "tables_at_most": tables,
        "dealers": dealers,
        "omaha_share": omaha,
        "seed": seed,
        "down_minutes": rules.down // MINUTE,
        "break_minutes": rules.break_length // MINUTE,
        "break_after_minutes": rules.break_after // MINUTE,
        "tables_opened": opened,
        "tables_closed": closed,
        "pushes": shift.pushes,
        "tables_ever_without_a_dealer": len(shift.ever_uncovered),
        "table_minutes_without_a_dealer": shift.uncovered_minutes,
        "longest_without_a_break_minutes": shift.longest // MINUTE,
        "breaks_fewest": breaks[0],
        "breaks_most": breaks[-1],
        "breaks_spread": breaks[-1] - breaks[0],
        "dealing_minutes_least": minutes_dealt[0],
        "dealing_minutes_most": minutes_dealt[-1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=int, default=12)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--dealers", type=int, default=12)
    parser.add_argument("--omaha", type=float, default=0.5)
    parser.add_argument("--churn", type=float, default=1.0, help="opens/closes per hour")
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args(argv)
    figures = run(
        hours=options.hours,
        tables=options.tables,
        dealers=options.dealers,
        omaha=options.omaha,
        churn=options.churn,
        seed=options.seed,
    )
    print(json.dumps(figures, indent=2))
    out = output_dir()
    out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    written = out / f"dealer_rotation-{stamp}.json"
    written.write_text(json.dumps(figures, indent=2))
    print(f"written to {shown(written)}")
    limit = figures["break_after_minutes"] + figures["down_minutes"]
    if (
        figures["tables_ever_without_a_dealer"]
        or figures["longest_without_a_break_minutes"] > limit
    ):
        print("FAILED: a table without a dealer, or a dealer past the break limit", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
