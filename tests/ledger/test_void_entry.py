"""A cage entry booked by mistake is voided with its reason (issue 22, ANCHORS
item 8): a new transaction reverses it leg by leg and names it; once; only in
its own gaming day, open and not counted; never the floor's money; never when
the reversal would leave an account below nothing. Each refusal records
nothing, and the books stay balanced."""

from __future__ import annotations

from uuid import UUID

import pytest

from floor.kernel.errors import DomainError
from floor.kernel.roles import Actor, Role
from ledger.application import corrections
from ledger.domain import accounts
from ledger.domain.cage import Cage
from ledger.domain.gaming_day import GamingDay
from ledger.domain.transaction import TransactionKind
from tests.support.books import Books
from tests.support.floor import CRUPIER, DIRECTOR, JEFE, new_id
from tests.support.money import CAJERO, open_cage
from tests.support.room import Room, events_of, refused

pytestmark = pytest.mark.django_db

INSPECTOR = Actor("ines", frozenset({Role.INSPECTOR}))


@pytest.fixture
def room(make_app) -> Room:
    return Room(make_app("CM"))


@pytest.fixture
def books(room) -> Books:
    return Books(room.app)


def sold(room: Room, card: str, amount: int) -> str:
    return room.app.sell_chips(CAJERO, new_id(), player=card, amount_cents=amount).result[
        "transaction_ids"
    ][0]


def void(room: Room, transaction_id: str, reason_code: str = "wrong_amount", **more):
    return room.app.void_entry(
        more.pop("actor", CAJERO),
        more.pop("command_id", new_id()),
        transaction_id=transaction_id,
        reason_code=reason_code,
        **more,
    )


def test_a_chip_sale_voided_is_reversed_leg_by_leg_once_with_its_reason(room, books):
    open_cage(room.app)
    card = room.new_player()
    cash = books.balance(accounts.CAGE_CASH)
    sale = sold(room, card, 5_000)
    done = void(room, sale, "wrong_amount", note="typed 50 for 5")
    assert done.result["voided"] == sale
    reversal = books.catch_up().transactions[-1]
    assert reversal.kind == TransactionKind.VOID
    assert reversal.reference == UUID(sale).hex  # it names the entry it voids
    original = books.transactions[-2]
    assert reversal.postings == {name: -amount for name, amount in original.postings.items()}
    assert reversal.reason_params == {"kind": "chips_sold", "code": "wrong_amount",
                                      "note": "typed 50 for 5"}  # fmt: skip
    assert books.balance(accounts.player_chips(room.player(card).id)) == 0
    assert books.balance(accounts.CAGE_CASH) == cash
    # The original is never edited: it records that it was voided, as a new event.
    assert [type(e).__name__ for e in events_of(room.app, sale)] == ["Posted", "Voided"]
    # Once only: a second void, even with another reason, is refused.
    refused(room.app, "entry_already_voided", void, room, sale, "booked_twice")
    books.check()


def test_a_void_sent_again_with_its_command_id_reverses_once(room, books):
    open_cage(room.app)
    sale = sold(room, room.new_player(), 2_000)
    command_id = new_id()
    first = void(room, sale, command_id=command_id)
    again = void(room, sale, command_id=command_id)
    assert again.result == first.result
    assert books.kinds_posted().count(TransactionKind.VOID) == 1
    books.check()


def test_a_fill_voided_leaves_the_tray_and_the_days_fills_as_before(room, books):
    table_id = room.table(tray_cents=10_000)
    tray = accounts.tray(table_id)
    asked = room.app.request_tray_move(
        JEFE, new_id(), table_id=table_id, move="fill", amount_cents=3_000
    )
    confirmed = room.app.confirm_tray_move(CAJERO, new_id(), request_id=asked.result["request_id"])
    fill = confirmed.result["transaction_ids"][0]
    assert books.balance(tray) == 13_000
    void(room, fill, "wrong_table")
    assert books.balance(tray) == 10_000
    day = room.app.repository.get(GamingDay.id_for(room.app.repository.get(Cage.ID).open_day))
    assert day.fills[tray.table_id] == 10_000  # the 3,000 taken off again
    books.check()


def test_a_void_that_would_leave_an_account_negative_is_refused(room, books):
    open_cage(room.app)
    card = room.new_player()
    sale = sold(room, card, 4_000)
    room.app.cash_out(CAJERO, new_id(), player=card, amount_cents=1_000)  # chips already used
    error = refused(room.app, "void_leaves_account_negative", void, room, sale)
    assert error.params["balance_cents"] == 3_000
    assert error.params["amount_cents"] == 4_000
    books.check()


def test_the_floors_money_is_corrected_on_the_floor_not_voided(room, books):
    table_id, _cards = room.drawn_table(4, buy_in=1_000)
    buy_in = next(t for t in books.catch_up().transactions if t.kind == TransactionKind.BUY_IN)
    refused(room.app, "entry_booked_by_the_floor", void, room, str(buy_in.originator_id))
    drop = room.app.fund_cage(DIRECTOR, new_id(), cash_cents=100).result["transaction_ids"][0]
    refused(room.app, "entry_not_voidable", void, room, drop)  # the house's float
    refused(room.app, "transaction_not_found", void, room, table_id)  # not a transaction
    refused(room.app, "transaction_not_found", void, room, "nonsense")


def test_an_entry_is_voided_only_before_its_day_is_counted_or_closed(room, books):
    open_cage(room.app)
    sale = sold(room, room.new_player(), 1_000)
    counts = {
        name: books.balance(accounts.AccountRef(name))
        for name in (accounts.CAGE_CASH.name, accounts.CAGE_CHIPS.name)
    }
    room.app.count_gaming_day(CAJERO, new_id(), counts=counts)
    error = refused(room.app, "entry_day_counted", void, room, sale)
    assert error.params == {"gaming_day": events_of(room.app, sale)[0].gaming_day}
    room.app.close_gaming_day(CAJERO, new_id())
    refused(room.app, "entry_day_not_open", void, room, sale)
    room.app.open_gaming_day(CAJERO, new_id())
    refused(room.app, "entry_day_not_open", void, room, sale)  # another day now
    books.check()


def test_every_void_is_recorded_on_its_day(room, books):
    open_cage(room.app)
    sale = sold(room, room.new_player(), 1_500)
    void(room, sale, "booked_twice")
    day_id = GamingDay.id_for(room.app.repository.get(Cage.ID).open_day)
    noted = events_of(room.app, day_id, "VoidNoted")
    assert [(e.transaction_id, e.kind, e.amount) for e in noted] == [
        (UUID(sale).hex, TransactionKind.CHIPS_SOLD, 1_500)
    ]
    assert room.app.repository.get(day_id).voids[0]["transaction_id"] == UUID(sale).hex


def test_a_void_racing_the_days_count_is_refused_and_records_nothing(room, books, monkeypatch):
    """The count commits after the void has read the day open and before it
    saves: the void's save collides on the day, it is decided again on the
    counted day and refused [GA art. 19.1]."""
    open_cage(room.app)
    sale = sold(room, room.new_player(), 1_000)
    counts = {
        name: books.balance(accounts.AccountRef(name))
        for name in (accounts.CAGE_CASH.name, accounts.CAGE_CHIPS.name)
    }
    checked = corrections.void_refusal
    counted: list[int] = []

    def count_meanwhile(**found):
        answer = checked(**found)
        if not counted:  # once: between the void's check and its save
            room.app.count_gaming_day(CAJERO, new_id(), counts=counts)
            counted.append(room.app.recorder.max_notification_id())
        return answer

    monkeypatch.setattr(corrections, "void_refusal", count_meanwhile)
    with pytest.raises(DomainError) as caught:
        void(room, sale)
    assert caught.value.code == "entry_day_counted"
    assert room.app.recorder.max_notification_id() == counted[0], "the void recorded events"
    assert room.app.repository.get(UUID(sale)).voided_by is None
    day = room.app.repository.get(GamingDay.id_for(room.app.repository.get(Cage.ID).open_day))
    assert day.status == "counted" and day.voids == []
    assert books.kinds_posted().count(TransactionKind.VOID) == 0
    books.check()


def test_a_void_needs_a_reason_from_the_list_and_other_needs_a_note(room, books):
    open_cage(room.app)
    sale = sold(room, room.new_player(), 1_000)
    refused(room.app, "correction_reason_invalid", void, room, sale, "because")
    refused(room.app, "correction_note_required", void, room, sale, "other", note="  ")
    refused(room.app, "note_invalid", void, room, sale, "other", note="x" * 301)
    void(room, sale, "other", note="the player changed his mind at the window")
    books.check()


@pytest.mark.parametrize("actor", [JEFE, CRUPIER, INSPECTOR])
def test_only_the_cage_and_the_director_void(room, books, actor):
    open_cage(room.app)
    sale = sold(room, room.new_player(), 1_000)
    refused(room.app, "role_not_allowed", void, room, sale, actor=actor)
    void(room, sale, actor=DIRECTOR)
    books.check()


# --- a buy-in paid at the cage: its chips come back off the seat -----------------------------


def cage_buy_in(room: Room, table_id: str, card: str, amount: int) -> str:
    done = room.app.buy_in_at_cage(
        CAJERO, new_id(), table_id=table_id, player=card, amount_cents=amount
    )
    return done.result["transaction_ids"][0]


def test_a_buy_in_paid_at_the_cage_voided_takes_its_chips_back_off_the_seat(room, books):
    table_id, cards = room.drawn_table(4, buy_in=None)
    cash = books.balance(accounts.CAGE_CASH)
    entry = cage_buy_in(room, table_id, cards[0], 1_000)
    assert room.state(table_id, cards[0])["stack"] == 1_000
    void(room, entry, "wrong_player")
    assert room.state(table_id, cards[0])["stack"] == 0
    assert books.balance(accounts.CAGE_CASH) == cash
    assert events_of(room.app, table_id, "BuyInVoided")[-1].amount == 1_000
    books.check()  # the floor's stacks are still the ledger's


def test_a_cage_buy_in_is_not_voided_once_its_chips_are_played_or_gone(room, books):
    table_id, cards = room.drawn_table(4, buy_in=None)
    entries = [cage_buy_in(room, table_id, card, 1_000) for card in cards]
    room.start(table_id)
    refused(room.app, "hand_in_progress", void, room, entries[0])
    room.end(table_id, {"1": 200, "2": 200}, {"1": 400})  # seat 2 lost 200
    lost = entries[cards.index(room.seats(table_id)[2])]
    error = refused(room.app, "buy_in_chips_played", void, room, lost)
    assert error.params == {"stack_cents": 800, "amount_cents": 1_000}
    gone = room.seats(table_id)[3]
    room.leave(table_id, gone)
    refused(room.app, "buy_in_player_gone", void, room, entries[cards.index(gone)])
    books.check()
