"""Logging in (issue 18): wrong passwords lock a user name and an address out on
both doors until the cool-off passes or a director lifts it; API tokens last a
shift and end at logout and at a password change; the demo loader leaves a
changed password changed.

No sleeping: the cool-off is passed by moving axes' attempt times back, a
token's end by moving its expiry.
"""

from __future__ import annotations

import io
import logging
from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from floor.logins import issue_token

pytestmark = pytest.mark.django_db

PASSWORD = "pa55-word-ok"
LIMIT = settings.AXES_FAILURE_LIMIT
ADDRESS_LIMIT = settings.FLOOR_LOGIN_ADDRESS_FAILURE_LIMIT


def token_for(username: str, password: str = PASSWORD, address: str = "127.0.0.1"):
    return APIClient(REMOTE_ADDR=address).post(
        "/api/auth/token/", {"username": username, "password": password}
    )


def console_login(username: str, password: str = PASSWORD, address: str = "127.0.0.1"):
    client = Client(REMOTE_ADDR=address)
    response = client.post("/accounts/login/", {"username": username, "password": password})
    return client, response


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def pass_the_cool_off() -> None:
    """As if the cool-off had passed since the last failure."""
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    )


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


# --- the lockout ---------------------------------------------------------------------


def test_wrong_passwords_on_the_token_endpoint_lock_the_user_out_until_the_cool_off(make_user):
    make_user("dora", "director", password=PASSWORD)
    answers = [token_for("dora", f"guess-{n}") for n in range(LIMIT - 1)]
    assert {(a.status_code, a.json()["code"]) for a in answers} == {(400, "login_failed")}
    locking = token_for("dora", "one-more-guess")
    assert (locking.status_code, locking.json()["code"]) == (429, "login_locked")

    refused = token_for("dora")  # the right password, locked out
    assert (refused.status_code, refused.json()["code"]) == (429, "login_locked")
    assert "director" in refused.json()["message"]  # who lifts it
    assert not AuthToken.objects.exists()
    assert AccessFailureLog.objects.filter(username="dora", locked_out=True).exists()

    pass_the_cool_off()
    assert token_for("dora").status_code == 200


def test_the_lockout_message_is_translated(make_user):
    make_user("dora", "director", password=PASSWORD)
    for n in range(LIMIT):
        token_for("dora", f"guess-{n}")
    client = APIClient(HTTP_ACCEPT_LANGUAGE="gl")
    answer = client.post("/api/auth/token/", {"username": "dora", "password": PASSWORD})
    assert answer.status_code == 429 and "director" in answer.json()["message"]
    spanish = APIClient(HTTP_ACCEPT_LANGUAGE="es").post(
        "/api/auth/token/", {"username": "dora", "password": PASSWORD}
    )
    assert spanish.json()["message"] != answer.json()["message"]


def test_wrong_passwords_on_the_console_lock_the_user_out_with_an_inline_message(make_user):
    make_user("jaime", "jefe_sector", password=PASSWORD)
    for n in range(LIMIT):
        client, response = console_login("jaime", f"guess-{n}")
        assert not logged_in(client) and response.status_code in {200, 429}
    client, response = console_login("jaime")  # the right password
    assert response.status_code == 429 and not logged_in(client)
    page = response.content.decode()
    assert 'data-testid="login-error"' in page and "director" in page  # Spanish: "un director"
    assert 'id="id_username"' in page  # the login form again, not an error page

    pass_the_cool_off()
    client, response = console_login("jaime")
    assert response.status_code == 302 and logged_in(client)


def test_failures_on_one_door_count_on_the_other(make_user):
    make_user("jaime", "jefe_sector", password=PASSWORD)
    for n in range(LIMIT):
        console_login("jaime", f"guess-{n}")
    assert token_for("jaime").json()["code"] == "login_locked"


def test_an_address_trying_many_users_is_locked_out_but_not_the_users_elsewhere(make_user):
    make_user("jaime", "jefe_sector", password=PASSWORD)
    for n in range(ADDRESS_LIMIT - 1):
        console_login(f"nobody-{n}", "guess", address="10.1.1.66")
    assert token_for("jaime", address="10.1.1.66").status_code == 200  # not yet
    console_login("nobody-else", "guess", address="10.1.1.66")
    assert token_for("jaime", address="10.1.1.66").json()["code"] == "login_locked"
    _client, response = console_login("jaime", address="10.1.1.66")
    assert response.status_code == 429
    assert token_for("jaime", address="10.1.1.7").status_code == 200


def test_a_few_typos_on_a_shared_pc_lock_only_their_user_names(make_user):
    """An address locks after more failures than a user name: five typos of one
    user do not lock the director out of the same PC."""
    make_user("jaime", "jefe_sector", password=PASSWORD)
    make_user("dora", "director", password=PASSWORD)
    for n in range(LIMIT):
        console_login("jaime", f"guess-{n}")
    assert console_login("jaime")[1].status_code == 429
    client, response = console_login("dora")
    assert response.status_code == 302 and logged_in(client)


def test_a_good_login_does_not_reset_the_count_for_the_user_name(make_user):
    """Each failure counts until the cool-off: logging in between does not wipe them."""
    make_user("dora", "director", password=PASSWORD)
    for n in range(LIMIT - 1):
        token_for("dora", f"guess-{n}")
    assert token_for("dora").status_code == 200
    assert token_for("dora", "guess-again").json()["code"] == "login_locked"


def test_the_director_sees_and_lifts_a_lockout_and_the_log_names_them(api_as, make_user, caplog):
    make_user("jaime", "jefe_sector", password=PASSWORD)
    for n in range(LIMIT):
        token_for("jaime", f"guess-{n}", address="10.1.1.5")
    director, jefe = api_as("dora", "director"), api_as("julia", "jefe_sector")

    for n in range(ADDRESS_LIMIT - LIMIT):
        console_login(f"nobody-{n}", "guess", address="10.1.1.5")

    report = director.get("/api/auth/lockouts/")
    assert report.status_code == 200
    assert report.json()["failure_limit"] == LIMIT
    assert report.json()["address_failure_limit"] == ADDRESS_LIMIT
    locked = {(row["kind"], row["value"]) for row in report.json()["locked"]}
    assert locked == {("username", "jaime"), ("ip_address", "10.1.1.5")}

    refused = jefe.get("/api/auth/lockouts/")
    assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")
    refused = jefe.post("/api/auth/lockouts/lift/", {"username": "jaime"})
    assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")
    assert token_for("jaime", address="10.1.1.5").status_code == 429

    with caplog.at_level(logging.WARNING, logger="floor.logins"):
        lifted = director.post(
            "/api/auth/lockouts/lift/", {"username": "jaime", "ip_address": "10.1.1.5"}
        )
    assert lifted.status_code == 200 and lifted.json()["locked"] == []
    assert any("lifted by dora" in line and "jaime" in line for line in caplog.messages)
    assert token_for("jaime", address="10.1.1.5").status_code == 200
    # The failures stay on record (the refused right password too): a lift
    # clears the counts, not axes' failure log.
    assert AccessFailureLog.objects.filter(username="jaime").count() == LIMIT + 1


def test_lifting_nothing_is_a_clear_refusal(api_as):
    director = api_as("dora", "director")
    answer = director.post("/api/auth/lockouts/lift/", {"username": "nobody"})
    assert (answer.status_code, answer.json()["code"]) == (404, "lockout_not_found")
    answer = director.post("/api/auth/lockouts/lift/", {})
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_input")
    answer = director.post("/api/auth/lockouts/lift/", {"ip_address": "not an address"})
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_input")


def test_a_lifted_console_lockout_lets_the_user_in(api_as, make_user):
    make_user("jaime", "jefe_sector", password=PASSWORD)
    for n in range(LIMIT):
        console_login("jaime", f"guess-{n}")
    assert console_login("jaime")[1].status_code == 429
    assert (
        api_as("dora", "director")
        .post("/api/auth/lockouts/lift/", {"username": "jaime", "ip_address": "127.0.0.1"})
        .status_code
        == 200
    )
    client, response = console_login("jaime")
    assert response.status_code == 302 and logged_in(client)


def test_the_token_endpoint_is_throttled_per_address(make_user, monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"login": "3/minute"})
    make_user("dora", "director", password=PASSWORD)
    assert [token_for("ghost", "x").status_code for _ in range(3)] == [400] * 3
    throttled = token_for("dora")
    assert (throttled.status_code, throttled.json()["code"]) == (429, "throttled")
    assert token_for("dora", address="10.2.2.2").status_code == 200


def test_a_forwarded_for_header_does_not_escape_the_throttle(make_user, monkeypatch):
    """Any caller writes X-Forwarded-For: the throttle keys on the connection."""
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"login": "3/minute"})
    answers = [
        APIClient(REMOTE_ADDR="10.3.3.3", HTTP_X_FORWARDED_FOR=f"10.9.9.{i}")
        .post("/api/auth/token/", {"username": f"ghost{i}", "password": "x"})
        .status_code
        for i in range(5)
    ]
    assert answers == [400, 400, 400, 429, 429]


# --- tokens --------------------------------------------------------------------------


def test_a_token_lasts_a_shift_and_then_stops_working(make_user):
    make_user("dora", "director", password=PASSWORD)
    before = timezone.now()
    answer = token_for("dora").json()
    assert set(answer) == {"token", "expiry"}
    expiry = AuthToken.objects.get().expiry
    shift = timedelta(hours=settings.FLOOR_TOKEN_HOURS)
    assert before + shift <= expiry <= timezone.now() + shift
    client = with_token(answer["token"])
    assert client.get("/api/me/").status_code == 200

    AuthToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))  # the shift ends
    refused = client.get("/api/me/")
    assert (refused.status_code, refused.json()["code"]) == (401, "authentication_failed")


def test_a_request_checks_its_own_token_and_beat_sweeps_the_expired_ones(make_user):
    """Issue 23: knox read every token of the user on each request to delete the
    expired ones; here a request refuses (and deletes) only its own expired
    token, and beat's hourly task deletes the rest."""
    from floor.tasks import sweep_tokens

    make_user("dora", "director", password=PASSWORD)
    KEY = CONSTANTS.TOKEN_KEY_LENGTH
    old, live, ended = (token_for("dora").json()["token"] for _ in range(3))
    shift_over = timezone.now() - timedelta(seconds=1)
    AuthToken.objects.filter(token_key__in=[old[:KEY], ended[:KEY]]).update(expiry=shift_over)

    assert with_token(live).get("/api/me/").status_code == 200
    assert AuthToken.objects.count() == 3  # the others' rows are left to the sweep
    refused = with_token(ended).get("/api/me/")
    assert (refused.status_code, refused.json()["code"]) == (401, "authentication_failed")
    assert not AuthToken.objects.filter(token_key=ended[:KEY]).exists()

    assert settings.CELERY_BEAT_SCHEDULE["token-sweep"]["task"] == "floor.tasks.sweep_tokens"
    assert sweep_tokens() == 1
    assert list(AuthToken.objects.values_list("token_key", flat=True)) == [live[:KEY]]
    assert with_token(live).get("/api/me/").status_code == 200


def test_an_api_login_and_logout_leave_no_session_behind(make_user):
    from django.contrib.sessions.models import Session

    make_user("dora", "director", password=PASSWORD)
    answer = token_for("dora")
    assert answer.status_code == 200 and "sessionid" not in answer.cookies
    client = with_token(answer.json()["token"])
    assert client.post("/api/auth/logout/").status_code == 204
    assert not Session.objects.exists()


def test_logout_revokes_the_token_and_logout_all_every_token(make_user):
    make_user("dora", "director", password=PASSWORD)
    first, second, third = (with_token(token_for("dora").json()["token"]) for _ in range(3))
    assert first.post("/api/auth/logout/").status_code == 204
    assert first.get("/api/me/").status_code == 401
    assert second.get("/api/me/").status_code == 200
    assert second.post("/api/auth/logout-all/").status_code == 204
    assert second.get("/api/me/").status_code == 401
    assert third.get("/api/me/").status_code == 401


def test_a_password_change_revokes_every_token(make_user):
    dora = make_user("dora", "director", password=PASSWORD)
    other = make_user("otto", "director", password=PASSWORD)
    client = with_token(token_for("dora").json()["token"])
    others = with_token(token_for("otto").json()["token"])
    dora.last_login = timezone.now()
    dora.save()  # a save that keeps the password keeps the tokens
    assert client.get("/api/me/").status_code == 200

    dora.set_password("a-new-pa55-word")
    dora.save()
    assert client.get("/api/me/").status_code == 401
    assert others.get("/api/me/").status_code == 200 and other.auth_token_set.count() == 1
    assert token_for("dora").status_code == 400
    assert token_for("dora", "a-new-pa55-word").status_code == 200


def test_a_password_changed_with_changepassword_revokes_the_tokens(make_user, monkeypatch):
    make_user("dora", "director", password=PASSWORD)
    client = with_token(token_for("dora").json()["token"])
    monkeypatch.setattr("getpass.getpass", lambda *a, **k: "a-new-pa55-word")
    call_command("changepassword", "dora", stdout=io.StringIO())
    assert client.get("/api/me/").status_code == 401


def test_a_user_lists_and_revokes_their_own_tokens_only(make_user):
    make_user("dora", "director", password=PASSWORD)
    make_user("otto", "director", password=PASSWORD)
    secrets = [token_for("dora").json()["token"] for _ in range(2)]
    otto_secret = token_for("otto").json()["token"]
    dora = with_token(secrets[0])

    listed = dora.get("/api/auth/tokens/")
    assert listed.status_code == 200
    rows = listed.json()
    assert [row["prefix"] for row in rows] == [
        s[: len(row["prefix"])] for s, row in zip(secrets, rows, strict=True)
    ]
    assert [row["current"] for row in rows] == [True, False]
    assert all(set(row) == {"prefix", "created", "expiry", "current"} for row in rows)
    body = listed.content.decode()
    assert not any(secret in body for secret in secrets)  # never the secret
    assert otto_secret[:8] not in body

    otto_prefix = AuthToken.objects.get(user__username="otto").token_key
    refused = dora.delete(f"/api/auth/tokens/{otto_prefix}/")
    assert (refused.status_code, refused.json()["code"]) == (404, "token_not_found")
    assert with_token(otto_secret).get("/api/me/").status_code == 200

    assert dora.delete(f"/api/auth/tokens/{rows[1]['prefix']}/").status_code == 204
    assert with_token(secrets[1]).get("/api/me/").status_code == 401
    assert dora.get("/api/me/").status_code == 200


def test_tokens_made_for_tests_and_scripts_are_the_same_kind(make_user):
    _record, secret = issue_token(make_user("dora", "director"))
    assert with_token(secret).get("/api/me/").json()["username"] == "dora"
    assert AuthToken.objects.get().expiry is not None


# --- the demo users ------------------------------------------------------------------


def test_the_demo_loader_leaves_a_changed_password_and_roles_changed(floor_app):
    call_command("load_demo_floor", stdout=io.StringIO())
    director = User.objects.get(username="director")
    assert director.check_password("director-demo")
    director.set_password("a-real-pa55-word")
    director.save()
    jefe = User.objects.get(username="jefe")
    jefe.groups.add(*User.objects.get(username="inspector").groups.all())

    call_command("load_demo_floor", stdout=io.StringIO())  # make run, again
    assert token_for("director", "director-demo").status_code == 400
    assert token_for("director", "a-real-pa55-word").status_code == 200
    assert set(User.objects.get(username="jefe").groups.values_list("name", flat=True)) == {
        "jefe_sector",
        "inspector",
    }
