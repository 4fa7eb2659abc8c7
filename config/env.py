"""Reads deployment settings from the environment.

Everything that differs between a laptop demo and a casino chain is an
environment variable: where the database is, where the broker is, which rule
profile the casino runs. The defaults give the embedded set-up (SQLite files and
a filesystem broker under ``var/``), so a fresh checkout runs with no server.

A database URL is parsed by dj-database-url, the library Django deployments use,
so that every libpq option in its query string (``?sslmode=require``,
``sslrootcert=...``, ``connect_timeout=...``) reaches the connection instead of
being dropped (issue 20, "settings parsed by the library the field uses").
"""

from __future__ import annotations

import os
import re
from typing import Any

import dj_database_url

# An unquoted PostgreSQL identifier: a casino's schema name goes into
# ``search_path`` and into the event store's SQL, so only plain names are taken.
SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")

# Read models and event store connections are kept open this long (seconds).
CONN_MAX_AGE = 60


def db_schema_from_env(environ: dict[str, str] | None = None) -> str:
    """The PostgreSQL schema that holds this casino's floor (``FLOOR_DB_SCHEMA``),
    or "" for the connection's default (``public``).

    DESIGN.md, "Scale": one event store per casino, by schema or database. A
    chain sharing one database gives each casino its own schema.
    """
    env = os.environ if environ is None else environ
    schema = env.get("FLOOR_DB_SCHEMA", "").strip()
    if schema and not SCHEMA_NAME.match(schema):
        raise ValueError(
            f"FLOOR_DB_SCHEMA={schema!r} is not a plain PostgreSQL name: "
            "lower-case letters, digits and _, not starting with a digit, at most 63"
        )
    return schema


def postgres_from_env(environ: dict[str, str] | None = None) -> dict[str, Any] | None:
    """Django's database settings for PostgreSQL as the environment asks, or None.

    ``DATABASE_URL=postgresql://user:pass@host:port/db?sslmode=require`` wins,
    every query parameter kept as a libpq option; otherwise ``POSTGRES_DB`` (with
    the optional ``POSTGRES_USER``, ``POSTGRES_PASSWORD``, ``POSTGRES_HOST``,
    ``POSTGRES_PORT`` and ``POSTGRES_SSLMODE``) selects PostgreSQL. libpq's own
    ``PG*`` variables (``PGSSLMODE``, ``PGSSLROOTCERT``...) apply as usual.
    ``FLOOR_DB_SCHEMA`` puts the read models in that schema (``search_path``).
    """
    env = os.environ if environ is None else environ
    url = env.get("DATABASE_URL", "").strip()
    if url:
        scheme = url.split(":", 1)[0].lower()
        if scheme not in {"postgres", "postgresql", "pgsql"}:
            raise ValueError(f"DATABASE_URL must be a postgresql:// URL, not {scheme!r}")
        db = dj_database_url.parse(url, conn_max_age=CONN_MAX_AGE, conn_health_checks=True)
    elif env.get("POSTGRES_DB"):
        # Taken as given, not pasted into a URL: a socket directory
        # (/var/run/postgresql) or an IPv6 address (::1) is a host as it is.
        db = {
            "NAME": env["POSTGRES_DB"],
            "USER": env.get("POSTGRES_USER", "postgres"),
            "PASSWORD": env.get("POSTGRES_PASSWORD", ""),
            "HOST": env.get("POSTGRES_HOST", "127.0.0.1"),
            "PORT": int(env.get("POSTGRES_PORT", "5432")),
            "CONN_MAX_AGE": CONN_MAX_AGE,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {"sslmode": env["POSTGRES_SSLMODE"]} if env.get("POSTGRES_SSLMODE") else {},
        }
    else:
        return None
    db["ENGINE"] = "django.db.backends.postgresql"
    db["NAME"] = db.get("NAME") or "floor"
    db["USER"] = db.get("USER") or "postgres"
    db["HOST"] = db.get("HOST") or "127.0.0.1"
    db["PORT"] = int(db.get("PORT") or 5432)
    schema = db_schema_from_env(env)
    if schema:
        options = db.setdefault("OPTIONS", {})
        # libpq's "options": the server sets search_path for the session, so every
        # query and every migration of this process stays in the casino's schema.
        options["options"] = f"{options.get('options', '')} -c search_path={schema}".strip()
    return db


def flag(name: str, default: bool) -> bool:
    """Reads a yes/no environment variable."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return raw.strip().lower() in {"1", "true", "yes", "y", "on"}
