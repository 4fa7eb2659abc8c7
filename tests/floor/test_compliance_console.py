"""The compliance console (issue 25, item 2): what was API-only, from a page.

/compliance/ shows the director the lists held (each version, the current one
marked), an upload that runs the importer and answers a bad file on the page
(never a 500, nothing recorded), the possible matches the doors refused and
nobody resolved yet, with the decision's buttons, and the refused attempts
of the last days. The inspector reads it and changes nothing; the jefe, the
cage and the dealer are refused (floor.domain.reads, ``compliance``). The
desk takes a self-exclusion at the sector console and the cage's player
card, confirmed first; the director lifts it there once the house's minimum
period passed, and before that the card says from when."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from floor import runtime
from floor.console import compliance as page
from floor.models import ExclusionList, ExclusionRefusal, PatronIdentity
from tests.support.floor import new_id
from tests.support.room import Room, events_of, pid

pytestmark = pytest.mark.django_db

NUMBER, NAME, BORN = "12345678Z", "Lucía Pérez Souto", date(1980, 5, 17)
HEADER = "document_number,full_name,birth_date\n"
URL = "/compliance/"


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="CC")


@pytest.fixture
def people(make_user) -> dict[str, Client]:
    clients = {}
    for username, role in (
        ("dora", "director"),
        ("ines", "inspector"),
        ("jaime", "jefe_sector"),
        ("carla", "cajero"),
        ("cris", "crupier"),
    ):
        clients[role] = Client()
        clients[role].force_login(make_user(username, role))
    return clients


def identify(card: str, number: str = NUMBER) -> None:
    PatronIdentity.objects.create(
        player_id=pid(card),
        document_type=PatronIdentity.DNI,
        document_number=number,
        country="ES",
        full_name=NAME,
        birth_date=BORN,
        recorded_at=datetime(2026, 11, 22, 20, 0, tzinfo=UTC),
        recorded_by="carla",
    )


def upload(client: Client, body: bytes, **fields):
    data = {
        "command_id": new_id(),
        "source": "rgiaj",
        "region": "",
        "version": "2026-11-01",
        "mapping": "",
        "file": SimpleUploadedFile("list.csv", body, content_type="text/csv"),
        **fields,
    }
    return client.post(URL, data, follow=True)


def caught_up() -> None:
    runtime.floor_projector().catch_up()


def possible_match(room: Room, jefe: Client) -> tuple[str, str]:
    """A patron whose name and birth date are on the RGIAJ, without the
    document, refused at the list by the jefe's console (the register keeps it)."""
    table_id = room.drawn_table(4)[0]
    card = room.new_player("Lucía P.")
    identify(card, number="87654321X")
    caught_up()
    answer = jefe.post(
        "/console/commands/join_waiting_list/",
        {"command_id": new_id(), "player": card, "table_id": table_id},
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 409 and answer.json()["code"] == "possible_exclusion"
    return card, table_id


def test_who_sees_the_page_and_the_home_link(room, people):
    for role in ("director", "inspector"):
        assert people[role].get(URL).status_code == 200
        assert 'data-testid="compliance-link"' in people[role].get("/").content.decode()
    for role in ("jefe_sector", "cajero", "crupier"):
        answer = people[role].get(URL)
        assert answer.status_code == 403
        assert 'data-code="role_not_allowed"' in answer.content.decode()
        assert 'data-testid="compliance-link"' not in people[role].get("/").content.decode()
    assert Client().get(URL).status_code == 302  # to the login
    director = people["director"].get(URL).content.decode()
    inspector = people["inspector"].get(URL).content.decode()
    assert 'data-testid="upload-form"' in director and 'data-testid="no-lists"' in director
    assert 'data-testid="upload-form"' not in inspector and 'data-testid="read-only"' in inspector


def test_the_director_uploads_versions_and_sees_the_current_one(room, people):
    director = people["director"]
    body = (HEADER + f"{NUMBER},Someone,1970-01-01\n,No Birth Date,\n").encode()
    answer = upload(director, body)
    assert answer.status_code == 200
    text = answer.content.decode()
    # Rows read and refused, and the line refused, said in Spanish (the default).
    assert "1 filas leídas, 1 rechazadas" in text and "Líneas rechazadas: 3." in text
    upload(director, (HEADER + "11111111H,Otro,1970-01-01\n").encode(), version="2026-12-01")
    regional = (HEADER + "22222222J,Otra,1971-01-01\n").encode()
    upload(director, regional, source="regional", region="GA")
    text = director.get(URL).content.decode()
    assert text.count('data-testid="list-version"') == 3
    assert 'data-label="rgiaj 2026-12-01" data-current="1"' in text
    assert 'data-label="rgiaj 2026-11-01">' in text  # superseded
    assert 'data-label="regional GA 2026-11-01" data-current="1"' in text
    assert ExclusionList.objects.count() == 3
    # The inspector reads the same versions and has no form.
    assert people["inspector"].get(URL).content.decode().count('data-testid="list-version"') == 3


def test_a_hostile_upload_is_answered_on_the_page_and_records_nothing(room, people, monkeypatch):
    app = room.app
    director = people["director"]
    before = app.recorder.max_notification_id()

    def refused(answer, words: str) -> None:
        assert answer.status_code in (400, 409), answer.status_code
        assert 'data-testid="upload-form"' in answer.content.decode()
        text = answer.content.decode()
        errors = text[text.index('class="errors"') :][:400] if 'class="errors"' in text else text
        assert words in errors, errors

    # Columns the mapping names are missing.
    refused(upload(director, b"dni;nombre\n1;x\n"), "faltan estas columnas")
    # Not a CSV at all: bytes read as Latin-1, no such column either.
    refused(upload(director, bytes(range(256)) * 40), "faltan estas columnas")
    # An empty file.
    refused(upload(director, b""), "vac")
    # A field past the csv module's limit.
    huge_field = HEADER.encode() + b'"' + b"9" * 140_000 + b'",x,\n'
    refused(upload(director, huge_field), "no es un fichero CSV legible")
    # A list the form does not know, and the house list (kept by self-exclusions).
    refused(upload(director, HEADER.encode(), source="nope"), "nope")
    refused(upload(director, HEADER.encode(), source="house"), "house")
    monkeypatch.setattr(page, "MAX_FILE_BYTES", 1000)
    refused(upload(director, HEADER.encode() + b"1" * 2000), "demasiado grande")
    # A regional list without its region; a date that is no date; a bad mapping.
    refused(upload(director, HEADER.encode(), source="regional"), "GA")
    refused(upload(director, HEADER.encode(), version="2026-13-45"), "fecha")
    refused(upload(director, HEADER.encode(), mapping="what=ever"), "column")
    assert app.recorder.max_notification_id() == before
    assert not ExclusionList.objects.exists()
    # An inspector's upload is refused before its file is read.
    answer = upload(people["inspector"], HEADER.encode())
    assert answer.status_code == 403
    # The same version twice: the second is refused on the page.
    assert upload(director, (HEADER + f"{NUMBER},X,1970-01-01\n").encode()).status_code == 200
    refused(upload(director, (HEADER + f"{NUMBER},X,1970-01-01\n").encode()), "ya está importada")
    # NUL bytes in a row: that row refused, counted and named, never a 500
    # (PostgreSQL keeps no NUL in text).
    nul = HEADER.encode() + b"1234\x005678Z,x\x00y,1970-01-01\n11111111H,Ana,1970-01-01\n"
    answer = upload(director, nul, version="2026-12-01")
    assert answer.status_code == 200
    assert "1 filas leídas, 1 rechazadas" in answer.content.decode()
    assert "Líneas rechazadas: 2." in answer.content.decode()


def test_a_possible_match_waits_on_the_page_until_the_director_decides(room, people):
    director, jefe = people["director"], people["jefe_sector"]
    upload(director, (HEADER + ",LUCIA perez SOUTO,1980-05-17\n").encode())
    card, table_id = possible_match(room, jefe)
    again = jefe.post(
        "/console/commands/join_waiting_list/",
        {"command_id": new_id(), "player": card, "table_id": table_id},
        HTTP_ACCEPT="application/json",
    )
    assert again.status_code == 409
    text = director.get(URL).content.decode()
    assert f'data-player="{pid(card)}" data-attempts="2"' in text and "rgiaj 2026-11-01" in text
    assert 'data-testid="clear"' in text and 'data-testid="refusal"' in text
    assert "exclusion-refusals/?format=csv" in text
    # The inspector sees it, with no buttons.
    seen = people["inspector"].get(URL).content.decode()
    assert f'data-player="{pid(card)}"' in seen and 'data-testid="clear"' not in seen
    # The jefe may not decide from the console's door.
    answer = jefe.post(
        "/console/commands/resolve_possible_exclusion/",
        {"command_id": new_id(), "player": pid(card), "decision": "clear"},
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 403
    # The director clears it, as the page's form posts it (no script: back to the page).
    answer = director.post(
        "/console/commands/resolve_possible_exclusion/",
        {
            "command_id": new_id(),
            "player": pid(card),
            "decision": "clear",
            "note": "other person",
            "next": URL,
        },
        follow=True,
    )
    assert answer.status_code == 200
    text = answer.content.decode()
    assert 'data-testid="no-pending"' in text
    (event,) = events_of(room.app, pid(card), "PossibleExclusionResolved")
    assert (event.decision, event.actor) == ("clear", "dora")
    # The refused attempt stays in the last days' list.
    assert 'data-testid="refusal"' in text
    # A newer version matching again is pending again.
    upload(director, (HEADER + ",Lucía Pérez Souto,1980-05-17\n").encode(), version="2026-12-01")
    assert f'data-player="{pid(card)}"' in director.get(URL).content.decode()
    # Decided excluded: no longer pending (the doors refuse it as excluded).
    director.post(
        "/console/commands/resolve_possible_exclusion/",
        {"command_id": new_id(), "player": pid(card), "decision": "excluded", "next": URL},
    )
    assert f'data-player="{pid(card)}"' not in director.get(URL).content.decode()


def test_old_refusals_leave_the_recent_list(room, people, clock):
    director = people["director"]
    upload(director, (HEADER + ",Lucía Pérez Souto,1980-05-17\n").encode())
    possible_match(room, people["jefe_sector"])
    assert ExclusionRefusal.objects.count() == 1
    assert 'data-testid="refusal"' in director.get(URL).content.decode()
    clock.advance(timedelta(days=page.RECENT_DAYS + 1))
    text = director.get(URL).content.decode()
    assert 'data-testid="no-refusals"' in text
    assert 'data-testid="pending"' in text  # still waiting for the director


def test_the_desk_takes_a_self_exclusion_confirmed_first(room, people):
    app = room.app
    jefe = people["jefe_sector"]
    caught_up()
    sector = jefe.get(f"/sectors/{room.sector_id}/").content.decode()
    assert 'data-testid="exclude-self"' in sector
    assert 'data-testid="lift-self-exclusion"' not in sector
    card = room.new_player("Lucía P.")
    identify(card)
    caught_up()
    form = {"command_id": new_id(), "player": card}
    answer = jefe.post("/console/commands/exclude_self/", form, HTTP_ACCEPT="application/json")
    assert answer.status_code == 428
    asked = answer.json()
    assert "Lucía P." in asked["message"] and "2027-05-22" in asked["message"]
    assert not events_of(app, pid(card), "SelfExcluded")
    form["confirm_cents"] = asked["confirm"]["cents"]
    answer = jefe.post("/console/commands/exclude_self/", form, HTTP_ACCEPT="application/json")
    assert answer.status_code == 201, answer.content
    assert events_of(app, pid(card), "SelfExcluded")
    assert ExclusionList.objects.get(source="house").row_count == 1
    # The director's sector console offers the lift too.
    director = people["director"].get(f"/sectors/{room.sector_id}/").content.decode()
    assert 'data-testid="lift-self-exclusion"' in director


def test_the_cage_card_shows_a_self_exclusion_and_the_director_lifts_it_when_due(
    room, people, clock
):
    app = room.app
    cage, director = people["cajero"], people["director"]
    card = room.new_player("Lucía P.")
    identify(card)
    caught_up()
    shown = cage.get("/cage/", {"card": card}).content.decode()
    assert 'data-testid="exclude-self"' in shown and 'data-testid="self-excluded"' not in shown
    form = {"command_id": new_id(), "player": card}
    asked = cage.post("/console/commands/exclude_self/", form, HTTP_ACCEPT="application/json")
    form["confirm_cents"] = asked.json()["confirm"]["cents"]
    answer = cage.post("/console/commands/exclude_self/", form, HTTP_ACCEPT="application/json")
    assert answer.status_code == 201, answer.content
    shown = cage.get("/cage/", {"card": card}).content.decode()
    assert 'data-testid="self-excluded"' in shown and 'data-testid="exclude-self"' not in shown
    assert 'data-testid="lift-self-exclusion"' not in shown  # the cashier never lifts
    # The director: not yet, the card says from when.
    shown = director.get("/cage/", {"card": card}).content.decode()
    assert "2027-05-22" in shown and 'data-testid="lift-self-exclusion"' not in shown
    # Six months on: the director lifts it, with a reason, confirmed first.
    clock.advance(timedelta(days=182))
    shown = director.get("/cage/", {"card": card}).content.decode()
    assert 'data-testid="lift-self-exclusion"' in shown
    form = {"command_id": new_id(), "player": card, "reason": ""}
    answer = director.post(
        "/console/commands/lift_self_exclusion/", form, HTTP_ACCEPT="application/json"
    )
    asked = answer.json()
    assert answer.status_code == 428 and "Lucía P." in asked["message"]
    form["confirm_cents"] = asked["confirm"]["cents"]
    answer = director.post(
        "/console/commands/lift_self_exclusion/", form, HTTP_ACCEPT="application/json"
    )
    assert answer.status_code == 400 and answer.json()["code"] == "lift_reason_required"
    form["reason"] = "asked in writing, period served"
    answer = director.post(
        "/console/commands/lift_self_exclusion/", form, HTTP_ACCEPT="application/json"
    )
    assert answer.status_code == 201, answer.content
    assert events_of(app, pid(card), "SelfExclusionLifted")
    shown = director.get("/cage/", {"card": card}).content.decode()
    assert 'data-testid="self-excluded"' not in shown and 'data-testid="exclude-self"' in shown


@pytest.mark.parametrize(
    ("language", "title", "upload_button"),
    [
        ("es", "Cumplimiento", "Importar la lista"),
        ("gl", "Cumprimento", "Importar a lista"),
        ("pt", "Conformidade", "Importar a lista"),
        ("en", "Compliance", "Import the list"),
    ],
)
def test_the_page_speaks_the_directors_language(room, people, language, title, upload_button):
    from django.conf import settings

    director = people["director"]
    director.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    text = director.get(URL).content.decode()
    assert f"<h1>{title}</h1>" in text and upload_button in text


def test_an_undated_self_exclusion_shows_when_it_may_be_lifted_from_its_event(
    room, people, clock, monkeypatch
):
    """A SelfExcluded recorded before the event carried its date counts from
    the event's timestamp, as the lift's command counts it: the card says so."""
    from django.contrib.auth.models import User

    from floor.compliance.exclusions import exclude_self
    from floor.compliance.standing import self_exclusion_of
    from floor.domain.player import Player

    card = room.new_player("Lucía P.")
    monkeypatch.setattr(Player, "exclude_self", lambda self, at: self._self_excluded_event())
    exclude_self(User.objects.get(username="carla"), new_id(), player=card)
    monkeypatch.undo()
    caught_up()
    standing = self_exclusion_of(pid(card))
    assert standing.since == datetime(2026, 11, 22, 20, 0, tzinfo=UTC)
    assert (standing.liftable_from.date(), standing.liftable) == (date(2027, 5, 22), False)
    shown = people["director"].get("/cage/", {"card": card}).content.decode()
    assert "2027-05-22" in shown and 'data-testid="lift-self-exclusion"' not in shown
