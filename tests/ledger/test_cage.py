"""The cage's commands and the floor's money, one rule at a time: buy-ins paid
three ways and booked once, the tray that must hold the chips it sells, fills
and credits asked by one person and confirmed by another [GA art. 19.1; CM
"Personal"], cash-outs of what a player holds, chips off the table only for
tips and hospitality [CM-15], rebuys between hands [GA art. 21; PT 14], stacks
that follow their players [CM-12] and stay theirs when a table closes, and the
progressive jackpot [GA art. 8b; PT-SD 10]."""

from __future__ import annotations

import pytest

from floor.domain.player import Player
from floor.kernel.roles import Actor, Role
from floor.messages import message_for
from ledger.domain import accounts
from ledger.domain.accounts import Kind
from ledger.domain.cage import Cage
from ledger.domain.gaming_day import GamingDay
from ledger.domain.transaction import TransactionKind
from tests.support.books import Books
from tests.support.floor import CRUPIER, DIRECTOR, JEFE, new_id
from tests.support.money import CAJERO, open_cage
from tests.support.room import Room, events_of, refused

pytestmark = pytest.mark.django_db

# A cashier who is also a jefe: may ask for a fill and confirm one, not the same one.
JEFE_AND_CAJERO = Actor("pat", frozenset({Role.JEFE_SECTOR, Role.CAJERO}))
OTHER_CAJERO = Actor("olga", frozenset({Role.CAJERO}))


@pytest.fixture
def room(make_app) -> Room:
    return Room(make_app("CM"))


@pytest.fixture
def books(room) -> Books:
    return Books(room.app)


def pid(card: str):
    return Player.create_id(card)


def stack_account(table_id: str, card: str) -> accounts.AccountRef:
    return accounts.stack(table_id, pid(card))


def chips_of(card: str) -> accounts.AccountRef:
    return accounts.player_chips(pid(card))


def buy(room: Room, table_id: str, card: str, amount: int, paid_with: str, command_id=None):
    """A buy-in at the table, or paid at the cage (the cage's command)."""
    if paid_with == "cage":
        return room.app.buy_in_at_cage(
            CAJERO,
            command_id or new_id(),
            table_id=table_id,
            player=card,
            amount_cents=amount,
        )
    return room.app.buy_in(
        CRUPIER,
        command_id or new_id(),
        table_id=table_id,
        player=card,
        amount_cents=amount,
        paid_with=paid_with,
    )


def sell(room: Room, card: str, amount: int):
    return room.app.sell_chips(CAJERO, new_id(), player=card, amount_cents=amount)


# --- buy-ins ------------------------------------------------------------------------------


@pytest.mark.parametrize("paid_with", ["cash", "cage", "chips"])
def test_a_buy_in_is_booked_where_it_was_paid(room, books, paid_with):
    table_id, (card, *_) = room.drawn_table(4, buy_in=None)
    if paid_with == "chips":
        sell(room, card, 800)
    before = {ref.name: books.balance(ref) for ref in money_refs(table_id, card)}
    buy(room, table_id, card, 800, paid_with)
    after = {ref.name: books.balance(ref) for ref in money_refs(table_id, card)}
    moved = {name: after[name] - before[name] for name in after if after[name] != before[name]}
    tray, drop = accounts.tray(table_id).name, accounts.drop(table_id).name
    cage_cash, cage_chips = accounts.CAGE_CASH.name, accounts.CAGE_CHIPS.name
    stack, held = stack_account(table_id, card).name, chips_of(card).name
    assert (
        moved
        == {
            "cash": {tray: -800, drop: 800, stack: 800},
            "cage": {cage_cash: 800, cage_chips: -800, stack: 800},
            "chips": {held: -800, stack: 800},
        }[paid_with]
    )
    last = books.transactions[-1]
    assert (last.kind, last.reason) == (TransactionKind.BUY_IN, paid_with)
    assert room.state(table_id, card)["stack"] == 800
    books.check()


def money_refs(table_id: str, card: str) -> list[accounts.AccountRef]:
    return [
        accounts.tray(table_id),
        accounts.drop(table_id),
        accounts.CAGE_CASH,
        accounts.CAGE_CHIPS,
        stack_account(table_id, card),
        chips_of(card),
    ]


def test_a_buy_in_sent_again_with_its_command_id_moves_the_money_once(room, books):
    table_id, (card, *_) = room.drawn_table(4, buy_in=None)
    command_id = new_id()
    first = buy(room, table_id, card, 600, "cash", command_id)
    books.catch_up()
    balances, transactions = dict(books.balances), len(books.transactions)
    position = room.app.last_position()

    again = buy(room, table_id, card, 600, "cash", command_id)

    assert again.replayed and again.result == first.result
    assert room.app.last_position() == position
    books.catch_up()
    assert dict(books.balances) == balances and len(books.transactions) == transactions
    assert room.state(table_id, card)["stack"] == 600
    # The same id for another buy-in is not a repeat: refused, nothing recorded.
    refused(room.app, "command_id_reused", buy, room, table_id, card, 700, "cash", command_id)
    books.check()


def test_a_cash_buy_in_at_a_table_with_an_empty_tray_is_refused(room, books):
    open_cage(room.app)
    table_id, (card, *_) = room.drawn_table(4, buy_in=None, tray_cents=0)
    error = refused(room.app, "insufficient_funds", buy, room, table_id, card, 500, "cash")
    assert error.params == {
        "account": accounts.tray(table_id).name,
        "balance_cents": 0,
        "amount_cents": 500,
    }
    assert room.state(table_id, card)["stack"] == 0
    assert books.balance(stack_account(table_id, card)) == 0
    # Chips from the cage do not come out of the tray: that buy-in stands.
    assert buy(room, table_id, card, 500, "cage").result["stack_cents"] == 500
    assert books.balance(accounts.tray(table_id)) == 0
    books.check()


def test_a_buy_in_with_the_players_own_chips_needs_those_chips(room, books):
    table_id, (card, *_) = room.drawn_table(4, buy_in=None)
    refused(room.app, "insufficient_funds", buy, room, table_id, card, 500, "chips")
    sell(room, card, 400)
    refused(room.app, "insufficient_funds", buy, room, table_id, card, 500, "chips")
    buy(room, table_id, card, 400, "chips")
    assert books.balance(chips_of(card)) == 0
    assert books.balance(stack_account(table_id, card)) == 400
    books.check()


def test_a_rebuy_during_a_hand_is_refused_whatever_pays_for_it(room, books):
    table_id, (card, *_) = room.drawn_table(4, buy_in=500)
    sell(room, card, 500)
    room.start(table_id)
    for paid_with in ("cash", "cage", "chips"):
        refused(room.app, "hand_in_progress", buy, room, table_id, card, 200, paid_with)
    room.end(table_id)
    assert buy(room, table_id, card, 200, "chips").result["stack_cents"] == 700
    books.check()


# --- fills and credits ------------------------------------------------------------------------


def ask(room: Room, table_id: str, move: str, amount: int, actor: Actor = JEFE) -> str:
    return room.app.request_tray_move(
        actor, new_id(), table_id=table_id, move=move, amount_cents=amount
    ).result["request_id"]


def confirm(room: Room, request_id: str, actor: Actor = CAJERO):
    return room.app.confirm_tray_move(actor, new_id(), request_id=request_id)


def test_a_fill_is_asked_by_one_person_and_moves_chips_only_when_another_confirms(room, books):
    table_id = room.table(tray_cents=10_000)
    tray = accounts.tray(table_id)
    request_id = ask(room, table_id, "fill", 5_000, actor=JEFE_AND_CAJERO)
    assert books.balance(tray) == 10_000  # asked, not moved
    refused(room.app, "same_person_confirms", confirm, room, request_id, actor=JEFE_AND_CAJERO)
    cage_chips = books.balance(accounts.CAGE_CHIPS)
    confirm(room, request_id, actor=OTHER_CAJERO)
    assert books.balance(tray) == 15_000
    assert books.balance(accounts.CAGE_CHIPS) == cage_chips - 5_000
    assert books.transactions[-1].kind == TransactionKind.FILL
    refused(room.app, "tray_request_not_pending", confirm, room, request_id)
    refused(
        room.app, "tray_request_not_pending", room.app.cancel_tray_move, JEFE, new_id(),
        request_id=request_id,
    )  # fmt: skip
    # Only a cashier confirms; a jefe may not, even another one.
    other = ask(room, table_id, "fill", 1_000)
    refused(room.app, "role_not_allowed", confirm, room, other, actor=JEFE)
    room.app.cancel_tray_move(JEFE, new_id(), request_id=other, reason="not needed")
    refused(room.app, "tray_request_not_pending", confirm, room, other)
    assert books.balance(tray) == 15_000
    books.check()


def test_a_credit_returns_tray_chips_to_the_cage_and_never_more_than_the_tray_holds(room, books):
    table_id = room.table(tray_cents=10_000)
    tray = accounts.tray(table_id)
    too_much = ask(room, table_id, "credit", 10_001)
    refused(room.app, "insufficient_funds", confirm, room, too_much)
    request_id = ask(room, table_id, "credit", 4_000, actor=JEFE_AND_CAJERO)
    refused(room.app, "same_person_confirms", confirm, room, request_id, actor=JEFE_AND_CAJERO)
    cage_chips = books.balance(accounts.CAGE_CHIPS)
    confirm(room, request_id)
    assert books.balance(tray) == 6_000
    assert books.balance(accounts.CAGE_CHIPS) == cage_chips + 4_000
    assert books.transactions[-1].kind == TransactionKind.CREDIT
    # The day notes the table's fills and credits for its result.
    day = room.app.repository.get(GamingDay.id_for(open_day(room)))
    assert day.fills == {accounts.tray(table_id).table_id: 10_000}
    assert day.credits == {accounts.tray(table_id).table_id: 4_000}
    books.check()


def open_day(room: Room) -> str:
    return room.app.repository.get(Cage.ID).open_day


# --- the cage -------------------------------------------------------------------------------


def test_a_cash_out_pays_what_the_player_holds_and_no_more(room, books):
    open_cage(room.app)
    card = room.new_player()
    sell(room, card, 1_000)
    error = refused(
        room.app, "cash_out_above_chips", room.app.cash_out, CAJERO, new_id(), player=card,
        amount_cents=1_001,
    )  # fmt: skip
    # Said with what the player holds (a new user read only the books' general rule).
    assert error.params == {"held_cents": 1_000, "amount_cents": 1_001}
    assert "10,00" in message_for(error.code, **error.params)
    cash = books.balance(accounts.CAGE_CASH)
    paid = room.app.cash_out(CAJERO, new_id(), player=card, amount_cents=300)
    assert paid.result["amount_cents"] == 300
    everything = room.app.cash_out(CAJERO, new_id(), player=card)  # all that is left
    assert everything.result["amount_cents"] == 700
    assert books.balance(chips_of(card)) == 0
    assert books.balance(accounts.CAGE_CASH) == cash - 1_000
    refused(room.app, "no_chips_to_cash", room.app.cash_out, CAJERO, new_id(), player=card)
    books.check()


def test_a_stack_on_the_table_is_not_cashed_until_its_player_leaves(room, books):
    table_id, (card, *_) = room.drawn_table(4, buy_in=900)
    refused(room.app, "no_chips_to_cash", room.app.cash_out, CAJERO, new_id(), player=card)
    room.leave(table_id, card)
    assert books.balance(stack_account(table_id, card)) == 0
    assert books.balance(chips_of(card)) == 900
    assert room.app.cash_out(CAJERO, new_id(), player=card).result["amount_cents"] == 900
    books.check()


# --- chips off the table [CM-15] --------------------------------------------------------------


def take_off(room: Room, table_id: str, card: str, amount: object, purpose: str):
    return room.app.take_chips_off(
        CRUPIER, new_id(), table_id=table_id, player=card, amount_cents=amount, purpose=purpose
    )


def test_chips_leave_the_table_only_for_tips_and_hospitality_at_most_15_eur_between_hands(
    room, books
):
    stakes = {"minimum_cents": 800, "maximum_cents": 4_000}
    table_id, (card, *_) = room.drawn_table(4, buy_in=4_000, **stakes)
    refused(room.app, "chips_may_not_leave", take_off, room, table_id, card, 100, "pocket")
    refused(room.app, "chips_off_over_limit", take_off, room, table_id, card, 1_501, "tip")
    refused(room.app, "amount_invalid", take_off, room, table_id, card, 0, "tip")
    assert take_off(room, table_id, card, 1_500, "tip").result["stack_cents"] == 2_500
    assert take_off(room, table_id, card, 250, "hospitality").result["stack_cents"] == 2_250
    room.start(table_id)
    refused(room.app, "hand_in_progress", take_off, room, table_id, card, 100, "tip")
    room.end(table_id)
    assert books.balance(accounts.tip_box(table_id)) == 1_500
    assert books.balance(accounts.HOSPITALITY) == 250
    assert books.balance(stack_account(table_id, card)) == 2_250
    assert books.kinds_posted()[-2:] == [TransactionKind.TIP, TransactionKind.HOSPITALITY]
    books.check()


def test_no_more_chips_leave_a_stack_than_it_holds(room, books):
    table_id, (card, *_) = room.drawn_table(4, buy_in=300)
    refused(room.app, "stack_too_small", take_off, room, table_id, card, 301, "tip")
    take_off(room, table_id, card, 300, "tip")
    assert room.state(table_id, card)["stack"] == 0
    books.check()


# --- the time charge [GA art. 18.3b; PT 7b] ---------------------------------------------------


def test_a_time_charge_goes_from_each_stack_to_the_rake_box(make_app):
    room = Room(make_app("GA"))
    books = Books(room.app)
    time_table = {"rake_model": "per_session", "session_percent": "10"}  # 100 of the 1,000
    table_id, cards = room.drawn_table(5, buy_in=None, **time_table)
    *paying, late = cards
    for card in paying:
        room.buy(table_id, card, 1_000)
    dealt = [room.seat_of(table_id, c) for c in paying]
    room.start(table_id, dealt, button=dealt[0])  # play starts: the session charges all
    assert books.balance(accounts.rake_box(table_id)) == 400
    for card in paying:
        assert books.balance(stack_account(table_id, card)) == 900
    # No chips, no charge yet: it is taken from the chips the player buys.
    assert room.state(table_id, late)["time_due"]
    room.end(table_id)
    buy(room, table_id, late, 500, "cash")
    assert room.state(table_id, late)["stack"] == 400
    assert books.balance(stack_account(table_id, late)) == 400
    assert books.balance(accounts.rake_box(table_id)) == 500
    assert books.kinds_posted()[-2:] == [TransactionKind.BUY_IN, TransactionKind.TIME_CHARGE]
    books.check()


# --- stacks follow their players ----------------------------------------------------------------


def two_tables_of_one_game(room: Room, players: int = 9) -> tuple[str, str]:
    """Two tables drawn together [PT 25], every player bought in for 1,000."""
    tables = [room.table(), room.table()]
    for card in room.new_players(players):
        room.join(card, tables[0])
    room.app.draw_seats(JEFE, new_id(), table_ids=tables)
    for table_id in tables:
        for card in room.seats(table_id).values():
            room.buy(table_id, card, 1_000)
    a, b = tables
    return (a, b) if room.get(a).player_count > room.get(b).player_count else (b, a)


def test_a_stack_moves_with_a_player_who_changes_table(room, books):
    a, b = two_tables_of_one_game(room)  # five and four
    card = next(iter(room.seats(a).values()))
    seat = room.seat_of(a, card)
    room.start(a)
    dealt = room.get(a).hand["dealt_in"]
    other = next(s for s in dealt if s != seat)
    room.end(a, {str(seat): 300, str(other): 300}, {str(seat): 600})  # 1,300 now
    room.app.request_table_change(JEFE, new_id(), table_id=a, player=card)
    moved = room.app.grant_table_change(JEFE, new_id(), table_id=a, to_table_id=b).result
    assert moved["stack"] == 1_300
    assert room.state(b, card)["stack"] == 1_300
    assert books.balance(stack_account(a, card)) == 0
    assert books.balance(stack_account(b, card)) == 1_300
    last = books.transactions[-1]
    assert last.kind == TransactionKind.STACK_MOVED
    assert last.postings == {
        stack_account(a, card).name: -1_300,
        stack_account(b, card).name: 1_300,
    }
    books.check()


def test_a_broken_tables_stacks_go_to_the_other_tables_or_back_to_their_players(room, books):
    a, b = two_tables_of_one_game(room, players=16)  # eight and eight: not all fit
    at_broken = list(room.seats(b).values())
    result = room.app.break_table(JEFE, new_id(), table_id=b).result
    placed = {str(pid(c)) for c in at_broken} & set(result["placed"])
    assert placed and result["listed"]
    for card in at_broken:
        assert books.balance(stack_account(b, card)) == 0
        if str(pid(card)) in placed:
            assert books.balance(stack_account(a, card)) == room.state(a, card)["stack"] == 1_000
            assert books.balance(chips_of(card)) == 0
        else:
            assert books.balance(chips_of(card)) == 1_000
    books.check()


def test_closing_a_table_sends_each_stack_to_its_players_chips(room, books):
    table_id, cards = room.drawn_table(5, buy_in=700)
    stacks = room.app.close_table(JEFE, new_id(), table_id=table_id).result["stacks"]
    assert set(stacks.values()) == {700}
    for card in cards:
        assert books.balance(stack_account(table_id, card)) == 0
        assert books.balance(chips_of(card)) == 700
    assert books.kinds_posted()[-5:] == [TransactionKind.STACK_LEFT] * 5
    assert sum(books.of_kind(Kind.STACK).values()) == 0
    for card in cards:
        room.app.cash_out(CAJERO, new_id(), player=card)
    assert sum(books.of_kind(Kind.PLAYER).values()) == 0
    books.check()


# --- the progressive jackpot [GA art. 8b; PT-SD 10] ----------------------------------------------

SEED = 50_000
# Stakes of at most half the minimum [GA art. 8b]; stacks deep enough for many.
JACKPOT_TABLE = {"minimum_cents": 400, "maximum_cents": 2_000}


def jackpot_room(room: Room) -> tuple[str, str, list[str]]:
    table_id, cards = room.drawn_table(4, buy_in=2_000, **JACKPOT_TABLE)
    jackpot_id = room.app.create_jackpot(
        DIRECTOR,
        new_id(),
        name="Progresivo",
        stake_cents=100,
        seed_cents=SEED,
        table_ids=[table_id],
    ).result["jackpot_id"]
    return table_id, jackpot_id, cards


def stake(room: Room, jackpot_id: str, table_id: str, stakes: dict):
    return room.app.stake_jackpot(
        CRUPIER, new_id(), jackpot_id=jackpot_id, table_id=table_id, stakes=stakes
    )


def stake_all(room: Room, jackpot_id: str, table_id: str, rounds: int = 1) -> list[int]:
    """Every seat stakes 100 on each of ``rounds`` hands, each hand played."""
    seats = room.get(table_id).occupied()
    for _ in range(rounds):
        stake(room, jackpot_id, table_id, {str(s): 100 for s in seats})
        room.played(table_id)
    return seats


def pay(room: Room, jackpot_id: str, table_id: str, winners: dict):
    return room.app.pay_jackpot(
        CRUPIER, new_id(), jackpot_id=jackpot_id, table_id=table_id, winners=winners
    )


def test_a_jackpot_is_seeded_from_the_cage_and_fed_by_the_stakes(room, books):
    table_id, jackpot_id, _cards = jackpot_room(room)
    fund = accounts.jackpot_fund(jackpot_id)
    seeded = books.catch_up().transactions[-1]
    assert seeded.kind == TransactionKind.JACKPOT_SEED
    assert seeded.postings == {accounts.CAGE_CHIPS.name: -SEED, fund.name: SEED}
    assert books.balance(fund) == SEED
    seats = stake_all(room, jackpot_id, table_id)
    assert books.balance(fund) == SEED + 400
    assert books.balance(accounts.rake_box(table_id)) == 0  # the whole stake is the fund's
    for seat in seats:
        assert room.state(table_id, seat=seat)["stack"] == 1_900
        assert books.balance(stack_account(table_id, room.seats(table_id)[seat])) == 1_900
    refused(
        room.app, "jackpot_stake_over_half_minimum", stake, room, jackpot_id, table_id,
        {str(seats[0]): 201},
    )  # fmt: skip
    other_table, _ = room.drawn_table(4, buy_in=1_000, minimum_cents=300, maximum_cents=1_500)
    refused(
        room.app, "table_not_in_jackpot", stake, room, jackpot_id, other_table,
        {str(room.get(other_table).occupied()[0]): 100},
    )  # fmt: skip
    books.check()


def test_a_royal_flush_takes_the_whole_fund_which_goes_back_to_its_starting_amount(room, books):
    table_id, jackpot_id, _cards = jackpot_room(room)
    fund = accounts.jackpot_fund(jackpot_id)
    seats = stake_all(room, jackpot_id, table_id, rounds=3)
    assert books.balance(fund) == SEED + 1_200
    cage_chips = books.balance(accounts.CAGE_CHIPS)
    winner = seats[1]
    refused(room.app, "no_jackpot_prize", pay, room, jackpot_id, table_id, {str(winner): "flush"})
    paid = pay(room, jackpot_id, table_id, {str(winner): "royal_flush", str(seats[2]): "flush"})
    assert paid.result["prizes"] == {str(winner): SEED + 1_200}
    assert paid.result["fund_after_cents"] == SEED
    assert room.state(table_id, seat=winner)["stack"] == 1_700 + SEED + 1_200
    assert books.balance(fund) == SEED  # brought back to the seed ...
    assert books.balance(accounts.CAGE_CHIPS) == cage_chips - SEED  # ... from the cage
    books.check()


def test_a_straight_flush_takes_ten_percent_and_the_fund_never_falls_below_its_seed(room, books):
    table_id, jackpot_id, _cards = jackpot_room(room)
    fund = accounts.jackpot_fund(jackpot_id)
    seats = stake_all(room, jackpot_id, table_id, rounds=2)
    assert books.balance(fund) == 50_800
    cage_chips = books.balance(accounts.CAGE_CHIPS)
    paid = pay(room, jackpot_id, table_id, {str(seats[0]): "straight_flush"})
    assert paid.result["prizes"] == {str(seats[0]): 5_080}  # 10 % of 50,800
    # 45,720 left: below the seed, so the cage brings it back to 50,000.
    assert books.balance(fund) == SEED == paid.result["fund_after_cents"]
    assert books.balance(accounts.CAGE_CHIPS) == cage_chips - 4_280
    assert room.state(table_id, seat=seats[0])["stack"] == 1_800 + 5_080
    books.check()


def test_a_fund_well_above_its_seed_keeps_ninety_percent_after_a_straight_flush(room, books):
    table_id, jackpot_id, _cards = jackpot_room(room)
    fund = accounts.jackpot_fund(jackpot_id)
    seats = stake_all(room, jackpot_id, table_id, rounds=14)
    assert books.balance(fund) == 55_600
    cage_chips = books.balance(accounts.CAGE_CHIPS)
    two_winners = {str(seats[0]): "straight_flush", str(seats[1]): "straight_flush"}
    paid = pay(room, jackpot_id, table_id, two_winners)
    # Equal prizes split: 10 % of 55,600 is 5,560, 2,780 each [PT-SD 12].
    assert paid.result["prizes"] == {str(seats[0]): 2_780, str(seats[1]): 2_780}
    assert books.balance(fund) == 50_040 == paid.result["fund_after_cents"]
    assert books.balance(accounts.CAGE_CHIPS) == cage_chips  # no top-up needed
    books.check()


def test_every_jackpot_event_is_booked(room, books):
    table_id, jackpot_id, _cards = jackpot_room(room)
    seats = room.get(table_id).occupied()
    stake(room, jackpot_id, table_id, {str(seats[0]): 100})
    room.played(table_id)
    pay(room, jackpot_id, table_id, {str(seats[0]): "royal_flush"})
    assert len(events_of(room.app, table_id, "JackpotStaked")) == 1
    assert len(events_of(room.app, table_id, "JackpotPaid")) == 1
    kinds = books.kinds_posted()
    assert kinds.count(TransactionKind.JACKPOT_BET) == 1
    assert kinds.count(TransactionKind.JACKPOT_PAID) == 1
    assert kinds.count(TransactionKind.JACKPOT_SEED) == 2  # created, then topped up
    books.check()


def test_jackpot_stakes_go_in_between_hands_and_pay_only_the_hand_that_staked(room, books):
    table_id, jackpot_id, _cards = jackpot_room(room)
    seats = room.get(table_id).occupied()
    first, second = str(seats[0]), str(seats[1])
    stake(room, jackpot_id, table_id, {first: 100})
    refused(room.app, "jackpot_already_staked", stake, room, jackpot_id, table_id, {first: 100})
    # Before the hand is played there is nothing to pay.
    refused(room.app, "jackpot_not_staked", pay, room, jackpot_id, table_id, {first: "royal_flush"})
    room.start(table_id)
    refused(room.app, "hand_in_progress", stake, room, jackpot_id, table_id, {second: 100})
    room.end(table_id)
    # Only a seat that staked on the hand just played wins.
    refused(
        room.app, "jackpot_not_staked", pay, room, jackpot_id, table_id, {second: "royal_flush"}
    )
    pay(room, jackpot_id, table_id, {first: "straight_flush"})
    # The hand's prizes are paid once.
    refused(room.app, "jackpot_not_staked", pay, room, jackpot_id, table_id, {first: "royal_flush"})
    # A stake waits for its hand: the hand after the stake, not an earlier one.
    stake(room, jackpot_id, table_id, {second: 100})
    refused(
        room.app, "jackpot_not_staked", pay, room, jackpot_id, table_id, {second: "royal_flush"}
    )
    books.check()


def test_a_jackpot_pays_the_player_who_staked_and_was_dealt_in(room, books):
    table_id, jackpot_id, _cards = jackpot_room(room)
    seats = room.get(table_id).occupied()
    first, second, third = (str(s) for s in seats[:3])
    # The second seat staked but sat the hand out: its stake wins nothing.
    stake(room, jackpot_id, table_id, {first: 100, second: 100})
    room.played(table_id, dealt_in=[s for s in seats if str(s) != second])
    refused(
        room.app, "jackpot_not_staked", pay, room, jackpot_id, table_id, {second: "royal_flush"}
    )
    # Stakes for the next hand leave the last hand's prizes payable.
    stake(room, jackpot_id, table_id, {third: 100})
    paid = pay(room, jackpot_id, table_id, {first: "straight_flush"})
    assert list(paid.result["prizes"]) == [first]
    # A player who leaves after the hand takes the stake's chance along.
    room.played(table_id)
    room.leave(table_id, room.seats(table_id)[int(third)])
    refused(room.app, "jackpot_not_staked", pay, room, jackpot_id, table_id, {third: "royal_flush"})
    books.check()
