"""The register of refused attempts (issue 25, item 2): an excluded patron, or
a possible match not yet resolved, refused at a door leaves one
ExclusionRefusal row outside the event log (who, where, when, what the lists
said and which versions, who was at the desk under which role, the command
id), and nothing in the log, as every refused command. A retried command id
is one attempt. The director and the inspector read them
(GET /api/reports/exclusion-refusals/, JSON or CSV), never the jefe or the
cage; the director's export of the patron's data lists them."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta

import pytest

from floor.application.player_self import player_username
from floor.compliance.exclusions import import_list
from floor.kernel.errors import DomainError
from floor.kernel.roles import Actor, Role
from floor.kernel.web.gateway import perform_as
from floor.models import ExclusionRefusal, PatronIdentity
from tests.support.floor import new_id
from tests.support.money import CAJERO, open_cage
from tests.support.room import Room, pid

pytestmark = pytest.mark.django_db

NUMBER, NAME, BORN = "12345678Z", "Lucía Pérez Souto", date(1980, 5, 17)
HEADER = "document_number,full_name,birth_date\n"
REPORT = "/api/reports/exclusion-refusals/"


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="RF")


@pytest.fixture
def director(make_user):
    return make_user("dora", "director")


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


def load(director, body: str, version: str = "2026-11-01") -> None:
    import_list(
        director, new_id(), source="rgiaj", version=version, data=body.encode(), mapping=None
    )


def seat(client, table_id: str, card: str, command_id: str):
    return client.post(
        f"/api/tables/{table_id}/seat/",
        {"command_id": command_id, "player": card},
        format="json",
    )


def test_a_refused_seating_keeps_one_row_and_records_no_event(room, director, api_as, clock):
    app = room.app
    table_id = room.drawn_table(4)[0]
    card = room.new_player()
    identify(card)
    load(director, HEADER + "12345678Z,Someone Else,1970-01-01\n")
    jefe = api_as("jaime-r", "jefe_sector")
    before = app.recorder.max_notification_id()
    command_id = new_id()
    clock.advance(timedelta(minutes=5))

    answer = seat(jefe, table_id, card, command_id)

    assert answer.status_code == 409, answer.content
    assert answer.json()["code"] == "patron_excluded"
    assert app.recorder.max_notification_id() == before  # nothing in the log
    row = ExclusionRefusal.objects.get()
    assert (str(row.player_id), row.door, row.result, row.lists) == (
        pid(card),
        "seating",
        "excluded",
        ["rgiaj 2026-11-01"],
    )
    assert (row.command, row.command_id, row.actor, row.actor_role) == (
        "seat_player",
        command_id,
        "jaime-r",
        "jefe_sector",
    )
    assert row.at == datetime(2026, 11, 22, 20, 5, tzinfo=UTC)  # the floor's clock

    # The same command retried: refused again, one attempt kept.
    again = seat(jefe, table_id, card, command_id)
    assert again.status_code == 409
    assert ExclusionRefusal.objects.count() == 1
    assert app.recorder.max_notification_id() == before
    # Another command id is another attempt.
    assert seat(jefe, table_id, card, new_id()).status_code == 409
    assert ExclusionRefusal.objects.count() == 2


def test_the_players_phone_and_the_cage_are_kept_too(room, director):
    """A possible match refused on the player's phone (told only to ask at the
    desk) and an excluded patron refused at the cage: both kept, through the
    one gateway every command passes."""
    app = room.app
    open_cage(app)
    table_id = room.table()
    maybe, listed = room.new_player(), room.new_player()
    identify(maybe, number="87654321X")
    identify(listed, number="00000001R")
    load(director, HEADER + ",LUCIA PEREZ SOUTO,1980-05-17\n00000001R,X,1970-01-01\n")
    before = app.recorder.max_notification_id()

    phone = Actor(player_username(maybe), frozenset({Role.PLAYER}))
    with pytest.raises(DomainError) as refused:
        perform_as(phone, "join_waiting_list", "phone-1", player=maybe, table_id=table_id)
    assert (refused.value.code, refused.value.params) == ("ask_at_the_desk", {})
    with pytest.raises(DomainError) as refused:
        perform_as(CAJERO, "sell_chips", "cage-1", player=listed, amount_cents=500)
    assert refused.value.code == "patron_excluded"

    assert app.recorder.max_notification_id() == before
    rows = {r.command_id: r for r in ExclusionRefusal.objects.all()}
    assert set(rows) == {"phone-1", "cage-1"}
    phoned, caged = rows["phone-1"], rows["cage-1"]
    assert (phoned.door, phoned.result, phoned.actor_role, phoned.lists) == (
        "waiting_list",
        "possible",
        "player",
        ["rgiaj 2026-11-01"],
    )
    assert (caged.door, caged.result, caged.command, caged.actor_role) == (
        "cage",
        "excluded",
        "sell_chips",
        "cajero",
    )
    # A refusal that is not the lists' keeps nothing.
    with pytest.raises(DomainError):
        perform_as(CAJERO, "sell_chips", "cage-2", player=listed, amount_cents=-1)
    assert ExclusionRefusal.objects.count() == 2


def test_only_the_director_and_the_inspector_read_the_refusals(room, director, api_as):
    table_id = room.drawn_table(4)[0]
    card, other = room.new_player(), room.new_player()
    identify(card)
    load(director, HEADER + "12345678Z,Someone Else,1970-01-01\n")
    jefe = api_as("jaime-q", "jefe_sector")
    first, second, third = new_id(), new_id(), new_id()
    assert seat(jefe, table_id, card, first).status_code == 409
    assert seat(jefe, table_id, card, second).status_code == 409
    # Another patron's refusal, a day later.
    identify(other, number="00000001R")
    load(director, HEADER + "00000001R,X,1970-01-01\n", version="2026-11-02")
    room.app.clock.advance(timedelta(days=1))
    assert seat(jefe, table_id, other, third).status_code == 409

    for role in ("jefe_sector", "cajero", "crupier"):
        client = api_as(f"who-{role}", role)
        answer = client.get(REPORT)
        assert (answer.status_code, answer.json()["code"]) == (403, "role_not_allowed"), role
    inspector = api_as("ines-q", "inspector")
    every = inspector.get(REPORT).json()
    assert every["count"] == 3
    assert [r["command_id"] for r in every["results"]] == [first, second, third]
    assert every["results"][0]["card_number"] == card
    assert NUMBER not in str(every) and NAME not in str(every)
    # One patron; one day (the range is the attempt's time).
    mine = inspector.get(REPORT, {"player": str(pid(card))}).json()
    assert [r["command_id"] for r in mine["results"]] == [first, second]
    day = inspector.get(REPORT, {"from": "2026-11-23", "to": "2026-11-23"}).json()
    assert [r["command_id"] for r in day["results"]] == [third]
    assert inspector.get(REPORT, {"player": "not-a-uuid"}).status_code == 400

    boss = api_as("dora-q", "director")
    answer = boss.get(REPORT, {"format": "csv", "player": str(pid(card))})
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert [(r["door"], r["result"], r["lists"], r["actor"], r["actor_role"]) for r in rows] == [
        ("seating", "excluded", '["rgiaj 2026-11-01"]', "jaime-q", "jefe_sector")
    ] * 2
    assert rows[0]["command"] == "seat_player" and rows[0]["card_number"] == card

    # The director's export of the patron's data lists them.
    export = boss.get(f"/api/players/{pid(card)}/personal-data/").json()
    assert [r["command_id"] for r in export["exclusion_refusals"]] == [first, second]
    assert export["exclusion_refusals"][0]["door"] == "seating"


def test_a_refusal_is_answered_even_when_its_row_cannot_be_written(
    room, director, api_as, monkeypatch, caplog
):
    """The register never hides the refusal: a failure to write the row is
    logged, and the jefe still reads 409 patron_excluded."""
    from django.db import DatabaseError

    table_id = room.drawn_table(4)[0]
    card = room.new_player()
    identify(card)
    load(director, HEADER + "12345678Z,Someone Else,1970-01-01\n")

    def broken(**_):
        raise DatabaseError("disk full")

    monkeypatch.setattr(ExclusionRefusal.objects, "create", broken)
    answer = seat(api_as("jaime-z", "jefe_sector"), table_id, card, new_id())
    assert (answer.status_code, answer.json()["code"]) == (409, "patron_excluded")
    assert "a refused attempt could not be kept" in caplog.text
    assert ExclusionRefusal.objects.count() == 0
