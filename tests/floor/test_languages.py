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
    }
    assert portuguese.json()["message"].startswith("Já existe")
    spanish = director.post("/api/sectors/", again, format="json")
    assert spanish.json()["message"].startswith("Ya existe")
