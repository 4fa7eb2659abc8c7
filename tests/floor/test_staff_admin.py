"""Staff without a shell (issue 20): the director manages accounts, roles,
passwords and lockouts in Django's admin (floor.admin), and no one else enters.

Everything goes through the test client's POSTs to the admin's own forms, as a
browser would send them.
"""

from __future__ import annotations

import logging

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "pa55-word-ok"


def logged_in_as(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def console_login(username: str, password: str) -> Client:
    client = Client(REMOTE_ADDR="127.0.0.1")
    client.post("/accounts/login/", {"username": username, "password": password})
    return client


@pytest.fixture
def director(make_user) -> Client:
    return logged_in_as(make_user("dora", "director", password=PASSWORD))


def test_a_director_creates_a_jefe_who_then_logs_in_to_the_console(director, caplog):
    jefe_role = Group.objects.get(name="jefe_sector")
    with caplog.at_level(logging.WARNING, logger="floor.staff"):
        answer = director.post(
            "/admin/auth/user/add/",
            {
                "username": "jorge",
                "usable_password": "true",
                "password1": "jorge-pass-123",
                "password2": "jorge-pass-123",
                "groups": [jefe_role.pk],
            },
        )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    jorge = User.objects.get(username="jorge")
    assert list(jorge.groups.values_list("name", flat=True)) == ["jefe_sector"]
    assert not jorge.is_staff and not jorge.is_superuser
    assert "roles of jorge changed by dora: [] -> ['jefe_sector']" in caplog.text

    console = console_login("jorge", "jorge-pass-123")
    home = console.get("/")
    assert home.status_code == 200 and home.wsgi_request.user.username == "jorge"
    assert 'data-testid="staff-link"' not in home.content.decode()


def test_the_director_gives_only_the_floors_roles_and_makes_no_superuser(director, make_user):
    cris = make_user("cris", "crupier")
    page = director.get(f"/admin/auth/user/{cris.pk}/change/").content.decode()
    assert 'name="groups"' in page
    assert 'name="is_superuser"' not in page and 'name="is_staff"' not in page
    answer = director.post(
        f"/admin/auth/user/{cris.pk}/change/",
        {
            "username": "cris",
            "is_active": "on",
            "is_superuser": "on",  # ignored: not on the director's form
            "groups": [Group.objects.get(name="jefe_sector").pk],
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    cris.refresh_from_db()
    assert not cris.is_superuser
    assert list(cris.groups.values_list("name", flat=True)) == ["jefe_sector"]


def test_the_director_may_not_make_a_staff_user_a_player(director, make_user):
    """A player's sign-in holds no other group (issue 24): the admin offers
    the staff's roles only, and refuses the player's group."""
    cris = make_user("cris", "crupier")
    player = Group.objects.get_or_create(name="player")[0]
    page = director.get(f"/admin/auth/user/{cris.pk}/change/").content.decode()
    assert f'value="{Group.objects.get(name="crupier").pk}"' in page
    assert f'value="{player.pk}"' not in page
    answer = director.post(
        f"/admin/auth/user/{cris.pk}/change/",
        {"username": "cris", "is_active": "on", "groups": [player.pk]},
    )
    assert answer.status_code == 200  # the form again, with its error
    assert list(cris.groups.values_list("name", flat=True)) == ["crupier"]


@pytest.mark.parametrize("role", ["jefe_sector", "cajero", "crupier", "inspector", "player"])
def test_other_roles_are_refused_the_admin(make_user, role):
    client = logged_in_as(make_user(f"someone-{role}", role))
    for url in ("/admin/", "/admin/auth/user/", "/admin/auth/user/add/", "/admin/axes/"):
        answer = client.get(url, follow=True)
        assert answer.status_code == 403, (role, url)
        assert 'data-code="role_not_allowed"' in answer.content.decode(), (role, url)
    assert client.post("/admin/auth/user/add/", {"username": "x"}, follow=True).status_code == 403
    assert not User.objects.filter(username="x").exists()


def test_nobody_logged_in_is_sent_to_the_consoles_login():
    answer = Client().get("/admin/auth/user/", follow=True)
    assert answer.status_code == 200
    assert answer.redirect_chain[-1][0] == "/accounts/login/?next=/admin/auth/user/"


def test_the_admin_speaks_spanish_by_default_and_the_director_finds_it_from_home(director):
    page = director.get("/admin/").content.decode()
    assert 'lang="es"' in page and "Usuarios" in page and "Sala: personal y accesos" in page
    assert 'data-testid="staff-link"' in director.get("/").content.decode()
    assert director.get("/admin/login/")["Location"] == "/admin/"


def test_the_first_account_is_a_superuser_who_may_enter(monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "first-admin-pass")
    call_command(
        "createsuperuser", interactive=False, username="it", email="it@casino.test", verbosity=0
    )
    console = console_login("it", "first-admin-pass")
    assert console.get("/admin/").status_code == 200
    assert console.get("/admin/auth/user/add/").status_code == 200


def test_a_lockout_is_listed_and_lifted_from_the_admin(director, make_user, caplog):
    make_user("jaime", "jefe_sector", password=PASSWORD)
    for n in range(settings.AXES_FAILURE_LIMIT):
        console_login("jaime", f"guess-{n}")
    assert "_auth_user_id" not in console_login("jaime", PASSWORD).session  # locked

    listing = director.get("/admin/axes/accessattempt/").content.decode()
    assert "jaime" in listing and "icon-yes" in listing  # locked out now
    attempts = list(AccessAttempt.objects.filter(username="jaime").values_list("pk", flat=True))
    with caplog.at_level(logging.WARNING, logger="floor.logins"):
        answer = director.post(
            "/admin/axes/accessattempt/",
            {"action": "lift_lockout", "_selected_action": attempts},
        )
    assert answer.status_code == 302
    assert "login lockout lifted by dora: user 'jaime'" in caplog.text
    assert not AccessAttempt.objects.filter(username="jaime").exists()
    assert "_auth_user_id" in console_login("jaime", PASSWORD).session


def test_the_director_resets_a_password_through_the_admin(director, make_user, caplog):
    cajera = make_user("carla", "cajero", password=PASSWORD)
    with caplog.at_level(logging.WARNING, logger="floor.staff"):
        answer = director.post(
            f"/admin/auth/user/{cajera.pk}/password/",
            {"password1": "new-pass-4567", "password2": "new-pass-4567"},
        )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert "password of carla reset by dora" in caplog.text
    assert "_auth_user_id" not in console_login("carla", PASSWORD).session
    assert "_auth_user_id" in console_login("carla", "new-pass-4567").session


def test_a_director_changes_no_superusers_account(director):
    root = User.objects.create_superuser("root", password="root-pass-123")
    answer = director.post(
        f"/admin/auth/user/{root.pk}/password/",
        {"password1": "taken-over-1", "password2": "taken-over-1"},
    )
    assert answer.status_code == 403
    root.refresh_from_db()
    assert root.check_password("root-pass-123")


def test_every_admin_page_answers_the_director(director, make_user):
    jaime = make_user("jaime", "jefe_sector", password=PASSWORD)
    console_login("jaime", "wrong-password")  # an attempt and a failure to list
    console_login("jaime", PASSWORD)  # and a login
    pages = [
        "/admin/",
        "/admin/auth/user/",
        "/admin/auth/user/add/",
        f"/admin/auth/user/{jaime.pk}/change/",
        f"/admin/auth/user/{jaime.pk}/password/",
        f"/admin/auth/user/{jaime.pk}/history/",
        "/admin/axes/accessattempt/",
        "/admin/axes/accesslog/",
        "/admin/axes/accessfailurelog/",
        "/admin/axes/accessattempt/?locked_out=yes",
    ]
    for url in pages:
        assert director.get(url).status_code == 200, url
    # The records of logging in are read, not edited or deleted.
    attempt = AccessAttempt.objects.get(username="jaime")
    page = director.get(f"/admin/axes/accessattempt/{attempt.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert director.get(f"/admin/axes/accessattempt/{attempt.pk}/delete/").status_code == 403
    assert director.get(f"/admin/auth/user/{jaime.pk}/delete/").status_code == 403
