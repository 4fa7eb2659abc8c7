"""A shift driven through the floor's own commands, straight on an application
(no HTTP, no projection in between): the log a room writes in a day, for the
projection's tests and the rebuild bench (bench/rebuild.py, issue 23).

Tables of six to nine players, 3 EUR minimum, each in a sector of four; every
step at a table is one of: the end of its hand in progress, an honest hand
started (bench/hands.py), a rest begun or ended, a player who leaves and cashes
out at the cage, a newcomer who joins the list, is called, sits and buys in, a
rebuy. No clocks or call windows that a worker would have to run out: the log
depends only on the seed. Refusals are counted by code, as a dealer's would be.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

from bench import hands
from floor.domain import positions
from floor.kernel.errors import DomainError
from floor.kernel.roles import Actor, Role

DIRECTOR = Actor("shift-director", frozenset({Role.DIRECTOR}))
JEFE = Actor("shift-jefe", frozenset({Role.JEFE_SECTOR}))
CRUPIER = Actor("shift-crupier", frozenset({Role.CRUPIER}))
CAJERO = Actor("shift-cajero", frozenset({Role.CAJERO}))


class Shift:
    """A room's shift on ``app``: ``open(tables)``, then ``round()`` after round."""

    def __init__(self, app, seed: int = 1) -> None:
        self.app = app
        self.random = random.Random(seed)
        self.accepted = 0
        self.refused: dict[str, int] = {}
        self.players = 0
        self.sectors: list[str] = []
        self.tables: list[str] = []
        self.in_play: dict[str, tuple[hands.Deal, dict]] = {}

    def do(self, actor: Actor, command: str, must: bool = False, **arguments) -> dict | None:
        """Runs the command; a refusal is counted by its code (``must``: raised)."""
        try:
            outcome = getattr(self.app, command)(actor, str(uuid.uuid4()), **arguments)
        except DomainError as refused:
            if must:
                raise
            key = f"{command}:{refused.code}"
            self.refused[key] = self.refused.get(key, 0) + 1
            return None
        self.accepted += 1
        return outcome.result

    def table(self, table_id: str):
        return self.app.repository.get(uuid.UUID(table_id))

    def card_of(self, state: dict[str, Any]) -> str:
        return self.app.repository.get(uuid.UUID(state["player_id"])).card_number

    def new_player(self) -> str:
        self.players += 1
        card = f"SHIFT-{self.players:07d}"
        self.do(JEFE, "register_player", must=True, card_number=card, display_name=card)
        return card

    def open(self, tables: int) -> None:
        """The cage funded, the day open, ``tables`` tables with their players."""
        self.do(DIRECTOR, "fund_cage", must=True, cash_cents=10**10, chips_cents=10**10)
        self.do(CAJERO, "open_gaming_day", must=True)
        for _ in range(tables):
            self.tables.append(self.open_table())

    def open_table(self) -> str:
        number = len(self.tables)
        if number % 4 == 0:
            name = f"Shift {len(self.sectors) + 1:03d}"
            self.sectors.append(self.do(DIRECTOR, "open_sector", must=True, name=name)["sector_id"])
        table_id = self.do(
            JEFE,
            "open_table",
            must=True,
            sector_id=self.sectors[-1],
            variant="texas_holdem",
            limit="no_limit",
            minimum_cents=300,
            # A game of its own per table, within the 20-40 % band [GA art. 6].
            maximum_cents=1000 + 2 * (number % 250),
            seats=10,
        )["table_id"]
        self.do(JEFE, "assign_dealer", must=True, table_id=table_id, dealer=CRUPIER.username)
        asked = self.do(
            JEFE, "request_tray_move", must=True, table_id=table_id, move="fill", amount_cents=10**6
        )
        self.do(CAJERO, "confirm_tray_move", must=True, request_id=asked["request_id"])
        cards = [self.new_player() for _ in range(6)]
        for card in cards:
            self.do(JEFE, "join_waiting_list", must=True, player=card, table_id=table_id)
        self.do(JEFE, "draw_seats", must=True, table_ids=[table_id])
        for card in cards:
            self.buy(table_id, card)
        return table_id

    def buy(self, table_id: str, card: str) -> None:
        self.do(CAJERO, "buy_in_at_cage", table_id=table_id, player=card, amount_cents=10_000)

    def round(self) -> None:
        """One step at every table."""
        for table_id in self.tables:
            self.step(table_id)

    def step(self, table_id: str) -> str:
        """One thing happens at the table, chosen by its state and at random."""
        table = self.table(table_id)
        if table.hand is not None:
            dealt, started = self.in_play.pop(table_id)
            big_wins = self.random.random() < 0.5
            end = hands.showdown(self.app, table_id, dealt, started, big_wins)
            self.do(CRUPIER, "end_hand", table_id=table_id, **end)
            return "end_hand"
        seated = {int(s): st for s, st in table.occupants.items()}
        playing = [s for s, st in seated.items() if not st.get("resting")]
        for state in seated.values():
            if state["stack"] < 3000:
                self.buy(table_id, self.card_of(state))
                return "rebuy"
        roll = self.random.random()
        if roll < 0.05:
            resting = [s for s, st in seated.items() if st.get("resting")]
            seat = resting[0] if resting else self.random.choice(playing)
            command = "end_rest" if resting else "start_rest"
            self.do(JEFE, command, table_id=table_id, player=self.card_of(seated[seat]))
            return command
        if roll < 0.09 and len(seated) > 5:
            card = self.card_of(seated[self.random.choice(list(seated))])
            self.do(JEFE, "leave_table", table_id=table_id, player=card, reason="left")
            self.do(CAJERO, "cash_out", player=card)
            return "leave"
        if (roll < 0.14 or len(seated) < 5) and len(seated) < 9:
            return self.newcomer(table_id, table)
        if len(playing) < 2:
            return "wait"
        return self.start_hand(table_id, table, playing, seated)

    def newcomer(self, table_id: str, table) -> str:
        """A new player joins the list, is called to a free seat, sits, buys in."""
        free = [s for s in range(1, table.seats + 1) if str(s) not in table.occupants]
        card = self.new_player()
        self.do(JEFE, "join_waiting_list", player=card, table_id=table_id)
        if self.do(JEFE, "call_next", table_id=table_id, seat=free[0]) is None:
            return "call_refused"
        seat = None if table.draw_open else free[0]
        self.do(JEFE, "seat_player", table_id=table_id, player=card, seat=seat)
        self.buy(table_id, card)
        return "newcomer"

    def start_hand(self, table_id: str, table, playing: list[int], seated: dict) -> str:
        for dealt_in in (playing, [s for s in playing if not seated[s].get("newcomer")]):
            if len(dealt_in) < 2:
                return "wait"
            dealt, button = self.deal(table, dealt_in)
            started = self.do(
                CRUPIER,
                "start_hand",
                table_id=table_id,
                dealt_in=dealt.dealt_in,
                blinds=dealt.blinds,
                **({"button": button} if button else {}),
            )
            if started is not None:
                self.in_play[table_id] = (dealt, started)
                return "start_hand"
        return "start_refused"

    def deal(self, table, playing: list[int]):
        """The next hand's blinds (bench/hands.py), and the button the dealer
        names where the table has none yet [GA art. 23.1]: the first seat in play."""
        try:
            return hands.deal(self.app, table, playing), None
        except RuntimeError:
            button = sorted(playing)[0]
        direction = positions.step(self.app.profile)
        small, big = positions.blind_seats(button, table.seats, direction, playing)
        share = self.app.profile.blinds.small_share_of_minimum
        blinds = {str(small): int(table.minimum_cents * share), str(big): table.minimum_cents}
        return hands.Deal(sorted(playing), blinds, small, big), button
