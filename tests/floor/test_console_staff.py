"""Who runs what, from the sector's console [GA art. 19.1]: the director names
a sector's jefes, the jefe who runs it (or the director) names a table's
dealer. Each form is offered only to whom the command allows; posting it runs
the command and the live part shows the names; a bad name is answered inline
and records nothing.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from floor import runtime
from floor.models import SectorView, TableView
from tests.support.floor import DIRECTOR, new_id
from tests.support.room import Room, all_events

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
PASSWORD = "pa55-word-ok"


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="ST")


@pytest.fixture
def staff(make_user):
    """The room's people, each a logged-in client by name."""
    roles = {
        "dora": "director",
        "jaime": "jefe_sector",
        "julia": "jefe_sector",
        "cris": "crupier",
        "carmen": "crupier",
        "ines": "inspector",
    }
    clients = {}
    for username, role in roles.items():
        make_user(username, role, password=PASSWORD)
        clients[username] = Client()
        assert clients[username].login(username=username, password=PASSWORD)
    return clients


def command(client: Client, name: str, **fields) -> tuple[int, dict]:
    response = client.post(f"/console/commands/{name}/", {"command_id": new_id(), **fields}, **JSON)
    return response.status_code, response.json()


def console(client: Client, room: Room) -> str:
    runtime.floor_projector().catch_up()
    response = client.get(f"/sectors/{room.sector_id}/")
    assert response.status_code == 200
    return response.content.decode()


def live(client: Client, room: Room) -> str:
    runtime.floor_projector().catch_up()
    return client.get(f"/sectors/{room.sector_id}/live/").content.decode()


def forms(content: str) -> set[str]:
    return set(re.findall(r'data-command="(\w+)"', content))


def test_the_director_names_the_sector_s_jefes_from_its_console(room, staff):
    room.table()
    director = staff["dora"]
    content = console(director, room)
    assert "assign_jefes" in forms(content)
    assert 'name="jefes" value="jaime"' in content and 'name="jefes" value="julia"' in content

    status, answer = command(
        director, "assign_jefes", sector_id=room.sector_id, jefes=["julia", "jaime"]
    )

    assert status == 201
    assert answer == {"ok": True, "message": "Se han nombrado los jefes del sector."}
    assert SectorView.objects.get(id=room.sector_id).jefes == ["jaime", "julia"]
    shown = live(director, room)
    assert 'data-testid="jefes-named">Jefes de sector: <b>jaime, julia</b>' in shown
    assert 'value="jaime" checked' in shown and 'value="julia" checked' in shown
    home = director.get("/").content.decode()
    assert "jaime, julia" in home

    # None ticked: any jefe runs it again (the hidden empty value is the empty list).
    status, _ = command(director, "assign_jefes", sector_id=room.sector_id, jefes=[""])
    assert status == 201
    runtime.floor_projector().catch_up()
    assert SectorView.objects.get(id=room.sector_id).jefes == []


def test_a_name_that_is_no_jefe_is_refused_inline_and_records_nothing(room, staff):
    before = len(all_events(room.app))

    status, answer = command(
        staff["dora"], "assign_jefes", sector_id=room.sector_id, jefes=["cris"]
    )

    assert status == 400 and answer["ok"] is False
    assert answer["fields"]["jefes"] == "No hay ningún jefe de sector llamado cris."
    assert len(all_events(room.app)) == before


def test_only_the_director_names_jefes(room, staff):
    room.table()
    for name in ("jaime", "ines"):
        content = console(staff[name], room)
        assert "assign_jefes" not in forms(content)
        assert 'data-testid="sector-jefes-panel"' not in content
    status, answer = command(staff["jaime"], "assign_jefes", sector_id=room.sector_id, jefes=[""])
    assert status == 403 and answer["ok"] is False


def test_the_jefe_names_a_table_s_dealer_on_its_card(room, staff):
    table_id = room.table()  # dealt by cris
    jefe = staff["jaime"]
    content = console(jefe, room)
    assert "assign_dealer" in forms(content)
    assert '<b data-testid="dealer-name">cris</b>' in content
    assert '<option value="carmen">carmen</option>' in content
    assert '<option value="cris" selected>cris</option>' in content

    status, answer = command(jefe, "assign_dealer", table_id=table_id, dealer="carmen")

    assert status == 201
    assert answer == {"ok": True, "message": "Se ha nombrado el crupier de la mesa."}
    assert TableView.objects.get(id=table_id).dealer == "carmen"
    assert '<b data-testid="dealer-name">carmen</b>' in live(jefe, room)
    # Nobody: the jefe reports the hands.
    status, _ = command(jefe, "assign_dealer", table_id=table_id, dealer="")
    assert status == 201
    assert 'data-testid="no-dealer"' in live(jefe, room)


def test_a_dealer_who_is_no_crupier_is_refused_inline_and_records_nothing(room, staff):
    table_id = room.table()
    before = len(all_events(room.app))

    status, answer = command(staff["jaime"], "assign_dealer", table_id=table_id, dealer="julia")

    assert status == 400 and answer["ok"] is False
    assert answer["fields"]["dealer"] == "No hay ningún crupier llamado julia."
    assert len(all_events(room.app)) == before
    runtime.floor_projector().catch_up()
    assert TableView.objects.get(id=table_id).dealer == "cris"


def test_the_dealer_form_is_only_for_who_runs_the_sector(room, staff):
    table_id = room.table()
    # The director names julia: jaime now reads the sector but may not name its dealers.
    room.app.assign_jefes(
        DIRECTOR,
        new_id(),
        sector_id=room.sector_id,
        jefes=["julia"],
    )
    assert "assign_dealer" in forms(console(staff["julia"], room))
    assert "assign_dealer" in forms(console(staff["dora"], room))
    for name in ("ines",):
        content = console(staff[name], room)
        assert "assign_dealer" not in forms(content)
        assert '<b data-testid="dealer-name">cris</b>' in content  # read, not named
    status, answer = command(staff["jaime"], "assign_dealer", table_id=table_id, dealer="carmen")
    assert status == 403 and answer["code"] == "not_your_sector"
    # The dealer's own tablet says who deals once, with no form.
    tablet = staff["cris"].get(f"/tables/{table_id}/").content.decode()
    assert "assign_dealer" not in forms(tablet)
