"""Random sequences of money on the floor: buy-ins paid in cash at the table, at
the cage or with the player's own chips, rebuys, hands with rake (some left
open while other commands are tried), tips and hospitality, players leaving
and sitting again, chips sold and cashed at the cage, fills and credits, a
progressive jackpot staked and paid, players changing table and moved by the
jefe [CM-10, CM-11], tables broken and closed, time passing, and commands
sent twice with the same id.

After every step the books rebuilt from the log's Transaction events must
balance, no guarded account may be negative, the live Account aggregates must
agree with the log, every chip out of the cage must be somewhere in the room,
and each stack the floor shows must be its ledger account. A refused command
records nothing; a repeated command id records nothing and answers as before.
"""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from floor.application import exclusion_gate
from floor.application.floor_app import FloorApplication
from floor.domain import positions, settlement
from floor.domain.balance_group import BalanceGroup
from floor.domain.hand_rules import expected_button, hand_facts
from floor.domain.player import Player
from floor.domain.table import Table, TableStatus
from floor.kernel.clock import ManualClock
from floor.kernel.errors import DomainError
from games.profile_rules import BuyInRules
from games.profiles import get_profile
from ledger.domain import accounts
from ledger.domain.accounts import Kind
from tests.support.books import OFF_CAGE_CHIPS, Books
from tests.support.floor import CRUPIER, DIRECTOR, JEFE, new_id
from tests.support.money import CAJERO, open_cage
from tests.support.room import Room

OPERATIONS = (
    *("buy",) * 4,
    *("hand",) * 4,
    "deal",
    "tip",
    "tip",
    "leave",
    "sit",
    "sell",
    "sell",
    "cash_out",
    "cash_out",
    "fill",
    "credit",
    "stake",
    "pay_jackpot",
    "close",
    "wait",
    "change",
    "change",
    "accept",
    "accept",
    "break",
)
PAID_WITH = ("cash", "cage", "chips")
# Refusals a command may meet on a random floor; any other code fails the test.
EXPECTED_REFUSALS = {
    "insufficient_funds",  # an empty tray, a credit past the tray, more than a player holds
    "no_chips_to_cash",
    "cash_out_above_chips",  # a cash-out of more than the player holds off the tables
    "hand_in_progress",  # rebuys, tips, leaving and closing wait for the hand's end
    "rebuy_out_of_limits",
    "buy_in_out_of_limits",
    "stack_too_small",
    "chips_off_over_limit",
    "chips_may_not_leave",
    "table_not_running",  # suspended below four players
    "table_closed",
    "player_not_at_table",
    "table_full",
    "move_not_same_game",  # a table change asked toward the other game
    "jackpot_not_staked",  # no stake on the hand just played, or already paid
    "jackpot_already_staked",
    "seat_not_playing",  # away or resting: no jackpot stake
    "waiting_list_first",
    # Table changes and balancing [CM-10, CM-11]: the moves the tables refuse.
    "tables_unbalanced",
    "no_table_change_request",
    "table_change_already_requested",
    "table_change_requested_first",
    "no_such_proposal",
}
TABLE_STAKES = (
    {"minimum_cents": 200, "maximum_cents": 1000},
    {"minimum_cents": 400, "maximum_cents": 2000},
)
JACKPOT_STAKE_CENTS = 100
JACKPOT_SEED_CENTS = 50_000


@pytest.fixture(autouse=True, scope="module")
def no_exclusion_lists():
    """An in-memory floor has no database, so no exclusion lists to read
    (issue 25): the check reads none, as before the lists were plugged in."""
    replaced = exclusion_gate.checked_by(exclusion_gate.no_lists)
    yield
    exclusion_gate.checked_by(replaced)


def popo_app() -> FloorApplication:
    """An in-memory floor: a fresh one for every example."""
    return FloorApplication(
        env={"PERSISTENCE_MODULE": "eventsourcing.popo"},
        # The random amounts are a few euros, at 2/10 EUR tables: without CM-2's
        # 100 to 1,000 EUR (tests/floor/test_buy_in_bounds.py), as the suite's
        # floors are (tests/conftest.py, make_app).
        profile=replace(get_profile("CM"), buy_in=BuyInRules()),
        clock=ManualClock(datetime(2026, 11, 22, 20, 0, tzinfo=UTC)),
    )


class MoneyFloor:
    """Three tables, two of one game drawn together and one of another, their
    players, a jackpot, and the books."""

    def __init__(self, first_buys: list[tuple[str, int]]) -> None:
        self.app = app = popo_app()
        open_cage(app)
        self.room = Room(app, tag="L")
        self.books = Books(app)
        # A small float: cash buy-ins at the table run the tray dry.
        twins = [self.room.table(tray_cents=3_000, **TABLE_STAKES[0]) for _ in range(2)]
        self.cards = self.room.new_players(10)
        for card in self.cards:
            self.room.join(card, twins[0])
        app.draw_seats(JEFE, new_id(), table_ids=twins)  # five and five [PT 25]
        other, cards = self.room.drawn_table(5, buy_in=None, tray_cents=3_000, **TABLE_STAKES[1])
        self.tables = [*twins, other]
        self.twins = twins
        self.cards += cards
        self.jackpot_id = app.create_jackpot(
            DIRECTOR,
            new_id(),
            name="Progresivo",
            stake_cents=JACKPOT_STAKE_CENTS,
            seed_cents=JACKPOT_SEED_CENTS,
            table_ids=list(self.tables),
        ).result["jackpot_id"]
        self.check()
        buys = iter(first_buys)
        for table_id in self.tables:
            for card in self.room.seats(table_id).values():
                paid_with, pick = next(buys)
                self.buy(random.Random(pick), table_id, card, paid_with, first=True)
                self.check()

    # --- running commands -----------------------------------------------------------------

    def attempt(self, command, actor, *, retry: bool = False, **kwargs):
        """Runs a command; a refusal must be expected and record nothing, and
        the same command id sent again must answer as before and record nothing."""
        # A command written as a function is the service's ``run`` bound to its
        # name (CommandService.__getattr__); one still a method has its own name.
        name = command.args[0] if isinstance(command, functools.partial) else command.__name__
        before = self.app.last_position()
        command_id = new_id()
        try:
            outcome = command(actor, command_id, **kwargs)
        except DomainError as error:
            event(f"{name} refused: {error.code}")
            assert error.code in EXPECTED_REFUSALS, (name, kwargs, error.code, error.message)
            assert self.app.last_position() == before, f"the refused {name} recorded events"
            return None
        event(f"{name} done")
        assert not outcome.replayed and outcome.position > before
        if retry:
            position = self.app.last_position()
            again = command(actor, command_id, **kwargs)
            assert again.replayed, name
            assert again.result == outcome.result, name
            assert self.app.last_position() == position, f"the repeated {name} recorded events"
        return outcome

    def check(self, *, every_account: bool = False) -> None:
        self.books.check(every_account=every_account)

    # --- reading the floor -----------------------------------------------------------------

    def table(self, table_id: str) -> Table:
        return self.room.get(table_id)

    def open_tables(self) -> list[str]:
        return [t for t in self.tables if self.table(t).status != TableStatus.CLOSED]

    def seated(self, table_id: str) -> list[tuple[int, dict]]:
        table = self.table(table_id)
        return sorted((int(s), state) for s, state in table.occupants.items())

    def card_of(self, state: dict) -> str:
        return self.room.get(state["player_id"]).card_number

    def chips_held(self, card: str) -> int:
        return self.books.balance(accounts.player_chips(Player.create_id(card)))

    # --- the operations --------------------------------------------------------------------

    def run(self, operation: str, pick: int, retry: bool) -> None:
        rng = random.Random(pick)
        open_tables = self.open_tables()
        table_id = rng.choice(open_tables) if open_tables else None
        seated = self.seated(table_id) if table_id else []
        if operation == "buy" and seated:
            _seat, state = rng.choice(seated)
            self.buy(rng, table_id, self.card_of(state), rng.choice(PAID_WITH), retry=retry)
        elif operation == "hand" and table_id:
            if self.table(table_id).hand is None:
                self.start_hand(rng, table_id)
            self.end_hand(rng, table_id, retry)
        elif operation == "deal" and table_id and self.table(table_id).hand is None:
            self.start_hand(rng, table_id, retry)
        elif operation == "tip" and seated:
            self.tip(rng, table_id, seated, retry)
        elif operation == "leave" and seated:
            _seat, state = rng.choice(seated)
            self.attempt(
                self.app.leave_table,
                JEFE,
                retry=retry,
                table_id=table_id,
                player=self.card_of(state),
            )
        elif operation == "sit" and table_id:
            self.sit(rng, table_id, retry)
        elif operation == "sell":
            card = rng.choice(self.cards)
            amount = rng.choice((200, 400, 500, 1000, 1500, 2500))
            self.attempt(self.app.sell_chips, CAJERO, retry=retry, player=card, amount_cents=amount)
        elif operation == "cash_out":
            self.cash_out(rng, retry)
        elif operation == "fill" and table_id:
            self.tray_move(rng, table_id, "fill", rng.randrange(100, 5_000, 100), retry)
        elif operation == "credit" and table_id:
            tray = self.books.balance(accounts.tray(table_id))
            amount = rng.randint(1, tray + 500)  # now and then more than the tray holds
            self.tray_move(rng, table_id, "credit", amount, retry)
        elif operation == "stake" and seated:
            self.stake(rng, table_id, seated, retry)
        elif operation == "pay_jackpot" and seated:
            # Mostly a seat that staked on the hand just played; now and then
            # one that did not, which is refused.
            table = self.app.repository.get(UUID(table_id))
            entry = table.jackpot_hand(UUID(self.jackpot_id), table.hands_played)
            staked = [
                seat
                for seat, player in entry["players"].items()
                if int(seat) in entry["dealt_in"]
                and table.occupants.get(seat, {}).get("player_id") == player
            ]
            seat = int(rng.choice(sorted(staked))) if staked else rng.choice(seated)[0]
            category = rng.choice(("royal_flush", "straight_flush", "straight_flush"))
            self.pay_jackpot(table_id, seat, category, retry)
        elif operation == "close" and table_id and rng.random() < 0.3:
            self.attempt(self.app.close_table, JEFE, retry=retry, table_id=table_id)
        elif operation == "wait":
            self.app.clock.advance(timedelta(minutes=rng.randint(1, 90)))
        elif operation == "change":
            self.change_table(rng, retry)
        elif operation == "accept":
            group = self.group()
            proposal = group.proposal
            self.attempt(
                self.app.accept_move,
                JEFE,
                retry=retry,
                group_id=str(group.id),
                proposal_id=proposal["id"] if proposal else -1,
            )
        elif operation == "break" and rng.random() < 0.3:
            twins = [t for t in self.twins if t in open_tables]
            if twins:
                self.attempt(self.app.break_table, JEFE, retry=retry, table_id=rng.choice(twins))

    def group(self) -> BalanceGroup:
        return self.app.repository.get(BalanceGroup.id_for(self.table(self.twins[0]).game))

    def change_table(self, rng: random.Random, retry: bool) -> None:
        """A player of one of the twin tables asks to move to the other, and the
        jefe grants it where balance allows [CM-10, CM-11]."""
        if any(self.table(t).status == TableStatus.CLOSED for t in self.twins):
            return  # a closed table left its game's group: no more changes
        source, target = rng.sample(self.twins, 2)
        seated = self.seated(source)
        if seated and rng.random() < 0.8:
            _seat, state = rng.choice(seated)
            self.attempt(
                self.app.request_table_change,
                JEFE,
                table_id=source,
                player=self.card_of(state),
            )
        self.attempt(
            self.app.grant_table_change,
            JEFE,
            retry=retry,
            table_id=source,
            to_table_id=target,
        )

    def buy(
        self,
        rng: random.Random,
        table_id: str,
        card: str,
        paid_with: str,
        *,
        first: bool = False,
        retry: bool = False,
    ) -> None:
        table = self.table(table_id)
        state = table.occupants[str(table.seat_of(Player.create_id(card)))]
        low, high = table.minimum_cents, table.maximum_cents
        if state["stack"]:
            high = max(low, high - state["stack"])  # a rebuy; past the maximum it is refused
        amount = rng.randint(low, high)
        if paid_with == "chips":
            held = self.chips_held(card)
            if held < low and not first:
                paid_with = "cage"  # chips only for a player who holds some
            else:
                if held < amount:
                    sold = amount - held if first else 0
                    if sold:  # the first buy-in with chips: bought at the cage first
                        self.attempt(self.app.sell_chips, CAJERO, player=card, amount_cents=sold)
                    else:
                        amount = held
        if paid_with == "cage":  # paid at the cage, the chips sent to the seat
            self.attempt(
                self.app.buy_in_at_cage,
                CAJERO,
                retry=retry,
                table_id=table_id,
                player=card,
                amount_cents=amount,
            )
            return
        self.attempt(
            self.app.buy_in,
            CRUPIER,
            retry=retry,
            table_id=table_id,
            player=card,
            amount_cents=amount,
            paid_with=paid_with,
        )

    def start_hand(self, rng: random.Random, table_id: str, retry: bool = False) -> None:
        """Deals every seat that may play, posting the big blind for those who owe it."""
        table = self.table(table_id)
        _expected, skipped = expected_button(table, positions.step(self.app.profile))
        dealt_in, blinds = [], {}
        for seat, state in self.seated(table_id):
            owes_big = state["newcomer"] or state["must_post_big_blind"]
            if (
                state["stack"] <= 0
                or state["must_rebuy"]
                or seat == skipped
                or (owes_big and state["stack"] < table.minimum_cents)
            ):
                continue
            dealt_in.append(seat)
            if owes_big:
                blinds[str(seat)] = table.minimum_cents
        if len(dealt_in) < 2:
            return
        if len(dealt_in) > 2 and rng.random() < 0.3:
            dealt_in.remove(rng.choice(dealt_in))  # one sits this hand out
            blinds = {s: c for s, c in blinds.items() if int(s) in dealt_in}
        self.attempt(
            self.app.start_hand,
            CRUPIER,
            retry=retry,
            table_id=table_id,
            dealt_in=dealt_in,
            blinds=blinds,
        )

    def end_hand(self, rng: random.Random, table_id: str, retry: bool) -> None:
        """What each seat put in (at least its blinds, at most its stack), then
        the service settles the pots it builds: some of each pot's eligible
        seats win it, the rake is the table's (floor.domain.settlement)."""
        table = self.table(table_id)
        if table.hand is None:
            return
        contributions = {}
        for seat in table.hand["dealt_in"]:
            stack = table.occupants[str(seat)]["stack"]
            owed = table.hand["blinds"].get(str(seat), 0)
            owed += table.hand.get("dead_blinds", {}).get(str(seat), 0)
            low = min(stack, max(1, owed + 1))
            high = stack if rng.random() < 0.6 else max(low, stack // 3)
            contributions[seat] = rng.randint(low, high)
        built = settlement.build(hand_facts(table, self.app.profile), contributions, said_folded=[])
        winners = [
            rng.sample(sorted(p.eligible), rng.randint(1, min(2, len(p.eligible))))
            for p in built.pots
        ]
        outcome = self.attempt(
            self.app.end_hand,
            CRUPIER,
            retry=retry,
            table_id=table_id,
            contributions={str(s): c for s, c in contributions.items()},
            pot_winners=winners,
        )
        if outcome is not None and outcome.result["rake_cents"]:
            event("a hand raked")

    def tip(self, rng: random.Random, table_id: str, seated: list, retry: bool) -> None:
        _seat, state = rng.choice(seated)
        purpose = rng.choice(("tip", "tip", "hospitality", "hospitality", "souvenir"))
        amount = rng.randint(1, max(1, min(state["stack"], 1500)))
        if rng.random() < 0.1:
            amount = 1501  # past the 15 EUR a time [CM-15]
        self.attempt(
            self.app.take_chips_off,
            CRUPIER,
            retry=retry,
            table_id=table_id,
            player=self.card_of(state),
            amount_cents=amount,
            purpose=purpose,
        )

    def sit(self, rng: random.Random, table_id: str, retry: bool) -> None:
        """A player not seated (one who left, or a newcomer) takes a free seat."""
        table = self.table(table_id)
        if not table.free_seats():
            return
        standing = [c for c in self.cards if self.room.player(c).seated_at is None]
        if not standing or rng.random() < 0.3:
            standing = [self.room.new_player()]
            self.cards += standing
        card = rng.choice(standing)
        self.room.join(card, table_id)
        seat = None if table.draw_open else rng.choice(table.free_seats())
        self.attempt(
            self.app.seat_player, JEFE, retry=retry, table_id=table_id, player=card, seat=seat
        )
        if self.room.player(card).seated_at is None:  # refused: off the list again
            self.app.leave_waiting_list(JEFE, new_id(), player=card, table_id=table_id)

    def cash_out(self, rng: random.Random, retry: bool) -> None:
        holders = [c for c in self.cards if self.chips_held(c)] or self.cards
        card = rng.choice(holders)
        held = self.chips_held(card)
        amount = rng.choice((None, None, max(1, held // 2), held + 100))
        self.attempt(self.app.cash_out, CAJERO, retry=retry, player=card, amount_cents=amount)

    def tray_move(
        self, rng: random.Random, table_id: str, move: str, amount: int, retry: bool
    ) -> None:
        asked = self.attempt(
            self.app.request_tray_move,
            JEFE,
            retry=retry,
            table_id=table_id,
            move=move,
            amount_cents=amount,
        )
        if asked is None:
            return
        request_id = asked.result["request_id"]
        if rng.random() < 0.15:
            self.attempt(self.app.cancel_tray_move, JEFE, request_id=request_id, reason="no")
            return
        if self.attempt(self.app.confirm_tray_move, CAJERO, retry=retry, request_id=request_id):
            return
        self.attempt(self.app.cancel_tray_move, CAJERO, request_id=request_id, reason="short")

    def stake(self, rng: random.Random, table_id: str, seated: list, retry: bool) -> None:
        stakers = [s for s, state in seated if state["stack"] >= JACKPOT_STAKE_CENTS]
        if not stakers:
            return
        chosen = rng.sample(stakers, rng.randint(1, len(stakers)))
        self.attempt(
            self.app.stake_jackpot,
            CRUPIER,
            retry=retry,
            jackpot_id=self.jackpot_id,
            table_id=table_id,
            stakes={str(s): JACKPOT_STAKE_CENTS for s in chosen},
        )

    def pay_jackpot(self, table_id: str, seat: int, category: str, retry: bool) -> None:
        fund = accounts.jackpot_fund(self.jackpot_id)
        before = self.books.balance(fund)
        paid = self.attempt(
            self.app.pay_jackpot,
            CRUPIER,
            retry=retry,
            jackpot_id=self.jackpot_id,
            table_id=table_id,
            winners={str(seat): category},
        )
        if paid is None:  # not staked on the hand just played, or a hand is on
            return
        prize = paid.result["prizes"][str(seat)]
        assert prize == (before if category == "royal_flush" else before // 10)
        after = self.books.balance(fund)
        assert after == max(before - prize, JACKPOT_SEED_CENTS) == paid.result["fund_after_cents"]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    first_buys=st.lists(
        st.tuples(st.sampled_from(PAID_WITH), st.integers(0, 10_000)), min_size=15, max_size=15
    ),
    steps=st.lists(
        st.tuples(st.sampled_from(OPERATIONS), st.integers(0, 10_000), st.booleans()),
        min_size=20,
        max_size=60,
    ),
)
def test_every_cent_is_booked_twice_and_the_floor_agrees_with_the_books(first_buys, steps):
    floor = MoneyFloor(first_buys)
    for operation, pick, retry in steps:
        floor.run(operation, pick, retry and pick % 3 == 0)
        floor.check()
    floor.check(every_account=True)
    # At the end: the ledger's own account of every chip out of the cage.
    books = floor.books
    assert books.chips_issued() == books.total_of(*OFF_CAGE_CHIPS)
    stacks_on_floor = sum(state["stack"] for t in floor.tables for _s, state in floor.seated(t))
    assert stacks_on_floor == books.total_of(Kind.STACK)
