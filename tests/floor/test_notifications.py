"""A player without the page open is told by e-mail or SMS (issue 24, item 3):
the projector writes an outbox row for a call [CM-6] or an expired remote
entry, once, in its batch; a task sends it after the commit, to a real local
SMTP server or a fake SMS provider here; a failure is retried with backoff,
then marked failed, and never blocks the floor; a rebuild sends nothing again;
the embedded default sends nothing and errs nothing."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from uuid import UUID

import pytest
from django.utils import timezone

from floor import runtime
from floor.application.player_self import player_username
from floor.domain.game import Game
from floor.domain.waiting_list import WaitingList
from floor.kernel.clock import ManualClock
from floor.kernel.context import CommandContext, command_context
from floor.kernel.roles import Actor, Role
from floor.kernel.web.shadow_rebuild import ShadowRebuild
from floor.models import Notification, PlayerContact
from floor.notifications import delivery, outbox, send
from floor.notifications.contacts import Contact, keep
from floor.notifications.delivery import backoff, deliver, sweep_outbox
from floor.notifications.outbox import OutboxBatch
from floor.notifications.texts import compose
from floor.projections import timers
from floor.tasks import deliver_notification, sweep_notifications
from floor.timers import sweep_timers
from games.profiles import CM
from tests.support.floor import JEFE, new_id
from tests.support.notify import Provider, SmtpServer
from tests.support.room import Room, pid

pytestmark = pytest.mark.django_db

ADDRESS = "lucia@example.org"
PHONE = "+34600123456"


@pytest.fixture
def clock() -> ManualClock:
    """Today: the call's deadline is ahead of the worker's clock, as in a room."""
    return ManualClock(timezone.now().replace(microsecond=0))


@pytest.fixture
def queued(monkeypatch) -> list[tuple[int, datetime | None]]:
    """The outbox's sends queued (position, eta), instead of sent to a broker;
    and the timers' ETA tasks dropped."""
    sent: list[tuple[int, datetime | None]] = []
    monkeypatch.setattr(outbox, "queue", lambda position, eta=None: sent.append((position, eta)))
    monkeypatch.setattr(delivery, "queue", lambda position, eta=None: sent.append((position, eta)))
    monkeypatch.setattr(timers, "send_eta", lambda key, due_at: None)
    return sent


@pytest.fixture
def smtp():
    with SmtpServer() as server:
        yield server


@pytest.fixture
def provider():
    with Provider() as fake:
        yield fake


@pytest.fixture
def channels(settings, smtp, provider):
    """A deployment with both channels: Django's SMTP backend to the local
    server, the SMS adapter to the fake provider."""
    settings.FLOOR_NOTIFY_CHANNELS = ("email", "sms")
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.DEFAULT_FROM_EMAIL = "sala@casino.example"
    settings.FLOOR_SMS_URL = provider.url
    settings.FLOOR_SMS_API_KEY = "test-key"
    settings.FLOOR_SMS_SENDER = "Casino"
    return {"smtp": smtp, "provider": provider}


class Call:
    """A running table of four, a player waiting with a contact, then called."""

    def __init__(self, floor_app, capture, tag: str = "NT") -> None:
        self.app = floor_app
        self.capture = capture
        self.room = Room(floor_app, tag=tag)
        self.table_id, self.seated = self.room.drawn_table(4, buy_in=None)
        self.card = self.room.new_player("Lucía")
        self.room.join(self.card, self.table_id)
        self.other = self.room.new_player("Otro Jugador")
        self.room.join(self.other, self.table_id)

    def contact(self, channel: str, language: str = "es", card: str | None = None) -> None:
        contact = Contact(channel, ADDRESS, PHONE, language)
        keep(pid(card or self.card), contact, "jaime")

    def call(self) -> Notification:
        self.seat = next(s for s in range(1, 11) if s not in self.room.seats(self.table_id))
        self.app.call_next(JEFE, new_id(), table_id=self.table_id, seat=self.seat)
        self.project()
        return Notification.objects.get(kind="called", player_id=UUID(pid(self.card)))

    def project(self) -> None:
        # The test's transaction never commits: its commit hooks run here.
        with self.capture(execute=True):
            runtime.floor_projector().catch_up()


@pytest.fixture
def called(floor_app, django_capture_on_commit_callbacks, queued) -> Call:
    return Call(floor_app, django_capture_on_commit_callbacks)


def test_a_called_player_is_emailed_through_the_local_smtp_server(called, channels, queued):
    called.contact("email")
    row = called.call()
    assert (row.state, row.attempts, row.context["seat"]) == ("pending", 0, called.seat)
    assert queued == [(row.position, None)]  # queued once the batch committed

    assert deliver_notification(row.position) == "sent"  # the Celery task's own code

    (received,) = channels["smtp"].messages
    assert received.recipients == [ADDRESS]
    assert received.sender == "sala@casino.example"
    assert received.subject == "Casino de demostración: tu asiento está listo"
    number = called.room.get(called.table_id).number
    deadline = timezone.localtime(datetime.fromisoformat(row.context["ends_at"]))
    assert deadline - called.app.clock.now() == timedelta(minutes=5)  # CM-6
    body = received.body
    assert f"Mesa {number} · Sector NT, asiento {called.seat}" in body
    assert "Texas Hold'em" in body and f"antes de las {deadline:%H:%M}" in body
    # Nothing of any other player: not their card, nor their name.
    assert called.other not in body and "Otro" not in body and called.card not in body
    row.refresh_from_db()
    assert (row.state, row.channel, row.attempts) == ("sent", "email", 1)
    assert row.sent_at is not None
    assert channels["provider"].requests == []


def test_a_called_player_is_texted_through_the_fake_provider(called, channels):
    called.contact("sms", language="en")
    row = called.call()

    assert deliver(row.position) == "sent"

    (request,) = channels["provider"].requests
    assert request["path"] == "/v1/messages"
    assert request["authorization"] == "Bearer test-key"
    assert request["content_type"] == "application/json"
    assert request["json"]["to"] == PHONE and request["json"]["from"] == "Casino"
    assert request["json"]["text"].startswith("You are called for Texas Hold'em")
    assert f"seat {called.seat}" in request["json"]["text"]
    assert channels["smtp"].messages == []
    assert Notification.objects.get(position=row.position).channel == "sms"


def test_a_provider_that_answers_500_is_retried_later_and_delivered(called, channels, queued):
    called.contact("sms")
    row = called.call()
    channels["provider"].script = [500]
    now = timezone.now()

    assert deliver(row.position, now) == "retry"
    row.refresh_from_db()
    assert (row.state, row.attempts, row.last_error) == (
        "pending",
        1,
        "sms: the provider answered 500",
    )
    assert row.next_attempt_at == now + backoff(1) == now + timedelta(seconds=30)
    assert queued[-1] == (row.position, row.next_attempt_at)  # the retry, queued for then
    assert deliver(row.position, now + timedelta(seconds=29)) == "early"
    assert sweep_outbox(now + timedelta(seconds=29)) == 0

    assert sweep_outbox(now + timedelta(seconds=30)) == 1
    row.refresh_from_db()
    assert (row.state, row.attempts, row.channel) == ("sent", 2, "sms")
    assert len(channels["provider"].requests) == 2


def test_a_channel_always_down_is_marked_failed_and_the_floor_goes_on(
    called, channels, settings, caplog
):
    settings.FLOOR_NOTIFY_MAX_ATTEMPTS = 3
    called.contact("sms")
    row = called.call()
    channels["provider"].script = [500] * 10
    now = timezone.now()
    outcomes = []
    for wait in (0, 30, 60 + 30):  # 30 s, then twice that
        now += timedelta(seconds=wait)
        outcomes.append(deliver(row.position, now))
    assert outcomes == ["retry", "retry", "failed"]
    row.refresh_from_db()
    assert (row.state, row.attempts) == ("failed", 3)
    assert "failed after 3 attempts" in caplog.text
    assert sweep_outbox(now + timedelta(hours=1)) == 0  # failed is final
    assert len(channels["provider"].requests) == 3

    # The floor never noticed: the called player sits, the next one is called.
    called.room.sit(called.table_id, called.card)
    called.contact("sms", card=called.other)
    called.card = called.other
    assert called.call().state == "pending"


def test_a_provider_nobody_answers_is_retried_and_the_commands_record_all_the_same(
    called, channels, settings
):
    called.contact("sms")
    settings.FLOOR_SMS_URL = "http://127.0.0.1:9/v1"  # discard: nothing listens
    row = called.call()  # the command and its projection: recorded and shown
    assert deliver(row.position) == "retry"
    row.refresh_from_db()
    assert row.last_error == "sms: URLError"
    assert called.room.waiting(called.table_id).entry_of(UUID(pid(called.card)))["call"]


def test_a_broker_down_loses_no_message_the_sweep_sends_it(
    floor_app, django_capture_on_commit_callbacks, channels, monkeypatch
):
    class Down:
        def send_task(self, *args, **kwargs):
            raise ConnectionError("broker down")

    monkeypatch.setattr(outbox, "current_app", Down())
    monkeypatch.setattr(timers, "send_eta", lambda key, due_at: None)
    call = Call(floor_app, django_capture_on_commit_callbacks)
    call.contact("email")
    row = call.call()  # projected and committed all the same
    assert row.state == "pending"

    assert sweep_notifications() == 1  # beat's task
    row.refresh_from_db()
    assert row.state == "sent"
    assert len(channels["smtp"].messages) == 1


def test_a_worker_that_died_mid_send_leaves_a_claim_the_sweep_takes_again(called, channels):
    called.contact("email")
    row = called.call()
    now = timezone.now()
    assert delivery.claim(row, now)  # a worker took it, then died
    assert sweep_outbox(now + timedelta(seconds=5)) == 0  # its lease still runs
    assert sweep_outbox(now + delivery.lease() + timedelta(seconds=1)) == 1
    assert Notification.objects.get(position=row.position).state == "sent"
    assert len(channels["smtp"].messages) == 1


def test_a_call_over_before_its_message_could_go_is_not_sent(called, channels):
    called.contact("email")
    row = called.call()
    late = datetime.fromisoformat(row.context["ends_at"]) + timedelta(seconds=1)
    assert deliver(row.position, late) == "stale"
    assert Notification.objects.get(position=row.position).state == "stale"
    assert channels["smtp"].messages == []


def house_call(make_app, capture, **rules) -> Call:
    """A Call under CM with other waiting-list house settings, its app the
    process's own (the projector reads it)."""
    app = make_app(replace(CM, waiting_list=replace(CM.waiting_list, **rules)))
    runtime.install(app)
    return Call(app, capture)


@pytest.fixture
def extending(make_app, django_capture_on_commit_callbacks, queued):
    """A house whose "five_more" moves a 3-minute call to CM-6's 5 minutes."""
    yield house_call(
        make_app,
        django_capture_on_commit_callbacks,
        call_window=timedelta(minutes=3),
        call_extension=timedelta(minutes=5),
    )
    runtime.install(None)


def test_a_message_not_sent_yet_says_the_deadline_five_more_moved(extending, channels):
    """The row keeps the call's first deadline; the player asks for five more
    minutes before it goes (a relay down, a queue): sent, it says the moved
    deadline, and it is not stale at the first [CM-6; issue 24, item 3]."""
    called = extending
    called.contact("email")
    row = called.call()
    called_at = called.app.clock.now()
    first = called_at + timedelta(minutes=3)
    assert datetime.fromisoformat(row.context["ends_at"]) == first
    called.app.clock.advance(timedelta(minutes=2))
    answered = called.app.answer_call(
        JEFE, new_id(), player=called.card, table_id=called.table_id, answer="five_more"
    ).result
    moved = called_at + timedelta(minutes=5)
    assert answered["ends_at"] == moved.isoformat()
    called.project()

    # Past the first deadline, before the moved one: sent, with the moved one.
    assert deliver(row.position, first + timedelta(seconds=30)) == "sent"
    (received,) = channels["smtp"].messages
    said, old = timezone.localtime(moved), timezone.localtime(first)
    assert f"antes de las {said:%H:%M}" in received.body
    assert f"{old:%H:%M}" not in received.body
    row.refresh_from_db()
    assert (row.state, row.context["ends_at"]) == ("sent", moved.isoformat())


def test_a_message_tried_past_the_moved_deadline_is_stale(extending, channels):
    called = extending
    called.contact("email")
    row = called.call()
    called.app.answer_call(
        JEFE, new_id(), player=called.card, table_id=called.table_id, answer="five_more"
    )
    called.project()
    moved = called.app.clock.now() + timedelta(minutes=5)
    assert deliver(row.position, moved) == "stale"
    assert channels["smtp"].messages == []


def test_a_message_of_a_call_already_ended_is_stale(called, channels):
    """The player left the list before the message could go: nothing to tell."""
    called.contact("email")
    row = called.call()
    called.app.leave_waiting_list(JEFE, new_id(), player=called.card, table_id=called.table_id)
    called.project()
    assert deliver(row.position) == "stale"  # now: the call's five minutes not over
    assert channels["smtp"].messages == []


def test_the_outbox_writes_one_row_for_a_batch_applied_twice(called, channels, queued):
    called.contact("email")
    row = called.call()
    assert queued == [(row.position, None)]
    projector = runtime.floor_projector()
    # The same events applied again (the position rewound): the journal has
    # them, and so does the outbox.
    projector.reset()
    called.project()
    assert Notification.objects.count() == 1
    assert queued == [(row.position, None)]

    # The outbox's own key: the same event written by two batches, one row.
    waiting = called.room.waiting(called.table_id)
    event = next(e for e in reversed(list(called.app.repository.event_store.get(waiting.id)))
                 if isinstance(e, WaitingList.Called))  # fmt: skip
    for _ in range(2):
        batch = OutboxBatch()
        batch.write(event, row.position, lambda _event: waiting)
        batch.flush()
    assert Notification.objects.count() == 1


def test_a_rebuild_sends_nothing_again(called, channels, queued):
    called.contact("email")
    row = called.call()
    assert deliver_notification(row.position) == "sent"
    before = list(Notification.objects.values())

    with called.capture(execute=True):
        ShadowRebuild(runtime.floor_projector(), batch_size=5).run()
    with called.capture(execute=True):
        runtime.floor_projector().reset()
        runtime.floor_projector().catch_up()

    assert list(Notification.objects.values()) == before
    assert queued == [(row.position, None)]  # nothing queued again
    assert sweep_outbox(timezone.now() + timedelta(hours=1)) == 0
    assert len(channels["smtp"].messages) == 1
    assert PlayerContact.objects.get(player_id=UUID(pid(called.card))).email == ADDRESS


def test_the_embedded_default_sends_nothing_and_errs_nothing(called, settings, caplog):
    assert settings.FLOOR_NOTIFY_CHANNELS == ()  # no backend configured
    called.contact("email")
    row = called.call()
    with caplog.at_level(logging.WARNING):
        assert deliver_notification(row.position) == "skipped"
    row.refresh_from_db()
    assert (row.state, row.channel, row.last_error) == ("skipped", "none", "")
    assert caplog.records == []


def test_a_player_who_asked_for_none_or_gave_no_contact_is_sent_nothing(called, channels):
    row = called.call()  # no contact row at all
    assert deliver(row.position) == "skipped"
    called.room.sit(called.table_id, called.card)
    called.card = called.other
    called.contact("none")
    assert deliver(called.call().position) == "skipped"
    assert channels["smtp"].messages == [] and channels["provider"].requests == []


def test_a_remote_entry_that_expired_is_told_so(db):
    """WaitingList.Removed with reason "remote_expired" (issue 24, item 2)."""
    game = Game("texas_holdem", "no_limit", 200, 1000)
    player = UUID(pid("RX-1"))
    clock = CommandContext("reloj", "clock", new_id(), CM, timezone.now())
    with command_context(clock):
        waiting = WaitingList.open_for(game)
        waiting.register(player, clock.now)
        waiting.remove(player, "remote_expired")
        waiting.register(player, clock.now)
        waiting.remove(player, "withdrew")  # no message: the player asked
    events = waiting.collect_events()
    batch = OutboxBatch()
    for position, event in enumerate(events, start=1):
        batch.write(event, position, lambda _event: waiting)
    batch.flush()
    (row,) = Notification.objects.all()
    assert (row.position, row.kind, row.player_id) == (3, "remote_expired", player)
    assert row.context == {"game": game.key}
    message = compose(row.kind, row.context, "gl")
    assert "Texas Hold'em" in message.body and "caducou" in message.body


@pytest.mark.parametrize(
    ("language", "subject"),
    [
        ("es", "Casino de demostración: tu asiento está listo"),
        ("gl", "Casino de demostración: o teu asento está listo"),
        ("pt", "Casino de demostración: o seu lugar está pronto"),
        ("en", "Casino de demostración: your seat is ready"),
    ],
)
def test_the_message_is_in_the_players_language(language, subject, db):
    context = {"game": "omaha/pot_limit/100/500", "table_id": None, "seat": 3, "ends_at": None}
    message = compose("called", context, language)
    assert message.subject == subject
    assert "Omaha" in message.body and "3" in message.body


def test_beat_sweeps_the_outbox(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["notification-sweep"]
    assert entry["task"] == sweep_notifications.name == "floor.tasks.sweep_notifications"
    assert entry["schedule"] == settings.FLOOR_NOTIFY_SWEEP_SECONDS
    assert deliver_notification.name == outbox.DELIVER_TASK


def test_a_remote_entry_left_to_expire_is_told_by_email(
    floor_app, django_capture_on_commit_callbacks, channels, queued, clock
):
    """A player's remote entry not checked in within the house's time is
    removed "remote_expired" by the clock (issue 24, item 2), and told so."""
    room = Room(floor_app, tag="RX")
    table_id = room.table()
    card = room.new_player("Lucía")
    keep(pid(card), Contact("email", ADDRESS, "", "es"), "jaime")
    me = Actor(player_username(card), frozenset({Role.PLAYER}))
    assert floor_app.join_waiting_list(me, new_id(), player=card, table_id=table_id).result[
        "remote"
    ]
    with django_capture_on_commit_callbacks(execute=True):
        runtime.floor_projector().catch_up()
    assert not Notification.objects.exists()

    clock.advance(timedelta(minutes=90))
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_timers(clock.now()) == 1  # the check-in's deadline
        runtime.floor_projector().catch_up()
    (row,) = Notification.objects.all()
    assert (row.kind, row.player_id) == ("remote_expired", UUID(pid(card)))
    assert queued == [(row.position, None)]

    assert deliver_notification(row.position) == "sent"
    (received,) = channels["smtp"].messages
    assert received.recipients == [ADDRESS]
    assert received.subject == "Casino de demostración: tu puesto en la lista ha caducado"
    assert "Texas Hold'em" in received.body and "no te registraste" in received.body


def test_send_is_the_one_interface(channels, settings, db):
    """floor.notifications.send(player_id, message_kind, context): the channel
    it went through, "none" when nothing was to be sent."""
    player = pid("IF-1")
    context = {"game": "texas_holdem/no_limit/200/1000"}
    assert send(player, "remote_expired", context) == "none"  # no contact row
    keep(player, Contact("email", ADDRESS, "", "en"), "jaime")
    assert send(player, "remote_expired", context) == "email"
    (received,) = channels["smtp"].messages
    assert received.subject == "Casino de demostración: your place on the list expired"
    settings.FLOOR_NOTIFY_CHANNELS = ("sms",)  # this deployment has no e-mail
    assert send(player, "remote_expired", context) == "none"
    assert len(channels["smtp"].messages) == 1


def test_the_outbox_is_counted_by_state_for_prometheus(called, channels, settings):
    from floor.monitoring import FloorCollector

    settings.FLOOR_NOTIFY_MAX_ATTEMPTS = 1
    called.contact("sms")
    row = called.call()
    channels["provider"].script = [503]
    assert deliver(row.position) == "failed"
    (gauge,) = [m for m in FloorCollector().notifications()]
    counts = {sample.labels["state"]: sample.value for sample in gauge.samples}
    assert counts["failed"] == 1 and counts["pending"] == counts["sent"] == 0


def test_a_mail_relay_down_is_retried_then_delivered(called, channels, settings):
    called.contact("email")
    row = called.call()
    settings.EMAIL_PORT = 9  # nothing listens: refused
    now = timezone.now()
    assert deliver(row.position, now) == "retry"
    row.refresh_from_db()
    assert row.last_error == "email: ConnectionRefusedError"
    settings.EMAIL_PORT = channels["smtp"].port  # the relay is back
    assert sweep_outbox(now + timedelta(seconds=30)) == 1
    (received,) = channels["smtp"].messages
    assert received.recipients == [ADDRESS]
    assert Notification.objects.get(position=row.position).attempts == 2
