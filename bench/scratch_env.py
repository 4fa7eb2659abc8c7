"""The environment a bench gives the processes it starts: this shell's,
without what would point them at anything but the bench's scratch stores."""

from __future__ import annotations

import os

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
