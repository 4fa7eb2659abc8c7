"""The jefe's corrections at a table, each with its reason (issue 22, ANCHORS
item 8): a move or seat change made by mistake undone, only while nothing has
made it unfair or wrong since; a seat's stack fixed between hands, the books
taking the difference on the table's difference account. Each refusal records
nothing, and the books stay balanced and equal to the floor's stacks."""

from __future__ import annotations

from uuid import UUID

import pytest

from floor.domain.balance_group import BalanceGroup
from floor.domain.corrections import undo_refusal
from floor.domain.seat import Seat
from ledger.domain import accounts
from ledger.domain.transaction import TransactionKind
from tests.support.books import Books
from tests.support.floor import CRUPIER, DIRECTOR, JEFE, new_id
from tests.support.room import Room, events_of, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app)


@pytest.fixture
def books(room) -> Books:
    return Books(room.app)


def two_tables(room: Room) -> tuple[str, str]:
    """Two tables of one game, five players each, every one bought in."""
    table_ids = [room.table() for _ in range(2)]
    for card in room.new_players(10):
        room.join(card, table_ids[0])
    room.app.draw_seats(JEFE, new_id(), table_ids=table_ids)
    for table_id in table_ids:
        for card in room.seats(table_id).values():
            room.buy(table_id, card, 1000)
    return table_ids[0], table_ids[1]


def group_id(room: Room, table_id: str) -> str:
    return str(BalanceGroup.id_for(room.get(table_id).game))


def moved(room: Room, a: str, b: str) -> tuple[str, int]:
    """The jefe moves a player of ``a`` to ``b`` (by mistake); returns the
    card and the seat he left."""
    card, seat = next((c, s) for s, c in room.seats(a).items())
    room.app.override_move(
        JEFE, new_id(), group_id=group_id(room, a), player=card, to_table_id=b,
        reason="The jefe's call",
    )  # fmt: skip
    return card, seat


def undo(room: Room, table_id: str, card: str, reason_code: str = "wrong_player", **more):
    return room.app.undo_move(
        more.pop("actor", JEFE), new_id(), table_id=table_id, player=card,
        reason_code=reason_code, **more,
    )  # fmt: skip


def fix(room: Room, table_id: str, card: str, stack: object, reason_code: str = "miscount", **more):
    return room.app.fix_stack(
        more.pop("actor", JEFE), new_id(), table_id=table_id, player=card, stack_cents=stack,
        reason_code=reason_code, **more,
    )  # fmt: skip


# --- undoing a move ------------------------------------------------------------------------


def test_a_move_undone_sends_the_player_back_to_his_seat_with_his_stack(room, books):
    a, b = two_tables(room)
    card, seat = moved(room, a, b)
    new_seat = room.seat_of(b, card)
    done = undo(room, b, card, "wrong_player", note="meant the player in seat 2").result
    assert room.seat_of(a, card) == seat
    assert card not in room.seats(b).values()
    assert room.player(card).seated_at == {"table_id": UUID(a).hex, "seat": seat}
    assert done["undone"]["to_seat"] == new_seat and done["undone"]["kind"] == "override"
    # A new event naming the move undone and why; the move stays on record.
    undone = events_of(room.app, group_id(room, a), "MoveUndone")[-1]
    assert undone.undone["from_table"] == UUID(a).hex
    assert undone.undone["to_table"] == UUID(b).hex
    assert (undone.reason_code, undone.note) == ("wrong_player", "meant the player in seat 2")
    assert events_of(room.app, group_id(room, a), "PlayerMoved")
    assert room.state(a, card)["stack"] == 1000
    # An undo is not undone again.
    refused(room.app, "no_move_to_undo", undo, room, a, card)
    books.check()


def test_no_undo_once_the_player_was_dealt_a_hand_at_the_new_seat(room, books):
    a, b = two_tables(room)
    card, _seat = moved(room, a, b)
    room.played(b)
    error = refused(room.app, "move_played_since", undo, room, b, card)
    assert error.params == {"seat": room.seat_of(b, card)}
    books.check()


def test_no_undo_while_a_hand_is_in_play_at_the_table(room, books):
    a, b = two_tables(room)
    card, _seat = moved(room, a, b)
    seats = [s for s, c in room.seats(b).items() if c != card]
    room.start(b, seats)  # he sits the hand out
    refused(room.app, "hand_in_progress", undo, room, b, card)
    books.check()


def test_no_undo_once_the_former_seat_is_taken(room, books):
    a, b = two_tables(room)
    card, seat = moved(room, a, b)
    other = next(iter(room.seats(a).values()))
    room.app.change_seat(JEFE, new_id(), table_id=a, player=other, seat=seat)
    error = refused(room.app, "former_seat_taken", undo, room, b, card)
    assert error.params == {"seat": seat, "table": room.get(a).number}
    books.check()


def test_no_undo_once_the_former_table_is_closed(room, books):
    a, b = two_tables(room)
    card, _seat = moved(room, a, b)
    room.app.close_table(JEFE, new_id(), table_id=a)
    error = refused(room.app, "former_table_closed", undo, room, b, card)
    assert error.params == {"table": room.get(a).number}
    books.check()


def test_no_undo_while_the_player_rests_at_the_new_seat(room, books):
    """Resting he is dealt no hand at the new seat, so ``played`` never says
    he sat in: the rest itself refuses the undo [GA art. 20; PT 13]."""
    a, b = two_tables(room)
    card, _seat = moved(room, a, b)
    room.app.start_rest(JEFE, new_id(), table_id=b, player=card)
    error = refused(room.app, "player_resting", undo, room, b, card)
    assert error.params == {"seat": room.seat_of(b, card)}
    books.check()


def test_no_undo_once_the_former_table_dealt_a_hand_since_the_move(room, books):
    """Back at the former table he would owe no blinds for the hands dealt
    there meanwhile [PT 90; CM-17]: the move stays done."""
    a, b = two_tables(room)
    card, seat = moved(room, a, b)
    room.app.start_rest(JEFE, new_id(), table_id=b, player=card)
    for _ in range(2):  # both tables deal on; he rests through them at b
        room.played(a)
        room.played(b)
    refused(room.app, "player_resting", undo, room, b, card)
    room.app.end_rest(JEFE, new_id(), table_id=b, player=card)
    assert not room.state(b, card)["moved_from"].get("played")  # never dealt in at b
    error = refused(room.app, "former_table_played_since", undo, room, b, card)
    assert error.params == {"table": room.get(a).number}
    assert room.seat_of(b, card) is not None and room.get(a).seat_at(seat) is None
    books.check()


def test_no_undo_while_the_former_table_deals_a_hand(room, books):
    """Seated back mid-hand, he would sit out its blinds and owe none."""
    a, b = two_tables(room)
    card, _seat = moved(room, a, b)
    room.start(a)
    error = refused(room.app, "former_table_played_since", undo, room, b, card)
    assert error.params == {"table": room.get(a).number}
    room.end(a)
    refused(room.app, "former_table_played_since", undo, room, b, card)
    books.check()


def test_a_move_undone_gives_back_the_rests_taken_at_the_former_table(room, books):
    """A move by mistake does not wipe the rests he had taken [PT 13]: the
    move records them and the undo seats him back with them."""
    a, b = two_tables(room)
    card, seat = next((c, s) for s, c in room.seats(a).items())
    room.app.start_rest(JEFE, new_id(), table_id=a, player=card)
    room.app.end_rest(JEFE, new_id(), table_id=a, player=card)
    room.app.override_move(
        JEFE, new_id(), group_id=group_id(room, a), player=card, to_table_id=b,
        reason="The jefe's call",
    )  # fmt: skip
    kept = room.state(b, card)["moved_from"]
    assert (kept["rests"], kept["hands"]) == (1, room.get(a).hands_played)
    assert room.state(b, card)["rests"] == 0  # a new table counts its own
    undo(room, b, card, "wrong_table")
    assert room.seat_of(a, card) == seat
    assert room.state(a, card)["rests"] == 1
    books.check()


def test_a_move_recorded_before_the_hands_were_kept_is_not_undone():
    """Older moves have no ``hands``: nothing tells whether the former table
    played since, so they are not undone (an unfair undo cannot be taken back)."""
    older = Seat(
        player_id="ab" * 16, moved_from={"table": "cd" * 16, "seat": 2, "kind": "override"}
    )
    kept = older.but(moved_from={**older.moved_from, "hands": 7})
    asked = {
        "hand_in_play": False, "table_number": 4, "former_number": 3, "former_open": True,
        "former_taken": False, "former_hands": 7,
    }  # fmt: skip
    assert undo_refusal(5, older, **asked).code == "former_table_played_since"
    assert undo_refusal(5, kept, **asked) is None
    assert undo_refusal(5, kept, **{**asked, "former_hands": 8}).code == (
        "former_table_played_since"
    )


def test_no_seat_change_undone_once_the_table_dealt_on_while_he_rested(room, books):
    a, _b = two_tables(room)
    card = next(iter(room.seats(a).values()))
    free = room.get(a).free_seats()[0]
    room.app.change_seat(JEFE, new_id(), table_id=a, player=card, seat=free)
    room.app.start_rest(JEFE, new_id(), table_id=a, player=card)
    refused(room.app, "player_resting", undo, room, a, card)
    room.played(a)
    room.app.end_rest(JEFE, new_id(), table_id=a, player=card)
    refused(room.app, "former_table_played_since", undo, room, a, card)
    books.check()


def test_a_seat_change_undone_goes_back_to_the_seat_left(room, books):
    a, _b = two_tables(room)
    card, seat = next((c, s) for s, c in room.seats(a).items())
    free = room.get(a).free_seats()[0]
    room.app.change_seat(JEFE, new_id(), table_id=a, player=card, seat=free)
    done = undo(room, a, card, "wrong_seat").result
    assert (done["seat"], done["freed_seat"]) == (seat, free)
    assert room.seat_of(a, card) == seat
    assert room.player(card).seated_at == {"table_id": UUID(a).hex, "seat": seat}
    assert events_of(room.app, a, "SeatChangeUndone")[-1].back_to == seat
    refused(room.app, "no_move_to_undo", undo, room, a, card)
    books.check()


def test_a_player_who_sat_down_has_no_move_to_undo(room):
    a, _b = two_tables(room)
    card = next(iter(room.seats(a).values()))
    refused(room.app, "no_move_to_undo", undo, room, a, card)


def test_an_undo_needs_a_reason_from_the_list_and_other_a_note(room):
    a, b = two_tables(room)
    card, _seat = moved(room, a, b)
    refused(room.app, "correction_reason_invalid", undo, room, b, card, "oops")
    refused(room.app, "correction_note_required", undo, room, b, card, "other")
    refused(room.app, "role_not_allowed", undo, room, b, card, actor=CRUPIER)
    refused(room.app, "role_not_allowed", undo, room, b, card, actor=DIRECTOR)
    undo(room, b, card, "other", note="the player asked to stay")


# --- fixing a stack --------------------------------------------------------------------------


def test_a_stack_fixed_books_the_difference_on_the_tables_difference_account(room, books):
    a, _b = two_tables(room)
    card, seat = next((c, s) for s, c in room.seats(a).items())
    difference = accounts.table_difference(a)
    done = fix(room, a, card, 1_250, "buy_in_miscounted").result
    assert done.pop("transaction_ids")  # the fix's booking, for its receipt
    assert done == {
        "table_id": a, "player_id": str(room.player(card).id), "seat": seat,
        "stack_before_cents": 1000, "stack_cents": 1_250,
    }  # fmt: skip
    assert room.state(a, card)["stack"] == 1_250
    assert books.balance(accounts.stack(a, room.player(card).id)) == 1_250
    assert books.balance(difference) == -250
    posted = books.catch_up().transactions[-1]
    assert posted.kind == TransactionKind.STACK_FIX
    assert posted.reason_params == {"seat": seat, "fix": "buy_in_miscounted", "note": ""}
    fix(room, a, card, 900, "chips_missing")
    assert books.balance(difference) == -250 + 350
    corrected = events_of(room.app, a, "StackCorrected")[-1]
    assert (corrected.stack_before, corrected.stack, corrected.seat) == (1_250, 900, seat)
    books.check()


def test_a_stack_is_not_fixed_during_a_hand_nor_to_the_same_or_a_bad_figure(room, books):
    a, _b = two_tables(room)
    card = next(iter(room.seats(a).values()))
    refused(room.app, "stack_unchanged", fix, room, a, card, 1000)
    refused(room.app, "stack_invalid", fix, room, a, card, -1)
    refused(room.app, "stack_invalid", fix, room, a, card, "12")
    refused(room.app, "correction_reason_invalid", fix, room, a, card, 900, "guess")
    refused(room.app, "correction_note_required", fix, room, a, card, 900, "other")
    refused(room.app, "role_not_allowed", fix, room, a, card, 900, actor=CRUPIER)
    room.start(a)
    refused(room.app, "hand_in_progress", fix, room, a, card, 900)
    books.check()
