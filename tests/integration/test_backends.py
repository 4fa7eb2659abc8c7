"""The run is on the backends it says it is on: a suite that silently fell back
to SQLite would prove nothing about PostgreSQL and Redis."""

import os

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from floor.health import broker_state
from tests.support.require import require

pytestmark = pytest.mark.integration

EXPECTED = {
    "sqlite": {"vendor": "sqlite", "broker": "embedded://"},
    "postgres": {"vendor": "postgresql", "broker": "redis://"},
}


def test_the_stores_and_broker_are_the_ones_this_run_is_for(db, floor_app):
    expected = os.environ.get("FLOOR_EXPECT_BACKEND", "")
    require(expected in EXPECTED, "FLOOR_EXPECT_BACKEND names the backend (set by make test)")
    assert expected == settings.EVENT_STORE_BACKEND
    assert connection.vendor == EXPECTED[expected]["vendor"]
    assert type(floor_app.recorder).__module__ == f"eventsourcing.{expected}"
    assert celery_app.conf.broker_url.startswith(EXPECTED[expected]["broker"])
    assert broker_state()["ok"] is True
