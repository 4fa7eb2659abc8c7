"""Balancing the tables of one game [CM-10 to CM-14, CM-23; PT 26]: the
tolerance on every seat, the move the service proposes and why, the jefe's
override, table-change requests and their draw, breaking a table, players kept
apart and tournament players."""

from __future__ import annotations

from uuid import UUID

import pytest

from floor import runtime
from floor.domain import balance
from floor.domain.balance_group import BalanceGroup
from floor.domain.player import Player
from games.cards import card as parse_card
from tests.support.floor import JEFE, new_id
from tests.support.room import Room, events_of, pid, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app)


def drawn_together(room: Room, players: int, tables: int = 2) -> list[str]:
    """Tables of one game drawn in one draw [PT 25]: the players shared as
    evenly as the seats allow, every player bought in."""
    table_ids = [room.table() for _ in range(tables)]
    for card in room.new_players(players):
        room.join(card, table_ids[0])
    room.app.draw_seats(JEFE, new_id(), table_ids=table_ids)
    for table_id in table_ids:
        for card in room.seats(table_id).values():
            room.buy(table_id, card, 1000)
    return table_ids


def two_tables(room: Room, first: int = 5, second: int = 5) -> tuple[str, str]:
    a, b = drawn_together(room, first + second)
    if counts(room, a, b) != [first, second]:
        a, b = b, a
    assert counts(room, a, b) == [first, second]
    return a, b


def group_of(room: Room, table_id: str) -> BalanceGroup:
    return room.app.repository.get(BalanceGroup.id_for(room.get(table_id).game))


def counts(room: Room, *tables: str) -> list[int]:
    return [room.get(t).player_count for t in tables]


def newcomer(room: Room, table_id: str) -> str:
    card = room.new_player()
    room.join(card, table_id)
    return card


def test_a_newcomer_may_not_sit_where_the_tables_would_fall_out_of_balance(room):
    a, b = two_tables(room, 5, 4)
    card = newcomer(room, a)
    error = refused(
        room.app, "tables_unbalanced", room.app.seat_player, JEFE, new_id(),
        table_id=a, player=card,
    )  # fmt: skip
    assert error.params["limit"] == 1
    room.sit(b, card)
    assert counts(room, a, b) == [5, 5]


def test_players_leaving_make_the_service_propose_a_move_and_say_why(room):
    a, b = two_tables(room)
    leaving = list(room.seats(b).values())[:2]
    for card in leaving:
        room.leave(b, card)
    group = group_of(room, a)
    proposal = group.proposal
    assert (proposal["from_table"], proposal["to_table"]) == (UUID(a).hex, UUID(b).hex)
    assert "5 players" in proposal["why"]["tables"] and "3" in proposal["why"]["tables"]
    assert "big blind" in proposal["why"]["player"]
    assert proposal["from_seat"] in room.get(a).occupied()
    mover = room.get(a).occupants[str(proposal["from_seat"])]
    stack = mover["stack"]
    outcome = room.app.accept_move(
        JEFE, new_id(), group_id=str(group.id), proposal_id=proposal["id"]
    ).result
    assert counts(room, a, b) == [4, 4]
    moved = room.get(b).occupants[str(proposal["to_seat"])]
    assert (moved["player_id"], moved["stack"]) == (mover["player_id"], stack)  # CM-12
    player = room.app.repository.get(UUID(mover["player_id"]))
    assert player.seated_at == {"table_id": UUID(b).hex, "seat": proposal["to_seat"]}
    assert player.last_left is None  # a move is no leaving: no cool-down [CM-13]
    event = events_of(room.app, group.id, "PlayerMoved")[-1]
    assert (event.kind, event.why["proposal"]) == ("balance", proposal["id"])
    assert outcome["kind"] == "balance"
    assert group_of(room, a).proposal is None
    # A proposal taken is gone: accepting it again is refused.
    refused(
        room.app, "no_such_proposal", room.app.accept_move, JEFE, new_id(),
        group_id=str(group.id), proposal_id=proposal["id"],
    )  # fmt: skip


def test_the_mover_is_due_the_big_blind_next_and_never_lands_on_the_small_blind():
    # Seats 1-6 at the source, button last at 2: next button 3, blinds 4 and 5.
    source = balance.SeatingView("a", 9, {s: f"p{s}" for s in range(1, 7)}, 2, 2)
    who, seat, why = balance.mover(source, +1, set(), set())
    assert (who, seat, why) == ("p5", 5, "due to pay the big blind next")
    # Moved today already: the next in turn goes first.
    assert balance.mover(source, +1, {"p5"}, set())[:2] == ("p6", 6)
    # Everyone moved today: back to the big blind, and the proposal says so.
    everyone = {f"p{s}" for s in range(1, 7)}
    assert "moved today" in balance.mover(source, +1, everyone, set())[2]
    # The target: seats 1, 2, 4 taken, last button 1 -> button 2, blinds 4 and 1.
    target = balance.SeatingView("b", 9, {1: "x", 2: "y", 4: "z"}, 1, 1)
    # Taking seat 5 makes it the next big blind; seat 3 would be the small blind.
    assert balance.target_seat(target, +1, [3, 5, 6, 7, 8, 9]) == (
        5,
        "the big blind's seat of the next hand",
    )
    assert balance.target_seat(target, +1, [3]) is None


def test_the_jefe_may_move_another_player_saying_why(room):
    a, b = two_tables(room)
    card = next(iter(room.seats(a).values()))
    group = group_of(room, a)
    refused(
        room.app, "reason_required", room.app.override_move, JEFE, new_id(),
        group_id=str(group.id), player=card, to_table_id=b, reason="  ",
    )  # fmt: skip
    result = room.app.override_move(
        JEFE, new_id(), group_id=str(group.id), player=card, to_table_id=b,
        reason="Asked to sit away from the draught",
    ).result  # fmt: skip
    assert counts(room, a, b) == [4, 6]  # out of tolerance, on the jefe's word
    assert result["why"]["override"] == "Asked to sit away from the draught"
    # The service now proposes to put it right.
    assert group_of(room, a).proposal["from_table"] == UUID(b).hex


def test_a_table_change_goes_by_high_card_between_the_players_who_asked(room):
    a, b = two_tables(room, 5, 4)
    askers = list(room.seats(a).values())[:2]
    for card in askers:
        room.app.request_table_change(JEFE, new_id(), table_id=a, player=card)
    result = room.app.grant_table_change(JEFE, new_id(), table_id=a, to_table_id=b).result
    assert set(result["why"]["draw"]) == {pid(c) for c in askers}
    winner = max(result["why"]["draw"], key=lambda p: _card_order(result["why"]["draw"][p]))
    assert result["player_id"] == winner
    assert counts(room, a, b) == [4, 5]
    # The other request stays; another move now would unbalance the tables.
    assert len(group_of(room, a).change_requests) == 1
    refused(
        room.app, "tables_unbalanced", room.app.grant_table_change, JEFE, new_id(),
        table_id=a, to_table_id=b,
    )  # fmt: skip


def _card_order(text: str):
    return parse_card(text)


def test_under_pt_a_table_change_needs_the_stack_lost_and_four_left(make_app):
    app = make_app("PT")
    runtime.install(app)
    try:
        room = Room(app)
        a, b = drawn_together(room, 9)
        if room.get(a).player_count < room.get(b).player_count:
            a, b = b, a
        first, second = list(room.seats(a).values())[:2]
        refused(
            room.app, "table_change_needs_stack_lost", room.app.request_table_change, JEFE,
            new_id(), table_id=a, player=first,
        )  # fmt: skip

        def lose_stack(card: str) -> None:
            seat = room.seat_of(a, card)
            stack = room.state(a, card)["stack"]
            started = room.start(a)
            # Another player than the two losing theirs calls the stack it wins
            # (an uncalled bet would come back).
            losers = {room.seat_of(a, first), room.seat_of(a, second)}
            winner = next(s for s in started["dealt_in"] if s not in losers)
            put_in = {str(seat): stack, str(winner): stack}
            room.end(a, put_in, {str(winner): 2 * stack})

        lose_stack(first)
        room.app.request_table_change(JEFE, new_id(), table_id=a, player=first)
        room.app.grant_table_change(JEFE, new_id(), table_id=a, to_table_id=b)
        assert counts(room, a, b) == [4, 5]
        lose_stack(second)
        room.app.request_table_change(JEFE, new_id(), table_id=a, player=second)
        refused(
            room.app, "table_would_fall_below_minimum", room.app.grant_table_change, JEFE,
            new_id(), table_id=a, to_table_id=b,
        )  # fmt: skip
    finally:
        runtime.install(None)


def test_breaking_a_table_fills_the_others_and_lists_the_rest_first(room):
    a, b, c = drawn_together(room, 22, tables=3)
    assert sorted(counts(room, a, b, c)) == [7, 7, 8]
    waiting = newcomer(room, a)
    seated_before = counts(room, a, b)
    result = room.app.break_table(JEFE, new_id(), table_id=c).result
    assert room.get(c).status == "closed"
    assert events_of(room.app, c, "Closed")[-1].reason == "table_broken"
    # The other tables fill to ten, the emptiest first; the rest go to the list.
    assert counts(room, a, b) == [10, 10]
    placed = 20 - sum(seated_before)
    assert len(result["placed"]) == placed
    at_broken_table = 22 - sum(seated_before)
    assert len(result["listed"]) == at_broken_table - placed
    listed = room.listed(a)
    assert [pid(c) for c in listed[:2]] == result["listed"]  # top, in draw order
    assert listed[2] == waiting


def test_players_kept_apart_never_share_a_table(room):
    a, b = two_tables(room, 5, 5)
    seated = next(iter(room.seats(a).values()))
    card = newcomer(room, a)
    room.app.keep_apart(JEFE, new_id(), player=card, other=seated, reason="Brothers")
    refused(room.app, "players_kept_apart", room.app.seat_player, JEFE, new_id(),
            table_id=a, player=card)  # fmt: skip
    room.sit(b, card)
    room.app.allow_together(JEFE, new_id(), player=card, other=seated)
    assert room.player(card).kept_apart == []


def test_a_tournament_player_sits_at_a_cash_table_only_on_its_dinner_break(room):
    a, _ = room.drawn_table(5)
    card = newcomer(room, a)
    room.app.enter_tournament(JEFE, new_id(), player=card)
    refused(room.app, "player_in_tournament", room.app.seat_player, JEFE, new_id(),
            table_id=a, player=card)  # fmt: skip
    room.app.set_dinner_break(JEFE, new_id(), on=True)
    room.sit(a, card)
    assert room.app.repository.get(Player.create_id(card)).seated_at is not None


def test_a_seat_freed_goes_to_a_player_asking_to_change_table_before_the_list(room):
    a, b = two_tables(room, 5, 5)
    asker = next(iter(room.seats(a).values()))
    room.app.request_table_change(JEFE, new_id(), table_id=a, player=asker)
    waiting = newcomer(room, b)
    leaver = next(iter(room.seats(b).values()))
    left = room.leave(b, leaver)
    assert left["offered"] == {"table_change_request": pid(asker), "from_table": a}
    refused(
        room.app, "table_change_requested_first", room.app.seat_player, JEFE, new_id(),
        table_id=b, player=waiting,
    )  # fmt: skip
    moved = room.app.grant_table_change(JEFE, new_id(), table_id=a, to_table_id=b).result
    assert moved["player_id"] == pid(asker)
    assert counts(room, a, b) == [4, 5]
