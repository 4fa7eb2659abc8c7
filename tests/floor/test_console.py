"""The jefe de sector's console: login, sectors, opening tables with inline errors."""

import re

import pytest
from django.test import Client
from eventsourcing.persistence import OperationalError

from floor import runtime
from floor.models import SectorView, TableView
from tests.support.floor import DIRECTOR, HOLDEM, new_id

pytestmark = pytest.mark.django_db

TABLE_FORM = {
    "variant": "texas_holdem",
    "limit": "no_limit",
    "minimum_cents": "2",
    "maximum_cents": "10",
    "seats": "10",
}


def logged_in(make_user, username, *roles) -> Client:
    make_user(username, *roles, password="pa55-word-ok")
    client = Client()
    assert client.login(username=username, password="pa55-word-ok")
    return client


def command_id_in(page: bytes) -> str:
    return re.search(rb'name="command_id" value="([^"]+)"', page).group(1).decode()


def test_the_console_asks_for_a_login_in_spanish(floor_app):
    response = Client().get("/", follow=True)
    assert response.redirect_chain[-1][0].startswith("/accounts/login/")
    assert "Iniciar sesión".encode() in response.content
    assert b'lang="es"' in response.content


def test_the_director_opens_a_sector_from_the_console(make_user, floor_app):
    client = logged_in(make_user, "dora", "director")
    page = client.get("/")
    response = client.post(
        "/", {"command_id": command_id_in(page.content), "name": "Sector Sur"}, follow=True
    )
    sector = SectorView.objects.get()
    assert response.redirect_chain[-1][0] == f"/sectors/{sector.id}/"
    assert b"Sector Sur" in response.content


@pytest.fixture
def jefe_at_sector(make_user, floor_app):
    """The jefe, logged in, and the URL of an empty Sector A."""
    floor_app.open_sector(DIRECTOR, new_id(), name="Sector A")
    runtime.floor_projector().catch_up()
    return logged_in(make_user, "jaime", "jefe_sector"), f"/sectors/{SectorView.objects.get().id}/"


def test_the_jefe_opens_tables_and_sees_sector_full_inline(jefe_at_sector):
    jefe, url = jefe_at_sector
    for _ in range(4):
        form = command_id_in(jefe.get(url).content)
        assert jefe.post(url, {"command_id": form, **TABLE_FORM}).status_code == 302
    assert list(TableView.objects.values_list("minimum_cents", flat=True)) == [200] * 4
    refused = jefe.post(url, {"command_id": new_id(), **TABLE_FORM})
    assert refused.status_code == 409
    error = re.search(rb'data-testid="form-error">(.*?)</div>', refused.content, re.S).group(1)
    assert b"GA art. 19" in error and b"Sector A" in error
    # A fifth table with stakes out of the band: the full sector is said first.
    bad_stakes = {**TABLE_FORM, "minimum_cents": "1", "maximum_cents": "100"}
    refused = jefe.post(url, {"command_id": new_id(), **bad_stakes})
    assert refused.status_code == 409
    error = re.search(rb'data-testid="form-error">(.*?)</div>', refused.content, re.S).group(1)
    assert b"GA art. 19" in error and b"22.3a" not in error
    assert TableView.objects.count() == 4


def test_a_double_submitted_form_opens_one_table(jefe_at_sector):
    jefe, url = jefe_at_sector
    form = {"command_id": command_id_in(jefe.get(url).content), **TABLE_FORM}
    assert jefe.post(url, form).status_code == 302
    assert jefe.post(url, form).status_code == 302
    assert TableView.objects.count() == 1


def test_bad_form_input_is_an_inline_message_not_a_500(jefe_at_sector):
    jefe, url = jefe_at_sector
    for bad in (
        {"minimum_cents": "abc"},
        {"seats": "3"},
        {"variant": "bingo"},
        {"minimum_cents": "1"},
    ):
        response = jefe.post(url, {"command_id": new_id(), **TABLE_FORM, **bad})
        assert response.status_code == 400, bad
        assert b'class="errors"' in response.content
    assert TableView.objects.count() == 0
    assert jefe.get("/sectors/8b2f7f0e-0000-4000-8000-000000000000/").status_code == 404


def test_the_jefe_sees_no_sector_form_and_the_director_no_table_form(make_user, floor_app):
    director = logged_in(make_user, "dora", "director")
    director.post("/", {"command_id": new_id(), "name": "Sector A"})
    sector = SectorView.objects.get()
    jefe = logged_in(make_user, "jaime", "jefe_sector")
    assert b'name="name"' not in jefe.get("/").content
    assert b'name="variant"' not in director.get(f"/sectors/{sector.id}/").content
    assert b'name="variant"' in jefe.get(f"/sectors/{sector.id}/").content
    assert HOLDEM["variant"].encode() in jefe.get(f"/sectors/{sector.id}/").content


def test_an_outage_is_an_inline_message_and_the_form_keeps_its_command_id(
    make_user, floor_app, monkeypatch
):
    director = logged_in(make_user, "dora", "director")
    command_id = command_id_in(director.get("/").content)

    def store_down(*args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(floor_app, "open_sector", store_down)
    response = director.post("/", {"command_id": command_id, "name": "Sector A"})
    assert response.status_code == 503
    assert b'data-testid="form-error"' in response.content
    assert command_id_in(response.content) == command_id  # a retry is the same command


@pytest.mark.parametrize("profile", ["CM", "PT"])
def test_a_call_shows_its_countdown_only_where_the_profile_has_a_window(
    make_app, make_user, profile
):
    """CM-6 gives a called player five minutes; GA and PT give no window, so
    the console shows the call without a countdown."""
    from tests.support.room import Room

    app = make_app(profile)
    runtime.install(app)
    try:
        room = Room(app)
        table_id, cards = room.drawn_table(9, seats=9)
        waiting = room.new_player()
        room.join(waiting, table_id)
        room.leave(table_id, cards[0])  # the seat is offered: the first waiting is called
        runtime.floor_projector().catch_up()
        client = logged_in(make_user, "dora", "director")
        html = client.get(f"/sectors/{room.sector_id}/").content.decode()
        called = re.search(r'<span class="flag warn" data-testid="called">.*?</span>', html)
        assert called is not None
        assert ("data-deadline" in called.group(0)) is (profile == "CM")
    finally:
        runtime.install(None)
