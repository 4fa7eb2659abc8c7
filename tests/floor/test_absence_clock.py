"""The absence clock [CM-18, CM-19], moved by the injected clock: once a gaming
day, two players a table at most, after a hand played and with chips; twenty
minutes without blinds, a warning, five minutes of courtesy; then the seat is
freed when someone waits, else the player's blinds are posted."""

from __future__ import annotations

from datetime import timedelta

import pytest

from floor import runtime
from floor.application.clocks import CLOCK_ACTOR
from floor.domain.balance_group import BalanceGroup
from floor.models import PendingTimer
from tests.support.floor import CRUPIER, JEFE, new_id
from tests.support.room import Room, events_of, pid, refused
from tests.support.timers import fire_due

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app)


def played_table(room: Room, players: int = 5) -> tuple[str, list[str]]:
    """A CM table that has played one hand, every player with chips."""
    table_id, cards = room.drawn_table(players)
    room.played(table_id)
    return table_id, cards


def step_away(room: Room, table_id: str, card: str) -> dict:
    result = room.app.start_absence(CRUPIER, new_id(), table_id=table_id, player=card).result
    runtime.floor_projector().catch_up()
    return result


def come_back(room: Room, table_id: str, card: str) -> dict:
    result = room.app.end_absence(CRUPIER, new_id(), table_id=table_id, player=card).result
    runtime.floor_projector().catch_up()
    return result


def present(room: Room, table_id: str) -> list[int]:
    return [s for s in room.get(table_id).occupied() if not room.state(table_id, seat=s)["away"]]


def test_the_clock_runs_twenty_minutes_then_five_of_courtesy(room, clock):
    table_id, cards = played_table(room)
    started = step_away(room, table_id, cards[0])
    assert started["warn_at"] == (clock.now() + timedelta(minutes=20)).isoformat()
    assert started["expires_at"] == (clock.now() + timedelta(minutes=25)).isoformat()
    assert {t.kind for t in PendingTimer.objects.filter(state=PendingTimer.PENDING)} == {
        "absence_warning",
        "absence_expiry",
    }
    clock.advance(timedelta(minutes=19, seconds=59))
    assert fire_due(clock) == 0
    clock.advance(timedelta(seconds=1))
    assert fire_due(clock) == 1
    assert room.state(table_id, cards[0])["away"]["warned"] is True
    names = [type(e).__name__ for e in events_of(room.app, table_id)]
    assert names[-2:] == ["AbsenceStarted", "AbsenceWarned"]


def test_nobody_waiting_the_players_blinds_are_posted_until_they_return(room, clock):
    table_id, cards = played_table(room)
    away_seat = room.seat_of(table_id, cards[0])
    step_away(room, table_id, cards[0])
    clock.advance(timedelta(minutes=25))
    assert fire_due(clock) == 2  # the warning, then the expiry
    state = room.state(table_id, cards[0])
    assert state["away"]["posting_blinds"] is True
    expired = events_of(room.app, table_id, "AbsenceExpired")[-1]
    assert expired.outcome == "post_blinds"
    # The player still holds the seat; each hand whose blind falls on it posts it.
    stack = state["stack"]
    posted_total = 0
    for _ in range(6):
        started = room.start(table_id, present(room, table_id))
        posted = started["away_blinds"]
        assert set(posted) <= {str(away_seat)}
        posted_total += sum(posted.values())
        winner = str(started["dealt_in"][0])
        room.end(table_id, {}, {winner: sum(posted.values())} if posted else {})
    assert posted_total > 0
    assert room.state(table_id, cards[0])["stack"] == stack - posted_total
    come_back(room, table_id, cards[0])
    assert room.state(table_id, cards[0])["away"] is None


def test_with_someone_waiting_the_seat_is_freed_and_the_chips_go_to_the_cage(room, clock):
    table_id, cards = played_table(room)
    waiting = room.new_player()
    room.join(waiting, table_id)
    seat = room.seat_of(table_id, cards[1])
    stack = room.state(table_id, cards[1])["stack"]
    step_away(room, table_id, cards[1])
    room.start(table_id, present(room, table_id))  # the others play on
    clock.advance(timedelta(minutes=25))
    assert fire_due(clock) == 2
    assert room.seat_of(table_id, cards[1]) is None
    left = events_of(room.app, table_id, "PlayerLeft")[-1]
    assert (left.seat, left.stack, left.reason) == (seat, stack, "absence_expired")
    assert room.player(cards[1]).seated_at is None
    fired = PendingTimer.objects.get(kind="absence_expiry")
    assert fired.outcome["stack_to_cage_cents"] == stack
    # The first on the list is called for the seat freed.
    assert fired.outcome["offered"]["called"] == pid(waiting)


def test_returning_in_time_stops_the_clock_even_in_the_last_second(room, clock):
    table_id, cards = played_table(room)
    step_away(room, table_id, cards[0])
    clock.advance(timedelta(minutes=24, seconds=59))
    assert fire_due(clock) == 1  # the warning only
    come_back(room, table_id, cards[0])
    assert not PendingTimer.objects.filter(state=PendingTimer.PENDING).exists()
    clock.advance(timedelta(seconds=1))
    assert fire_due(clock) == 0
    # Fired late, by a lost ETA message say, the expiry does nothing.
    outcome = room.app.expire_absence(
        CLOCK_ACTOR,
        new_id(),
        table_id=table_id,
        player_id=pid(cards[0]),
        expires_at=(clock.now()).isoformat(),
    )
    assert outcome.result["fired"] is False
    assert room.seat_of(table_id, cards[0]) is not None


def test_an_away_player_is_not_dealt_in_and_posts_no_blind_within_the_clock(room, clock):
    table_id, cards = played_table(room)
    seat = room.seat_of(table_id, cards[2])
    step_away(room, table_id, cards[2])
    refused(
        room.app, "player_away", room.app.start_hand, CRUPIER, new_id(),
        table_id=table_id, dealt_in=room.get(table_id).occupied(),
    )  # fmt: skip
    for _ in range(5):
        started = room.start(table_id, present(room, table_id))
        assert started["away_blinds"] == {} and seat not in started["dealt_in"]
        room.end(table_id)


def test_the_clock_needs_a_hand_played_and_chips_on_the_table(room):
    table_id, cards = room.drawn_table(5)
    refused(
        room.app, "absence_needs_hand_played", room.app.start_absence, CRUPIER, new_id(),
        table_id=table_id, player=cards[0],
    )  # fmt: skip
    started = room.start(table_id)
    loser, winner = (str(s) for s in started["dealt_in"][:2])
    room.end(table_id, {loser: 1000, winner: 1000}, {winner: 2000})  # called: the pot is won
    broke = room.get(room.get(table_id).occupants[loser]["player_id"]).card_number
    refused(
        room.app, "absence_needs_chips", room.app.start_absence, CRUPIER, new_id(),
        table_id=table_id, player=broke,
    )  # fmt: skip
    step_away(
        room, table_id, room.get(room.get(table_id).occupants[winner]["player_id"]).card_number
    )


def test_at_most_two_players_of_a_table_are_away(room):
    table_id, cards = played_table(room, 6)
    step_away(room, table_id, cards[0])
    step_away(room, table_id, cards[1])
    error = refused(
        room.app, "absence_table_full", room.app.start_absence, CRUPIER, new_id(),
        table_id=table_id, player=cards[2],
    )  # fmt: skip
    assert error.params == {"away": 2, "maximum": 2}
    come_back(room, table_id, cards[0])
    step_away(room, table_id, cards[2])


def test_once_a_gaming_day(room, clock):
    table_id, cards = played_table(room)
    step_away(room, table_id, cards[0])
    come_back(room, table_id, cards[0])
    refused(
        room.app, "absence_used_today", room.app.start_absence, CRUPIER, new_id(),
        table_id=table_id, player=cards[0],
    )  # fmt: skip
    clock.advance(timedelta(days=1))
    step_away(room, table_id, cards[0])
    used = events_of(room.app, pid(cards[0]), "AbsenceClockUsed")
    assert len({e.gaming_day for e in used}) == 2


def test_a_player_in_the_hand_steps_away_once_it_ends(room, clock):
    """Asked during the hand, the absence is recorded and its clock starts
    when the hand ends [CM-18]: nobody has to remember to press again."""
    table_id, cards = played_table(room)
    seat = room.seat_of(table_id, cards[0])
    room.start(table_id)
    asked = step_away(room, table_id, cards[0])
    assert asked["after_hand"] is True and asked["seat"] == seat
    state = room.state(table_id, cards[0])
    assert state["away"] is None and state["away_after_hand"] is True
    assert not events_of(room.app, pid(cards[0]), "AbsenceClockUsed")
    error = refused(
        room.app, "absence_already_asked", room.app.start_absence, CRUPIER, new_id(),
        table_id=table_id, player=cards[0],
    )  # fmt: skip
    assert error.params == {"seat": seat}
    clock.advance(timedelta(minutes=3))
    room.end(table_id)
    runtime.floor_projector().catch_up()
    state = room.state(table_id, cards[0])
    assert state["away_after_hand"] is False
    assert state["away"]["started_at"] == clock.now().isoformat()
    assert state["away"]["warn_at"] == (clock.now() + timedelta(minutes=20)).isoformat()
    assert len(events_of(room.app, pid(cards[0]), "AbsenceClockUsed")) == 1
    names = [type(e).__name__ for e in events_of(room.app, table_id)]
    assert names[-2:] == ["HandEnded", "AbsenceStarted"]
    assert {t.kind for t in PendingTimer.objects.filter(state=PendingTimer.PENDING)} == {
        "absence_warning",
        "absence_expiry",
    }


def test_an_absence_asked_in_the_hand_may_be_withdrawn_or_lapse(room):
    table_id, cards = played_table(room)
    started = room.start(table_id)
    step_away(room, table_id, cards[0])
    withdrawn = come_back(room, table_id, cards[0])
    assert withdrawn["withdrawn"] is True
    assert room.state(table_id, cards[0])["away_after_hand"] is False
    # Asked again, then the player loses their stack in the hand: no chips, no
    # clock [CM-19]; the request lapses, recorded with its reason.
    step_away(room, table_id, cards[0])
    loser = str(room.seat_of(table_id, cards[0]))
    winner = next(str(s) for s in started["dealt_in"] if str(s) != loser)
    room.end(table_id, {loser: 1000, winner: 1000}, {winner: 2000})
    state = room.state(table_id, cards[0])
    assert state["away"] is None and state["away_after_hand"] is False
    lapsed = events_of(room.app, table_id, "AbsenceRequestLapsed")[-1]
    assert lapsed.reason == "absence_needs_chips"
    assert not events_of(room.app, pid(cards[0]), "AbsenceClockUsed")


def test_asked_absences_count_toward_the_two(room):
    table_id, cards = played_table(room, 6)
    step_away(room, table_id, cards[0])
    room.start(table_id, present(room, table_id))
    step_away(room, table_id, cards[1])
    error = refused(
        room.app, "absence_table_full", room.app.start_absence, CRUPIER, new_id(),
        table_id=table_id, player=cards[2],
    )  # fmt: skip
    assert error.params == {"away": 2, "maximum": 2}


def test_rules_without_the_clock_refuse_it(make_app):
    room = Room(make_app("PT"))
    table_id, cards = room.drawn_table(5, buy_in=None)
    refused(
        room.app, "absence_clock_not_in_profile", room.app.start_absence, CRUPIER, new_id(),
        table_id=table_id, player=cards[0],
    )  # fmt: skip


def test_leaving_or_closing_cancels_the_absence_timers(room):
    table_id, cards = played_table(room)
    step_away(room, table_id, cards[0])
    room.leave(table_id, cards[0])
    runtime.floor_projector().catch_up()
    assert not PendingTimer.objects.filter(state=PendingTimer.PENDING).exists()


def test_a_player_away_moves_only_when_their_table_breaks_and_leaves_no_timer(room):
    table_id, cards = room.drawn_table(5, seats=5)  # full: the next draw is a table's own
    room.played(table_id)
    other, _ = room.drawn_table(4)
    step_away(room, table_id, cards[0])
    group = room.app.repository.get(BalanceGroup.id_for(room.get(table_id).game))
    refused(
        room.app, "player_away", room.app.override_move, JEFE, new_id(),
        group_id=str(group.id), player=cards[0], to_table_id=other, reason="Move them",
    )  # fmt: skip
    room.app.break_table(JEFE, new_id(), table_id=table_id)
    runtime.floor_projector().catch_up()
    assert room.player(cards[0]).seated_at["table_id"] == room.get(other).id.hex
    assert not PendingTimer.objects.filter(
        state=PendingTimer.PENDING, kind__startswith="absence_"
    ).exists()


def test_a_stack_below_the_big_blind_is_no_stack_for_the_clock(room):
    table_id, cards = played_table(room)
    seat = room.seat_of(table_id, cards[0])
    started = room.start(table_id)
    winner = next(s for s in started["dealt_in"] if s != seat)
    # 1 cent left [CM-16]; the winner called the 999 (an uncalled bet would come back).
    room.end(table_id, {str(seat): 999, str(winner): 999}, {str(winner): 1998})
    refused(
        room.app, "absence_needs_chips", room.app.start_absence, CRUPIER, new_id(),
        table_id=table_id, player=cards[0],
    )  # fmt: skip


def test_players_whose_blinds_are_posted_no_longer_count_toward_the_two(room, clock):
    table_id, cards = played_table(room, 6)
    step_away(room, table_id, cards[0])
    step_away(room, table_id, cards[1])
    clock.advance(timedelta(minutes=25))
    assert fire_due(clock) == 4  # both warned, both posting blinds now
    step_away(room, table_id, cards[2])


def test_a_player_removed_during_a_hand_suspends_the_table_once_it_ends(room, clock):
    table_id, cards = played_table(room, 4)
    room.join(room.new_player(), table_id)  # someone waits: the seat will be freed
    step_away(room, table_id, cards[0])
    room.start(table_id, present(room, table_id))
    clock.advance(timedelta(minutes=25))
    assert fire_due(clock) == 2
    table = room.get(table_id)
    assert (table.player_count, table.status) == (3, "running")  # the hand plays on
    room.end(table_id)
    assert room.get(table_id).status == "suspended"


def test_back_after_the_courtesy_with_the_timer_late_the_rule_still_applies(room, clock):
    table_id, cards = played_table(room)
    room.join(room.new_player(), table_id)  # someone waits
    step_away(room, table_id, cards[0])
    clock.advance(timedelta(minutes=30))  # the worker was down: nothing fired
    result = come_back(room, table_id, cards[0])
    assert (result["outcome"], result["late"]) == ("remove_chips", True)
    assert room.seat_of(table_id, cards[0]) is None
    assert events_of(room.app, table_id, "PlayerLeft")[-1].reason == "absence_expired"


def test_back_after_the_courtesy_with_nobody_waiting_keeps_the_seat(room, clock):
    table_id, cards = played_table(room)
    step_away(room, table_id, cards[0])
    clock.advance(timedelta(minutes=30))
    come_back(room, table_id, cards[0])
    assert room.state(table_id, cards[0])["away"] is None
    names = [type(e).__name__ for e in events_of(room.app, table_id)][-2:]
    assert names == ["AbsenceExpired", "AbsenceEnded"]
