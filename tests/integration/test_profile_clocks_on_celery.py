"""Every profile's clocks on a real Celery worker and beat, with the accelerated
twins (games.profiles.accelerated): ``TEST`` (CM), ``TEST_GA`` and ``TEST_PT``
read minutes as seconds; a suspension closes after 3 s and a session's hour
strikes after 6 s (PT's late-join window: 3 s).

- PT 24: a table below four players closes when its suspension runs out; GA
  art. 23: it stays suspended, however long, until four are back;
- the time rake's session [GA art. 18.3b; PT 7b]: it starts with play, charges
  every seated player (booked to the table's rake box), strikes its hour on the
  worker and ends by the profile's rule: two more hands (GA, whether or not a
  hand was in progress), the hand in progress or at once (PT); under PT a player
  sitting down within the late-join window pays the session, one after it not;
  the table's read says which rule applies and where the session stands;
- the waiting-list call window [CM-6] lapses on the worker under CM and never
  under GA and PT, which have none; the last hands of the night start at the
  closing time less the profile's lead [CM-24; GA and PT: at the closing time];
  the absence and action clocks are CM's only [CM-18..22]: refused under GA and
  PT; CM's absence clock warns and frees the seat on the worker (its action
  clock: tests/integration/test_timers_on_celery.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

import pytest

from floor import runtime
from floor.application.clocks import CLOCK_ACTOR
from floor.kernel.clock import SystemClock
from floor.models import PendingTimer, SchedulerHeartbeat, TableView, WaitingEntryView
from games.profiles import TWIN_SESSION_HOUR, TWIN_SUSPENSION
from ledger.domain import accounts
from ledger.models import AccountView, TransactionView
from tests.support.floor import CRUPIER, JEFE, new_id
from tests.support.processes import celery, running, service_env
from tests.support.room import Room, events_of, pid, refused
from tests.support.wait import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# 10 % of the 10 EUR table maximum: each session charges a seated player 1 EUR.
TIME_TABLE = {"rake_model": "per_session", "session_percent": "10"}
CHARGE = 100
# How late a deadline may be met on a worker that is up (its ETA task fires it
# at the deadline; beat's sweep, every second here, catches what the ETA missed).
ON_TIME = timedelta(seconds=5)
# Bounds on the waits: generous, since the machine may be busy.
WAIT = 60


@pytest.fixture
def clock():
    """Real time: the worker fires by the wall clock, so the test's app must too."""
    return SystemClock()


@pytest.fixture
def floor_under(make_app, tmp_path):
    """The test's floor under a profile, installed as the process's own, and the
    environment a worker under the same profile needs."""

    def build(code: str) -> tuple[Room, dict[str, str]]:
        app = make_app(code)
        runtime.install(app)
        env = service_env(
            tmp_path / "events.sqlite3", FLOOR_SWEEP_SECONDS="1", FLOOR_RULE_PROFILE=code
        )
        return Room(app), env

    yield build
    runtime.install(None)


@contextmanager
def worker_and_beat(env: dict[str, str], tmp_path) -> Iterator[None]:
    """A worker and beat under ``env``, up: a sweep has run on the worker."""
    worker = celery("worker", "--pool", "solo", "-l", "info", "-n", f"p-{tmp_path.name}@%h")
    beat = celery("beat", "-l", "info", "--schedule", str(tmp_path / "beat-schedule"))
    with (
        running(worker, env, tmp_path / "worker.log"),
        running(beat, env, tmp_path / "beat.log"),
    ):
        wait_until(
            lambda: SchedulerHeartbeat.objects.filter(name="sweep").exists(),
            timeout=90,
            what="beat's sweep to run on the worker",
        )
        yield


def swept_since(moment: datetime) -> bool:
    """Whether beat's sweep has run on the worker after ``moment``."""
    beat = SchedulerHeartbeat.objects.filter(name="sweep").first()
    return beat is not None and beat.last_run_at > moment


def view(table_id: str) -> TableView:
    runtime.floor_projector().catch_up()
    return TableView.objects.get(id=table_id)


def by_the_clock(event, timer: PendingTimer) -> None:
    """The event was the worker's, decided at the deadline, recorded soon after
    (the timer's row is marked fired just after the event is saved)."""
    wait_until(
        lambda: PendingTimer.objects.get(key=timer.key).state == PendingTimer.FIRED,
        timeout=WAIT,
        what=f"the {timer.kind} timer to be marked fired",
    )
    timer.refresh_from_db()
    assert event.actor == CLOCK_ACTOR.username
    assert timer.state == PendingTimer.FIRED and timer.outcome["fired"] is True
    assert timer.due_at <= event.timestamp <= timer.fired_at
    assert timer.fired_at - timer.due_at < ON_TIME, (timer.kind, timer.fired_at - timer.due_at)


# --- PT 24 and GA art. 23: a table below four ----------------------------------------


def test_pt_a_table_below_four_closes_when_its_suspension_runs_out(floor_under, tmp_path):
    room, env = floor_under("TEST_PT")
    table_id, cards = room.drawn_table(4)
    with worker_and_beat(env, tmp_path):
        before = room.app.clock.now()
        room.leave(table_id, cards[3])  # three left: suspended [PT 24]
        read = view(table_id)
        assert read.status == "suspended"
        timer = PendingTimer.objects.get(kind="suspension_close", subject=table_id)
        assert read.closes_at == timer.due_at
        assert TWIN_SUSPENSION <= timer.due_at - before < TWIN_SUSPENSION + ON_TIME
        wait_until(lambda: room.get(table_id).status == "closed", timeout=WAIT, what="closing")
    (closed,) = events_of(room.app, table_id, "Closed")
    assert closed.reason == "suspension_expired"
    by_the_clock(closed, timer)
    # The three players leave with their stacks, booked back to them.
    assert sorted(s["stack"] for s in closed.players.values()) == [1000, 1000, 1000]
    assert view(table_id).status == "closed"


def test_ga_a_table_below_four_stays_suspended_until_four_are_back(floor_under, tmp_path):
    room, env = floor_under("TEST_GA")
    table_id, cards = room.drawn_table(4)
    with worker_and_beat(env, tmp_path):
        room.leave(table_id, cards[3])
        read = view(table_id)
        assert read.status == "suspended" and read.closes_at is None
        suspended_at = read.suspended_at
        assert not PendingTimer.objects.filter(kind="suspension_close").exists()
        # The worker sweeps past the moment PT would have closed it: GA keeps it.
        wait_until(
            lambda: swept_since(suspended_at + TWIN_SUSPENSION + timedelta(seconds=1)),
            timeout=WAIT,
            what="a sweep past PT's closing time",
        )
        assert room.get(table_id).status == "suspended"
        back = room.new_player()
        room.join(back, table_id)
        room.sit(table_id, back, room.get(table_id).free_seats()[0])
        assert view(table_id).status == "running"  # four again [GA art. 23]
    assert not events_of(room.app, table_id, "Closed")


# --- the time rake's session [GA art. 18.3b; PT 7b] ----------------------------------


def deal(room: Room, table_id: str) -> dict:
    report = {}
    if room.app.profile.code == "TEST_GA" and room.get(table_id).last_button is None:
        report["button"] = room.get(table_id).occupied()[0]  # the dealer marks it [GA art. 23.1]
    return room.start(table_id, **report)


def session_charges(room: Room, table_id: str, session: int) -> dict[int, int]:
    return {
        e.seat: e.cents
        for e in events_of(room.app, table_id, "TimeCharged")
        if e.session == session
    }


def booked_time(table_id: str) -> list[int]:
    """The time charges the ledger booked at the table, in order."""
    runtime.floor_projector().catch_up()
    return list(
        TransactionView.objects.filter(kind="time_charge", table_id=table_id).values_list(
            "amount_cents", flat=True
        )
    )


def rake_box(table_id: str) -> int:
    runtime.floor_projector().catch_up()
    box = AccountView.objects.filter(name=accounts.rake_box(table_id).name).first()
    return box.balance_cents if box else 0


def struck(room: Room, table_id: str) -> bool:
    session = room.get(table_id).session
    return session is not None and session["struck"]


def hour_timer(table_id: str, session: int) -> PendingTimer:
    runtime.floor_projector().catch_up()
    timers = PendingTimer.objects.filter(kind="session_hour", subject=table_id).order_by("due_at")
    return list(timers)[session - 1]


def test_ga_a_session_is_the_hour_plus_two_more_hands_on_the_worker(floor_under, tmp_path):
    room, env = floor_under("TEST_GA")
    table_id, _cards = room.drawn_table(5, **TIME_TABLE)
    read = view(table_id)
    assert read.session is None
    assert read.session_rule == {
        "end": "two_more_hands",
        "session_seconds": TWIN_SESSION_HOUR.total_seconds(),
        "hands_after_hour": 2,
        "late_join_seconds": None,
        "sessions_started": 0,
    }
    with worker_and_beat(env, tmp_path):
        deal(room, table_id)  # play starts: session 1, every seated player charged
        seated = room.get(table_id).occupied()
        assert session_charges(room, table_id, 1) == dict.fromkeys(seated, CHARGE)
        session = view(table_id).session
        started = datetime.fromisoformat(session["started_at"])
        assert datetime.fromisoformat(session["hour_at"]) - started == TWIN_SESSION_HOUR
        assert session["struck"] is False and session["hands_left"] is None
        assert session["end"] == "two_more_hands" and session["late_join_until"] is None
        timer = hour_timer(table_id, 1)
        assert timer.due_at == started + TWIN_SESSION_HOUR
        room.end(table_id)
        deal(room, table_id)  # in progress when the hour strikes: one of the two
        wait_until(lambda: struck(room, table_id), timeout=WAIT, what="the hour to strike")
        by_the_clock(events_of(room.app, table_id, "SessionHourStruck")[-1], timer)
        session = view(table_id).session
        assert session["struck"] is True and session["hands_left"] == 2
        room.end(table_id)
        assert view(table_id).session["hands_left"] == 1
        deal(room, table_id)
        room.end(table_id)  # the second hand after the hour: the session is over
        assert view(table_id).session is None
        assert [e.number for e in events_of(room.app, table_id, "SessionEnded")] == [1]

        # Session 2; its hour strikes with no hand in progress: two hands still.
        deal(room, table_id)
        assert session_charges(room, table_id, 2) == dict.fromkeys(seated, CHARGE)
        room.end(table_id)
        second = hour_timer(table_id, 2)
        wait_until(lambda: struck(room, table_id), timeout=WAIT, what="the second hour")
        by_the_clock(events_of(room.app, table_id, "SessionHourStruck")[-1], second)
        session = view(table_id).session
        assert session["number"] == 2 and session["hands_left"] == 2
        room.hand(table_id)
        assert view(table_id).session["hands_left"] == 1
        room.hand(table_id)
        assert view(table_id).session is None
    assert view(table_id).session_rule["sessions_started"] == 2
    assert booked_time(table_id) == [CHARGE] * 10
    assert rake_box(table_id) == 10 * CHARGE


def average_stack(room: Room, table_id: str) -> int:
    stacks = [s["stack"] for s in room.get(table_id).occupants.values() if s["stack"] > 0]
    return sum(stacks) // len(stacks)


def sit_and_buy(room: Room, table_id: str, card: str) -> int:
    """Seats ``card`` (already on the list) and buys the table's average [PT 28]."""
    room.sit(table_id, card, room.get(table_id).free_seats()[0])
    return room.buy(table_id, card, average_stack(room, table_id))


def test_pt_a_session_ends_with_the_hand_in_progress_and_charges_early_joiners(
    floor_under, tmp_path
):
    room, env = floor_under("TEST_PT")
    table_id, _cards = room.drawn_table(5, **TIME_TABLE)
    early, late = room.new_players(2)
    room.join(early, table_id)
    room.join(late, table_id)
    assert view(table_id).session_rule == {
        "end": "finish_hand_in_progress",
        "session_seconds": TWIN_SESSION_HOUR.total_seconds(),
        "hands_after_hour": None,
        "late_join_seconds": TWIN_SESSION_HOUR.total_seconds() / 2,  # PT 7b: 30 of 60 min
        "sessions_started": 0,
    }
    with worker_and_beat(env, tmp_path):
        deal(room, table_id)
        first_five = room.get(table_id).occupied()
        room.end(table_id)
        session = view(table_id).session
        started = datetime.fromisoformat(session["started_at"])
        late_join_until = datetime.fromisoformat(session["late_join_until"])
        assert late_join_until - started == TWIN_SESSION_HOUR / 2
        assert session["end"] == "finish_hand_in_progress" and session["hands_left"] is None

        # Sitting down within the window: the session is charged [PT 7b].
        average = average_stack(room, table_id)
        assert sit_and_buy(room, table_id, early) == average - CHARGE
        assert room.app.clock.now() <= late_join_until
        # After it: the player pays from the next session.
        wait_until(
            lambda: room.app.clock.now() > late_join_until,
            timeout=WAIT,
            what="the late-join window to pass",
        )
        average = average_stack(room, table_id)
        assert sit_and_buy(room, table_id, late) == average
        charged = session_charges(room, table_id, 1)
        assert set(charged) == {*first_five, room.seat_of(table_id, early)}
        assert room.seat_of(table_id, late) not in charged

        # The hour strikes with no hand in progress: the session ends at once.
        timer = hour_timer(table_id, 1)
        wait_until(lambda: room.get(table_id).session is None, timeout=WAIT, what="the hour")
        names = [type(e).__name__ for e in events_of(room.app, table_id)][-2:]
        assert names == ["SessionHourStruck", "SessionEnded"]
        by_the_clock(events_of(room.app, table_id, "SessionEnded")[-1], timer)
        assert view(table_id).session is None

        # Session 2 charges all seven; its hour strikes during a hand, which
        # the session finishes.
        deal(room, table_id)
        assert set(session_charges(room, table_id, 2)) == set(room.get(table_id).occupied())
        assert len(room.get(table_id).occupied()) == 7
        second = hour_timer(table_id, 2)
        wait_until(lambda: struck(room, table_id), timeout=WAIT, what="the second hour")
        by_the_clock(events_of(room.app, table_id, "SessionHourStruck")[-1], second)
        session = view(table_id).session
        assert session["number"] == 2 and session["hands_left"] == 1
        room.end(table_id)
        assert view(table_id).session is None
        assert [e.number for e in events_of(room.app, table_id, "SessionEnded")] == [1, 2]
    assert booked_time(table_id) == [CHARGE] * (6 + 7)
    assert rake_box(table_id) == 13 * CHARGE


# --- the call window, the last hands, the CM-only clocks ---------------------------------


@pytest.mark.parametrize("code", ["TEST", "TEST_GA", "TEST_PT"])
def test_the_call_window_and_the_last_hands_keep_to_the_profile_on_the_worker(
    floor_under, tmp_path, code
):
    room, env = floor_under(code)
    profile = room.app.profile
    # A full table (nine seats: PT 6 has Hold'em at nine or ten), two waiting.
    table_id, cards = room.drawn_table(9, seats=9)
    called, next_up = room.new_players(2)
    room.join(called, table_id)
    room.join(next_up, table_id)
    if code != "TEST":  # the absence and action clocks are CM's [CM-18..22]
        refused(
            room.app, "absence_clock_not_in_profile", room.app.start_absence, JEFE, new_id(),
            table_id=table_id, player=cards[0],
        )  # fmt: skip
        deal(room, table_id)
        refused(
            room.app, "action_clock_not_in_profile", room.app.start_action_clock, CRUPIER,
            new_id(), table_id=table_id, seat=room.get(table_id).occupied()[0], pot_cents=0,
        )  # fmt: skip
        room.end(table_id)
    with worker_and_beat(env, tmp_path):
        room.leave(table_id, cards[0])  # the seat is offered: the first waiting is called
        runtime.floor_projector().catch_up()
        assert WaitingEntryView.objects.get(player_id=uuid.UUID(pid(called))).status == "called"
        window = profile.waiting_list.call_window
        calls = PendingTimer.objects.filter(kind="call_window")
        if window is None:  # GA and PT: the called player keeps the call
            assert not calls.exists()
        else:  # CM-6: five minutes, here five seconds, then the next is called
            (timer,) = calls
            wait_until(
                lambda: (
                    room.listed(table_id) == [next_up]
                    and room.waiting(table_id).entries[0]["status"] == "called"
                ),
                timeout=WAIT,
                what="the call to lapse",
            )
            wait_until(
                lambda: PendingTimer.objects.get(key=timer.key).state == PendingTimer.FIRED,
                timeout=WAIT,
                what="the call timer to be marked fired",
            )
            timer.refresh_from_db()
            assert timer.outcome["removed"] == pid(called)
            assert timer.outcome["offered"]["called"] == pid(next_up)
            assert timer.fired_at - timer.due_at < ON_TIME

        # The casino closes in 2 s plus the profile's lead: the last hands
        # start 2 s from now [CM-24; GA and PT: at the closing time].
        now = room.app.clock.now()
        closes_at = now + profile.closing.lead + timedelta(seconds=2)
        announced = room.app.announce_closing(
            JEFE, new_id(), sector_id=room.sector_id, closes_at=closes_at.isoformat()
        ).result
        assert (
            datetime.fromisoformat(announced["last_hands_at"]) == closes_at - profile.closing.lead
        )
        runtime.floor_projector().catch_up()
        timer = PendingTimer.objects.get(kind="last_hands")
        wait_until(
            lambda: room.get(table_id).last_hands is not None,
            timeout=WAIT,
            what="the last hands to start",
        )
        (begun,) = events_of(room.app, table_id, "LastHandsStarted")
        by_the_clock(begun, timer)
        assert begun.hands == profile.closing.hands_for("texas_holdem") == 3
        assert view(table_id).last_hands_left == 3
        if window is None:  # the call has no deadline: it stands while the worker runs
            entry = WaitingEntryView.objects.get(player_id=uuid.UUID(pid(called)))
            assert entry.status == "called" and entry.call_ends_at is None
        for _ in range(3):
            deal(room, table_id)
            room.end(table_id)
    assert room.get(table_id).status == "closed"
    assert events_of(room.app, table_id, "Closed")[-1].reason == "closing_time"


def test_cm_the_absence_clock_warns_then_frees_the_seat_on_the_worker(floor_under, tmp_path):
    """CM-18 on the worker: twenty minutes (20 s), the warning, five of
    courtesy (5 s); with someone waiting the seat is freed and the first on
    the list is called. (GA and PT have no such clock: see the test above.)"""
    room, env = floor_under("TEST")
    table_id, cards = room.drawn_table(5)
    room.played(table_id)  # a hand played here [CM-19]
    waiting = room.new_player()
    room.join(waiting, table_id)
    away = cards[1]
    stack = room.state(table_id, away)["stack"]
    with worker_and_beat(env, tmp_path):
        started = room.app.start_absence(CRUPIER, new_id(), table_id=table_id, player=away).result
        runtime.floor_projector().catch_up()
        timers = {t.kind: t for t in PendingTimer.objects.filter(subject=table_id)}
        warning, expiry = timers["absence_warning"], timers["absence_expiry"]
        assert warning.due_at.isoformat() == started["warn_at"]
        assert expiry.due_at.isoformat() == started["expires_at"]
        assert expiry.due_at - warning.due_at == timedelta(seconds=5)
        wait_until(
            lambda: room.seat_of(table_id, away) is None, timeout=WAIT, what="the seat freed"
        )
    (warned,) = events_of(room.app, table_id, "AbsenceWarned")
    left = events_of(room.app, table_id, "PlayerLeft")[-1]
    by_the_clock(warned, warning)
    by_the_clock(left, expiry)
    assert (left.stack, left.reason) == (stack, "absence_expired")
    expiry.refresh_from_db()
    assert expiry.outcome["offered"]["called"] == pid(waiting)
