"""Snapshots taken before the clocks and balancing (class version 1) load with
the state those added, so a table snapshotted this morning still plays tonight."""

from __future__ import annotations

import pytest
from eventsourcing.domain import Snapshot

from floor.domain.player import Player
from floor.domain.sector import Sector
from tests.support.room import Room

pytestmark = pytest.mark.django_db

ADDED = {
    "Table": ("session", "sessions_started", "last_hands", "jackpot_stakes"),
    "Player": ("absence_days", "kept_apart", "in_tournament"),
    "Sector": ("closing",),
}
SEAT_KEYS = ("played_hand", "away", "time_due")


def as_version_1(aggregate) -> Snapshot:
    """A snapshot of ``aggregate`` as the code before version 2 took it."""
    snapshot = Snapshot.take(aggregate)
    state = {
        k: v
        for k, v in snapshot.state.items()
        if k not in ADDED[type(aggregate).__name__] and k != "class_version"
    }
    for seat in state.get("occupants", {}).values():
        for key in SEAT_KEYS:
            seat.pop(key, None)
    return Snapshot(
        originator_id=snapshot.originator_id,
        originator_version=snapshot.originator_version,
        timestamp=snapshot.timestamp,
        topic=snapshot.topic,
        state=state,
    )


def test_version_1_snapshots_load_with_the_new_state(floor_app):
    room = Room(floor_app)
    table_id, cards = room.drawn_table(5)
    room.played(table_id)
    for aggregate in (
        room.get(table_id),
        room.player(cards[0]),
        floor_app.repository.get(Sector.create_id("Sector C")),
    ):
        loaded = as_version_1(aggregate).mutate(None)
        # None of these used the new state yet: its defaults are what it holds.
        for name in ADDED[type(aggregate).__name__]:
            assert getattr(loaded, name) == getattr(aggregate, name)
    table = as_version_1(room.get(table_id)).mutate(None)
    assert all(
        (s["away"], s["time_due"]) == (None, False) and "played_hand" in s
        for s in table.occupants.values()
    )
    assert isinstance(as_version_1(room.player(cards[0])).mutate(None), Player)
