"""Reads deployment settings from the environment.

Everything that differs between a laptop demo and a casino chain is an
environment variable: where the database is, where the broker is, which rule
profile the casino runs. The defaults give the embedded set-up (SQLite files and
a filesystem broker under ``var/``), so a fresh checkout runs with no server.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import unquote, urlparse


@dataclass(frozen=True)
class PostgresConfig:
    """Connection parameters for PostgreSQL, from DATABASE_URL or POSTGRES_*."""

    name: str
    user: str
    password: str
    host: str
    port: int


def postgres_from_env(environ: dict[str, str] | None = None) -> PostgresConfig | None:
    """Returns the PostgreSQL settings the environment asks for, or None.

    ``DATABASE_URL=postgresql://user:pass@host:port/db`` wins; otherwise
    ``POSTGRES_DB`` (with the optional ``POSTGRES_USER``, ``POSTGRES_PASSWORD``,
    ``POSTGRES_HOST`` and ``POSTGRES_PORT``) selects PostgreSQL.
    """
    env = os.environ if environ is None else environ
    url = env.get("DATABASE_URL", "").strip()
    if url:
        parsed = urlparse(url)
        if parsed.scheme not in {"postgres", "postgresql"}:
            raise ValueError(f"DATABASE_URL must be a postgresql:// URL, not {parsed.scheme!r}")
        return PostgresConfig(
            name=unquote(parsed.path.lstrip("/")) or "floor",
            user=unquote(parsed.username or "postgres"),
            password=unquote(parsed.password or ""),
            host=parsed.hostname or "127.0.0.1",
            port=parsed.port or 5432,
        )
    if env.get("POSTGRES_DB"):
        return PostgresConfig(
            name=env["POSTGRES_DB"],
            user=env.get("POSTGRES_USER", "postgres"),
            password=env.get("POSTGRES_PASSWORD", ""),
            host=env.get("POSTGRES_HOST", "127.0.0.1"),
            port=int(env.get("POSTGRES_PORT", "5432")),
        )
    return None


def flag(name: str, default: bool) -> bool:
    """Reads a yes/no environment variable."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return raw.strip().lower() in {"1", "true", "yes", "y", "on"}
