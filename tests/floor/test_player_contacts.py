"""A player's contact for the call's message (issue 24, item 3): the jefe or
the cage records how the player wants to be told (none, e-mail, SMS); the log
records that the preference changed, to which channel and by whom, and never
the address or the number, which live in a row of their own (erasable, issue
25). Every input is hostile: a bad one is a clear 400 and records nothing."""

from __future__ import annotations

import json
from uuid import UUID

import pytest
from django.test import Client

from floor import runtime
from floor.application.player_self import player_username
from floor.kernel.errors import DomainError
from floor.models import EventJournalEntry, PlayerContact
from floor.notifications.contacts import change_contact, clean_phone
from tests.support.floor import new_id
from tests.support.room import Room, all_events, events_of, pid

pytestmark = pytest.mark.django_db

ADDRESS = "lucia@example.org"


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="CT")


@pytest.fixture
def card(room) -> str:
    return room.new_player("Lucía")


def url(card: str) -> str:
    return f"/api/players/{pid(card)}/contact/"


def post(client, card: str, **body):
    return client.post(url(card), {"command_id": new_id(), **body}, format="json")


def everything_logged(app) -> str:
    """Every event's fields and every command's record, as text."""
    return json.dumps([vars(e) for e in all_events(app)], default=str)


def test_the_jefe_records_an_email_contact_and_the_log_holds_the_channel_only(
    floor_app, card, api_as
):
    jefe = api_as("jaime-ct", "jefe_sector")
    answer = post(jefe, card, channel="email", email=f"  {ADDRESS} ", language="gl")
    assert answer.status_code == 201, answer.content
    assert answer.json()["result"] == {"player_id": pid(card), "channel": "email"}

    row = PlayerContact.objects.get(player_id=UUID(pid(card)))
    assert (row.channel, row.email, row.phone, row.language) == ("email", ADDRESS, "", "gl")
    assert row.updated_by == "jaime-ct"
    (changed,) = events_of(floor_app, pid(card), "ContactPreferenceChanged")
    assert (changed.channel, changed.actor, changed.actor_role) == (
        "email",
        "jaime-ct",
        "jefe_sector",
    )
    assert floor_app.repository.get(UUID(pid(card))).contact_channel == "email"
    # Not in any event, nor in the journal's rows.
    assert "lucia" not in everything_logged(floor_app)
    assert (
        not EventJournalEntry.objects.filter(actor="jaime-ct")
        .exclude(position=0)
        .filter(topic__contains="lucia")
    )


def test_the_cage_records_an_sms_contact_and_a_change_replaces_it(floor_app, card, api_as):
    cage = api_as("carla-ct", "cajero")
    assert post(cage, card, channel="sms", phone="+34 600 12 34 56").status_code == 201
    row = PlayerContact.objects.get(player_id=UUID(pid(card)))
    assert (row.channel, row.phone, row.language) == ("sms", "+34600123456", "es")

    assert post(cage, card, channel="none").status_code == 201
    row.refresh_from_db()
    assert (row.channel, row.phone, row.email) == ("none", "", "")
    assert [e.channel for e in events_of(floor_app, pid(card), "ContactPreferenceChanged")] == [
        "sms",
        "none",
    ]
    assert "600" not in everything_logged(floor_app)


def test_a_repeated_command_id_changes_nothing_more(floor_app, card, api_as):
    jefe = api_as("jaime-rp", "jefe_sector")
    body = {"command_id": new_id(), "channel": "email", "email": ADDRESS}
    assert jefe.post(url(card), body, format="json").status_code == 201
    assert jefe.post(url(card), body, format="json").status_code == 200
    assert len(events_of(floor_app, pid(card), "ContactPreferenceChanged")) == 1
    # The same command id with another address: the address stays as recorded.
    other = {**body, "email": "someone.else@example.org"}
    assert jefe.post(url(card), other, format="json").status_code == 200
    assert PlayerContact.objects.get(player_id=pid(card)).email == ADDRESS


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"channel": "email", "email": "not-an-address"}, "email_invalid"),
        ({"channel": "email", "email": "a@b.c\x00d"}, None),  # the body's own check
        ({"channel": "email", "email": "x" * 250 + "@example.org"}, None),  # over 254: the body
        ({"channel": "email"}, "email_required"),
        ({"channel": "sms", "phone": "600123456"}, "phone_invalid"),  # no country
        ({"channel": "sms", "phone": "+3460012"}, "phone_invalid"),  # too short for Spain
        ({"channel": "sms", "phone": "+34 600 ABC 456"}, "phone_invalid"),
        ({"channel": "sms", "phone": "+" + "9" * 31}, "phone_invalid"),
        ({"channel": "sms", "email": ADDRESS}, "phone_required"),
        ({"channel": "pigeon"}, None),
        ({"channel": "email", "email": ADDRESS, "language": "fr"}, None),
        ({"channel": ["email"], "email": ADDRESS}, None),
    ],
)
def test_a_bad_contact_is_refused_clearly_and_records_nothing(floor_app, card, api_as, body, code):
    jefe = api_as("jaime-bad", "jefe_sector")
    before = len(all_events(floor_app))
    answer = post(jefe, card, **body)
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == (code or answer.json()["code"])
    assert answer.json()["message"]
    assert len(all_events(floor_app)) == before
    assert not PlayerContact.objects.exists()


def test_a_dealer_may_not_and_an_unknown_player_is_not_found(floor_app, card, api_as):
    dealer = api_as("cris-ct", "crupier")
    answer = post(dealer, card, channel="email", email=ADDRESS)
    assert (answer.status_code, answer.json()["code"]) == (403, "role_not_allowed")
    jefe = api_as("jaime-nf", "jefe_sector")
    answer = post(jefe, "NOBODY-1", channel="email", email=ADDRESS)
    assert (answer.status_code, answer.json()["code"]) == (404, "player_not_found")
    assert not PlayerContact.objects.exists()


def test_the_service_refuses_before_it_records(floor_app, card, make_user):
    jefe = make_user("jaime-sv", "jefe_sector")
    with pytest.raises(DomainError) as refused:
        change_contact(jefe, new_id(), player=card, channel="sms", phone="+1 202 555 0")
    assert refused.value.code == "phone_invalid"
    outcome = change_contact(jefe, new_id(), player=card, channel="sms", phone="+12025550143")
    assert outcome.result["channel"] == "sms"
    assert PlayerContact.objects.get(player_id=UUID(pid(card))).phone == "+12025550143"


@pytest.mark.parametrize("hostile", [None, 34600123456, "", "   ", "+34600123456\n"])
def test_a_phone_is_text_in_e164_or_nothing(hostile):
    if hostile in (None, ""):
        assert clean_phone(hostile) == ""
    elif hostile == "+34600123456\n":
        assert clean_phone(hostile) == "+34600123456"  # the line's end trimmed
    else:
        with pytest.raises(DomainError):
            clean_phone(hostile)


def test_a_player_sets_their_own_contact_and_no_one_elses(floor_app, make_user):
    room = Room(floor_app, tag="PS")
    mine, theirs = room.new_player("Lucía"), room.new_player("Otro")
    me = make_user(player_username(mine), "player")
    change_contact(me, new_id(), player=mine, channel="email", email=ADDRESS, language="pt")
    row = PlayerContact.objects.get(player_id=UUID(pid(mine)))
    assert (row.channel, row.language, row.updated_by) == ("email", "pt", player_username(mine))
    (changed,) = events_of(floor_app, pid(mine), "ContactPreferenceChanged")
    assert (changed.actor, changed.actor_role) == (player_username(mine), "player")

    with pytest.raises(DomainError) as refused:
        change_contact(me, new_id(), player=theirs, channel="email", email=ADDRESS)
    assert refused.value.code == "not_your_player"
    assert not PlayerContact.objects.filter(player_id=UUID(pid(theirs))).exists()
    assert events_of(floor_app, pid(theirs), "ContactPreferenceChanged") == []


def test_the_jefe_saves_a_contact_from_the_console(room, card, make_user):
    make_user("jaime-cn", "jefe_sector", password="pa55-word-ok")
    jefe = Client()
    assert jefe.login(username="jaime-cn", password="pa55-word-ok")
    runtime.floor_projector().catch_up()
    page = jefe.get(f"/sectors/{room.sector_id}/").content.decode()
    assert 'data-command="change_contact_preference"' in page
    assert '<option value="gl">Gallego</option>' in page

    def save(**fields):
        answer = jefe.post(
            "/console/commands/change_contact_preference/",
            {"command_id": new_id(), "player": card, **fields},
            HTTP_ACCEPT="application/json",
        )
        return answer.status_code, answer.json()

    status, answer = save(channel="sms", email="", phone="+34 600 123 456", language="gl")
    assert (status, answer["message"]) == (201, "El contacto del jugador queda guardado.")
    row = PlayerContact.objects.get(player_id=UUID(pid(card)))
    assert (row.channel, row.phone, row.language) == ("sms", "+34600123456", "gl")

    status, answer = save(channel="sms", email="", phone="600", language="es")
    assert (status, answer["code"]) == (400, "phone_invalid")
    assert "+34600123456 (E.164)" in answer["message"]
    assert PlayerContact.objects.get(player_id=UUID(pid(card))).phone == "+34600123456"
