"""Every role against every endpoint, and each role kept in its place.

The matrix walks the committed schema (docs/openapi.yaml, which a test keeps
equal to the generated one): every operation, as each role and as nobody.
Reads answer every logged-in role but the reports, which answer their readers
(403 to the rest); a command answers 403 role_not_allowed, before its body is
read, to a role that may not issue it, and never 403 to one that may. What
the issue asks of each role is then checked on the matrix itself: the
inspector changes nothing, the cage runs no table, a dealer only reports at a
table. Then the scope: a jefe acts on the sector they run, a
dealer on the table they deal, through the API and the console alike.
"""

from __future__ import annotations

import re
from pathlib import Path
from uuid import uuid4

import pytest
import yaml
from django.conf import settings
from django.test import Client
from django.urls import resolve
from rest_framework.test import APIClient

from floor import runtime
from floor.domain.errors import DomainError
from floor.domain.roles import COMMAND_ROLES, Actor, Role
from tests.floor.test_balancing import group_of, two_tables
from tests.support.floor import DIRECTOR, JEFE, new_id
from tests.support.money import open_cage
from tests.support.room import Room, all_events

pytestmark = pytest.mark.django_db

SCHEMA = yaml.safe_load((Path(settings.BASE_DIR) / "docs" / "openapi.yaml").read_text())
PEOPLE = {
    "director": "dora",
    "jefe_sector": "jaime",
    "cajero": "carla",
    "crupier": "cris",
    "inspector": "ines",
}
OPERATIONS = [
    (method, path)
    for path, operations in SCHEMA["paths"].items()
    for method in operations
    if not path.startswith("/api/auth/")  # logging in, not the floor (test_login.py)
]
COMMANDS = [(m, p) for m, p in OPERATIONS if m == "post"]


@pytest.fixture
def floor(floor_app, make_user):
    """Sector A run by jaime, its table dealt by cris; a player; a client per role."""
    room = Room(floor_app, tag="RM")
    table_id, cards = room.drawn_table(4)
    floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=room.sector_id, jefes=["jaime"])
    runtime.floor_projector().catch_up()
    clients = {"nobody": APIClient()}
    for role, username in PEOPLE.items():
        client = APIClient()
        client.force_authenticate(make_user(username, role))
        clients[role] = client
    ids = {
        "sector_id": room.sector_id,
        "table_id": table_id,
        "player_id": room.player(cards[0]).id,
        "seated": sorted(room.seats(table_id)),
        "card": cards[1],
        "free_seat": min(set(range(1, 11)) - set(room.seats(table_id))),
    }
    return room, clients, ids


def url_of(path: str, ids: dict) -> str:
    """The path with real ids where the floor has them, fresh ones elsewhere."""

    def fill(match: re.Match) -> str:
        name = match.group(1)
        if name == "day":
            return "2026-11-22"
        return str(ids.get(name, uuid4()))

    return re.sub(r"\{(\w+)\}", fill, path)


def command_of(path: str) -> str:
    """The floor command a POST endpoint runs (its view names it)."""
    view = resolve(url_of(path, {})).func.view_class
    return view.command


def allowed(path: str) -> set[str]:
    return {str(role) for role in COMMAND_ROLES[command_of(path)]}


def readers_of(path: str) -> set[str]:
    """Who may read a GET endpoint: a report names its readers, the rest any role."""
    view = resolve(url_of(path, {})).func.view_class
    readers = getattr(view, "readers", None)
    return set(PEOPLE) if readers is None else {str(role) for role in readers}


def test_management_and_the_inspector_read_the_reports_the_dealer_does_not():
    reports = [p for m, p in OPERATIONS if m == "get" and p.startswith("/api/reports/")]
    assert len(reports) >= 5
    for path in reports:
        readers = readers_of(path)
        assert {"director", "inspector"} <= readers and "crupier" not in readers, path


def test_every_command_endpoint_names_a_command_with_its_roles():
    assert len(COMMANDS) > 40
    for _method, path in COMMANDS:
        assert command_of(path) in COMMAND_ROLES, path


def test_the_matrix(floor):
    _room, clients, ids = floor
    wrong = []
    for method, path in OPERATIONS:
        url = url_of(path, ids)
        for who, client in clients.items():
            if method == "get":
                # The history asks for its subject; every other read answers bare.
                query = {"table": ids["table_id"]} if path == "/api/reports/history/" else {}
                response = client.get(url, query)
                if who == "nobody":
                    expected = {401}
                elif who in readers_of(path):
                    expected = {200, 404}
                else:
                    expected = {403}
                if response.status_code not in expected:
                    wrong.append(f"{who} GET {path}: {response.status_code}")
                continue
            response = client.post(url, {"command_id": new_id()}, format="json")
            status = response.status_code
            if who == "nobody":
                ok = status == 401
            elif who in allowed(path):
                ok = status != 403 and status < 500
            else:
                ok = status == 403 and response.json()["code"] == "role_not_allowed"
            if not ok:
                wrong.append(f"{who} POST {path}: {status} {response.content[:120]!r}")
    assert wrong == []


def commands_for(role: str) -> set[str]:
    return {path for _m, path in COMMANDS if role in allowed(path)}


def test_the_inspector_changes_nothing():
    assert commands_for("inspector") == set()


def test_the_cage_moves_money_but_runs_no_table():
    cage = commands_for("cajero")
    assert cage, "the cage has commands"
    assert all(p.startswith("/api/cage/") or p == "/api/players/" for p in cage), cage
    assert (
        "/api/cage/cash-outs/" in cage and "/api/cage/tray-requests/{request_id}/confirm/" in cage
    )


def test_a_dealer_only_reports_at_a_table():
    dealer = commands_for("crupier")
    assert all(p.startswith(("/api/tables/{table_id}/", "/api/jackpots/{")) for p in dealer)
    assert "/api/tables/{table_id}/hands/end/" in dealer
    assert not {"/api/tables/{table_id}/seat/", "/api/tables/{table_id}/draw/"} & dealer


def test_the_director_configures_and_does_not_run_tables():
    director = commands_for("director")
    assert {"/api/sectors/", "/api/sectors/{sector_id}/jefes/", "/api/jackpots/create/"} <= director
    assert not {p for p in director if p.startswith("/api/tables/")} - {
        "/api/tables/{table_id}/dealer/"
    }


def test_the_jefe_runs_tables_but_moves_no_money():
    jefe = commands_for("jefe_sector")
    assert "/api/tables/{table_id}/draw/" in jefe and "/api/sectors/{sector_id}/tables/" in jefe
    assert not {p for p in jefe if p.startswith("/api/cage/")} - {
        "/api/cage/tray-requests/{request_id}/cancel/"
    }


# --- the scope: one's own sector, one's own table ---------------------------------


def post(client, url: str, **body):
    return client.post(url, {"command_id": new_id(), **body}, format="json")


@pytest.fixture
def other_staff(make_user):
    """julia, a jefe who does not run sector A; carlos, a dealer at no table of it."""
    clients = {}
    for username, role in (("julia", "jefe_sector"), ("carlos", "crupier")):
        client = APIClient()
        client.force_authenticate(make_user(username, role))
        clients[username] = client
    return clients


def test_a_jefe_acts_only_on_the_sector_they_run(floor, other_staff):
    room, clients, ids = floor
    url = f"/api/tables/{ids['table_id']}/rest/"
    before = len(all_events(room.app))
    refused = post(other_staff["julia"], url, player=ids["card"])
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_sector")
    assert "jaime" in refused.json()["message"]
    assert len(all_events(room.app)) == before  # a refused command records nothing
    assert post(clients["jefe_sector"], url, player=ids["card"]).status_code == 201


def test_a_sector_whose_jefes_were_never_named_is_any_jefes(floor_app, other_staff):
    room = Room(floor_app, tag="OPEN")
    table_id, cards = room.drawn_table(4)
    runtime.floor_projector().catch_up()
    answer = post(other_staff["julia"], f"/api/tables/{table_id}/rest/", player=cards[0])
    assert answer.status_code == 201, answer.content


def test_a_dealer_acts_only_at_their_table(floor, other_staff):
    _room, clients, ids = floor
    url = f"/api/tables/{ids['table_id']}/hands/start/"
    refused = post(other_staff["carlos"], url, dealt_in=ids["seated"])
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_table")
    assert post(clients["crupier"], url, dealt_in=ids["seated"]).status_code == 201


def test_the_jefe_names_the_dealer_and_the_director_the_jefes(floor, other_staff):
    _room, clients, ids = floor
    moved = post(clients["jefe_sector"], f"/api/tables/{ids['table_id']}/dealer/", dealer="carlos")
    assert moved.status_code == 201 and moved.json()["table"]["dealer"] == "carlos"
    assert (
        post(
            other_staff["carlos"],
            f"/api/tables/{ids['table_id']}/hands/start/",
            dealt_in=ids["seated"],
        ).status_code
        == 201
    )
    unknown = post(clients["jefe_sector"], f"/api/tables/{ids['table_id']}/dealer/", dealer="ines")
    assert (unknown.status_code, unknown.json()["code"]) == (400, "invalid_input")
    jefes = post(clients["director"], f"/api/sectors/{ids['sector_id']}/jefes/", jefes=["julia"])
    assert jefes.status_code == 201 and jefes.json()["sector"]["jefes"] == ["julia"]
    refused = post(
        clients["jefe_sector"], f"/api/tables/{ids['table_id']}/call-next/", seat=ids["free_seat"]
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_sector")
    assert (
        post(other_staff["julia"], f"/api/sectors/{ids['sector_id']}/jefes/", jefes=[]).json()[
            "code"
        ]
        == "role_not_allowed"
    )


def test_the_console_is_read_only_outside_ones_sector(floor, make_user):
    _room, _clients, ids = floor
    make_user("julia", "jefe_sector", password="pa55-word-ok")
    browser = Client()
    assert browser.login(username="julia", password="pa55-word-ok")
    page = browser.get(f"/sectors/{ids['sector_id']}/").content.decode()
    assert 'data-testid="read-only"' in page and '<fieldset class="plain" disabled>' in page
    answer = browser.post(
        "/console/commands/call_next/",
        {"command_id": new_id(), "table_id": ids["table_id"], "seat": str(ids["free_seat"])},
        HTTP_ACCEPT="application/json",
    )
    assert (answer.status_code, answer.json()["code"]) == (403, "not_your_sector")
    table_page = browser.get(f"/tables/{ids['table_id']}/").content.decode()
    assert 'data-testid="read-only"' in table_page


def test_the_jefe_of_the_sector_gets_the_commands(floor, make_user):
    _room, _clients, ids = floor
    browser = Client()
    user = make_user("jaime2", "jefe_sector", password="pa55-word-ok")
    runtime.floor_app().assign_jefes(
        DIRECTOR, new_id(), sector_id=ids["sector_id"], jefes=["jaime", user.username]
    )
    runtime.floor_projector().catch_up()
    assert browser.login(username="jaime2", password="pa55-word-ok")
    page = browser.get(f"/sectors/{ids['sector_id']}/").content.decode()
    assert 'data-testid="read-only"' not in page and "jaime, jaime2" in page


def test_only_the_clock_fires_deadlines():
    clock_only = {c for c, roles in COMMAND_ROLES.items() if Role.CLOCK in roles}
    assert clock_only and all(COMMAND_ROLES[c] == (Role.CLOCK,) for c in clock_only)


# --- the console pages: every role reads them, only its own forms act -------------


def test_every_console_page_as_every_role(floor, make_user):
    """Each page answers every logged-in role (the inspector reads everything) and
    sends nobody to log in but from the public board; the forms shown are the
    role's own: the cash-out form to the cage, the table's commands to the jefe who
    runs its sector."""
    _room, _clients, ids = floor
    pages = [
        "/",
        f"/sectors/{ids['sector_id']}/",
        f"/sectors/{ids['sector_id']}/live/",
        f"/tables/{ids['table_id']}/",
        f"/tables/{ids['table_id']}/live/",
        "/cage/",
        "/cage/live/",
    ]
    wrong = []
    for page in [*pages, "/board/"]:
        status = Client().get(page).status_code
        expected = 200 if page == "/board/" else 302
        if status != expected:
            wrong.append(f"nobody GET {page}: {status}")
    for role, username in PEOPLE.items():
        browser = Client()
        make_user(f"{username}-web", role, password="pa55-word-ok")
        if role == "jefe_sector":
            runtime.floor_app().assign_jefes(
                DIRECTOR, new_id(), sector_id=ids["sector_id"], jefes=["jaime", "jaime-web"]
            )
            runtime.floor_projector().catch_up()
        assert browser.login(username=f"{username}-web", password="pa55-word-ok")
        for page in pages:
            status = browser.get(page).status_code
            if status != 200:
                wrong.append(f"{role} GET {page}: {status}")
        cage = browser.get(f"/cage/?card={ids['card']}").content.decode()
        if ('data-command="cash_out"' in cage) != (role == "cajero"):
            wrong.append(f"{role} sees the cash-out form: {role != 'cajero'}")
        sector_page = browser.get(f"/sectors/{ids['sector_id']}/").content.decode()
        runs_it = role in ("jefe_sector", "director")
        if ('data-testid="read-only"' in sector_page) == runs_it:
            wrong.append(f"{role} read-only on the sector page: {not runs_it}")
    assert wrong == []


# --- the scope of what a command changes, whatever it names ------------------------

JULIA = Actor("julia", frozenset({Role.JEFE_SECTOR}))


def refused_outside(room: Room, call, **kwargs) -> None:
    """``call`` as julia, who does not run the room's sector: refused, nothing kept."""
    before = len(all_events(room.app))
    with pytest.raises(DomainError) as refusal:
        call(JULIA, new_id(), **kwargs)
    assert refusal.value.code == "not_your_sector"
    assert len(all_events(room.app)) == before


@pytest.fixture
def run_by_jaime(floor_app) -> Room:
    room = Room(floor_app, tag="SC")
    floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=room.sector_id, jefes=["jaime"])
    return room


def test_a_jefe_draws_no_table_of_another_sector(run_by_jaime):
    room = run_by_jaime
    table_id = room.table()
    for card in room.new_players(4):
        room.join(card, table_id)
    refused_outside(room, room.app.draw_seats, table_ids=[table_id])
    room.app.draw_seats(JEFE, new_id(), table_ids=[table_id])
    assert len(room.seats(table_id)) == 4


def test_a_jefe_cancels_no_fill_of_another_sector(run_by_jaime):
    room = run_by_jaime
    table_id = room.table()
    open_cage(room.app)
    asked = room.app.request_tray_move(
        JEFE, new_id(), table_id=table_id, move="fill", amount_cents=10_000
    )
    request_id = asked.result["request_id"]
    refused_outside(room, room.app.cancel_tray_move, request_id=request_id, reason="no")
    room.app.cancel_tray_move(JEFE, new_id(), request_id=request_id, reason="not needed")


def test_a_jefe_moves_no_player_of_another_sector(run_by_jaime):
    room = run_by_jaime
    a, b = two_tables(room)
    for card in list(room.seats(b).values())[:2]:
        room.leave(b, card)
    group = group_of(room, a)
    proposal = group.proposal
    assert proposal is not None
    refused_outside(room, room.app.accept_move, group_id=str(group.id), proposal_id=proposal["id"])
    room.app.accept_move(JEFE, new_id(), group_id=str(group.id), proposal_id=proposal["id"])
    assert [room.get(t).player_count for t in (a, b)] == [4, 4]
