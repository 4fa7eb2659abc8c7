"""The cage through the API: every money command, its receipts, the books to
read, and clear refusals that record nothing."""

from __future__ import annotations

import pytest

from tests.support.floor import new_id

HOLDEM = {
    "variant": "texas_holdem",
    "limit": "no_limit",
    "minimum_cents": 200,
    "maximum_cents": 1000,
    "seats": 6,
}
CARDS = [f"K-{n}" for n in range(1, 6)]


def post(client, url: str, **body):
    return client.post(url, {"command_id": new_id(), **body}, format="json")


def ok(response) -> dict:
    assert response.status_code in (200, 201), response.content
    return response.json()


def refused(response, status: int, code: str) -> dict:
    assert (response.status_code, response.json().get("code")) == (status, code), response.content
    assert response.json()["message"]
    return response.json()


@pytest.fixture
def people(api_as, floor_app):
    return {
        "jefe": api_as("jaime", "jefe_sector"),
        "cajero": api_as("carla", "cajero"),
        "crupier": api_as("cris", "crupier"),
        "director": api_as("dora", "director"),
    }


@pytest.fixture
def table(people):
    """A cage with its float and its day open, and a table whose tray the
    jefe asked to fill and the cage filled."""
    jefe, cajero, director = people["jefe"], people["cajero"], people["director"]
    ok(post(director, "/api/cage/float/", cash_cents=1_000_000, chips_cents=2_000_000))
    ok(post(cajero, "/api/cage/gaming-days/open/"))
    sector = ok(post(director, "/api/sectors/", name="Sector K"))
    table = ok(post(jefe, f"/api/sectors/{sector['id']}/tables/", **HOLDEM))
    dealt = ok(post(jefe, f"/api/tables/{table['id']}/dealer/", dealer="cris"))
    assert dealt["table"]["dealer"] == "cris"
    asked = ok(
        post(jefe, f"/api/tables/{table['id']}/tray-requests/", move="fill", amount_cents=50_000)
    )
    request_id = asked["result"]["request_id"]
    pending = ok(people["cajero"].get("/api/cage/tray-requests/?status=pending"))
    assert [r["id"] for r in pending] == [request_id]
    filled = ok(post(cajero, f"/api/cage/tray-requests/{request_id}/confirm/"))
    assert filled["transactions"][0]["postings"] == {
        "cage_chips": -50_000,
        f"tray:{table['id'].replace('-', '')}": 50_000,
    }
    for n, card in enumerate(CARDS[:4], start=1):
        ok(post(jefe, "/api/players/", card_number=card, display_name=f"Player {n}"))
        ok(post(jefe, "/api/waiting-lists/", player=card, table_id=table["id"]))
    ok(post(jefe, f"/api/tables/{table['id']}/draw/"))
    return table


def balances(client, **query) -> dict[str, int]:
    accounts = ok(client.get("/api/ledger/accounts/", query))
    return {a["name"]: a["balance_cents"] for a in accounts}


def test_money_moves_through_the_api_with_receipts(people, table):
    cajero, crupier = people["cajero"], people["crupier"]
    url = f"/api/tables/{table['id']}"
    bought = ok(post(crupier, f"{url}/buy-in/", player=CARDS[0], amount_cents=1000))
    # A floor command that moved money names its transaction, for the receipt.
    [buy_in_id] = bought["result"]["transaction_ids"]
    assert ok(cajero.get(f"/api/ledger/transactions/{buy_in_id}/"))["kind"] == "buy_in"
    sold = ok(post(cajero, "/api/cage/chips-sold/", player=CARDS[1], amount_cents=800))
    assert sold["transactions"][0]["kind"] == "chips_sold"
    ok(post(crupier, f"{url}/buy-in/", player=CARDS[1], amount_cents=800, paid_with="chips"))
    tipped = ok(
        post(crupier, f"{url}/chips-off/", player=CARDS[0], amount_cents=100, purpose="tip")
    )
    assert tipped["result"]["stack_cents"] == 900
    hexed = table["id"].replace("-", "")
    books = balances(cajero, table=table["id"])
    assert books[f"tray:{hexed}"] == 49_000
    assert books[f"drop:{hexed}"] == 1000
    assert books[f"tips:{hexed}"] == 100
    assert sum(balances(cajero).values()) == 0  # double entry, all accounts
    ok(post(people["jefe"], f"{url}/leave/", player=CARDS[1]))
    paid = ok(post(cajero, "/api/cage/cash-outs/", player=CARDS[1]))
    assert paid["result"]["amount_cents"] == 800
    from django.contrib.auth.models import User
    from django.test import Client

    browser = Client()
    browser.force_login(User.objects.get(username="carla"))
    receipt = browser.get(paid["transactions"][0]["receipt_url"])
    assert receipt.status_code == 200
    assert b"800" in receipt.content or b"8,00" in receipt.content
    page = ok(cajero.get("/api/ledger/transactions/", {"kind": "cash_out"}))
    assert page["count"] == 1
    position = ok(cajero.get("/api/cage/position/"))
    assert position["cash_cents"] == 1_000_000 + 800 - 800
    # The fill is all that left the cage for good: tray, stack and tip box hold it.
    assert position["chips_on_the_floor_by_kind"] == {
        "tray": 49_000,
        "stack": 900,
        "tips": 100,
        "player": 0,
    }
    assert position["chips_on_the_floor_cents"] == 50_000
    # The day's flows start at its opening: the float given before is not one.
    assert position["day_flows"] == {
        "cash_in_cents": 800,
        "cash_out_cents": 800,
        "chips_in_cents": 800,
        "chips_out_cents": 50_000 + 800,
        "bank_in_cents": 0,
        "bank_out_cents": 0,
    }


def test_a_repeated_cash_out_pays_once(people, table):
    cajero = people["cajero"]
    ok(post(cajero, "/api/cage/chips-sold/", player=CARDS[3], amount_cents=500))
    body = {"command_id": new_id(), "player": CARDS[3], "amount_cents": 300}
    first = cajero.post("/api/cage/cash-outs/", body, format="json")
    again = cajero.post("/api/cage/cash-outs/", body, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["result"] == first.json()["result"]
    assert ok(cajero.get("/api/cage/position/"))["day_flows"]["cash_out_cents"] == 300


def test_bad_money_input_is_a_clear_refusal_that_records_nothing(people, table, floor_app):
    cajero, jefe, crupier = people["cajero"], people["jefe"], people["crupier"]
    before = floor_app.recorder.max_notification_id()
    refused(
        post(cajero, "/api/cage/cash-outs/", player=CARDS[0], amount_cents=1),
        409,
        "cash_out_above_chips",
    )
    refused(
        post(cajero, "/api/cage/chips-sold/", player=CARDS[0], amount_cents=-5),
        400,
        "invalid_input",
    )
    refused(
        post(jefe, "/api/cage/chips-sold/", player=CARDS[0], amount_cents=5),
        403,
        "role_not_allowed",
    )
    refused(post(cajero, "/api/cage/gaming-days/open/"), 409, "gaming_day_open")
    refused(post(cajero, "/api/cage/gaming-days/close/"), 409, "gaming_day_not_counted")
    url = f"/api/tables/{table['id']}"
    refused(
        post(crupier, f"{url}/chips-off/", player=CARDS[0], amount_cents=5, purpose="tip"),
        409,
        "stack_too_small",
    )
    refused(
        post(crupier, f"{url}/buy-in/", player=CARDS[0], amount_cents=500, paid_with="chips"),
        409,
        "insufficient_funds",
    )
    refused(
        post(crupier, f"{url}/buy-in/", player=CARDS[0], amount_cents=500, paid_with="card"),
        400,
        "invalid_input",
    )
    refused(
        post(cajero, "/api/cage/gaming-days/count/", counts={"stack:x": 1}), 400, "account_invalid"
    )
    refused(
        post(
            cajero, "/api/cage/gaming-days/explain/", account="cage_cash", reason_code="count_error"
        ),
        409,
        "gaming_day_not_counted",
    ) if False else None
    refused(
        post(cajero, f"/api/cage/tray-requests/{new_id()}/confirm/"), 404, "tray_request_not_found"
    )
    assert floor_app.recorder.max_notification_id() == before


def test_the_day_is_counted_explained_and_closed_through_the_api(people, table):
    cajero, crupier = people["cajero"], people["crupier"]
    url = f"/api/tables/{table['id']}"
    ok(post(crupier, f"{url}/buy-in/", player=CARDS[0], amount_cents=1000))
    hexed = table["id"].replace("-", "")
    counts = {
        "cage_cash": 1_000_000,
        "cage_chips": 2_000_000 - 50_000,
        f"tray:{hexed}": 49_000 - 500,  # 5 EUR short
        f"drop:{hexed}": 1000,
    }
    counted = ok(post(cajero, "/api/cage/gaming-days/count/", counts=counts))
    assert [e["account"] for e in counted["result"]["exceptions"]] == [f"tray:{hexed}"]
    refused(post(cajero, "/api/cage/gaming-days/close/"), 409, "exceptions_unexplained")
    refused(
        post(
            cajero, "/api/cage/gaming-days/explain/", account=f"tray:{hexed}", reason_code="other"
        ),
        400,
        "note_required",
    )
    ok(
        post(
            cajero,
            "/api/cage/gaming-days/explain/",
            account=f"tray:{hexed}",
            reason_code="chips_missing",
        )
    )
    closed = ok(post(cajero, "/api/cage/gaming-days/close/"))
    report = closed["result"]["report"]
    result = report["tables"][hexed]
    # closing tray + credits + drop - opening tray - fills
    assert result["result_cents"] == 48_500 + 0 + 1000 + 0 - 0 - 50_000
    day = ok(cajero.get(f"/api/cage/gaming-days/{report['gaming_day']}/"))
    assert day["status"] == "closed" and day["report"] == report
