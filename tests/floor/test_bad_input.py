"""Every bad input is a 4xx with a code (issue 18): an id in the path that is
not one, a route or method the API lacks, a query filter that cannot be read,
a command id that is not a UUID; and a failure is JSON under /api/ too.
The schema says the same: filters with their types, what may be null."""

from __future__ import annotations

import pytest
import yaml
from django.conf import settings
from django.test import Client

from tests.support.floor import HOLDEM, new_id

pytestmark = pytest.mark.django_db

SCHEMA = settings.BASE_DIR / "docs" / "openapi.yaml"


@pytest.fixture
def inspector(api_as, floor_app):
    return api_as("ines", "inspector")


@pytest.fixture
def director(api_as, floor_app):
    return api_as("dora", "director")


def refused(response, status: int, code: str) -> dict:
    assert response["Content-Type"] == "application/json", response.content
    body = response.json()
    assert (response.status_code, body.get("code")) == (status, code), response.content
    assert body["message"]
    return body


# --- routes Django answers itself ------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables/not-a-uuid/",
        "/api/sectors/12/",
        "/api/players/not-a-uuid/history/",
        "/api/ledger/transactions/x/",
        "/api/cage/tray-requests/x/confirm/",
        "/api/no-such-thing/",
    ],
)
def test_an_unknown_api_path_is_a_json_404(inspector, path):
    refused(inspector.get(path), 404, "not_found")


def test_a_nul_in_a_gaming_day_or_a_card_is_no_500(make_user, floor_app, inspector):
    """PostgreSQL refuses a NUL in a text parameter: no path or query of the
    cage's may carry one to it (a gaming day is a date; a card is printable)."""
    refused(inspector.get("/api/cage/gaming-days/2026%0001/"), 404, "not_found")
    refused(inspector.get("/api/cage/gaming-days/2026-11-2x/"), 404, "not_found")
    cage = Client()
    cage.force_login(make_user("carla", "cajero"))
    assert cage.get("/cage/gaming-days/2026%0001/report/").status_code == 404
    for url in ("/cage/", "/cage/live/"):
        page = cage.get(url, {"card": "A\x00B"})
        assert page.status_code == 200, url  # the card is not found, said inline


def test_outside_the_api_a_404_stays_a_page(inspector):
    response = inspector.get("/no-such-page/")
    assert response.status_code == 404
    assert "application/json" not in response["Content-Type"]


def test_a_method_the_endpoint_lacks_is_a_json_405(director):
    refused(director.delete("/api/sectors/"), 405, "method_not_allowed")
    refused(director.put("/api/sectors/", {}, format="json"), 405, "method_not_allowed")


def test_a_failure_under_the_api_is_json_without_its_insides(make_user, monkeypatch):
    from floor.api.views import MeView

    def broken(self, request):
        raise RuntimeError("the secret insides")

    monkeypatch.setattr(MeView, "get", broken)
    client = Client(raise_request_exception=False)
    client.force_login(make_user("dora", "director"))
    response = client.get("/api/me/")
    refused(response, 500, "server_error")
    assert "secret" not in response.content.decode()


# --- query filters ---------------------------------------------------------------------

BAD_FILTERS = [
    ("/api/ledger/transactions/", {"gaming_day": "2026-13-45"}),
    ("/api/ledger/transactions/", {"gaming_day": "yesterday"}),
    ("/api/ledger/transactions/", {"gaming_day": ""}),
    ("/api/ledger/transactions/", {"table": ""}),
    ("/api/ledger/transactions/", {"table": "12"}),
    ("/api/ledger/transactions/", {"player": "x"}),
    ("/api/ledger/transactions/", {"kind": ""}),
    ("/api/ledger/transactions/", {"kind": "Sale; drop"}),
    ("/api/ledger/transactions/", {"offset": "-1"}),
    ("/api/ledger/transactions/", {"offset": "x"}),
    ("/api/ledger/transactions/", {"limit": "0"}),
    ("/api/ledger/transactions/", {"limit": "501"}),
    ("/api/ledger/transactions/", {"limit": ""}),
    ("/api/ledger/accounts/", {"kind": "vault"}),
    ("/api/ledger/accounts/", {"kind": ""}),
    ("/api/ledger/accounts/", {"table": ""}),
    ("/api/ledger/accounts/", {"player": "12"}),
    ("/api/cage/tray-requests/", {"status": "0"}),
    ("/api/cage/tray-requests/", {"status": ""}),
    ("/api/players/", {"card": ""}),
    ("/api/players/", {"card": "A\x00B"}),
]


@pytest.mark.parametrize(("path", "query"), BAD_FILTERS)
def test_a_list_filter_that_cannot_be_read_is_a_400(api_as, floor_app, path, query):
    # The cajero reads the cage's lists; the jefe the players.
    reader = api_as("carla", "cajero", "jefe_sector")
    body = refused(reader.get(path, query), 400, "filter_invalid")
    assert next(iter(query)) in body["message"]


def test_a_history_page_that_cannot_be_read_is_a_400(api_as, director):
    sector = director.post("/api/sectors/", {"command_id": new_id(), "name": "S"}, format="json")
    table = api_as("jaime", "jefe_sector").post(
        f"/api/sectors/{sector.json()['id']}/tables/",
        {"command_id": new_id(), **HOLDEM},
        format="json",
    )
    table_id = table.json()["id"]
    inspector = api_as("ines", "inspector")
    for after in ("", "-1", "x"):
        refused(
            inspector.get(f"/api/tables/{table_id}/history/", {"after": after}),
            400,
            "filter_invalid",
        )


@pytest.mark.parametrize(
    ("path", "query", "code"),
    [
        ("/api/reports/tables/", {"table": ""}, "report_filter_invalid"),
        ("/api/reports/tables/", {"from": ""}, "report_filter_invalid"),
        ("/api/reports/tables/", {"sector": ""}, "report_filter_invalid"),
        ("/api/reports/tables/", {"game": ""}, "report_filter_invalid"),
        ("/api/reports/tables/", {"game": "texas_holdem/"}, "report_filter_invalid"),
        ("/api/reports/tables/", {"page": ""}, "report_page_invalid"),
        ("/api/reports/tables/", {"format": ""}, "report_format_invalid"),
        ("/api/reports/rake/", {"by": ""}, "report_by_invalid"),
        ("/api/reports/cage/", {"by": "transaction", "kind": ""}, "report_filter_invalid"),
        ("/api/reports/history/", {"table": ""}, "report_filter_invalid"),
        ("/api/reports/history/", {"player": ""}, "report_filter_invalid"),
    ],
)
def test_a_report_filter_given_empty_is_refused_not_ignored(inspector, path, query, code):
    refused(inspector.get(path, query), 400, code)


def test_a_good_filter_still_filters(api_as, floor_app):
    cajero = api_as("carla", "cajero")
    assert cajero.get("/api/cage/tray-requests/", {"status": "pending"}).json() == []
    page = cajero.get("/api/ledger/transactions/", {"gaming_day": "2026-11-22", "limit": "5"})
    assert page.status_code == 200 and page.json()["results"] == []


# --- command ids -----------------------------------------------------------------------


@pytest.mark.parametrize("command_id", ["x", "1", 5, "", None, ["a"], "0" * 31])
def test_a_command_id_is_a_uuid(director, floor_app, command_id):
    before = floor_app.recorder.max_notification_id()
    response = director.post(
        "/api/sectors/", {"command_id": command_id, "name": "Sector A"}, format="json"
    )
    body = refused(response, 400, "invalid_input")
    assert list(body["fields"]) == ["command_id"]
    assert floor_app.recorder.max_notification_id() == before


def test_a_command_id_in_capitals_is_the_same_command(director):
    command_id = new_id()
    first = director.post("/api/sectors/", {"command_id": command_id, "name": "S"}, format="json")
    again = director.post(
        "/api/sectors/", {"command_id": command_id.upper(), "name": "S"}, format="json"
    )
    assert (first.status_code, again.status_code) == (201, 200)
    assert again["Idempotent-Replayed"] == "true"


# --- the schema says it ----------------------------------------------------------------


def _query(schema: dict, path: str) -> dict[str, dict]:
    operation = schema["paths"][path]["get"]
    return {p["name"]: p["schema"] for p in operation["parameters"] if p["in"] == "query"}


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def test_the_schema_declares_each_filter_with_its_type():
    schema = yaml.safe_load(SCHEMA.read_text())
    transactions = _query(schema, "/api/ledger/transactions/")
    assert transactions["gaming_day"]["format"] == "date"
    assert transactions["table"]["format"] == "uuid"
    assert transactions["limit"] == {"type": "integer", "minimum": 1, "maximum": 500}
    statuses = _resolve(schema, _query(schema, "/api/cage/tray-requests/")["status"])
    assert set(statuses["enum"]) == {"pending", "confirmed", "cancelled"}
    assert _query(schema, "/api/reports/tables/")["table"]["format"] == "uuid"
    games = _resolve(schema, _query(schema, "/api/reports/tables/")["game"])
    assert "texas_holdem/no_limit" in games["enum"]
    for path in ("/api/ledger/transactions/", "/api/cage/tray-requests/", "/api/players/"):
        assert "400" in schema["paths"][path]["get"]["responses"], path


def test_the_schema_says_what_may_be_null():
    schema = yaml.safe_load(SCHEMA.read_text())
    player = schema["components"]["schemas"]["Player"]["properties"]
    assert player["table_id"].get("nullable") and player["seat"].get("nullable")


def test_the_schema_documents_a_command_id_as_a_uuid():
    schema = yaml.safe_load(SCHEMA.read_text())
    command = schema["components"]["schemas"]["OpenSector"]["properties"]["command_id"]
    assert command["format"] == "uuid"


def test_a_form_body_without_a_required_switch_is_refused(api_as, floor_app):
    # DRF reads a boolean missing from a form as false: the dinner break would
    # end because the client forgot to say.
    jefe = api_as("jaime", "jefe_sector")
    before = floor_app.recorder.max_notification_id()
    response = jefe.post("/api/tournament/dinner-break/", {"command_id": new_id()})
    assert list(refused(response, 400, "invalid_input")["fields"]) == ["on"]
    assert floor_app.recorder.max_notification_id() == before
    on = jefe.post("/api/tournament/dinner-break/", {"command_id": new_id(), "on": "true"})
    assert on.status_code == 201, on.content


def test_the_schema_documents_the_answer_to_a_repeated_command():
    """A repeated command id answers 200 with the first outcome: every command
    says so, not only some."""
    schema = yaml.safe_load(SCHEMA.read_text())
    lacking = [
        path
        for path, operations in schema["paths"].items()
        if "201" in operations.get("post", {}).get("responses", {})
        and "200" not in operations["post"]["responses"]
    ]
    assert lacking == []
