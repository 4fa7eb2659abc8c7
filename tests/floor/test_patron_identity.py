"""A patron's identity document (issue 25, items 1 and 4; Ley 10/2010 art.
7.5): the cage, the jefe at the door or the director records it; the log
records that the patron was identified, with which kind of document and
country, and never the number, the name or the birth date, which live in a
row of their own (PatronIdentity) that the director exports and erases
without breaking the audit chain. Every input is hostile: a bad one is a
clear 400 with its code, and records nothing (no event, no row)."""

from __future__ import annotations

import io
import json
from datetime import date
from uuid import UUID

import pytest
from django.core.management import call_command
from django.test import Client

from floor import runtime
from floor.compliance.documents import check_letter, clean_birth_date, clean_document
from floor.compliance.identity import is_identified
from floor.kernel.errors import DomainError
from floor.models import EventJournalEntry, PatronIdentity, PlayerContact
from floor.notifications.contacts import change_contact
from tests.support.floor import new_id
from tests.support.read_models import differences, read_models
from tests.support.room import Room, all_events, events_of, pid

pytestmark = pytest.mark.django_db

NUMBER, NAME = "12345678Z", "Lucía Pérez Souto"
DOCUMENT = {
    "document_type": "dni",
    "document_number": "12.345.678-z",
    "country": "",
    "full_name": f"  {NAME} ",
    "birth_date": "1980-05-17",
}


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="ID")


@pytest.fixture
def card(room) -> str:
    return room.new_player("Lucía")


def url(card: str, tail: str = "identity/") -> str:
    return f"/api/players/{pid(card)}/{tail}"


def record(client, card: str, **body):
    return client.post(url(card), {"command_id": new_id(), **DOCUMENT, **body}, format="json")


def stored_log(app) -> str:
    """Every stored record of the log, as the store holds it (decompressed):
    the events and the commands' records, whose results are kept whole."""
    compressor = app.mapper.compressor
    states = [
        (compressor.decompress(n.state) if compressor else n.state).decode("utf-8")
        for n in app.recorder.select_notifications(1, 100_000)
    ]
    return "\n".join(states)


def everything_logged(app) -> str:
    events = json.dumps([vars(e) for e in all_events(app)], default=str)
    journal = json.dumps(list(EventJournalEntry.objects.values()), default=str)
    return "\n".join((stored_log(app), events, journal))


# --- the document's checks -----------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "typed", "kept"),
    [
        ("dni", "12345678Z", "12345678Z"),
        ("dni", "87654321-x", "87654321X"),
        ("dni", "00000000 T", "00000000T"),
        ("nie", "X1234567L", "X1234567L"),
        ("nie", "y-1234567-x", "Y1234567X"),
        ("nie", "Z 1234567 R", "Z1234567R"),
        ("passport", "pa1234567", "PA1234567"),
        ("passport", "C01X", None),  # 4: too short
        ("passport", "AB12345678", None),  # 10: over ICAO 9303's 9
        ("other", "ab-12", "AB12"),
        ("other", "A" * 21, None),
    ],
)
def test_document_numbers_are_normalised_and_checked(kind, typed, kept):
    if kept is None:
        with pytest.raises(DomainError) as refused:
            clean_document(kind, typed, "PT")
        assert refused.value.code == "document_number_invalid"
    else:
        assert clean_document(kind, typed, "PT").number == kept


def test_the_dni_and_nie_letters_follow_the_mod_23_rule():
    assert [check_letter(n) for n in ("12345678", "87654321", "00000000")] == ["Z", "X", "T"]
    for kind, wrong in (("dni", "12345678A"), ("nie", "X1234567T"), ("nie", "Z1234567L")):
        with pytest.raises(DomainError) as refused:
            clean_document(kind, wrong, "ES")
        assert refused.value.code == "document_letter_wrong"
    # A DNI or a NIE is Spain's, whatever country was typed; a passport says its own.
    assert clean_document("nie", "X1234567L", "FR").country == "ES"
    assert clean_document("passport", "PA1234567", " pt ").country == "PT"


def test_the_patron_is_an_adult_and_born_in_a_real_past():
    today = date(2026, 11, 22)
    assert clean_birth_date("2008-11-22", today) == date(2008, 11, 22)  # 18 today
    with pytest.raises(DomainError) as refused:
        clean_birth_date("2008-11-23", today)  # 18 tomorrow
    assert refused.value.code == "patron_under_age"
    for wrong in ("2026-02-30", "1900-01-01", "2030-01-01", "17/05/1980", 19800517):
        with pytest.raises(DomainError) as refused:
            clean_birth_date(wrong, today)
        assert refused.value.code == "birth_date_invalid", wrong


# --- recording -----------------------------------------------------------------------


def test_the_cage_records_a_dni_and_the_log_holds_its_kind_and_country_only(
    floor_app, card, api_as
):
    cage = api_as("carla-id", "cajero")
    answer = record(cage, card)
    assert answer.status_code == 201, answer.content
    assert answer.json()["result"] == {
        "player_id": pid(card),
        "document_type": "dni",
        "country": "ES",
    }
    assert answer.json()["identity"]["document"]["document_number"] == NUMBER

    row = PatronIdentity.objects.get(player_id=UUID(pid(card)))
    assert (row.document_type, row.document_number, row.country) == ("dni", NUMBER, "ES")
    assert (row.full_name, row.birth_date, row.recorded_by) == (
        NAME,
        date(1980, 5, 17),
        "carla-id",
    )
    assert row.recorded_at == floor_app.clock.now()
    assert is_identified(pid(card))

    (recorded,) = events_of(floor_app, pid(card), "IdentityRecorded")
    assert (recorded.document_type, recorded.country) == ("dni", "ES")
    assert (recorded.actor, recorded.actor_role) == ("carla-id", "cajero")
    assert recorded.command_id
    logged = everything_logged(floor_app)
    for personal in (NUMBER, "12345678", "Lucía Pérez", "Pérez Souto", "1980-05-17", "1980"):
        assert personal not in logged, personal


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"document_type": "driving_licence"}, "document_type_invalid"),
        ({"document_number": "   "}, "document_number_required"),
        ({"document_number": "1234567Z"}, "document_number_invalid"),
        ({"document_number": "12345678A"}, "document_letter_wrong"),
        ({"document_type": "nie", "document_number": "X1234567T"}, "document_letter_wrong"),
        ({"document_type": "passport", "document_number": "P<123"}, "document_number_invalid"),
        ({"document_type": "passport", "document_number": "PA1234567"}, "country_invalid"),
        ({"document_type": "passport", "document_number": "PA1234567", "country": "XX"}, None),
        ({"document_type": "other", "document_number": "AB1", "country": "ESP"}, None),
        ({"full_name": " \t "}, "full_name_required"),
        ({"full_name": "Lucía\x07"}, "full_name_invalid"),
        ({"birth_date": "1980-13-01"}, "birth_date_invalid"),
        ({"birth_date": "1899-12-31"}, "birth_date_invalid"),
        ({"birth_date": "2010-01-01"}, "patron_under_age"),
    ],
)
def test_each_bad_input_is_a_400_with_its_code_and_records_nothing(
    floor_app, card, api_as, body, code
):
    cage = api_as("carla-bad", "cajero")
    before = len(all_events(floor_app))
    answer = record(cage, card, **body)
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == (code or "country_invalid")
    assert len(all_events(floor_app)) == before
    assert not PatronIdentity.objects.exists()


def test_a_document_identifies_one_patron_and_a_correction_is_a_new_event(
    floor_app, room, card, api_as
):
    jefe = api_as("jaime-id", "jefe_sector")
    other = room.new_player("Otra")
    assert record(jefe, card).status_code == 201
    before = len(all_events(floor_app))
    taken = record(jefe, other, document_number="12345678z")
    assert (taken.status_code, taken.json()["code"]) == (409, "document_other_patron")
    assert len(all_events(floor_app)) == before
    assert not is_identified(pid(other))

    # The same patron, a corrected document: the row is replaced, a new event says so.
    fixed = record(jefe, card, document_type="nie", document_number="Y1234567X")
    assert fixed.status_code == 201, fixed.content
    row = PatronIdentity.objects.get(player_id=UUID(pid(card)))
    assert (row.document_type, row.document_number) == ("nie", "Y1234567X")
    assert [e.document_type for e in events_of(floor_app, pid(card), "IdentityRecorded")] == [
        "dni",
        "nie",
    ]
    # The first document is free again for the patron it belongs to.
    assert record(jefe, other).status_code == 201


def test_a_repeated_command_id_changes_nothing_more(floor_app, card, api_as):
    cage = api_as("carla-rp", "cajero")
    body = {"command_id": new_id(), **DOCUMENT}
    assert cage.post(url(card), body, format="json").status_code == 201
    again = cage.post(url(card), {**body, "full_name": "Someone Else"}, format="json")
    assert again.status_code == 200
    assert PatronIdentity.objects.get(player_id=UUID(pid(card))).full_name == NAME
    assert len(events_of(floor_app, pid(card), "IdentityRecorded")) == 1


def test_the_dealer_and_the_inspector_record_nothing(floor_app, card, api_as):
    for username, role in (("cris-id", "crupier"), ("ines-id", "inspector")):
        refused = record(api_as(username, role), card)
        assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")
    assert not PatronIdentity.objects.exists()
    assert events_of(floor_app, pid(card), "IdentityRecorded") == []


def test_an_unknown_patron_is_a_404_and_records_nothing(floor_app, api_as):
    cage = api_as("carla-404", "cajero")
    answer = cage.post(
        "/api/players/00000000-0000-0000-0000-000000000001/identity/",
        {"command_id": new_id(), **DOCUMENT},
        format="json",
    )
    assert (answer.status_code, answer.json()["code"]) == (404, "player_not_found")
    assert not PatronIdentity.objects.exists()


# --- reading -------------------------------------------------------------------------


def test_the_jefe_sees_only_whether_identified_and_the_kind(floor_app, card, api_as):
    runtime.floor_projector().catch_up()  # the player, registered in the room
    seen = {}
    for username, role in (
        ("carla-r", "cajero"),
        ("dora-r", "director"),
        ("ines-r", "inspector"),
        ("jaime-r", "jefe_sector"),
    ):
        client = api_as(username, role)
        if not seen:
            before = client.get(url(card)).json()
            assert before["identified"] is False and before["document"] is None
            assert record(client, card).status_code == 201
        answer = client.get(url(card))
        assert answer.status_code == 200
        seen[role] = answer.json()
    for role in ("cajero", "director", "inspector"):
        assert seen[role]["document"]["document_number"] == NUMBER
        assert seen[role]["document"]["full_name"] == NAME
    assert seen["jefe_sector"] == {
        "player_id": pid(card),
        "identified": True,
        "document_type": "dni",
    }
    dealer = api_as("cris-r", "crupier").get(url(card))
    assert (dealer.status_code, dealer.json()["code"]) == (403, "role_not_allowed")


# --- export and erasure (issue 25, item 4) ---------------------------------------------


def test_the_director_exports_and_erases_and_the_chain_stays_whole(
    floor_app, room, card, api_as, make_user
):
    """The director answers a patron's access (GDPR art. 15, 20) and erases a
    document recorded in error at once, its reason recorded and nothing of
    the data; a document the law still requires is kept (Ley 10/2010 art.
    25: tests/floor/test_data_retention.py covers the retention's side)."""
    cage = api_as("carla-x", "cajero")
    director = api_as("dora-x", "director")
    assert record(cage, card).status_code == 201
    change_contact(
        make_user("jaime-x", "jefe_sector"),
        new_id(),
        player=card,
        channel="email",
        email="lucia@example.org",
    )

    for username, role in (("carla-x2", "cajero"), ("ines-x", "inspector")):
        refused = api_as(username, role).get(url(card, "personal-data/"))
        assert refused.status_code == 403
    exported = director.get(url(card, "personal-data/"))
    assert exported.status_code == 200
    data = exported.json()
    assert data["contact"]["email"] == "lucia@example.org"
    assert (data["identity"]["document_number"], data["identity"]["full_name"]) == (NUMBER, NAME)
    assert data["identity"]["birth_date"] == "1980-05-17"

    in_error = {"command_id": new_id(), "reason": "recorded_in_error"}
    refused = cage.post(url(card, "identity/erase/"), in_error, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")
    # Without a reason, the retention has just begun: refused, naming the day it ends.
    kept = director.post(url(card, "identity/erase/"), {"command_id": new_id()}, format="json")
    assert (kept.status_code, kept.json()["code"]) == (409, "identity_retention_running")
    assert kept.json()["details"]["source"] == "Ley 10/2010 art. 25"
    assert kept.json()["details"]["day"] in kept.json()["message"]
    wrong = director.post(
        url(card, "identity/erase/"), {"command_id": new_id(), "reason": "asked"}, format="json"
    )
    assert (wrong.status_code, wrong.json()["code"]) == (400, "erase_reason_invalid")
    assert is_identified(pid(card)) and not events_of(floor_app, pid(card), "IdentityErased")
    erased = director.post(url(card, "identity/erase/"), in_error, format="json")
    assert erased.status_code == 201, erased.content
    assert erased.json()["identity"] == {
        "player_id": pid(card),
        "identified": False,
        "document_type": None,
        "document": None,
    }
    assert not is_identified(pid(card))
    assert not PatronIdentity.objects.exists()
    (event,) = events_of(floor_app, pid(card), "IdentityErased")
    assert (event.actor, event.actor_role, event.reason) == (
        "dora-x",
        "director",
        "recorded_in_error",
    )
    assert set(vars(event)) - {"originator_id", "originator_version", "timestamp"} <= {
        "rule_profile",
        "actor",
        "actor_role",
        "command_id",
        "reason",
    }
    assert director.get(url(card, "personal-data/")).json()["identity"] is None
    # The contact is not the identity's: erasing one keeps the other.
    assert PlayerContact.objects.filter(player_id=UUID(pid(card))).exists()

    again = director.post(
        url(card, "identity/erase/"),
        {"command_id": new_id(), "reason": "recorded_in_error"},
        format="json",
    )
    assert (again.status_code, again.json()["code"]) == (409, "identity_not_recorded")
    runtime.floor_projector().catch_up()
    out = io.StringIO()
    call_command("verify_log", stdout=out)
    assert "chain intact" in out.getvalue()
    # Nothing in the log to erase: the events never held the document.
    assert NUMBER not in everything_logged(floor_app)


def test_a_rebuild_of_the_read_models_leaves_the_identities_as_they_are(floor_app, card, api_as):
    assert record(api_as("carla-rb", "cajero"), card).status_code == 201
    runtime.floor_projector().catch_up()
    kept = list(PatronIdentity.objects.values())
    live = read_models()
    call_command("rebuild_projections", "--no-progress", stdout=io.StringIO())
    assert differences(live, read_models()) == {}
    assert list(PatronIdentity.objects.values()) == kept


# --- the cage's console ----------------------------------------------------------------


def test_the_cage_records_an_identity_from_its_console(floor_app, card, make_user):
    make_user("carla-cn", "cajero", password="pa55-word-ok")
    cage = Client()
    assert cage.login(username="carla-cn", password="pa55-word-ok")
    runtime.floor_projector().catch_up()
    page = cage.get("/cage/", {"card": card}).content.decode()
    assert 'data-command="record_identity"' in page
    assert f'name="player" value="{card}"' in page
    assert "Registrar identidad" in page

    def save(**fields):
        answer = cage.post(
            "/console/commands/record_identity/",
            {"command_id": new_id(), "player": card, **DOCUMENT, **fields},
            HTTP_ACCEPT="application/json",
        )
        return answer.status_code, answer.json()

    status, answer = save(document_number="12345678A")
    assert (status, answer["code"]) == (400, "document_letter_wrong")
    assert answer["message"] == "La letra no corresponde al número: revise el documento."
    assert not PatronIdentity.objects.exists()

    status, answer = save(document_type="nie", document_number="Z1234567R", country="")
    assert (status, answer["message"]) == (201, "La identidad del cliente queda registrada.")
    row = PatronIdentity.objects.get(player_id=UUID(pid(card)))
    assert (row.document_type, row.document_number, row.recorded_by) == (
        "nie",
        "Z1234567R",
        "carla-cn",
    )


def test_a_document_written_twice_at_once_is_a_409_not_a_500(floor_app):
    """Two desks recording one document for two patrons at the same instant
    both pass the check; the second row write meets the constraint and is
    refused as the check would refuse it."""
    from uuid import uuid4

    from floor.compliance import identity as module
    from floor.compliance.documents import clean_identity

    first, second = uuid4(), uuid4()
    document = clean_identity("dni", "12345678Z", "ES", "Ana Pérez", "1980-02-03", date(2026, 1, 1))
    module._keep(str(first), document, "caja")
    with pytest.raises(DomainError) as refused:
        module._keep(str(second), document, "caja")
    assert refused.value.code == "document_other_patron"
    assert not module.is_identified(second)
