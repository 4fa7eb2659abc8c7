"""A transaction's reason in the reader's language: the ledger records it as a
code and params (ledger.reasons) beside the English text it always carried, and
the receipt, the cage console and the API render it in es, gl, pt or en.
Transactions posted before the codes keep their stored English text."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.test import Client
from eventsourcing.persistence import StoredEvent

from floor import runtime
from floor.kernel.compression import inflate
from ledger.domain.transaction import Transaction
from ledger.models import TransactionView
from ledger.projections import apply_ledger_event
from tests.support.room import Room

pytestmark = pytest.mark.django_db

PASSWORD = "pa55-word-ok"
# The jefe of the test actors ("jaime") asks for every fill (tests.support.money).
FILLS = {
    "es": "Relleno, a petición de jaime",
    "gl": "Recheo, a petición de jaime",
    "pt": "Reforço, a pedido de jaime",
    "en": "Fill, asked by jaime",
}
TABLES = {"es": "Mesa 1 · Sector R", "gl": "Mesa 1 · Sector R", "en": "Table 1 · Sector R"}


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="R")


@pytest.fixture
def cajero(make_user) -> Client:
    make_user("carla", "cajero", password=PASSWORD)
    client = Client()
    assert client.login(username="carla", password=PASSWORD)
    return client


def shown(content: str, testid: str) -> str:
    found = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</', content, re.S)
    assert found, f"nothing marked {testid}"
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def receipt(client: Client, transaction: TransactionView, language: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(f"/cage/receipts/{transaction.id}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", ["es", "gl", "pt", "en"])
def test_a_fill_receipt_gives_its_reason_in_the_readers_language(room, cajero, language):
    room.table()  # the jefe asks for a fill, the cage confirms it
    runtime.floor_projector().catch_up()
    fill = TransactionView.objects.get(kind="fill")
    assert fill.reason == "fill asked by jaime"  # the text it always carried, unchanged
    assert (fill.reason_code, fill.reason_params) == (
        "tray_move_requested",
        {"move": "fill", "by": "jaime"},
    )
    content = receipt(cajero, fill, language)
    assert shown(content, "reason") == FILLS[language]
    if language != "en":
        assert "asked by" not in content


def test_the_receipt_names_the_table_as_the_console_does(room, cajero):
    room.table()
    runtime.floor_projector().catch_up()
    fill = TransactionView.objects.get(kind="fill")
    for language, label in TABLES.items():
        content = receipt(cajero, fill, language)
        assert shown(content, "table") == label
        assert "Sector R #1" not in content  # the accounts too: "Bandeja · Mesa 1 · Sector R"
    cajero.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    console = cajero.get("/cage/")
    assert "Mesa 1 · Sector R" in console.content.decode()


def test_a_hand_and_a_buy_in_read_in_spanish(room, cajero):
    table_id, _ = room.drawn_table(4)
    seats = room.start(table_id)["dealt_in"]
    room.end(table_id, {str(seats[0]): 200, str(seats[1]): 200}, {str(seats[1]): 400})
    runtime.floor_projector().catch_up()
    hand = TransactionView.objects.get(kind="hand")
    assert shown(receipt(cajero, hand, "es"), "reason") == "Mano 1"
    buy_in = TransactionView.objects.filter(kind="buy_in").first()
    assert shown(receipt(cajero, buy_in, "es"), "reason") == "Pagado en efectivo en la mesa"
    cajero.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    console = cajero.get("/cage/").content.decode()
    assert "Mano 1" in console and "hand 1" not in console


def test_the_api_gives_the_code_its_params_and_the_text(room, api_as):
    room.table()
    runtime.floor_projector().catch_up()
    cajero = api_as("carla", "cajero")
    rows = cajero.get(
        "/api/ledger/transactions/", {"kind": "fill"}, HTTP_ACCEPT_LANGUAGE="pt"
    ).json()
    rows = rows.get("results", rows) if isinstance(rows, dict) else rows
    fill = next(r for r in rows if r["kind"] == "fill")
    assert fill["reason"] == "fill asked by jaime"  # as it always was
    assert fill["reason_code"] == "tray_move_requested"
    assert fill["reason_params"] == {"move": "fill", "by": "jaime"}
    assert fill["reason_text"] == FILLS["pt"]


def test_a_transaction_stored_before_the_codes_loads_and_shows_its_text(room, cajero):
    """Nothing stored is edited: an event recorded without a code is read as
    it was stored, and its receipt shows its English text as is."""
    room.table()
    app = room.app
    new = next(
        app.mapper.to_domain_event(n)
        for n in app.recorder.select_notifications(1, 100_000)
        if n.topic.endswith("Transaction.Posted")
    )
    stored = app.mapper.to_stored_event(new)
    state = app.mapper.transcoder.decode(inflate(stored.state))  # stored compressed
    del state["reason_code"], state["reason_params"]  # as the code before them stored it
    state["reason"] = "fill asked by jefe"
    old = app.mapper.to_domain_event(
        StoredEvent(
            originator_id=stored.originator_id,
            originator_version=stored.originator_version,
            topic=stored.topic,
            state=app.mapper.transcoder.encode(state),
        )
    )
    transaction = old.mutate(None)  # the aggregate still loads from it
    assert isinstance(transaction, Transaction) and transaction.reason_code == ""
    TransactionView.objects.all().delete()
    apply_ledger_event(old, 1, lambda event: None)
    view = TransactionView.objects.get()
    assert (view.reason, view.reason_code, view.reason_params) == ("fill asked by jefe", "", {})
    assert shown(receipt(cajero, view, "es"), "reason") == "fill asked by jefe"
