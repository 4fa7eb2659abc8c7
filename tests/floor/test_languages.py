"""The interface speaks Spanish by default, and Galician, Portuguese or English
when the person picks it."""

import pytest
from django.test import Client

from tests.support.floor import new_id

pytestmark = pytest.mark.django_db


def test_the_console_is_spanish_even_when_the_browser_asks_for_english(floor_app):
    page = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").get("/accounts/login/")
    assert 'lang="es"' in page.text and "Iniciar sesión" in page.text


@pytest.mark.parametrize(
    ("language", "words"),
    [("gl", "Contrasinal"), ("pt", "Palavra-passe"), ("en", "Password"), ("es", "Contraseña")],
)
def test_the_language_menu_switches_the_console(floor_app, language, words):
    client = Client()
    client.post("/i18n/setlang/", {"language": language, "next": "/accounts/login/"})
    page = client.get("/accounts/login/")
    assert f'lang="{language}"' in page.text and words in page.text


def test_api_refusals_follow_accept_language(api_as, floor_app):
    director = api_as("dora", "director")
    director.post("/api/sectors/", {"command_id": new_id(), "name": "Sector A"}, format="json")
    again = {"command_id": new_id(), "name": "sector a"}
    portuguese = director.post("/api/sectors/", again, format="json", HTTP_ACCEPT_LANGUAGE="pt")
    assert portuguese.json() == {
        "code": "sector_exists",
        "message": portuguese.json()["message"],
        "details": {"sector": "sector a"},
    }
    assert portuguese.json()["message"].startswith("Já existe")
    spanish = director.post("/api/sectors/", again, format="json")
    assert spanish.json()["message"].startswith("Ya existe")


def test_the_language_picked_outlives_the_browser_session(floor_app):
    response = Client().post("/i18n/setlang/", {"language": "gl", "next": "/accounts/login/"})
    cookie = response.cookies["django_language"]
    assert cookie.value == "gl"
    assert int(cookie["max-age"]) >= 300 * 24 * 3600  # not a session cookie


def test_the_console_s_commands_answer_in_the_language_picked(floor_app, make_user):
    from floor import runtime
    from tests.support.room import Room

    room = Room(floor_app, tag="LG")
    table_id, cards = room.drawn_table(4, buy_in=None)
    room.join(room.new_player(), table_id)  # someone to call: the console offers the call
    runtime.floor_projector().catch_up()
    make_user("xan", "jefe_sector", password="pa55-word-ok")
    client = Client()
    client.login(username="xan", password="pa55-word-ok")
    client.post("/i18n/setlang/", {"language": "gl", "next": "/"})

    answer = client.post(
        "/console/commands/buy_in/",
        {"command_id": new_id(), "table_id": table_id, "player": cards[0], "amount_eur": "50"},
        HTTP_ACCEPT="application/json",
    ).json()
    page = client.get(f"/sectors/{room.sector_id}/").text

    assert answer["message"] == (
        "A compra de fichas debe estar entre o mínimo (2,00 €) e o máximo (10,00 €) da mesa."
    )
    assert "Chamar á lista" in page and 'lang="gl"' in page


def test_a_page_that_does_not_exist_says_so_in_spanish(floor_app):
    """Django's own 404 page was in English ("Not Found") in a Spanish interface."""
    page = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").get("/no-such-page/")
    assert page.status_code == 404
    assert 'lang="es"' in page.text and "No encontrado." in page.text
    assert "Esa página no existe" in page.text and "Not Found" not in page.text


def test_pages_name_no_icon_so_the_browser_asks_for_none(floor_app):
    """Without one, every page made the browser ask for /favicon.ico: a 404 and
    a WARNING in the log each time (a new user's report)."""
    page = Client().get("/accounts/login/")
    assert '<link rel="icon" href="data:,">' in page.text
    # Pages that are not ours (the admin, a JSON answer) still make it ask.
    icon = Client().get("/favicon.ico")
    assert icon.status_code == 204 and "max-age" in icon["Cache-Control"]
