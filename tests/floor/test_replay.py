"""Our aggregates replay without the library's per-event assert (floor.kernel.replay)
to the very state the library's own projector gives, from a snapshot or from
the first event; and a long-lived table is snapshotted, so a load replays only
what followed its last snapshot (issue 23, items 5 and 6)."""

from __future__ import annotations

from uuid import UUID

import pytest
from eventsourcing.application import project_aggregate

from floor.kernel.replay import OwnRepository, project_events
from tests.support.room import Room

pytestmark = pytest.mark.django_db


def state(aggregate) -> dict:
    return dict(vars(aggregate))


def test_a_table_replays_to_the_library_projectors_state(floor_app):
    room = Room(floor_app)
    table_id, _ = room.drawn_table(4, buy_in=500)
    for _ in range(3):
        room.played(table_id)
    table_uuid = UUID(table_id)
    assert isinstance(floor_app.repository, OwnRepository)
    ours = floor_app.repository.get(table_uuid)
    library = floor_app.repository.get(table_uuid, projector_func=project_aggregate)
    assert state(ours) == state(library)
    # From the first event too (no snapshot), and at a past version.
    events = list(floor_app.events.get(table_uuid))
    assert state(project_events(None, events)) == state(project_aggregate(None, events))
    middle = len(events) // 2
    assert state(floor_app.repository.get(table_uuid, version=middle)) == state(
        project_aggregate(None, events[:middle])
    )


def test_an_event_that_cannot_mutate_fails_loudly():
    with pytest.raises(AttributeError):
        project_events(None, [object()])


def test_a_long_lived_table_is_loaded_from_its_last_snapshot(floor_app, monkeypatch):
    room = Room(floor_app)
    table_id, _ = room.drawn_table(4, buy_in=500)
    table_uuid = UUID(table_id)
    while floor_app.repository.get(table_uuid).version < 120:
        room.played(table_id)
    version = floor_app.repository.get(table_uuid).version
    snapshots = list(floor_app.snapshots.get(table_uuid))
    # One snapshot every 50 events (floor.application.floor_app), taken as saved.
    assert [s.originator_version for s in snapshots] == list(range(50, version + 1, 50))
    replayed = []
    read = floor_app.events.get

    def counted(originator_id, *args, **kwargs):
        found = list(read(originator_id, *args, **kwargs))
        replayed.extend(found)
        return found

    monkeypatch.setattr(floor_app.events, "get", counted)
    loaded = floor_app.repository.get(table_uuid)
    assert loaded.version == version
    assert [e.originator_version for e in replayed] == list(
        range(snapshots[-1].originator_version + 1, version + 1)
    )
