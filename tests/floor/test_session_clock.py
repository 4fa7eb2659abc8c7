"""The session clock of a table charging by time [GA art. 18.3b; PT 7b], moved
by the injected clock: a session is an hour of play plus two hands (GA) or the
hand in progress (PT); its start charges the seated players, and under PT those
who sit down within its first thirty minutes."""

from __future__ import annotations

from datetime import timedelta

import pytest

from floor import runtime
from floor.models import PendingTimer
from tests.support.floor import CRUPIER, new_id
from tests.support.room import Room, events_of, pid, refused
from tests.support.timers import fire_due

pytestmark = pytest.mark.django_db

TIME_TABLE = {"rake_model": "per_session", "session_percent": "10"}  # of the 1,000 maximum


@pytest.fixture
def room_under(make_app):
    """A room under a profile, its application the process's own (the
    projector and the timers use it)."""

    def build(profile: str) -> Room:
        app = make_app(profile)
        runtime.install(app)
        return Room(app)

    yield build
    runtime.install(None)


def time_table(room: Room, players: int = 5, **change) -> tuple[str, list[str]]:
    return room.drawn_table(players, **{**TIME_TABLE, **change})


def deal(room: Room, table_id: str, **report) -> dict:
    if room.app.profile.code == "GA" and room.get(table_id).last_button is None:
        report.setdefault("button", room.get(table_id).occupied()[0])  # GA art. 23.1
    started = room.start(table_id, **report)
    runtime.floor_projector().catch_up()
    return started


def charges(room: Room, table_id: str, session: int) -> dict[int, int]:
    return {
        e.seat: e.cents
        for e in events_of(room.app, table_id, "TimeCharged")
        if e.session == session
    }


@pytest.mark.parametrize("profile", ["GA", "PT"])
def test_play_starting_opens_a_session_and_charges_every_seated_player(room_under, clock, profile):
    room = room_under(profile)
    table_id, cards = time_table(room)
    assert room.get(table_id).session is None  # no play yet, no charge
    deal(room, table_id)
    table = room.get(table_id)
    assert table.session["number"] == 1
    assert charges(room, table_id, 1) == {seat: 100 for seat in table.occupied()}
    assert all(room.state(table_id, card)["stack"] == 900 for card in cards)
    timer = PendingTimer.objects.get(kind="session_hour")
    assert timer.due_at == clock.now() + timedelta(hours=1)


def test_ga_the_session_ends_two_hands_after_the_hour(room_under, clock):
    room = room_under("GA")
    table_id, _cards = time_table(room)
    deal(room, table_id)
    clock.advance(timedelta(minutes=59, seconds=59))
    room.end(table_id)
    deal(room, table_id)
    assert fire_due(clock) == 0
    clock.advance(timedelta(seconds=1))
    assert fire_due(clock) == 1  # the hour strikes during a hand
    assert room.get(table_id).session["struck"] is True
    room.end(table_id)  # the first of the two last hands
    assert room.get(table_id).session is not None
    deal(room, table_id)
    room.end(table_id)  # the second: the session is over
    assert room.get(table_id).session is None
    ended = events_of(room.app, table_id, "SessionEnded")
    assert [e.number for e in ended] == [1]
    deal(room, table_id)  # the next hand opens the next session, charged again
    assert room.get(table_id).session["number"] == 2
    assert set(charges(room, table_id, 2).values()) == {100}


def test_pt_the_session_ends_with_the_hand_in_progress(room_under, clock):
    room = room_under("PT")
    table_id, _cards = time_table(room)
    deal(room, table_id)
    clock.advance(timedelta(hours=1))
    assert fire_due(clock) == 1
    assert room.get(table_id).session["struck"] is True
    room.end(table_id)  # the hand in progress when the hour struck
    assert room.get(table_id).session is None


def test_pt_with_no_hand_in_progress_the_session_ends_on_the_hour(room_under, clock):
    room = room_under("PT")
    table_id, _cards = time_table(room)
    deal(room, table_id)
    room.end(table_id)
    clock.advance(timedelta(hours=1))
    assert fire_due(clock) == 1
    assert room.get(table_id).session is None
    names = [type(e).__name__ for e in events_of(room.app, table_id)][-2:]
    assert names == ["SessionHourStruck", "SessionEnded"]


def average_stack(room: Room, table_id: str) -> int:
    stacks = [s["stack"] for s in room.get(table_id).occupants.values() if s["stack"] > 0]
    return sum(stacks) // len(stacks)


@pytest.mark.parametrize(("minutes", "charged"), [(30, True), (31, False)])
def test_pt_charges_a_player_sitting_down_in_the_first_thirty_minutes(
    room_under, clock, minutes, charged
):
    room = room_under("PT")
    table_id, _cards = time_table(room)
    deal(room, table_id)
    room.end(table_id)
    clock.advance(timedelta(minutes=minutes))
    late = room.new_player()
    room.join(late, table_id)
    room.sit(table_id, late, room.get(table_id).free_seats()[0])
    seat = room.seat_of(table_id, late)
    average = average_stack(room, table_id)
    stack = room.buy(table_id, late, average)  # the table's average [PT 28]
    assert stack == (average - 100 if charged else average)
    assert (seat in charges(room, table_id, 1)) is charged


def test_ga_charges_a_late_player_from_the_next_session_only(room_under, clock):
    room = room_under("GA")
    table_id, _cards = time_table(room)
    deal(room, table_id)
    room.end(table_id)
    clock.advance(timedelta(minutes=1))
    late = room.new_player()
    room.join(late, table_id)
    room.sit(table_id, late, room.get(table_id).free_seats()[0])
    assert room.buy(table_id, late, 1000) == 1000
    assert room.seat_of(table_id, late) not in charges(room, table_id, 1)


def test_a_charge_on_the_stack_takes_the_share_of_each_stack(room_under):
    room = room_under("PT")
    table_id, cards = time_table(room, buy_in=None, session_base="stack")
    for card, amount in zip(cards, (500, 600, 700, 800, 1000), strict=True):
        room.buy(table_id, card, amount)
    deal(room, table_id)
    by_seat = charges(room, table_id, 1)
    assert sorted(by_seat.values()) == [50, 60, 70, 80, 100]


def test_a_player_without_the_chips_pays_when_buying_them(room_under):
    room = room_under("PT")
    table_id, cards = time_table(room, buy_in=None)
    for card in cards[:-1]:
        room.buy(table_id, card, 1000)
    broke = room.seat_of(table_id, cards[-1])
    seated = room.get(table_id).occupied()
    refused(
        room.app, "time_charge_due", room.app.start_hand, CRUPIER, new_id(),
        table_id=table_id, dealt_in=seated,
    )  # fmt: skip
    deal(room, table_id, dealt_in=[s for s in seated if s != broke])
    assert broke not in charges(room, table_id, 1)
    room.end(table_id)
    assert room.buy(table_id, cards[-1], 1000) == 900
    assert charges(room, table_id, 1)[broke] == 100
    assert events_of(room.app, table_id, "TimeCharged")[-1].player_id == pid(cards[-1]).replace(
        "-", ""
    )


def test_a_table_charging_per_hand_has_no_session(room_under):
    room = room_under("PT")
    table_id, _cards = room.drawn_table(5)
    deal(room, table_id)
    assert room.get(table_id).session is None
    assert not PendingTimer.objects.filter(kind="session_hour").exists()


@pytest.mark.parametrize("profile", ["GA", "PT"])
def test_a_late_timer_changes_nothing_the_hands_after_the_hour_decide(room_under, clock, profile):
    """The worker is down at the hour: the hands reported after it strike it."""
    room = room_under(profile)
    table_id, _cards = time_table(room)
    deal(room, table_id)
    clock.advance(timedelta(hours=1, minutes=1))
    room.end(table_id)  # the hand in progress at the hour
    if profile == "GA":  # then one more hand [GA art. 18.3b]
        assert room.get(table_id).session["hands_since_hour"] == 1
        deal(room, table_id)
        room.end(table_id)
    assert room.get(table_id).session is None
    struck = events_of(room.app, table_id, "SessionHourStruck")
    assert [e.hand_in_progress for e in struck] == [True]
    runtime.floor_projector().catch_up()  # the session ended: its timer is cancelled
    assert not PendingTimer.objects.filter(kind="session_hour", state=PendingTimer.PENDING)


# --- the table's read: which rule ends the session, and where it stands -------------


def floor_read(api, table_id: str) -> dict:
    runtime.floor_projector().catch_up()
    answer = api.get(f"/api/tables/{table_id}/floor/")
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_ga_the_table_read_says_two_more_hands_after_the_hour(room_under, clock, api_as):
    room = room_under("GA")
    api = api_as("dora", "director")
    table_id, _cards = time_table(room)
    read = floor_read(api, table_id)
    assert read["session"] is None
    assert read["session_rule"] == {
        "end": "two_more_hands",
        "session_seconds": 3600.0,
        "hands_after_hour": 2,
        "late_join_seconds": None,
        "sessions_started": 0,
    }
    deal(room, table_id)
    session = floor_read(api, table_id)["session"]
    assert session == {
        "number": 1,
        "started_at": clock.now().isoformat(),
        "hour_at": (clock.now() + timedelta(hours=1)).isoformat(),
        "struck": False,
        "hands_since_hour": 0,
        "end": "two_more_hands",
        "hands_left": None,
        "late_join_until": None,
    }
    clock.advance(timedelta(hours=1))
    fire_due(clock)  # the hour strikes during the first hand: one of the two
    assert floor_read(api, table_id)["session"]["hands_left"] == 2
    room.end(table_id)
    read = floor_read(api, table_id)
    assert (read["session"]["struck"], read["session"]["hands_left"]) == (True, 1)
    deal(room, table_id)
    room.end(table_id)
    read = floor_read(api, table_id)
    assert read["session"] is None and read["session_rule"]["sessions_started"] == 1


def test_pt_the_table_read_says_the_hand_in_progress_and_the_late_join_deadline(
    room_under, clock, api_as
):
    room = room_under("PT")
    api = api_as("dora", "director")
    table_id, _cards = time_table(room)
    assert floor_read(api, table_id)["session_rule"] == {
        "end": "finish_hand_in_progress",
        "session_seconds": 3600.0,
        "hands_after_hour": None,
        "late_join_seconds": 1800.0,
        "sessions_started": 0,
    }
    deal(room, table_id)
    session = floor_read(api, table_id)["session"]
    assert session["end"] == "finish_hand_in_progress"
    assert session["late_join_until"] == (clock.now() + timedelta(minutes=30)).isoformat()
    assert session["hands_left"] is None
    clock.advance(timedelta(hours=1))
    fire_due(clock)
    session = floor_read(api, table_id)["session"]
    assert (session["struck"], session["hands_left"]) == (True, 1)
    room.end(table_id)
    assert floor_read(api, table_id)["session"] is None


def test_a_table_charging_per_hand_reads_no_session_rule(room_under, api_as):
    room = room_under("PT")
    table_id, _cards = room.drawn_table(5)
    read = floor_read(api_as("dora", "director"), table_id)
    assert read["session"] is None and read["session_rule"] is None


def test_the_jefe_console_card_says_the_session_rule_and_state(room_under, clock, make_user):
    from django.test import Client

    room = room_under("PT")
    table_id, _cards = time_table(room)
    make_user("dora", "director", password="pa55-word-ok")
    client = Client()
    assert client.login(username="dora", password="pa55-word-ok")
    page = lambda: client.get(f"/sectors/{room.sector_id}/").content.decode()  # noqa: E731
    runtime.floor_projector().catch_up()
    html = page()
    assert 'data-session-end="finish_hand_in_progress"' in html
    # Spanish by default: the rule, the late-join window, no session yet.
    assert "una sesión es 1 h de juego más la mano en curso" in html
    assert "quien se sienta en sus primeros 30 min la paga" in html
    assert 'data-testid="session-none"' in html
    deal(room, table_id)
    html = page()
    assert "sesión 1" in html
    hour_at = (clock.now() + timedelta(hours=1)).isoformat()
    assert f'data-deadline="{hour_at}"' in html
    late_until = (clock.now() + timedelta(minutes=30)).isoformat()
    assert f'data-testid="session-late-join" data-deadline="{late_until}"' in html
    clock.advance(timedelta(hours=1))
    fire_due(clock)
    html = page()
    assert "la hora se ha cumplido" in html and "queda 1 mano" in html


def test_the_table_at_a_past_moment_reads_its_session_as_the_view_did(room_under, clock, api_as):
    room = room_under("PT")
    api = api_as("dora", "director")
    table_id, _cards = time_table(room)
    deal(room, table_id)
    then = floor_read(api, table_id)
    moment = clock.now().isoformat()
    clock.advance(timedelta(hours=1))
    fire_due(clock)
    past = api.get(f"/api/reports/tables/{table_id}/at/", {"moment": moment}).json()["table"]
    assert past["session"] == then["session"] and past["session"]["struck"] is False
    assert past["session_rule"] == then["session_rule"]
    now = api.get(f"/api/reports/tables/{table_id}/at/").json()["table"]
    assert now["session"]["hands_left"] == 1 == floor_read(api, table_id)["session"]["hands_left"]
