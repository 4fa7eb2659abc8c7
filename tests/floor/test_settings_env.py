"""Deployment settings read from the environment (issue 20, "What a casino's IT
deploys"): the database URL parsed by dj-database-url with its libpq options
kept for the read models and the event store alike, a schema per casino, and
production settings that pass ``manage.py check --deploy``."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from config.env import db_schema_from_env, postgres_from_env
from floor import runtime
from floor.postgres_store import FloorPostgresFactory

ROOT = Path(__file__).resolve().parents[2]


def test_a_database_url_keeps_sslmode_and_the_other_libpq_options():
    db = postgres_from_env(
        {
            "DATABASE_URL": "postgresql://u:p%40ss@db.casino:6543/floor"
            "?sslmode=require&sslrootcert=/etc/floor/ca.pem&connect_timeout=7"
        }
    )
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "floor",
        "u",
        "p@ss",
        "db.casino",
        6543,
    )
    assert db["OPTIONS"] == {
        "sslmode": "require",
        "sslrootcert": "/etc/floor/ca.pem",
        "connect_timeout": 7,
    }
    assert db["CONN_HEALTH_CHECKS"] is True


def test_postgres_variables_still_select_postgresql():
    db = postgres_from_env(
        {
            "POSTGRES_DB": "floor",
            "POSTGRES_USER": "floor",
            "POSTGRES_PASSWORD": "a/b@c:d",
            "POSTGRES_HOST": "pg",
            "POSTGRES_SSLMODE": "verify-full",
        }
    )
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "floor",
        "floor",
        "a/b@c:d",
        "pg",
        5432,
    )
    assert db["OPTIONS"] == {"sslmode": "verify-full"}


def test_no_database_setting_is_the_embedded_default():
    assert postgres_from_env({}) is None


def test_a_url_of_another_database_is_refused():
    with pytest.raises(ValueError, match="postgresql://"):
        postgres_from_env({"DATABASE_URL": "mysql://u:p@h/db"})


def test_the_casino_schema_becomes_the_search_path():
    db = postgres_from_env(
        {
            "DATABASE_URL": "postgresql://u:p@h/db?sslmode=require",
            "FLOOR_DB_SCHEMA": "casino_vigo",
        }
    )
    assert db["OPTIONS"] == {"sslmode": "require", "options": "-c search_path=casino_vigo"}


@pytest.mark.parametrize("name", ["Casino", "1casino", "casino-vigo", "a;drop", "x" * 64])
def test_a_schema_name_that_is_not_a_plain_identifier_is_refused(name):
    with pytest.raises(ValueError, match="FLOOR_DB_SCHEMA"):
        db_schema_from_env({"FLOOR_DB_SCHEMA": name})


def test_the_event_store_gets_the_read_models_connection_options_and_schema(settings, monkeypatch):
    settings.EVENT_STORE_BACKEND = "postgres"
    settings.FLOOR_DB_SCHEMA = "casino_vigo"
    db = postgres_from_env(
        {
            "DATABASE_URL": "postgresql://u:p@db.casino:5432/floor?sslmode=require"
            "&sslrootcert=/etc/floor/ca.pem",
            "FLOOR_DB_SCHEMA": "casino_vigo",
        }
    )
    db["OPTIONS"]["isolation_level"] = 1  # Django's own: not a libpq option
    monkeypatch.setattr(runtime, "connections", {"default": SimpleNamespace(settings_dict=db)})

    env = runtime.event_store_env()

    assert env["POSTGRES_DBNAME"] == "floor"
    assert env["POSTGRES_HOST"] == "db.casino"
    assert env["POSTGRES_SCHEMA"] == "casino_vigo"
    # The tables are migrate's (floor.db_schema.ensure_event_store): a process
    # using the store does no DDL, so units started together do not race on it.
    assert env["CREATE_TABLE"] == "no"
    assert runtime.event_store_env(create_tables=True)["CREATE_TABLE"] == "yes"
    # The factory (no connection made yet: the pool opens on first use) passes
    # every libpq option to each connection of the event store's pool.
    factory = FloorPostgresFactory(env)
    try:
        kwargs = factory.datastore.pool.kwargs
        assert kwargs["sslmode"] == "require"
        assert kwargs["sslrootcert"] == "/etc/floor/ca.pem"
        assert kwargs["options"] == "-c search_path=casino_vigo"
        assert "isolation_level" not in kwargs
        assert factory.datastore.schema == "casino_vigo"
    finally:
        factory.close()


# --- Production settings, read by a fresh process as a deployment would.


def production_env(**extra: str) -> dict[str, str]:
    """What docs/deploy.md's checklist sets (deploy/floor.env.example)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "FLOOR_", "POSTGRES_"))
        and key not in {"DATABASE_URL", "CELERY_BROKER_URL"}
    }
    env.update(
        FLOOR_VAR_DIR=os.environ.get("FLOOR_VAR_DIR", str(ROOT / "var")),
        PYTHONPATH=str(ROOT),
        FLOOR_PRODUCTION="1",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        FLOOR_AUDIT_KEY=secrets.token_urlsafe(32),
        DJANGO_ALLOWED_HOSTS="floor.casino.example",
        DJANGO_SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://floor.casino.example",
    )
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_production_settings():
    done = manage(production_env(), "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues (0 silenced)." in done.stdout
    assert "WARNING" not in done.stderr


def test_production_refuses_to_start_without_a_long_secret_key():
    env = production_env()
    del env["DJANGO_SECRET_KEY"]
    done = manage(env, "check")
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY" in done.stderr
    done = manage(production_env(DJANGO_SECRET_KEY="short-key"), "check")
    assert done.returncode != 0
    assert "at least 50" in done.stderr


def test_production_refuses_debug():
    done = manage(production_env(DJANGO_DEBUG="1"), "check")
    assert done.returncode != 0
    assert "DJANGO_DEBUG" in done.stderr


SHOW = (
    "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, "
    "s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
    "s.SECURE_PROXY_SSL_HEADER, s.CSRF_TRUSTED_ORIGINS)"
)


def test_the_production_settings_follow_the_environment():
    done = manage(production_env(), "shell", "-c", SHOW)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == (
        "True True True 31536000 ('HTTP_X_FORWARDED_PROTO', 'https') "
        "['https://floor.casino.example']"
    )
    done = manage(
        production_env(DJANGO_SECURE_SSL_REDIRECT="0", DJANGO_SECURE_HSTS_SECONDS="60"),
        "shell",
        "-c",
        SHOW,
    )
    assert done.stdout.strip().splitlines()[-1].startswith("True True False 60 ")


def test_the_embedded_default_keeps_plain_http():
    env = {
        key: value
        for key, value in production_env().items()
        if not key.startswith("DJANGO_") and key != "FLOOR_PRODUCTION"
    }
    done = manage(env, "shell", "-c", SHOW)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False False False 0 None []"


@pytest.mark.django_db
def test_monitors_on_plain_http_are_not_redirected(client, settings, floor_app):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/accounts/login/").status_code == 301
    assert client.get("/healthz").status_code in {200, 503}
    assert client.get("/accounts/login/", secure=True).status_code == 200


def test_postgres_variables_keep_a_socket_directory_or_an_ipv6_host_as_given():
    from config.env import postgres_from_env

    socket = postgres_from_env({"POSTGRES_DB": "floor", "POSTGRES_HOST": "/var/run/postgresql"})
    assert (socket["HOST"], socket["NAME"]) == ("/var/run/postgresql", "floor")
    ipv6 = postgres_from_env({"POSTGRES_DB": "floor", "POSTGRES_HOST": "::1"})
    assert (ipv6["HOST"], ipv6["PORT"]) == ("::1", 5432)


NOTIFY = (
    "from django.conf import settings as s; print(s.FLOOR_NOTIFY_CHANNELS, s.EMAIL_HOST, "
    "s.EMAIL_PORT, s.EMAIL_USE_TLS, s.EMAIL_TIMEOUT, s.FLOOR_SMS_URL)"
)


def test_the_notification_channels_follow_the_environment():
    """Issue 24, item 3: the channels and their settings from the environment;
    an unknown channel, or SMS without its provider, refuses to start."""
    done = manage(production_env(), "shell", "-c", NOTIFY)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "() localhost 25 False 10.0"  # no SMS URL
    env = production_env(
        FLOOR_NOTIFY_CHANNELS=" SMS, email ",
        EMAIL_HOST="smtp.casino.example",
        EMAIL_PORT="587",
        EMAIL_USE_TLS="1",
        FLOOR_SMS_URL="https://sms.example/v1",
    )
    done = manage(env, "shell", "-c", NOTIFY)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == (
        "('email', 'sms') smtp.casino.example 587 True 10.0 https://sms.example/v1"
    )
    done = manage(production_env(FLOOR_NOTIFY_CHANNELS="pigeon"), "check")
    assert done.returncode != 0 and "FLOOR_NOTIFY_CHANNELS" in done.stderr
    done = manage(production_env(FLOOR_NOTIFY_CHANNELS="sms"), "check")
    assert done.returncode != 0 and "FLOOR_SMS_URL" in done.stderr
