"""Review probes for must-move tables (issue 24, item 5; git diff 8e01276..main).

A failing test here is a bug found by the review; a passing one is a check
that held (kept as coverage the change lacked)."""

from __future__ import annotations

import io
from uuid import UUID

import pytest
from django.core.management import call_command

from floor import runtime
from floor.domain.balance_group import BalanceGroup
from floor.domain.player import Player
from floor.kernel.errors import DomainError
from floor.kernel.roles import Actor, Role
from floor.models import BalanceGroupView, SeatView
from tests.floor.test_console_seat_offers import card_rows, would_run
from tests.floor.test_must_move import SEATS, a_main_player_leaves, arrival_order, main_and_feeder
from tests.support.floor import DIRECTOR, JEFE, new_id
from tests.support.read_models import differences, read_models
from tests.support.room import Room, refused

pytestmark = pytest.mark.django_db

JULIA = Actor("julia", frozenset({Role.JEFE_SECTOR}))


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="RV")


def undo(room: Room, table_id: str, card: str):
    return room.app.undo_move(
        JEFE, new_id(), table_id=table_id, player=card, reason_code="wrong_player"
    )


# --- the console offers what the command takes ---------------------------------------


def test_the_card_does_not_offer_the_move_while_the_must_move_table_deals(room, clock, jefe):
    """During the must-move table's hand ``move_from_must_move`` is refused
    (hand_in_progress: the player is dealt in there); the main table's card
    must not offer "X moves here" then (its note even names "a hand" as a
    reason nobody may move)."""
    a, b = main_and_feeder(room, 6)
    room.played(b)
    room.start(b)
    seat, _offered = a_main_player_leaves(room, a)
    refusal = would_run(room, clock, "move_from_must_move", table_id=a, seat=seat)
    assert refusal is not None and refusal.code == "hand_in_progress"
    rows = card_rows(jefe, room, a)
    assert "move_from_must_move" not in rows[seat]["commands"]


def test_the_card_offers_to_end_a_must_move_table_during_its_hand(room, clock, jefe):
    """``end_must_move`` (and ``start_must_move``) are taken during a hand,
    but the card offers them only between hands (they sit in the block kept
    for moves, breaks and closes)."""
    _a, b = main_and_feeder(room, 6)
    room.played(b)
    room.start(b)
    assert would_run(room, clock, "end_must_move", table_id=b) is None
    runtime.floor_projector().catch_up()
    html = jefe.get(f"/sectors/{room.sector_id}/live/").content.decode()
    start = html.index(f'data-live-key="table-{b}"')
    card = html[start : html.index("</section>", start)]
    assert 'data-command="end_must_move"' in card


def test_the_card_offers_to_seat_the_called_player_on_the_seat_held_for_them(room, clock, jefe):
    """seat_player now lets a called player take the seat held for them even
    when a must-move player could move (joining.py ``called_here``, CM-6);
    the card hides "Seat" whenever ``must_move_next`` names someone, so the
    held seat's row offers neither "Seat" nor the move (held)."""
    a, b = main_and_feeder(room, 5)
    waiting = room.new_player("Waits")
    room.join(waiting, a)
    seat, offered = a_main_player_leaves(room, a)  # 5 and 5: the list is called
    assert offered["called"] == str(Player.create_id(waiting))
    late = room.new_player("Late")
    room.join(late, b)
    room.sit(b, late)  # 5 and 6: a move would fit now
    assert would_run(room, clock, "seat_player", table_id=a, player=waiting, seat=seat) is None
    rows = card_rows(jefe, room, a)
    assert rows[seat]["commands"] & {"seat_player", "move_from_must_move"}, rows[seat]


# --- scope -----------------------------------------------------------------------------


def test_a_must_move_table_feeds_a_main_table_of_its_own_sector(floor_app):
    """A jefe of sector A may not hang his table on sector B's: B's jefe
    could then neither move the must-move player (the feeder is not his) nor
    seat his list there. Both tables are one jefe's: the same sector."""
    mine, theirs = Room(floor_app, tag="RA"), Room(floor_app, tag="RB")
    main, _cards = theirs.drawn_table(SEATS, seats=SEATS)
    theirs.played(main)
    feeder, _cards = mine.drawn_table(6, seats=SEATS)
    floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=mine.sector_id, jefes=["jaime"])
    floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=theirs.sector_id, jefes=["julia"])
    refused(
        floor_app, "must_move_other_sector", floor_app.start_must_move, JEFE, new_id(),
        table_id=feeder, main_table_id=main,
    )  # fmt: skip
    for actor in (JEFE, JULIA):  # nor by the other jefe, from the other side
        with pytest.raises(DomainError):
            floor_app.start_must_move(actor, new_id(), table_id=main, main_table_id=feeder)
    group = floor_app.repository.get(BalanceGroup.id_for(mine.get(feeder).game))
    assert group.must_move == {}


# --- undo ------------------------------------------------------------------------------


def test_undoing_a_must_move_move_gives_the_player_back_their_place_in_line(room):
    """An undo puts the player back "as if never moved" (corrections.undo_move),
    but receive_player stamps a fresh ``arrival`` at the must-move table: the
    first to arrive, moved by mistake and put back, is now last in line."""
    a, b = main_and_feeder(room, 6)
    order = arrival_order(room, b)
    first = order[0]
    seat, _offered = a_main_player_leaves(room, a)  # nobody waiting: the seat is not held
    room.app.move_from_must_move(JEFE, new_id(), table_id=a, seat=seat)
    undo(room, a, first)
    assert room.seat_of(b, first) is not None
    assert arrival_order(room, b) == order


def test_players_drawn_together_at_the_must_move_table_move_in_list_order(room):
    """arrival_at and the SeatsDrawn event say a draw orders its players by
    "their place among the players one draw seated ... (list order)", but
    ``drawn.assignment()`` is in the draw's *shuffled* order
    (floor.domain.draws.draw_seats): players drawn together at the must-move
    table move in a random order instead of their list order [PT 12; CM-5]."""
    a, _cards = room.drawn_table(SEATS, seats=SEATS)
    room.played(a)
    b, cards = room.drawn_table(6, seats=SEATS)  # joined the list in this order
    room.app.start_must_move(JEFE, new_id(), table_id=b, main_table_id=a)
    assert arrival_order(room, b) == cards


# --- read models and snapshots -----------------------------------------------------------


def test_live_read_models_equal_a_rebuild_with_must_move_tables_and_arrivals(room):
    """The live/rebuild comparisons (test_projection_batches, test_projections)
    run no must-move table: here the live projector catches up between
    commands, then a rebuild in odd batches must write the same rows
    (SeatView.arrival, BalanceGroupView.must_move)."""
    projector = runtime.floor_projector()
    a, b = main_and_feeder(room, 6)
    projector.catch_up()
    seat, _offered = a_main_player_leaves(room, a)
    projector.catch_up()
    room.app.move_from_must_move(JEFE, new_id(), table_id=a, seat=seat, post_big_blind=True)
    projector.catch_up()
    free = room.get(b).free_seats()[0]
    room.app.change_seat(JEFE, new_id(), table_id=b, player=arrival_order(room, b)[0], seat=free)
    projector.catch_up()
    live = read_models()
    assert SeatView.objects.filter(table_id=b, arrival__isnull=False).count() == 5
    assert BalanceGroupView.objects.get().must_move == {b: a}
    call_command("rebuild_projections", "--batch-size", "7", "--no-progress", stdout=io.StringIO())
    assert differences(live, read_models()) == {}


def test_live_read_models_equal_a_rebuild_once_the_must_move_ended(room):
    """The same once the must-move table ended: one rebuild a test, as a
    second one inside the test's transaction waits on PostgreSQL for the
    first's shadow schema (floor.kernel.web.shadow_db)."""
    projector = runtime.floor_projector()
    _a, b = main_and_feeder(room, 6)
    room.app.end_must_move(JEFE, new_id(), table_id=b)
    projector.catch_up()
    live = read_models()
    assert BalanceGroupView.objects.get().must_move == {}
    call_command("rebuild_projections", "--batch-size", "5", "--no-progress", stdout=io.StringIO())
    assert differences(live, read_models()) == {}


def test_a_snapshotted_table_and_group_equal_their_replay(room):
    """Table and BalanceGroup are snapshotted (every 50 events): loaded from
    a snapshot taken mid-way plus the events after it, the state (arrivals,
    newcomer flags, must-move links) equals the state replayed from the
    events alone."""
    app = room.app
    a, b = main_and_feeder(room, 6)
    group_id = BalanceGroup.id_for(room.get(a).game)
    seat, _offered = a_main_player_leaves(room, a)
    app.move_from_must_move(JEFE, new_id(), table_id=a, seat=seat, post_big_blind=True)
    for aggregate_id in (UUID(a), UUID(b), group_id):
        app.take_snapshot(aggregate_id)
    room.played(b)
    free = room.get(b).free_seats()[0]
    app.change_seat(JEFE, new_id(), table_id=b, player=arrival_order(room, b)[0], seat=free)
    app.end_must_move(JEFE, new_id(), table_id=b)
    app.start_must_move(JEFE, new_id(), table_id=b, main_table_id=a)
    for aggregate_id in (UUID(a), UUID(b), group_id):
        assert list(app.snapshots.get(aggregate_id)), "no snapshot taken"
        loaded = app.repository.get(aggregate_id)
        replayed = None
        for event in app.repository.event_store.get(aggregate_id):
            replayed = event.mutate(replayed)
        assert replayed.__dict__ == loaded.__dict__
    assert room.get(b).occupants and all(
        s.get("arrival") is not None for s in room.get(b).occupants.values()
    )
    assert room.state(a, seat=seat)["newcomer"] is True
    assert dict(room.get(group_id).must_move) == {UUID(b).hex: UUID(a).hex}


# --- refusals ----------------------------------------------------------------------------


def test_the_seat_change_refusal_of_a_move_is_said_in_the_floors_language(room, api_as):
    """move_from_must_move raises ``seat_change_requested_first`` without the
    ``seat`` its message needs (must_move.py:90), so the API answers the
    generic "La sala ha rechazado esta solicitud" instead of saying why
    (tests/floor/test_messages_catalogue.py fails on main for it)."""
    a, _b = main_and_feeder(room, 6)
    seat, _offered = a_main_player_leaves(room, a)
    asker = next(iter(room.seats(a).values()))
    room.app.request_seat_change(JEFE, new_id(), table_id=a, player=asker)
    jefe = api_as("jaime", "jefe_sector")
    response = jefe.post(
        f"/api/tables/{a}/move-from-must-move/",
        {"command_id": new_id(), "seat": seat},
        format="json",
    )
    body = response.json()
    assert (response.status_code, body["code"]) == (409, "seat_change_requested_first")
    assert str(seat) in body["message"] and "asked to change seat" not in body["message"], body


def test_a_draw_does_not_complete_the_main_table_past_the_must_move_player(room):
    """Opening a further table completes the open tables from the list first
    (seat_draws._complete_open_tables, CM-8), which asks neither
    must_move_first nor check_may_sit: the seat freed at the main table, kept
    for the must-move table's next player [PT 12; CM-5], goes to the list."""
    a, _b = main_and_feeder(room, 6)
    seat, offered = a_main_player_leaves(room, a)
    assert "must_move" in offered
    c = room.table(seats=SEATS)
    for card in room.new_players(5):
        room.join(card, c)
    room.app.draw_seats(JEFE, new_id(), table_ids=[c])
    assert seat not in room.seats(a), "a listed player took the must-move player's seat"
