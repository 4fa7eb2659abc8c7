"""The floor API: commands with clear refusals, reads, the schema and its UI."""

import uuid

import pytest
from eventsourcing.persistence import OperationalError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from floor import runtime
from floor.models import TableView
from floor.projections.floor_views import FloorProjection
from tests.support.floor import HOLDEM, new_id

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(api_as, floor_app):
    return api_as("dora", "director")


@pytest.fixture
def jefe(api_as, floor_app):
    return api_as("jaime", "jefe_sector")


def open_sector(client, name="Sector A"):
    response = client.post("/api/sectors/", {"command_id": new_id(), "name": name}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def open_table(client, sector_id, **change):
    body = {"command_id": new_id(), **HOLDEM, **change}
    return client.post(f"/api/sectors/{sector_id}/tables/", body, format="json")


def test_director_opens_a_sector_and_reads_it_back_at_once(director):
    sector = open_sector(director)
    assert (sector["name"], sector["table_count"], sector["opened_by"]) == ("Sector A", 0, "dora")
    listed = director.get("/api/sectors/").json()
    assert [s["id"] for s in listed] == [sector["id"]]
    assert director.get(f"/api/sectors/{sector['id']}/").json()["name"] == "Sector A"


def test_jefe_opens_four_tables_and_the_fifth_is_refused_as_sector_full(director, jefe):
    sector = open_sector(director)
    numbers = []
    for _ in range(4):
        response = open_table(jefe, sector["id"])
        assert response.status_code == 201, response.content
        numbers.append(response.json()["number"])
    assert numbers == [1, 2, 3, 4]
    refused = open_table(jefe, sector["id"])
    assert refused.status_code == 409
    assert refused.json()["code"] == "sector_full"
    assert "4" in refused.json()["message"] and "GA art. 19" in refused.json()["message"]
    assert TableView.objects.count() == 4
    assert jefe.get(f"/api/sectors/{sector['id']}/").json()["table_count"] == 4


def test_a_table_reads_back_with_its_blinds_in_cents(director, jefe):
    sector = open_sector(director)
    table = open_table(jefe, sector["id"], minimum_cents=400).json()
    assert (table["small_blind_cents"], table["minimum_cents"]) == (200, 400)
    assert jefe.get(f"/api/tables/{table['id']}/").json() == table
    assert [t["id"] for t in jefe.get("/api/tables/").json()] == [table["id"]]
    assert [t["id"] for t in jefe.get(f"/api/sectors/{sector['id']}/tables/").json()] == [
        table["id"]
    ]


def test_a_repeated_request_answers_the_first_outcome_and_records_nothing(director, floor_app):
    body = {"command_id": new_id(), "name": "Sector A"}
    first = director.post("/api/sectors/", body, format="json")
    length = floor_app.last_position()
    again = director.post("/api/sectors/", body, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert floor_app.last_position() == length


def test_refusals_carry_a_code_and_the_right_status(director, jefe, api_as):
    sector = open_sector(director)
    assert open_table(director, sector["id"]).json()["code"] == "role_not_allowed"
    assert open_table(director, sector["id"]).status_code == 403
    crupier = api_as("cris", "crupier")
    assert crupier.post("/api/sectors/", {"command_id": new_id(), "name": "X"}).status_code == 403
    response = open_table(jefe, sector["id"], minimum_cents=100)
    assert (response.status_code, response.json()["code"]) == (400, "stakes_out_of_band")
    response = open_table(jefe, "8b2f7f0e-0000-4000-8000-000000000000")
    assert (response.status_code, response.json()["code"]) == (404, "sector_not_found")
    response = director.post("/api/sectors/", {"command_id": new_id(), "name": "sector a"})
    assert (response.status_code, response.json()["code"]) == (409, "sector_exists")
    response = jefe.post(f"/api/sectors/{sector['id']}/tables/", {"variant": "omaha"})
    assert (response.status_code, response.json()["code"]) == (400, "invalid_input")
    assert set(response.json()["fields"]) >= {"command_id", "limit", "seats"}


def test_anonymous_requests_are_refused(floor_app):
    client = APIClient()
    assert client.get("/api/sectors/").status_code == 401
    assert client.post("/api/sectors/", {"name": "X"}).json()["code"] == "not_authenticated"


def test_a_token_is_obtained_with_username_and_password(make_user, floor_app):
    make_user("dora", "director", password="pa55-word-ok")
    client = APIClient()
    token = client.post("/api/auth/token/", {"username": "dora", "password": "pa55-word-ok"})
    assert token.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    assert client.get("/api/me/").json() == {"username": "dora", "roles": ["director"]}
    assert (
        APIClient().post("/api/auth/token/", {"username": "dora", "password": "no"}).status_code
        == 400
    )


json_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(["texas_holdem", "no_limit", "\x00", "1e3", "ñ"]),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.dictionaries(
        st.sampled_from(
            ["command_id", "variant", "limit", "minimum_cents", "maximum_cents", "seats", "x"]
        ),
        json_values,
    )
)
def test_no_body_makes_the_open_table_command_answer_500(director, jefe, body):
    sector = director.get("/api/sectors/").json() or [open_sector(director)]
    response = jefe.post(f"/api/sectors/{sector[0]['id']}/tables/", body, format="json")
    assert response.status_code in {200, 201, 400, 409}, response.content
    assert "code" in response.json() or response.status_code in {200, 201}


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.fixed_dictionaries(
        {}, optional={"command_id": json_values, "name": json_values, "extra": json_values}
    )
)
def test_no_body_makes_the_open_sector_command_answer_500(director, body):
    response = director.post("/api/sectors/", body, format="json")
    assert response.status_code in {200, 201, 400, 409}, response.content
    assert "code" in response.json() or response.status_code in {200, 201}


def test_control_characters_are_refused_not_stored(director):
    response = director.post("/api/sectors/", {"command_id": "a\x07b", "name": "S"}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_input")
    assert list(response.json()["fields"]) == ["command_id"]
    response = director.post(
        "/api/sectors/", {"command_id": new_id(), "name": "S\x1b[31m"}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "sector_name_invalid")


def test_the_schema_lists_the_slice_and_swagger_ui_is_served_locally(director):
    schema = director.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert {"/api/sectors/", "/api/sectors/{sector_id}/tables/", "/api/tables/"} <= set(paths)
    assert "409" in paths["/api/sectors/{sector_id}/tables/"]["post"]["responses"]
    docs = director.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content and b"cdn.jsdelivr" not in docs.content


def test_unknown_resources_answer_404_in_the_api_shape(director):
    for url in (
        "/api/sectors/8b2f7f0e-0000-4000-8000-000000000000/",
        "/api/tables/8b2f7f0e-0000-4000-8000-000000000000/",
    ):
        response = director.get(url)
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
        assert "View" not in response.json()["message"]  # no model names leak


def test_amounts_beyond_any_stake_are_refused_at_the_door(director, jefe, floor_app):
    sector = open_sector(director)
    length = floor_app.last_position()
    response = open_table(jefe, sector["id"], minimum_cents=2 * 10**19, maximum_cents=5 * 10**19)
    assert (response.status_code, response.json()["code"]) == (400, "invalid_input")
    assert floor_app.last_position() == length


def test_a_recorded_command_whose_read_models_fail_answers_202_with_its_result(
    director, jefe, floor_app, monkeypatch
):
    sector = open_sector(director)

    def broken_apply(self, event, position):
        raise RuntimeError("read model bug")

    monkeypatch.setattr(FloorProjection, "apply", broken_apply)
    response = open_table(jefe, sector["id"])
    assert response.status_code == 202
    assert response.json()["code"] == "read_models_lagging"
    table_id = response.json()["result"]["table_id"]
    assert floor_app.repository.get(uuid.UUID(table_id)).seats == 10  # it is recorded
    monkeypatch.undo()
    runtime.floor_projector().catch_up()
    assert jefe.get(f"/api/tables/{table_id}/").status_code == 200


def test_an_event_store_outage_answers_503_and_a_retry_is_safe(director, floor_app, monkeypatch):
    body = {"command_id": new_id(), "name": "Sector A"}
    real_open_sector = floor_app.open_sector

    def store_down(*args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(floor_app, "open_sector", store_down)
    response = director.post("/api/sectors/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (503, "store_unavailable")
    monkeypatch.setattr(floor_app, "open_sector", real_open_sector)
    assert director.post("/api/sectors/", body, format="json").status_code == 201


def test_a_table_announces_its_ante_and_rake_within_the_profile(director, jefe):
    sector = open_sector(director)
    opened = open_table(jefe, sector["id"], ante_cents=100, rake_percent="4", rake_step_cents=5000)
    assert opened.status_code == 201, opened.content
    table = opened.json()
    assert table["ante_cents"] == 100
    assert table["rake"] == {
        "model": "per_hand",
        "share": "1/25",
        "cap_cents": 1000,
        "step_cents": 5000,
    }
    before = TableView.objects.count()
    for change, code in [
        ({"rake_percent": "6"}, "rake_percent_out_of_band"),
        ({"ante_cents": 101}, "ante_above_half_minimum"),
        ({"rake_model": "per_session"}, "rake_model_not_in_profile"),
        ({"rake_step_cents": 3000}, "rake_step_not_in_profile"),
    ]:
        refused = open_table(jefe, sector["id"], **change)
        assert (refused.status_code, refused.json()["code"]) == (400, code), refused.content
    assert TableView.objects.count() == before
