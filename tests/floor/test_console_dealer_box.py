"""The dealer box on the sector's console (issue 26): who deals where, the next
pushes with their time and a push button each, who is on break and since when;
the clock-in, the break and the override with its reason run from it, and the
box follows each command on the live part [GA art. 19, 19.1]."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import translation

from floor import runtime
from tests.support.floor import HOLDEM, JEFE, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
PASSWORD = "pa55-word-ok"


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="DB")


@pytest.fixture
def staff(make_user):
    clients = {}
    for username, role in {"jaime": "jefe_sector", "ines": "inspector"}.items():
        make_user(username, role, password=PASSWORD)
        clients[username] = Client()
        assert clients[username].login(username=username, password=PASSWORD)
    for dealer in ("ana", "bea"):
        make_user(dealer, "crupier")
    return clients


def command(client: Client, name: str, **fields) -> tuple[int, dict]:
    response = client.post(f"/console/commands/{name}/", {"command_id": new_id(), **fields}, **JSON)
    return response.status_code, response.json()


def box(client: Client, room: Room) -> str:
    runtime.floor_projector().catch_up()
    response = client.get(f"/sectors/{room.sector_id}/")
    assert response.status_code == 200
    page = response.content.decode()
    found = re.search(r'<section class="panel dealer-box".*?</section>', page, re.S)
    assert found, "no dealer box on the console"
    return found.group(0)


def test_the_jefe_clocks_dealers_in_and_pushes_the_planned_one(room, staff, clock):
    jefe = staff["jaime"]
    empty = box(jefe, room)
    assert 'data-command="clock_in_dealer"' in empty and "ana" in empty and "bea" in empty
    status, answer = command(
        jefe, "clock_in_dealer", sector_id=room.sector_id, dealer="ana", games=["texas_holdem"]
    )
    assert status == 201, answer
    status, answer = command(
        jefe, "clock_in_dealer", sector_id=room.sector_id, dealer="bea", games=["texas_holdem"]
    )
    assert status == 201, answer
    # With no game ticked, the console keeps the games set before; a dealer
    # with none is told so.
    status, answer = command(jefe, "clock_in_dealer", sector_id=room.sector_id, dealer="ana")
    assert (status, answer["code"]) == (409, "dealer_already_clocked_in")
    table_id = room.app.open_table(JEFE, new_id(), sector_id=room.sector_id, **HOLDEM).result[
        "table_id"
    ]
    shown = box(jefe, room)
    assert 'data-testid="dealer-push" data-table-number="1" data-dealer="ana"' in shown
    assert 'data-testid="push-due"' in shown
    status, answer = command(jefe, "push_dealer", table_id=table_id, dealer="ana")
    assert status == 201, answer
    shown = box(jefe, room)
    assert 'data-testid="dealer-push" data-table-number="1" data-dealer="bea"' in shown
    assert "push-due" not in shown  # the next down, at its time
    assert re.search(r'data-testid="dealers-dealing"><li data-dealer="ana">', shown)
    # bea goes on break: she shows on break, with her return's countdown.
    status, answer = command(jefe, "send_dealer_on_break", sector_id=room.sector_id, dealer="bea")
    assert status == 201, answer
    shown = box(jefe, room)
    assert re.search(r'data-testid="dealers-on-break"><li data-dealer="bea">', shown)
    clock.advance(timedelta(seconds=20))  # the test profile: a 15 s break
    status, answer = command(jefe, "end_dealer_break", sector_id=room.sector_id, dealer="bea")
    assert status == 201, answer
    # The override: a reason is required, said in the person's language.
    with translation.override("es"):
        status, answer = command(
            jefe, "override_dealer_push", table_id=table_id, dealer="bea", reason=""
        )
    assert status == 400
    status, answer = command(
        jefe,
        "override_dealer_push",
        table_id=table_id,
        dealer="bea",
        reason="ana is called away",
        to_break="true",
    )
    assert status == 201, answer
    assert room.get(table_id).dealer == "bea"


def test_the_inspector_reads_the_box_without_its_buttons(room, staff):
    room.app.clock_in_dealer(
        JEFE, new_id(), sector_id=room.sector_id, dealer="ana", games=["texas_holdem"]
    )
    shown = box(staff["ines"], room)
    assert 'data-dealer="ana"' in shown
    assert "data-command" not in shown


def test_the_live_part_follows_the_box(room, staff):
    """A clock-in, a games change and a break re-render the sector's live
    part (floor.projections.live_marks); another sector's box does not."""
    jefe = staff["jaime"]
    live = f"/sectors/{room.sector_id}/live/"
    runtime.floor_projector().catch_up()
    position = jefe.get(live)["X-Floor-Position"]
    other = Room(room.app, tag="DO")
    room.app.clock_in_dealer(
        JEFE, new_id(), sector_id=other.sector_id, dealer="bea", games=["omaha"]
    )
    runtime.floor_projector().catch_up()
    assert jefe.get(live, {"since": position}).status_code == 204
    steps = [
        lambda: room.app.clock_in_dealer(
            JEFE, new_id(), sector_id=room.sector_id, dealer="ana", games=["texas_holdem"]
        ),
        lambda: room.app.set_dealer_games(JEFE, new_id(), dealer="ana", games=["omaha"]),
        lambda: room.app.send_dealer_on_break(
            JEFE, new_id(), sector_id=room.sector_id, dealer="ana"
        ),
    ]
    for step in steps:
        step()
        runtime.floor_projector().catch_up()
        answer = jefe.get(live, {"since": position})
        assert answer.status_code == 200
        position = answer["X-Floor-Position"]


def test_a_dealer_named_on_the_card_shows_dealing_in_the_box(room, staff):
    """The demo's floor: table 1's dealer named on its card (not clocked in
    before), one dealer in the box, tables 2 and 3 open in registration. The
    box agrees with the card, offers its dealer for table 2 and asks a dealer
    for table 3 in plain words [GA art. 19]; naming nobody on the card sends
    the dealer back to the box, live."""
    jefe = staff["jaime"]
    tables = [
        room.app.open_table(JEFE, new_id(), sector_id=room.sector_id, **HOLDEM).result["table_id"]
        for _ in range(3)
    ]
    status, answer = command(jefe, "assign_dealer", table_id=tables[0], dealer="ana")
    assert status == 201, answer
    room.app.clock_in_dealer(
        JEFE, new_id(), sector_id=room.sector_id, dealer="bea", games=["texas_holdem"]
    )
    with translation.override("es"):
        shown = box(jefe, room)
    assert 'data-testid="dealer-box-summary">1 tirando · 1 en la caja · 0 en descanso' in shown
    assert re.search(
        r'data-testid="dealers-dealing"><li data-dealer="ana"><b>ana</b> en la mesa 1', shown
    )
    assert 'data-testid="dealer-push" data-table-number="2" data-dealer="bea"' in shown
    assert "la mesa 3 sin crupier<" in shown
    assert "La mesa 3 está abierta sin un crupier que pueda tirarla." in shown
    assert "también antes de su primera mano [GA art. 19]" in shown

    live = f"/sectors/{room.sector_id}/live/"
    position = jefe.get(live)["X-Floor-Position"]
    status, answer = command(jefe, "assign_dealer", table_id=tables[0], dealer="")
    assert status == 201, answer
    runtime.floor_projector().catch_up()
    answer = jefe.get(live, {"since": position})
    assert answer.status_code == 200
    page = answer.content.decode()
    assert re.search(r'data-testid="dealers-idle"><li data-dealer="ana">', page)
    assert 'data-testid="dealers-dealing"><li class="muted">' in page


def test_the_box_offers_a_push_only_when_it_can_be_carried_out_now(room, staff, clock):
    """GA art. 19: a push never takes a dealer off another open table. Two
    downs end at once and the plan chains them (bea relieves ana at table 1,
    ana relieves carla at table 2): the console shows both, but offers the
    "Push in" button only for table 1's (in the summary too); table 2's says
    it waits for it (push_dealer would refuse it: ``dealer_at_another_table``)."""
    jefe = staff["jaime"]
    app = room.app
    for name in ("ana", "carla"):
        app.clock_in_dealer(
            JEFE, new_id(), sector_id=room.sector_id, dealer=name, games=["texas_holdem"]
        )
    tables = []
    for _ in range(2):
        table_id = app.open_table(JEFE, new_id(), sector_id=room.sector_id, **HOLDEM).result[
            "table_id"
        ]
        app.push_dealer(JEFE, new_id(), table_id=table_id)
        tables.append(table_id)
    app.clock_in_dealer(
        JEFE, new_id(), sector_id=room.sector_id, dealer="bea", games=["texas_holdem"]
    )
    clock.advance(timedelta(minutes=30))
    at_first = room.get(tables[0]).dealer
    shown = box(jefe, room)
    rows = {
        found.group(1): found.group(0)
        for found in re.finditer(
            r'<tr data-testid="dealer-push" data-table-number="(\d)".*?</tr>', shown, re.S
        )
    }
    assert set(rows) == {"1", "2"}
    assert f'data-dealer="{at_first}"' in rows["2"]
    assert 'data-testid="push-dealer"' in rows["1"]
    assert 'data-testid="push-dealer"' not in rows["2"]
    assert 'data-testid="push-waits">tras el relevo de la mesa 1<' in rows["2"]
    assert 'data-testid="push-next-dealer"' in shown  # the summary's, table 1's
    jefe.cookies["django_language"] = "en"
    shown = box(jefe, room)
    assert 'data-testid="push-waits">after table 1\'s push<' in shown
