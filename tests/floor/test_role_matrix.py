"""Every role against every endpoint, and each role kept in its place.

The commands' matrix walks the committed schema (docs/openapi.yaml, which a
test keeps equal to the generated one): every POST, as each role and as
nobody. A command answers 403 role_not_allowed, before its body is read, to a
role that may not issue it, and never 403 to one that may. What the issue asks
of each role is then checked on the matrix itself: the inspector changes
nothing, the cage runs no table, a dealer only reports at a table. Then the
scope: a jefe acts on the sector they run, a dealer on the table they deal,
through the API and the console alike.

The reads' matrix walks every URL pattern of the service (the resolver, so a
page or endpoint added later without a read rule fails here): each names the
resource it reads (floor.domain.reads), and each answers every role, in a room
of two sectors, as the table ``READ_MATRIX`` says, written out by hand.
"""

from __future__ import annotations

import re
from pathlib import Path
from uuid import uuid4

import pytest
import yaml
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from rest_framework.test import APIClient

from floor import runtime
from floor.application.catalogue import COMMAND_ROLES
from floor.domain.reads import READS
from floor.kernel.errors import DomainError
from floor.kernel.roles import Actor, Role
from ledger.models import GamingDayView, TransactionView
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


def test_every_command_endpoint_names_a_command_with_its_roles():
    assert len(COMMANDS) > 40
    for _method, path in COMMANDS:
        assert command_of(path) in COMMAND_ROLES, path


def test_the_matrix(floor):
    _room, clients, ids = floor
    wrong = []
    for _method, path in COMMANDS:
        url = url_of(path, ids)
        for who, client in clients.items():
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
    # The cage registers players, gives them their sign-in codes and keeps
    # how they are told of a call (issue 24), identifies them and takes a
    # patron's self-exclusion (issue 25).
    desk = {
        "/api/players/",
        "/api/player-sign-in-codes/",
        "/api/players/{player_id}/contact/",
        "/api/players/{player_id}/identity/",
        "/api/players/{player_id}/self-exclusion/",
    }
    assert all(p.startswith("/api/cage/") or p in desk for p in cage), cage
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
    # Naming a table's dealer is staffing, the director's too [GA art. 19.1]:
    # by name, or by the rotation's push and its override (issue 26).
    assert not {p for p in director if p.startswith("/api/tables/")} - {
        "/api/tables/{table_id}/dealer/",
        "/api/tables/{table_id}/dealer/push/",
        "/api/tables/{table_id}/dealer/override/",
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


# --- the reads: every URL, every role, one declared rule ---------------------------

# The people of the reads' room: Sector RA run by jaime, its table dealt by cris;
# Sector RB run by julia, its table dealt by carlos.
READERS = {
    "director": ("dora", "director"),
    "inspector": ("ines", "inspector"),
    "jefe_a": ("jaime", "jefe_sector"),
    "jefe_b": ("julia", "jefe_sector"),
    "cajero": ("carla", "cajero"),
    "crupier_1": ("cris", "crupier"),
    "crupier_2": ("carlos", "crupier"),
}
# Seen from Sector RB the room is the same with the names swapped.
MIRROR = {
    "jefe_a": "jefe_b",
    "jefe_b": "jefe_a",
    "crupier_1": "crupier_2",
    "crupier_2": "crupier_1",
}
# URLs that read nothing of the floor, and why.
NOT_FLOOR_READS = {
    "login": "the login form",
    "logout": "logging out (POST)",
    "set_language": "the language chosen (POST)",
    "schema": "the API's OpenAPI schema (no data)",
    "swagger-ui": "the API's documentation page (no data)",
    "api:token": "a token for a password (POST)",
    "floor:console-command": "the consoles' command door (POST)",
    "floor:console-amount": "a typed amount read back as euros (no floor data)",
    # The player's own page (issue 24): a door of its own, for a player's sign-in
    # only, reading the signed-in player's entries: tests/floor/test_player_door.py.
    "player:signin": "the player's sign-in form",
    "player:signout": "the player's signing out (POST)",
    "player:pin": "the player's PIN form",
    "player:home": "the signed-in player's own page",
    "player:live": "the signed-in player's own page, its live part",
    "player:join": "the player joining lists (POST)",
    "player:ask": "the player asking for a game no table plays (POST)",
    "player:contact": "how the player is told of a call with the page closed (POST)",
    "player:leave": "the player leaving a list (POST)",
    "player:answer": "the called player answering the call (POST)",
    "player:other-lists": "the player's choice of their other lists once seated (POST)",
    "player-desk-code": "the desk's form for a player's sign-in code (its command's roles)",
}
# Django's admin (/admin/, floor.admin): every page of it is the ``staff``
# resource, entered by whoever reads it (the director) and by superusers; its
# doors are walked in tests/floor/test_staff_admin.py.
ADMIN_NAMESPACE = "admin:"
# Reads whose roles are walked in their own tests (they need a state the
# matrix's room has not reached); their rule must still be declared.
READ_ELSEWHERE = {
    "close-report": "a closed gaming day's paper: tests/ledger/test_close_report.py",
    "metrics": "Prometheus's scrape, 401 to nobody: tests/floor/test_metrics.py",
}
# A player's history is the room's (a jefe keeps any sector's lists).
HISTORY_OF_PLAYER = {"director", "inspector", "jefe_a", "jefe_b", "cajero"}


def row(ok: str = "", sector: str = "", table: str = "", role: str = "") -> dict[str, str]:
    """What each role gets from a read naming Sector RA or its table: ``ok``,
    403 ``not_your_sector``, ``not_your_table`` or ``role_not_allowed``."""
    answers = {}
    for outcome, names in (("ok", ok), ("sector", sector), ("table", table), ("role", role)):
        answers.update(dict.fromkeys(names.split(), outcome))
    assert set(answers) == set(READERS), f"a row names every role: {sorted(answers)}"
    return answers


EVERYONE = row(ok="director inspector jefe_a jefe_b cajero crupier_1 crupier_2")
SECTORS = row(ok="director inspector jefe_a", sector="jefe_b", role="cajero crupier_1 crupier_2")
SECTOR_LISTS = row(ok="director inspector jefe_a jefe_b", role="cajero crupier_1 crupier_2")
TABLE = row(
    ok="director inspector jefe_a crupier_1", sector="jefe_b", table="crupier_2", role="cajero"
)
CAGE = row(ok="director inspector cajero", role="jefe_a jefe_b crupier_1 crupier_2")
BOOKS = row(ok="director inspector cajero jefe_a jefe_b", role="crupier_1 crupier_2")
A_FILL = row(ok="director inspector cajero jefe_a", sector="jefe_b", role="crupier_1 crupier_2")
HISTORY = row(ok="director inspector cajero jefe_a", sector="jefe_b", role="crupier_1 crupier_2")
REPORTS = row(ok="director inspector jefe_a jefe_b", role="cajero crupier_1 crupier_2")
PUBLIC = "public"

# Every read of the service, by URL name: who reads it when it names Sector RA,
# its table (table 1 of RA), a player seated there, its fill; lists name nothing.
READ_MATRIX: dict[str, dict[str, str] | str] = {
    "floor:board": PUBLIC,
    "healthz": PUBLIC,
    "floor:favicon": PUBLIC,
    "floor:home": EVERYONE,
    "api:me": EVERYONE,
    "api:tokens": EVERYONE,
    "api:lockouts": row(ok="director", role="inspector jefe_a jefe_b cajero crupier_1 crupier_2"),
    "api:sectors": SECTOR_LISTS,
    "api:sector": SECTORS,
    "api:sector-tables": SECTORS,
    "api:sector-floor": SECTORS,
    "floor:sector": SECTORS,
    "floor:sector-live": SECTORS,
    "api:tables": EVERYONE,
    "api:table": row(
        ok="director inspector jefe_a cajero crupier_1", sector="jefe_b", table="crupier_2"
    ),
    "api:table-floor": TABLE,
    "api:table-hands": TABLE,
    "floor:table": TABLE,
    "floor:table-live": TABLE,
    "api:table-history": HISTORY,
    "api:players": row(ok="director inspector jefe_a jefe_b", role="cajero crupier_1 crupier_2"),
    "api:player": row(ok="director inspector jefe_a jefe_b cajero", role="crupier_1 crupier_2"),
    "api:player-history": row(
        ok="director inspector jefe_a jefe_b cajero", role="crupier_1 crupier_2"
    ),
    # A player's hours (issue 26): the history's readers; a jefe's, at his tables.
    "api:player-hours": row(
        ok="director inspector jefe_a jefe_b cajero", role="crupier_1 crupier_2"
    ),
    # A patron's identity (issue 25): the jefe sees only whether identified
    # (tests/floor/test_patron_identity.py); the export is the director's.
    "api:player-identity": row(
        ok="director inspector jefe_a jefe_b cajero", role="crupier_1 crupier_2"
    ),
    "api:player-personal-data": row(
        ok="director", role="inspector jefe_a jefe_b cajero crupier_1 crupier_2"
    ),
    "api:waiting-lists": SECTOR_LISTS,
    "api:balance-groups": SECTOR_LISTS,
    "cage-api:jackpots": EVERYONE,
    "cage-api:cage-position": CAGE,
    "cage-api:gaming-days": CAGE,
    "cage-api:gaming-day": CAGE,
    "cage-console": CAGE,
    "cage-live": CAGE,
    "cage-api:accounts": BOOKS,
    "cage-api:transactions": BOOKS,
    "cage-api:tray-requests": BOOKS,
    "cage-api:transaction": A_FILL,
    "receipt": A_FILL,
    "report-tables": REPORTS,
    "report-clocks": REPORTS,
    "report-occupancy": REPORTS,
    "report-players": REPORTS,
    "report-game-hours": REPORTS,
    # Hands dealt per dealer (issue 26): a floor report, the jefe's for his sectors.
    "report-dealers": REPORTS,
    "report-waiting-lists": REPORTS,
    "report-rake": row(ok="director inspector jefe_a jefe_b cajero", role="crupier_1 crupier_2"),
    "report-cage": CAGE,
    "report-voids": CAGE,
    "report-aml": row(ok="director inspector", role="jefe_a jefe_b cajero crupier_1 crupier_2"),
    # The attempts the exclusion lists refused (issue 25): the compliance officer's.
    "report-exclusion-refusals": row(
        ok="director inspector", role="jefe_a jefe_b cajero crupier_1 crupier_2"
    ),
    "report-history": HISTORY,
    "report-table-at": SECTORS,
    # The compliance console (issue 25): the director acts, the inspector reads
    # (tests/floor/test_compliance_console.py).
    "floor:compliance": row(
        ok="director inspector", role="jefe_a jefe_b cajero crupier_1 crupier_2"
    ),
}


def url_patterns(patterns=None, prefix: str = "", namespace: str = ""):
    """Every URL pattern of the service: (its name with namespace, route, view, parameters)."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{pattern.namespace}:" if pattern.namespace else namespace
            yield from url_patterns(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}{pattern.name}"
            yield name, prefix + str(pattern.pattern), pattern.callback, pattern.pattern.converters


def resource_of(view) -> str | None:
    """The resource a view reads (its ``reads``): a class's, or a function's."""
    return getattr(getattr(view, "view_class", view), "reads", None)


def test_every_url_declares_what_it_reads():
    """A page or endpoint added without a read rule, or left out of the
    matrix below, fails here: nothing is read by default."""
    seen, wrong = set(), []
    for name, route, view, _params in url_patterns():
        if name in NOT_FLOOR_READS:
            continue
        if name.startswith(ADMIN_NAMESPACE):
            assert "staff" in READS, "the admin's rule is declared"
            continue
        view_class = getattr(view, "view_class", None)
        if view_class is not None and not hasattr(view_class, "get"):
            continue  # a command's endpoint: POST only
        resource = resource_of(view)
        if resource not in READS:
            wrong.append(f"{name} ({route}) reads {resource!r}: no rule is declared")
        if name in READ_ELSEWHERE:
            continue
        if name not in READ_MATRIX:
            wrong.append(f"{name} ({route}) is not in the reads' matrix")
        seen.add(name)
    assert wrong == []
    assert set(READ_MATRIX) == seen, set(READ_MATRIX) ^ seen


def test_the_declared_rule_is_the_matrix():
    """Who may read a resource at all (floor.domain.reads) is what the matrix
    says of the URLs that read it."""
    role_of = {who: role for who, (_name, role) in READERS.items()}
    for name, _route, view, _params in url_patterns():
        expected = READ_MATRIX.get(name)
        if not isinstance(expected, dict):
            continue
        declared = {str(role) for role in READS[resource_of(view)]}
        let_in = {role_of[who] for who, outcome in expected.items() if outcome != "role"}
        if name == "api:players":  # the cage finds players by card (its scope)
            let_in.add("cajero")
        assert let_in == declared, name


@pytest.fixture
def two_sectors(floor_app, make_user):
    """Sector RA (jaime; table 1 dealt by cris) and Sector RB (julia; its table
    dealt by carlos), each drawn and bought in, a fill booked at each; a named
    player waiting; a Django client per person."""
    room_a = Room(floor_app, tag="RA")
    table_a, cards_a = room_a.drawn_table(4)
    waiting = room_a.new_player("Benedita Quintas")
    room_a.join(waiting, table_a)
    room_b = Room(floor_app, tag="RB")
    table_b, cards_b = room_b.drawn_table(4, variant="omaha")  # its own list
    floor_app.assign_dealer(JEFE, new_id(), table_id=table_b, dealer="carlos")
    floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=room_a.sector_id, jefes=["jaime"])
    floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=room_b.sector_id, jefes=["julia"])
    runtime.floor_projector().catch_up()
    clients = {"nobody": Client()}
    for who, (username, role) in READERS.items():
        clients[who] = Client()
        clients[who].force_login(make_user(username, role))
    day = GamingDayView.objects.values_list("day", flat=True).first()

    def ids(room, table_id, cards):
        fill = TransactionView.objects.get(kind="fill", table_id=table_id)
        return {
            "sector_id": room.sector_id,
            "table_id": table_id,
            "player_id": room.player(cards[0]).id,
            "transaction_id": fill.id,
            "day": day,
        }

    return {
        "clients": clients,
        "a": ids(room_a, table_a, cards_a),
        "b": ids(room_b, table_b, cards_b),
        "cards": (cards_a, cards_b),
        "waiting": waiting,
    }


def refusal_code(response) -> str | None:
    """The code of a 403: the API's JSON, or the console page's ``data-code``."""
    if response["Content-Type"].startswith("application/json"):
        return response.json().get("code")
    found = re.search(r'data-code="([a-z_]+)"', response.content.decode())
    return found.group(1) if found else None


CODES = {"sector": "not_your_sector", "table": "not_your_table", "role": "role_not_allowed"}


def walk_reads(clients: dict, ids: dict, mirror: bool) -> list[str]:
    """Every read as every role in the room seen from one sector; what differs."""
    wrong = []
    for name, route, _view, params in url_patterns():
        expected = READ_MATRIX.get(name)
        if expected is None:
            continue
        url = reverse(name, kwargs={key: ids[key] for key in params})
        query = {"table": ids["table_id"]} if name == "report-history" else {}
        api = url.startswith("/api/")
        for who, client in clients.items():
            response = client.get(url, query)
            status = response.status_code
            if expected == PUBLIC:
                ok = status in (200, 204)  # 204: the icon the room's pages do without
            elif who == "nobody":
                ok = status == (401 if api else 302)
            else:
                outcome = expected[MIRROR.get(who, who) if mirror else who]
                if outcome == "ok":
                    ok = status == 200
                else:
                    ok = status == 403 and refusal_code(response) == CODES[outcome]
            if not ok:
                wrong.append(f"{who} GET {url} ({route}): {status} {response.content[:100]!r}")
    return wrong


def test_every_read_as_every_role(two_sectors):
    """The matrix from Sector RA, then from Sector RB: there jaime and cris are
    the outsiders, julia and carlos at home."""
    clients = two_sectors["clients"]
    assert walk_reads(clients, two_sectors["a"], mirror=False) == []
    assert walk_reads(clients, two_sectors["b"], mirror=True) == []


def get_json(client, url: str, **query):
    response = client.get(url, query)
    assert response.status_code == 200, (url, response.content[:200])
    return response.json()


def test_a_jefe_lists_only_his_sectors_and_their_tables(two_sectors):
    clients, a, b = two_sectors["clients"], two_sectors["a"], two_sectors["b"]
    for who, mine in (("jefe_a", a), ("jefe_b", b)):
        sectors = get_json(clients[who], "/api/sectors/")
        assert [s["id"] for s in sectors] == [mine["sector_id"]]
        tables = get_json(clients[who], "/api/tables/")
        assert {t["sector_id"] for t in tables} == {mine["sector_id"]}
        groups = get_json(clients[who], "/api/balance-groups/")
        assert all(str(mine["table_id"]) in str(g["tables"]) for g in groups)
    everything = get_json(clients["inspector"], "/api/tables/")
    assert {t["sector_id"] for t in everything} == {a["sector_id"], b["sector_id"]}
    # The cage names every table in its buy-ins and fills; a dealer his own.
    assert len(get_json(clients["cajero"], "/api/tables/")) == len(everything)
    assert [t["id"] for t in get_json(clients["crupier_1"], "/api/tables/")] == [a["table_id"]]


def test_a_jefe_reads_his_tables_trays_not_the_books(two_sectors):
    """The jefe asks fills and credits for his tables and follows them; the
    cage's books and every player's balance are not his to read."""
    clients, a = two_sectors["clients"], two_sectors["a"]
    jefe = clients["jefe_a"]
    moves = get_json(jefe, "/api/ledger/transactions/")["results"]
    assert moves and {(m["kind"], m["table_id"]) for m in moves} == {("fill", a["table_id"])}
    assert get_json(clients["cajero"], "/api/ledger/transactions/", kind="buy_in")["count"] == 8
    accounts = get_json(jefe, "/api/ledger/accounts/")
    assert accounts and {x["table_id"] for x in accounts} == {a["table_id"]}
    assert "tray" in {x["kind"] for x in accounts}
    assert not [x for x in accounts if x["kind"] in ("player", "cage_cash", "cage_chips")]
    requests = get_json(jefe, "/api/cage/tray-requests/")
    assert requests and {r["table_id"] for r in requests} == {a["table_id"]}
    buy_in = TransactionView.objects.filter(kind="buy_in", table_id=a["table_id"]).first()
    for url in (f"/api/ledger/transactions/{buy_in.id}/", f"/cage/receipts/{buy_in.id}/"):
        refused = jefe.get(url)
        assert (refused.status_code, refusal_code(refused)) == (403, "role_not_allowed"), url


def test_the_dealer_reads_no_players_movements_and_no_cage(two_sectors):
    """Refused a player's history, the dealer does not read the same movements
    through the ledger, nor the balances, the cage's position or its days."""
    clients, a = two_sectors["clients"], two_sectors["a"]
    dealer = clients["crupier_1"]
    player = a["player_id"]
    for url in (
        f"/api/players/{player}/history/",
        f"/api/ledger/transactions/?player={player}",
        "/api/ledger/transactions/",
        f"/api/ledger/accounts/?player={player}",
        "/api/cage/position/",
        f"/api/cage/gaming-days/{a['day']}/",
        "/api/cage/gaming-days/",
        "/api/cage/tray-requests/",
        "/api/players/",
        "/api/waiting-lists/",
    ):
        refused = dealer.get(url)
        assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed"), url
    for who in ("jefe_a", "crupier_1"):
        for url in ("/cage/", "/cage/live/"):
            page = clients[who].get(url)
            assert (page.status_code, refusal_code(page)) == (403, "role_not_allowed"), (who, url)
            assert "cage-position" not in page.content.decode()
    receipt = dealer.get(f"/cage/receipts/{a['transaction_id']}/")
    assert (receipt.status_code, refusal_code(receipt)) == (403, "role_not_allowed")


def test_the_cage_finds_players_by_card(two_sectors):
    cage = two_sectors["clients"]["cajero"]
    card = two_sectors["cards"][0][0]
    found = get_json(cage, "/api/players/", card=card)
    assert [p["card_number"] for p in found] == [card]
    refused = cage.get("/api/players/")
    assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")


def test_a_jefes_reports_are_his_sectors(two_sectors):
    clients, a, b = two_sectors["clients"], two_sectors["a"], two_sectors["b"]
    rows = get_json(clients["jefe_a"], "/api/reports/tables/")["results"]
    assert {r["table_id"] for r in rows} == {a["table_id"]}
    every = get_json(clients["director"], "/api/reports/tables/")["results"]
    assert {r["table_id"] for r in every} == {a["table_id"], b["table_id"]}
    for query in ({"sector": b["sector_id"]}, {"table": b["table_id"]}):
        refused = clients["jefe_a"].get("/api/reports/occupancy/", query)
        assert (refused.status_code, refused.json()["code"]) == (403, "not_your_sector")
    account = f"tray:{b['table_id']}"
    refused = clients["jefe_a"].get("/api/reports/history/", {"account": account})
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_sector")
    refused = clients["jefe_a"].get("/api/reports/history/", {"account": "cage_cash"})
    assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")
    assert clients["jefe_a"].get("/api/reports/history/", {"account": f"tray:{a['table_id']}"})


# The reports home may link to, by URL name.
HOME_REPORTS = (
    "report-tables",
    "report-rake",
    "report-waiting-lists",
    "report-clocks",
    "report-occupancy",
    "report-players",
    "report-game-hours",
    "report-dealers",
    "report-cage",
    "report-voids",
    "report-aml",
    "report-exclusion-refusals",
)
# The floor's reports: management's, and a jefe's for his sectors.
FLOOR_REPORTS = {
    "report-tables",
    "report-rake",
    "report-waiting-lists",
    "report-clocks",
    "report-occupancy",
    "report-players",
    "report-game-hours",
    "report-dealers",
}


@pytest.mark.parametrize(
    ("who", "shown", "history"),
    [
        ("director", set(HOME_REPORTS), True),
        ("inspector", set(HOME_REPORTS), True),
        ("jefe_a", FLOOR_REPORTS, True),
        ("cajero", {"report-rake", "report-cage", "report-voids"}, True),
        ("crupier_1", set(), False),
    ],
)
def test_home_links_each_report_its_reader_reads(two_sectors, who, shown, history):
    """Home shows each report's link by that report's own read rule
    (floor.domain.reads): the cashier his rake, the cage's books and its
    voided entries and the histories; a link shown opens (200), one hidden
    is refused (403) [GA art. 19.1]."""
    client = two_sectors["clients"][who]
    page = client.get("/").content.decode()

    links = set(re.findall(r'data-testid="report" data-report="([\w-]+)"', page))
    assert links == shown
    assert ('data-testid="history-report"' in page) == history
    assert ('data-testid="reports"' in page) == bool(shown or history)
    for name in HOME_REPORTS:
        status = client.get(reverse(name)).status_code
        assert status == (200 if name in shown else 403), (name, status)
        if name in shown:
            assert client.get(reverse(name), {"format": "csv"}).status_code == 200, name


def test_the_consoles_show_each_role_its_own_links(two_sectors):
    clients, a = two_sectors["clients"], two_sectors["a"]
    home = {who: clients[who].get("/").content.decode() for who in READERS}
    sector_a, sector_b = f"/sectors/{a['sector_id']}/", f"/sectors/{two_sectors['b']['sector_id']}/"
    assert sector_a in home["jefe_a"] and sector_b not in home["jefe_a"]
    assert sector_a in home["director"] and sector_b in home["inspector"]
    for who in ("cajero", "crupier_1"):
        assert "/sectors/" not in home[who], who
    assert f"/tables/{a['table_id']}/" in home["crupier_1"]
    for who in READERS:
        assert ('data-testid="cage-link"' in home[who]) == (
            who in ("director", "inspector", "cajero")
        ), who
        assert ('data-testid="staff-link"' in home[who]) == (who == "director"), who
    table_page = clients["crupier_1"].get(f"/tables/{a['table_id']}/").content.decode()
    assert sector_a not in table_page  # the dealer's way back is home, not the sector
    assert sector_a in clients["jefe_a"].get(f"/tables/{a['table_id']}/").content.decode()


def test_a_refused_console_page_is_a_translated_403(two_sectors):
    clients, a = two_sectors["clients"], two_sectors["a"]
    page = clients["jefe_b"].get(f"/sectors/{a['sector_id']}/")
    text = page.content.decode()
    assert page.status_code == 403 and 'data-code="not_your_sector"' in text
    assert "No lleva usted Sector RA; sus jefes son jaime." in text
    julia = Client()  # the console's language is the one picked (a cookie)
    julia.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    julia.force_login(User.objects.get(username="julia"))
    english = julia.get(f"/sectors/{a['sector_id']}/")
    assert "You do not run Sector RA; its jefes are jaime." in english.content.decode()
    # The live parts refuse before answering 204 (nothing changed) to an outsider.
    for who, url, code in (
        ("jefe_b", f"/sectors/{a['sector_id']}/live/", "not_your_sector"),
        ("crupier_2", f"/tables/{a['table_id']}/live/", "not_your_table"),
    ):
        position = clients["director"].get(url)["X-Floor-Position"]
        assert clients["director"].get(url, {"since": position}).status_code == 204
        refused = clients[who].get(url, {"since": position})
        assert (refused.status_code, refusal_code(refused)) == (403, code), who
    # The command door refuses alike (nothing recorded: test_a_jefe_acts_only...).
    answer = clients["jefe_b"].post(
        "/console/commands/call_next/",
        {"command_id": new_id(), "table_id": a["table_id"], "seat": "9"},
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 403


def test_the_board_is_public_and_names_no_one(two_sectors):
    board = Client().get("/board/").content.decode()
    card = two_sectors["waiting"]
    assert "Benedita Quintas" not in board and card not in board
    for cards in two_sectors["cards"]:
        assert not [c for c in cards if c in board]


def test_a_jefe_reads_no_players_money_through_the_history_report(two_sectors):
    """Refused a player's purchases in the ledger, a jefe does not read them in
    the player's history either: the history's money is read as the
    transactions are (his tables' fills and credits)."""
    clients = two_sectors["clients"]
    card = two_sectors["cards"][0][0]
    for who in ("jefe_a", "jefe_b"):
        rows = get_json(clients[who], "/api/reports/history/", player=card, page_size=1000)
        assert "Transaction.Posted" not in {r["event"] for r in rows["results"]}, who
    rows = get_json(clients["director"], "/api/reports/history/", player=card, page_size=1000)
    assert "Transaction.Posted" in {r["event"] for r in rows["results"]}  # the player's buy-in
