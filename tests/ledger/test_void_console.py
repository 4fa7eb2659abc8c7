"""The cage's void on its console and in the reports (issue 22, ANCHORS item 8):
"Void" is offered on an entry only when ``void_entry`` would take it (the
command's own check, ledger.domain.voids), is confirmed first in words (428,
nothing recorded), and the voided entries are listed (who, when, why, the
original) for the cage, the director and the inspector, on the console and
at /api/reports/voids/; the API refuses with a 4xx and its code."""

from __future__ import annotations

import re
from uuid import UUID

import pytest
from django.test import Client

from floor import runtime
from floor.kernel.context import CommandContext, command_context
from floor.kernel.errors import DomainError
from floor.kernel.registry import COMMANDS
from floor.kernel.unit_of_work import UnitOfWork
from ledger.models import TransactionView
from tests.support.floor import new_id
from tests.support.money import CAJERO, open_cage
from tests.support.room import Room, all_events

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
PASSWORD = "pa55-word-ok"


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="VO")


def client_as(make_user, username: str, role: str) -> Client:
    make_user(username, role, password=PASSWORD)
    client = Client()
    assert client.login(username=username, password=PASSWORD)
    return client


def entries(client: Client) -> dict[str, dict]:
    """The console's latest transactions: their kind and whether Void is offered."""
    runtime.floor_projector().catch_up()
    content = client.get("/cage/live/").content.decode()
    rows = {}
    for match in re.finditer(
        r'<tr data-testid="transaction" data-kind="(\w+)">(.*?)</tr>', content, re.S
    ):
        found = re.search(r'name="transaction_id" value="([0-9a-f-]+)"', match.group(2))
        receipt = re.search(r"/cage/receipts/([0-9a-f-]+)/", match.group(2))
        rows[receipt.group(1)] = {
            "kind": match.group(1),
            "offered": found is not None,
            "voided": 'data-testid="voided"' in match.group(2),
        }
    return rows


def would_void(room: Room, clock, transaction_id: str) -> DomainError | None:
    context = CommandContext("carla", "cajero", new_id(), room.app.profile, clock.now())
    with command_context(context):
        try:
            COMMANDS.void_entry(
                UnitOfWork(room.app, room.app.profile),
                transaction_id=transaction_id,
                reason_code="wrong_amount",
            )
        except DomainError as error:
            return error
    return None


def assert_void_offered_iff_taken(room: Room, clock, client: Client) -> dict:
    rows = entries(client)
    for transaction_id, row in rows.items():
        refusal = would_void(room, clock, transaction_id)
        assert row["offered"] == (refusal is None), (row, refusal)
    return rows


def test_void_is_offered_only_where_the_command_takes_it(room, clock, make_user):
    cajero = client_as(make_user, "carla", "cajero")
    open_cage(room.app)
    table_id, cards = room.drawn_table(4, buy_in=500)  # the floor's buy-ins
    card = room.new_player()
    sale = room.app.sell_chips(CAJERO, new_id(), player=card, amount_cents=3_000)
    used = room.app.sell_chips(CAJERO, new_id(), player=cards[0], amount_cents=2_000)
    room.app.cash_out(CAJERO, new_id(), player=cards[0], amount_cents=500)
    at_cage = room.app.buy_in_at_cage(
        CAJERO, new_id(), table_id=table_id, player=cards[1], amount_cents=500
    ).result["transaction_ids"][0]

    rows = assert_void_offered_iff_taken(room, clock, cajero)
    assert rows[at_cage]["offered"]  # the cage's own buy-in, its chips still on the seat

    assert rows[sale.result["transaction_ids"][0]]["offered"]
    assert not rows[used.result["transaction_ids"][0]]["offered"]  # chips already cashed
    floors = [r for i, r in rows.items() if r["kind"] == "buy_in" and i != at_cage]
    assert floors and not any(r["offered"] for r in floors)  # the floor's buy-ins
    room.app.void_entry(
        CAJERO, new_id(), transaction_id=sale.result["transaction_ids"][0], reason_code="not_paid"
    )
    rows = assert_void_offered_iff_taken(room, clock, cajero)
    assert rows[sale.result["transaction_ids"][0]]["voided"]
    room.start(table_id)  # a hand in play: the buy-in's chips may not come off now
    rows = assert_void_offered_iff_taken(room, clock, cajero)
    assert not rows[at_cage]["offered"]


def test_a_void_through_the_door_is_confirmed_then_listed_for_who_reads_the_cage(room, make_user):
    cajero = client_as(make_user, "carla", "cajero")
    inspector = client_as(make_user, "ines", "inspector")
    open_cage(room.app)
    card = room.new_player()
    sale = room.app.sell_chips(CAJERO, new_id(), player=card, amount_cents=4_500)
    entry = sale.result["transaction_ids"][0]
    runtime.floor_projector().catch_up()
    form = {"command_id": new_id(), "transaction_id": entry, "reason_code": "wrong_amount"}
    before = len(all_events(room.app))
    asked = cajero.post("/console/commands/void_entry/", form, **JSON)
    assert asked.status_code == 428
    said = asked.json()["message"]
    assert "45,00" in said and "carla" in said and "importe equivocado" in said
    assert len(all_events(room.app)) == before
    done = cajero.post(
        "/console/commands/void_entry/",
        {**form, "confirm_cents": asked.json()["confirm"]["cents"]},
        **JSON,
    )
    assert done.status_code == 201, done.json()
    runtime.floor_projector().catch_up()
    for reader in (cajero, inspector):
        content = reader.get("/cage/live/").content.decode()
        assert content.count('data-testid="void-row"') == 1
        assert "importe equivocado" in content
    # The void's receipt says what it voids and why, in the reader's language.
    void_id = TransactionView.objects.get(kind="void").id
    receipt = cajero.get(f"/cage/receipts/{void_id}/").content.decode()
    assert "Anula un apunte de venta de fichas hecho por error: importe equivocado" in receipt
    # The inspector reads; he is offered no void.
    assert 'name="transaction_id"' not in inspector.get("/cage/live/").content.decode()
    report = inspector.get("/api/reports/voids/").json()["results"]
    assert [(r["entry_id"], r["entry_kind"], r["reason_code"], r["voided_by"]) for r in report] == [
        (entry, "chips_sold", "wrong_amount", "carla")
    ]
    assert report[0]["amount_cents"] == 4_500
    # The cage report counts the sale no more: the void took it back out.
    day = inspector.get("/api/reports/cage/").json()["results"][-1]
    assert day["chips_sold_cents"] == 0
    csv = inspector.get("/api/reports/voids/", {"format": "csv"}).content.decode()
    assert csv.splitlines()[0].startswith("gaming_day,voided_at,voided_by")


def test_the_voids_report_is_the_cages_not_the_jefes(room, make_user):
    jefe = client_as(make_user, "jaime", "jefe_sector")
    assert jefe.get("/api/reports/voids/").status_code == 403


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"reason_code": "wrong_amount"}, 409, "entry_already_voided"),
        ({"reason_code": "because"}, 400, None),
        ({"reason_code": "other"}, 400, "correction_note_required"),
    ],
)
def test_the_api_refuses_a_void_with_a_4xx_and_its_code(room, make_user, body, status, code):
    cajero = client_as(make_user, "carla", "cajero")
    open_cage(room.app)
    sale = room.app.sell_chips(CAJERO, new_id(), player=room.new_player(), amount_cents=1_000)
    entry = sale.result["transaction_ids"][0]
    room.app.void_entry(CAJERO, new_id(), transaction_id=entry, reason_code="booked_twice")
    before = len(all_events(room.app))
    response = cajero.post(
        f"/api/cage/transactions/{entry}/void/",
        {"command_id": new_id(), **body},
        content_type="application/json",
    )
    assert response.status_code == status, response.content
    if code:
        assert response.json()["code"] == code
    assert len(all_events(room.app)) == before
    missing = cajero.post(
        f"/api/cage/transactions/{UUID(int=7)}/void/",
        {"command_id": new_id(), "reason_code": "wrong_amount"},
        content_type="application/json",
    )
    assert missing.status_code == 404
