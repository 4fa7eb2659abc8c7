"""The environment a bench gives the processes it starts: this shell's,
without what would point them at anything but the bench's scratch stores."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FOREIGN_ENV = (
    "DATABASE_URL",
    "POSTGRES_DB",
    "POSTGRES_USER",
    "POSTGRES_PASSWORD",
    "POSTGRES_HOST",
    "POSTGRES_PORT",
    "CELERY_BROKER_URL",
    "FLOOR_EVENT_STORE",
    "FLOOR_EVENT_STORE_PATH",
    "FLOOR_SQLITE_PATH",
    "FLOOR_SQLITE_TEST_PATH",
    "FLOOR_VAR_DIR",
    "FLOOR_RULE_PROFILE",
    "FLOOR_SWEEP_SECONDS",
    "DJANGO_SETTINGS_MODULE",
)


def clean_environ() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in FOREIGN_ENV}


def output_dir() -> Path:
    """Where a bench writes its results: ``var/bench/`` of the checkout, or
    ``FLOOR_BENCH_OUTPUT_DIR`` when set (CI's tiny run points it at its scratch
    directory, so that nothing is left in the checkout)."""
    chosen = os.environ.get("FLOOR_BENCH_OUTPUT_DIR")
    return Path(chosen) if chosen else ROOT / "var" / "bench"


def shown(path: Path) -> str:
    """A path as printed: relative to the checkout when inside it."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)
