"""Exclusion lists (issue 25, item 2): the national register (RGIAJ, Spain),
a region's register (Galicia's banned persons, counting in Galicia only), the
SRIJ's access bans (Portugal, Decreto-Lei 422/89 arts. 36-38) and the house's
self-exclusions. A patron whose recorded document is on the latest version of
a list that applies is refused at every door (registration, a list, a seat,
the draw, the cage's purchases) with ``patron_excluded``, naming the list and
its version to the staff; a name and birth date match without the document is
``possible_exclusion`` until a director resolves it. A refusal records
nothing; a pass of an identified patron records ``Player.ExclusionChecked``
(door, result, list versions), never a name, a number or a birth date."""

from __future__ import annotations

import io
import json
from datetime import UTC, date, datetime

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from floor import runtime
from floor.application.player_self import player_username
from floor.compliance.exclusions import check_patron, import_list, name_key, parse_mapping
from floor.domain.exclusion_register import ExclusionRegister
from floor.kernel.errors import DomainError
from floor.kernel.roles import Actor, Role
from floor.models import ExclusionEntry, ExclusionList, PatronIdentity
from tests.support.floor import DIRECTOR, JEFE, new_id
from tests.support.money import CAJERO, open_cage
from tests.support.room import Room, all_events, events_of, pid, refused

pytestmark = pytest.mark.django_db

NUMBER, NAME, BORN = "12345678Z", "Lucía Pérez Souto", date(1980, 5, 17)
HEADER = "document_number,full_name,birth_date\n"
# A field past the csv module's limit (131,072 characters): not a list's file.
HUGE_FIELD = HEADER.encode() + b'"' + b"9" * 140_000 + b'",x,\n'


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="EX")


@pytest.fixture
def director(make_user):
    return make_user("dora", "director")


def identify(card: str, number: str = NUMBER, name: str = NAME, born: date = BORN) -> None:
    PatronIdentity.objects.create(
        player_id=pid(card),
        document_type=PatronIdentity.DNI,
        document_number=number,
        country="ES",
        full_name=name,
        birth_date=born,
        recorded_at=datetime(2026, 11, 22, 20, 0, tzinfo=UTC),
        recorded_by="carla",
    )


def load(director, body: str, *, source="rgiaj", region="", version="2026-11-01", mapping=None):
    return import_list(
        director,
        new_id(),
        source=source,
        region=region,
        version=version,
        data=body.encode(),
        mapping=mapping,
    )


def open_table(room: Room) -> str:
    """A table already drawn (four players), with free seats."""
    return room.drawn_table(4)[0]


def logged(app) -> str:
    return json.dumps([vars(e) for e in all_events(app)], default=str)


def test_the_name_key_drops_accents_case_and_spacing():
    assert name_key("  Lucía   PÉREZ souto ") == "LUCIA PEREZ SOUTO"
    assert name_key("Núñez Çeña") == "NUNEZ CENA"


def test_an_excluded_document_is_refused_at_every_door(room, director):
    app = room.app
    open_cage(app)
    table_id = room.table()
    excluded, others = room.new_player("Lucía"), room.new_players(4)
    room.join(excluded, table_id)
    for card in others:
        room.join(card, table_id)
    identify(excluded)
    # Typed with dots and a dash on the list: the same document.
    load(director, HEADER + "12.345.678-z,Someone Else,1970-01-01\n")
    # A list: refused, naming the list and its version (for the staff).
    error = refused(app, "patron_excluded", room.join, excluded, table_id)
    assert error.params == {"list": "rgiaj", "version": "2026-11-01"}
    # From their phone, the player is told to ask at the desk, not why.
    error = refused(
        app,
        "ask_at_the_desk",
        app.join_waiting_list,
        Actor(player_username(excluded), frozenset({Role.PLAYER})),
        new_id(),
        player=excluded,
        table_id=table_id,
    )
    assert error.params == {}
    # The draw leaves them out, as it leaves a barred player out.
    app.draw_seats(JEFE, new_id(), table_ids=[table_id])
    seated = {p for p in room.seats(table_id).values()}
    assert pid(excluded) not in {str(s) for s in seated} and excluded not in seated
    # A seat.
    refused(app, "patron_excluded", room.sit, table_id, excluded, 9)
    # The cage's purchases.
    refused(
        app, "patron_excluded", app.sell_chips, CAJERO, new_id(), player=excluded, amount_cents=500
    )
    refused(
        app,
        "patron_excluded",
        app.buy_in_at_cage,
        CAJERO,
        new_id(),
        table_id=table_id,
        player=excluded,
        amount_cents=500,
    )
    # Registration: a card whose patron's document is kept.
    PatronIdentity.objects.filter(player_id=pid(excluded)).delete()
    identify("EX-NEW")
    refused(
        app,
        "patron_excluded",
        app.register_player,
        JEFE,
        new_id(),
        card_number="EX-NEW",
        display_name="New",
    )
    # Nothing in the log names the patron's document or name.
    assert NUMBER not in logged(app) and "Lucía" not in logged(app)


def test_a_pass_of_an_identified_patron_is_recorded_with_the_list_versions(room, director):
    app = room.app
    table_id = open_table(room)
    card = room.new_player()
    identify(card)
    load(director, HEADER + "99999999R,Somebody,1970-01-01\n")
    room.sit(table_id, card)
    checked = events_of(app, pid(card), "ExclusionChecked")
    assert [(e.door, e.result, e.lists) for e in checked] == [
        ("seating", "clear", ["rgiaj 2026-11-01"])
    ]
    # The cage's purchases, as a door of the ledger's.
    open_cage(app)
    app.sell_chips(CAJERO, new_id(), player=card, amount_cents=500)
    app.buy_in_at_cage(CAJERO, new_id(), table_id=table_id, player=card, amount_cents=500)
    checked = events_of(app, pid(card), "ExclusionChecked")
    assert [e.door for e in checked] == ["seating", "cage", "cage"]
    # A patron with no document: not identified, nothing recorded.
    other = room.new_player()
    room.sit(table_id, other)
    assert events_of(app, pid(other), "ExclusionChecked") == []


def test_a_possible_match_waits_for_a_director(room, director, api_as):
    app = room.app
    table_id = open_table(room)
    seat = None  # drawn: the draw is still open
    card = room.new_player()
    identify(card, number="87654321X")
    # The same name (another spelling) and birth date, no document on the list.
    load(director, HEADER + ",LUCIA  perez souto,1980-05-17\n")
    error = refused(app, "possible_exclusion", room.sit, table_id, card, seat)
    assert error.params == {"list": "rgiaj", "version": "2026-11-01"}
    # Not the jefe's to resolve; a bad decision is a 400 with its code.
    jefe = api_as("jaime-x", "jefe_sector")
    url = f"/api/players/{pid(card)}/resolve-possible-exclusion/"
    answer = jefe.post(url, {"command_id": new_id(), "decision": "clear"}, format="json")
    assert answer.status_code == 403
    boss = api_as("dora-x", "director")
    answer = boss.post(url, {"command_id": new_id(), "decision": "maybe"}, format="json")
    assert answer.status_code == 400
    answer = boss.post(
        url, {"command_id": new_id(), "decision": "clear", "note": "other person"}, format="json"
    )
    assert answer.status_code == 201, answer.content
    room.sit(table_id, card, seat)
    checked = events_of(app, pid(card), "ExclusionChecked")
    assert [(e.result, e.lists) for e in checked] == [("cleared", ["rgiaj 2026-11-01"])]
    # A newer version with the same entry is checked again.
    room.leave(table_id, card)
    load(director, HEADER + ",Lucía Pérez Souto,1980-05-17\n", version="2026-12-01")
    refused(app, "possible_exclusion", room.sit, table_id, card, seat)
    # Decided excluded: refused as excluded.
    app.resolve_possible_exclusion(DIRECTOR, new_id(), player=card, decision="excluded")
    refused(app, "patron_excluded", room.sit, table_id, card, seat)


def test_only_a_possible_match_is_resolved(room, director):
    card = room.new_player()
    identify(card)
    refused(
        room.app,
        "no_possible_exclusion",
        room.app.resolve_possible_exclusion,
        DIRECTOR,
        new_id(),
        player=card,
        decision="clear",
    )


def test_the_importer_reads_a_custom_mapping_and_counts_bad_rows(room, director):
    body = (
        "DNI;NOMBRE;APELLIDOS;FNAC\n"
        "12345678-z;Lucía;Pérez Souto;17/05/1980\n"  # read
        ";Ana;Gil;01/02/1975\n"  # no document: name and date, read
        "11111111H;Luis;Rey;1975-02-01\n"  # a date not in the format: refused
        ";Solo;Nombre;\n"  # neither a document nor a birth date: refused
        f"{'9' * 21};X;Y;01/01/1970\n"  # a document too long: refused
        "2222\x002222J;Nul;Byte;01/01/1970\n"  # a NUL byte (PostgreSQL keeps none): refused
    )
    mapping = parse_mapping(
        "document=DNI;name=NOMBRE+APELLIDOS;birth_date=FNAC;date_format=%d/%m/%Y;delimiter=semicolon"
    )
    outcome, read = load(director, body, mapping=mapping)
    assert outcome.result["rows"] == 2 and outcome.result["bad_rows"] == 4
    assert read.bad_lines == [4, 5, 6, 7]
    kept = ExclusionList.objects.get()
    assert (kept.row_count, kept.bad_rows, kept.imported_by) == (2, 4, "dora")
    assert sorted(ExclusionEntry.objects.values_list("document_number", "name_key")) == [
        ("", "ANA GIL"),
        ("12345678Z", "LUCIA PEREZ SOUTO"),
    ]
    imported = events_of(room.app, ExclusionRegister.create_id("rgiaj", ""), "VersionImported")
    assert [(e.version, e.rows, e.bad_rows) for e in imported] == [("2026-11-01", 2, 4)]
    assert "12345678Z" not in logged(room.app) and "LUCIA" not in logged(room.app)
    # The same version again; a file lacking a column; a bad mapping or version.
    for code, call in (
        ("list_version_exists", lambda: load(director, body, mapping=mapping)),
        ("exclusion_columns_missing", lambda: load(director, "a,b\n1,2\n", version="2026-11-02")),
        ("exclusion_mapping_invalid", lambda: parse_mapping("colour=red")),
        ("list_version_invalid", lambda: load(director, HEADER, version="yesterday")),
        ("exclusion_source_invalid", lambda: load(director, HEADER, source="interpol")),
        ("exclusion_region_required", lambda: load(director, HEADER, source="regional")),
    ):
        with pytest.raises(DomainError) as caught:
            call()
        assert caught.value.code == code
    assert ExclusionList.objects.count() == 1


def test_the_management_command_imports_a_file(room, director, tmp_path):
    path = tmp_path / "srij.csv"
    path.write_text(HEADER + f"{NUMBER},{NAME},1980-05-17\nbad,row,32/13/1980\n", "utf-8")
    out = io.StringIO()
    call_command(
        "import_exclusion_list",
        "--source=srij",
        "--list-version=2026-10-01",
        f"--file={path}",
        "--user=dora",
        stdout=out,
    )
    assert "1 rows imported, 1 refused (lines 3)" in out.getvalue()
    with pytest.raises(CommandError, match="Refused"):
        call_command(
            "import_exclusion_list",
            "--source=srij",
            "--list-version=2026-10-01",
            f"--file={path}",
            "--user=dora",
        )


def test_a_regional_list_counts_in_its_region_only_and_the_latest_version(room, director):
    card = room.new_player()
    identify(card)
    load(director, HEADER + f"{NUMBER},x,\n", source="regional", region="ga")
    assert check_patron(pid(card), "GA").result == "excluded"
    assert check_patron(pid(card), "").result == "clear"  # Portugal: not Galicia's list
    # The room's profile (CM's twin, on the Galician regulation) is in Galicia.
    refused(room.app, "patron_excluded", room.join, card, room.table())
    # National lists: their latest version only.
    load(director, HEADER + f"{NUMBER},x,\n", version="2026-01-01")
    load(director, HEADER + "99999999R,x,\n", version="2026-02-01")
    assert check_patron(pid(card), "").result == "clear"
    assert check_patron(pid(card), "").lists == ("rgiaj 2026-02-01",)
    assert check_patron(pid(room.new_player()), "GA").result == "not_identified"


def test_a_version_another_process_imported_is_seen_at_the_next_check(room, director):
    """The lists that apply are kept in the process, stamped with the lists'
    count and highest id: a version saved by another process (here written
    without the model's signals, as another process's save reaches none of
    ours) is read at the next check."""
    card = room.new_player()
    identify(card)
    load(director, HEADER + f"{NUMBER},x,\n")
    assert check_patron(pid(card), "").result == "excluded"
    assert check_patron(pid(card), "").result == "excluded"  # from what the process kept
    # A newer version, without the patron, saved elsewhere.
    ExclusionList.objects.bulk_create(
        [
            ExclusionList(
                source="rgiaj",
                version=date(2026, 12, 1),
                imported_at=datetime(2026, 12, 1, 9, 0, tzinfo=UTC),
                imported_by="elsewhere",
            )
        ]
    )
    found = check_patron(pid(card), "")
    assert (found.result, found.lists) == ("clear", ("rgiaj 2026-12-01",))
    # And one deleted here is forgotten at once (the model's signal).
    ExclusionList.objects.filter(version=date(2026, 12, 1)).delete()
    assert check_patron(pid(card), "").result == "excluded"


def test_self_exclusion_goes_on_the_house_list_at_once(room, api_as):
    app = room.app
    table_id = open_table(room)
    seat = None  # drawn: the draw is still open
    card = room.new_player()
    identify(card)
    jefe = api_as("jaime-s", "jefe_sector")
    url = f"/api/players/{pid(card)}/self-exclusion/"
    answer = jefe.post(url, {"command_id": new_id()}, format="json")
    assert answer.status_code == 201, answer.content
    assert jefe.post(url, {"command_id": new_id()}, format="json").status_code == 409
    error = refused(app, "patron_excluded", room.sit, table_id, card, seat)
    assert error.params["list"] == "house"
    # The same document under another card: refused by the house list.
    PatronIdentity.objects.filter(player_id=pid(card)).delete()
    other = room.new_player()
    identify(other)
    refused(app, "patron_excluded", room.sit, table_id, other, seat)
    assert ExclusionList.objects.get().source == "house"
    # The dealer may not.
    crupier = api_as("cris-s", "crupier")
    assert crupier.post(url, {"command_id": new_id()}, format="json").status_code == 403


def test_a_document_recorded_after_a_self_exclusion_goes_on_the_house_list(room, make_user):
    """Self-exclusion asked at the room goes on the house list at once (issue
    25, item 2), whether the patron shows their document before or after
    asking: a document recorded (or replaced) for a self-excluded patron is
    put on the house list as it is recorded, so the same document, or the
    same name and birth date, under another card is refused."""
    from floor.compliance.exclusions import exclude_self
    from floor.compliance.identity import record_identity

    cage = make_user("carla-sx", "cajero")

    def record(card: str, number: str = NUMBER) -> None:
        record_identity(
            cage,
            new_id(),
            player=card,
            document_type="dni",
            document_number=number,
            country="ES",
            full_name=NAME,
            birth_date=BORN.isoformat(),
        )

    app = room.app
    table_id = open_table(room)
    first = room.new_player()
    exclude_self(cage, new_id(), player=first)
    assert not ExclusionEntry.objects.exists()
    record(first)
    (entry,) = ExclusionEntry.objects.all()
    assert entry.exclusion_list.source == "house"
    assert (str(entry.player_id), entry.document_number) == (pid(first), NUMBER)
    assert entry.exclusion_list.row_count == 1
    # Recorded again, one entry; replaced by another document, both are kept
    # (both go when the self-exclusion is lifted).
    record(first)
    assert ExclusionEntry.objects.count() == 1
    record(first, "00000001R")
    assert sorted(ExclusionEntry.objects.values_list("document_number", flat=True)) == [
        "00000001R",
        NUMBER,
    ]
    # Another card with another document, the same name and birth date: a possible match.
    second = room.new_player()
    record(second, "00000002W")
    refused(app, "possible_exclusion", room.sit, table_id, second, None)
    # The first document under a third card once the first patron's row is gone
    # (the house list keeps its own copy): refused.
    PatronIdentity.objects.filter(player_id=pid(first)).delete()
    third = room.new_player()
    record(third)
    error = refused(app, "patron_excluded", room.sit, table_id, third, None)
    assert error.params["list"] == "house"


def test_the_director_uploads_a_list_over_the_api(room, api_as):
    from django.core.files.uploadedfile import SimpleUploadedFile

    def upload(client, content: bytes, **fields):
        body = {"command_id": new_id(), "source": "rgiaj", "version": "2026-11-01", **fields}
        if content is not None:
            body["file"] = SimpleUploadedFile("list.csv", content, "text/csv")
        return client.post("/api/exclusion-lists/", body, format="multipart")

    # A Latin-1 file, as older systems write them, with a custom mapping.
    latin = "DNI;NOMBRE;FNAC\n12345678Z;Lucía Pérez;17/05/1980\nX;;\n".encode("latin-1")
    mapping = "document=DNI;name=NOMBRE;birth_date=FNAC;date_format=%d/%m/%Y;delimiter=semicolon"
    jefe = api_as("jaime-u", "jefe_sector")
    assert upload(jefe, latin, mapping=mapping).status_code == 403
    boss = api_as("dora-u", "director")
    answer = upload(boss, latin, mapping=mapping)
    assert answer.status_code == 201, answer.content
    assert answer.json()["result"]["rows"] == 2 and answer.json()["result"]["bad_rows"] == 0
    assert ExclusionEntry.objects.filter(name_key="LUCIA PEREZ").exists()
    # Every bad input a 4xx with its code, recording nothing.
    for content, fields, status, code in (
        (latin, {"mapping": mapping}, 409, "list_version_exists"),
        (None, {}, 400, None),
        (b"a,b\n1,2\n", {"version": "2026-12-01"}, 400, "exclusion_columns_missing"),
        (HUGE_FIELD, {"version": "2026-12-01"}, 400, "exclusion_file_unreadable"),
        (
            latin,
            {"version": "2026-12-01", "mapping": "colour=red"},
            400,
            "exclusion_mapping_invalid",
        ),
        (latin, {"version": "2026-13-01"}, 400, "list_version_invalid"),
        (latin, {"source": "regional", "version": "2026-12-01"}, 400, "exclusion_region_required"),
    ):
        before = room.app.recorder.max_notification_id()
        answer = upload(boss, content, **fields)
        assert answer.status_code == status, (code, answer.content)
        if code:
            assert answer.json()["code"] == code
        assert room.app.recorder.max_notification_id() == before
    assert ExclusionList.objects.count() == 1


def test_the_inspector_reads_the_checks_in_the_patrons_history(room, director, api_as):
    table_id = open_table(room)
    card = room.new_player()
    identify(card)
    load(director, HEADER + "99999999R,Somebody,1970-01-01\n")
    room.sit(table_id, card)
    runtime.floor_projector().catch_up()
    inspector = api_as("ines-h", "inspector")
    answer = inspector.get(f"/api/players/{pid(card)}/history/")
    assert answer.status_code == 200
    assert "ExclusionChecked" in answer.content.decode()
    assert "rgiaj 2026-11-01" in answer.content.decode()
    assert NUMBER not in answer.content.decode()
