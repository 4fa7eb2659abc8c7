"""The list's player side, part two (issue 24 item 3): a called player answers
the call [CM-6: "cuando se le llame deberá hacer acto de presencia en un
máximo de 5 minutos, bien para ocupar la plaza o bien para anotarse de nuevo
en la lista, en este caso se le anotará el último"]; the list's read model
keeps the entry's new fields, equal after a rebuild."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import timedelta

import pytest
from django.core.management import call_command

from floor import runtime
from floor.application.player_self import player_username
from floor.kernel.errors import ErrorKind
from floor.kernel.roles import Actor, Role
from floor.models import PendingTimer, WaitingEntryView
from floor.timers import sweep_timers
from games.profiles import CM
from tests.support.floor import JEFE, new_id
from tests.support.read_models import differences, read_models
from tests.support.room import Room, events_of, pid, refused

pytestmark = pytest.mark.django_db


def as_player(card: str) -> Actor:
    return Actor(player_username(card), frozenset({Role.PLAYER}))


def project() -> None:
    runtime.floor_projector().catch_up()


def house(**rules) -> object:
    """CM with other waiting-list house settings."""
    return replace(CM, waiting_list=replace(CM.waiting_list, **rules))


def called_player(room: Room) -> tuple[str, str, str, int]:
    """A full table, two players waiting; one leaves and the first is called."""
    table_id, cards = room.drawn_table(5, seats=5)
    first, second = room.new_players(2)
    room.join(first, table_id)
    room.join(second, table_id)
    seat = room.leave(table_id, cards[0])["seat"]
    project()
    return table_id, first, second, seat


def answer(room: Room, card: str, table_id: str, said: str, actor: Actor | None = None):
    return room.app.answer_call(
        actor or as_player(card), new_id(), player=card, table_id=table_id, answer=said
    ).result


def entry_of(room: Room, table_id: str, card: str) -> dict:
    return next(
        e for e in room.waiting(table_id).entries if e["player_id"] == room.player(card).id.hex
    )


def call_timers(card: str) -> list[PendingTimer]:
    return list(
        PendingTimer.objects.filter(kind="call_window", arguments__player_id=pid(card)).order_by(
            "due_at"
        )
    )


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app)  # CM


@pytest.fixture
def house_room(make_app):
    """A room under CM with other house settings, its app the process's own
    (the projector and the timers read it)."""

    def build(**rules) -> Room:
        app = make_app(house(**rules))
        runtime.install(app)
        return Room(app)

    yield build
    runtime.install(None)


# --- "coming" ---------------------------------------------------------------------------


def test_coming_is_recorded_and_changes_nothing_else(room, clock):
    table_id, first, _second, seat = called_player(room)
    before = entry_of(room, table_id, first)
    clock.advance(timedelta(minutes=1))
    result = answer(room, first, table_id, "coming")
    assert result["answer"] == "coming"
    assert result["ends_at"] == before["call"]["ends_at"]
    after = entry_of(room, table_id, first)
    assert after["answer"] == {"answer": "coming", "at": clock.now().isoformat()}
    assert after["call"]["ends_at"] == before["call"]["ends_at"]
    assert after["status"] == "called" and after["call"]["seat"] == seat
    (answered,) = events_of(room.app, room.waiting(table_id).id, "CallAnswered")
    assert (answered.actor, answered.actor_role, answered.answer) == (
        player_username(first),
        "player",
        "coming",
    )
    project()
    row = WaitingEntryView.objects.get(player_id=pid(first))
    assert (row.answer, row.answered_at) == ("coming", clock.now())
    (timer,) = call_timers(first)
    assert timer.state == PendingTimer.PENDING  # the window runs on as it was


def test_the_jefe_records_an_answer_given_at_the_desk(room):
    table_id, first, _second, _seat = called_player(room)
    answer(room, first, table_id, "coming", actor=JEFE)
    (answered,) = events_of(room.app, room.waiting(table_id).id, "CallAnswered")
    assert (answered.actor, answered.actor_role) == ("jaime", "jefe_sector")


# --- "five more minutes" ------------------------------------------------------------------


def test_under_cm_five_more_is_recorded_but_the_deadline_stays(room, clock):
    """CM-6 allows "un máximo de 5 minutos", all of which the window takes: the
    jefe sees the ask, the call still lapses at 5 minutes."""
    table_id, first, second, _seat = called_player(room)
    ends_at = entry_of(room, table_id, first)["call"]["ends_at"]
    result = answer(room, first, table_id, "five_more")
    assert result["ends_at"] == ends_at
    project()
    (timer,) = call_timers(first)
    assert timer.state == PendingTimer.PENDING and timer.due_at.isoformat() == ends_at
    assert WaitingEntryView.objects.get(player_id=pid(first)).answer == "five_more"
    clock.advance(timedelta(minutes=5))
    assert sweep_timers(clock.now()) == 1
    assert room.listed(table_id) == [second]


def test_five_more_moves_the_deadline_within_the_maximum(house_room, clock):
    """A house whose window is shorter than CM-6's maximum may give more time,
    up to the maximum counted from the call; the window's timer follows."""
    room = house_room(call_window=timedelta(minutes=3), call_extension=timedelta(minutes=5))
    table_id, first, second, _seat = called_player(room)
    called_at = clock.now()
    clock.advance(timedelta(minutes=2))
    result = answer(room, first, table_id, "five_more")
    moved = called_at + timedelta(minutes=5)  # not 3 + 5: the maximum is 5 from the call
    assert result["ends_at"] == moved.isoformat()
    (answered,) = events_of(room.app, room.waiting(table_id).id, "CallAnswered")
    assert answered.ends_at == moved
    project()
    old, new = call_timers(first)
    assert (old.state, old.due_at) == (PendingTimer.CANCELLED, called_at + timedelta(minutes=3))
    assert (new.state, new.due_at) == (PendingTimer.PENDING, moved)
    assert WaitingEntryView.objects.get(player_id=pid(first)).call_ends_at == moved
    clock.advance(timedelta(minutes=1))  # the first deadline passes: nothing fires
    assert sweep_timers(clock.now()) == 0
    assert entry_of(room, table_id, first)["status"] == "called"
    clock.advance(timedelta(minutes=2))
    assert sweep_timers(clock.now()) == 1
    project()
    assert room.listed(table_id) == [second]


def test_without_a_maximum_five_more_adds_the_whole_extension(make_app, clock):
    room = Room(make_app(house(call_window_max=None, call_extension=timedelta(minutes=5))))
    table_id, first, _second, _seat = called_player(room)
    called_at = clock.now()
    result = answer(room, first, table_id, "five_more")
    assert result["ends_at"] == (called_at + timedelta(minutes=10)).isoformat()


def test_five_more_is_asked_once_a_call(room):
    table_id, first, _second, _seat = called_player(room)
    answer(room, first, table_id, "five_more")
    answer(room, first, table_id, "coming")
    error = refused(room.app, "more_time_already_asked", answer, room, first, table_id, "five_more")
    assert error.kind is ErrorKind.CONFLICT


# --- "not coming" ------------------------------------------------------------------------


def test_under_cm_not_coming_relists_the_player_last_and_calls_the_next(room):
    """CM-6: "para anotarse de nuevo en la lista, en este caso se le anotará el último"."""
    table_id, first, second, seat = called_player(room)
    old_number = entry_of(room, table_id, first)["reservation"]
    result = answer(room, first, table_id, "not_coming")
    assert result["reservation"] > old_number and result["position"] == 2
    assert room.listed(table_id) == [second, first]
    relisted = entry_of(room, table_id, first)
    assert (relisted["status"], relisted["call"], relisted["answer"]) == ("waiting", None, None)
    nxt = entry_of(room, table_id, second)
    assert (nxt["status"], nxt["call"]["seat"]) == ("called", seat)
    assert result["offered"] == {"called": pid(second), "reservation": nxt["reservation"]}
    project()
    (timer,) = call_timers(first)
    assert timer.state == PendingTimer.CANCELLED


def test_where_the_house_says_so_not_coming_takes_the_player_off(make_app):
    room = Room(make_app(house(declined_call_relists=False)))
    table_id, first, second, seat = called_player(room)
    answer(room, first, table_id, "not_coming")
    assert room.listed(table_id) == [second]
    assert room.player(first).waiting_lists == []
    removed = events_of(room.app, room.waiting(table_id).id, "Removed")[-1]
    assert (removed.reason, removed.actor_role) == ("declined_call", "player")
    assert entry_of(room, table_id, second)["call"]["seat"] == seat


# --- refusals ----------------------------------------------------------------------------


def test_answers_out_of_turn_or_unknown_are_refused(room):
    table_id, first, second, _seat = called_player(room)
    nowhere = room.new_player()
    error = refused(room.app, "player_not_called", answer, room, second, table_id, "coming")
    assert error.kind is ErrorKind.CONFLICT
    refused(room.app, "player_not_on_list", answer, room, nowhere, table_id, "coming")
    error = refused(room.app, "answer_invalid", answer, room, first, table_id, "maybe")
    assert error.kind is ErrorKind.INVALID
    refused(room.app, "answer_invalid", answer, room, first, table_id, None)
    answer(room, first, table_id, "coming")
    refused(room.app, "call_already_answered", answer, room, first, table_id, "coming")
    # another player's call is not one's to answer
    refused(
        room.app,
        "not_your_player",
        answer,
        room,
        first,
        table_id,
        "not_coming",
        actor=as_player(second),
    )


def test_a_new_call_starts_without_an_answer(room):
    """The table closes: its calls lapse and the players wait again, their
    answers with them."""
    table_id, first, _second, _seat = called_player(room)
    answer(room, first, table_id, "coming")
    room.app.close_table(JEFE, new_id(), table_id=table_id)
    entry = entry_of(room, table_id, first)
    assert (entry["status"], entry["answer"]) == ("waiting", None)


# --- the read model, live and rebuilt ------------------------------------------------------


def test_the_entries_fields_are_projected_once_and_equal_after_a_rebuild(room, clock):
    table_id, first, second, _seat = called_player(room)
    remote, later = room.new_players(2)
    room.app.join_waiting_list(as_player(remote), new_id(), player=remote, table_id=table_id)
    room.app.join_waiting_list(as_player(later), new_id(), player=later, table_id=table_id)
    room.app.check_in_player(JEFE, new_id(), player=later, table_id=table_id)
    clock.advance(timedelta(minutes=1))
    answer(room, first, table_id, "five_more")
    project()
    rows = {
        row.player_id: row
        for row in WaitingEntryView.objects.filter(waiting_list__id=room.waiting(table_id).id)
    }
    assert len(rows) == len(room.waiting(table_id).entries) == 4  # each entry once
    by_card = {card: rows[room.player(card).id] for card in (first, second, remote, later)}
    assert (by_card[first].answer, by_card[first].answered_at) == ("five_more", clock.now())
    assert (by_card[second].remote, by_card[second].checked_in, by_card[second].answer) == (
        False,
        True,
        "",
    )
    start = clock.now() - timedelta(minutes=1)
    assert (by_card[remote].remote, by_card[remote].checked_in) == (True, False)
    assert by_card[remote].check_in_by == start + timedelta(minutes=90)
    assert (by_card[later].remote, by_card[later].checked_in, by_card[later].check_in_by) == (
        True,
        True,
        None,
    )
    live = read_models()
    call_command("rebuild_projections", "--batch-size", "7", "--no-progress", stdout=io.StringIO())
    assert differences(live, read_models()) == {}
