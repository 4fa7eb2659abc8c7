"""The idle projector wakes as the log grows (issue 23, item 1): on PostgreSQL
on the store's NOTIFY, on SQLite by polling the log's last id."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings

from floor.projector_wakeup import ListeningWakeup, PollingWakeup, wakeup_for
from tests.support.floor import open_sector

pytestmark = pytest.mark.django_db


def test_the_wakeup_fits_the_store_and_wakes_when_an_event_is_recorded(floor_app):
    wakeup = wakeup_for(floor_app.recorder, poll=0.001)
    listening = settings.EVENT_STORE_BACKEND == "postgres"
    assert isinstance(wakeup, ListeningWakeup if listening else PollingWakeup)
    stop = threading.Event()
    try:
        last = floor_app.last_position()
        assert wakeup.wait(last, timeout=0.02, stop=stop) is False  # nothing new
        open_sector(floor_app, "Sector A")
        # Listening, only the notification can wake it: no event is past 10**9.
        after = 10**9 if listening else last
        assert wakeup.wait(after, timeout=5, stop=stop) is True
        # The burst was taken whole: nothing is left to wake on.
        assert wakeup.wait(10**9, timeout=0.02, stop=stop) is False
        stop.set()
        assert wakeup.wait(10**9, timeout=5, stop=stop) is False
    finally:
        wakeup.close()
