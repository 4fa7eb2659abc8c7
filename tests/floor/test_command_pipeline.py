"""The command pipeline: idempotency by command id, audit metadata, retries."""

import threading
import uuid
from dataclasses import replace
from datetime import timedelta

import pytest

from floor.kernel.errors import DomainError
from floor.kernel.roles import Actor, Role
from floor.kernel.service import ConcurrentUpdateError
from games.profiles import CM
from tests.support.floor import DIRECTOR, HOLDEM, JEFE, new_id, open_sector, open_tables

pytestmark = pytest.mark.django_db


def all_events(app):
    return [app.mapper.to_domain_event(n) for n in app.recorder.select_notifications(1, 10_000)]


def test_a_repeated_command_returns_the_first_outcome_and_records_nothing(floor_app):
    sector_id = open_sector(floor_app)
    command_id = new_id()
    first = floor_app.open_table(JEFE, command_id, sector_id=sector_id, **HOLDEM)
    length = floor_app.last_position()
    again = floor_app.open_table(JEFE, command_id, sector_id=sector_id, **HOLDEM)
    assert again.result == first.result
    assert (first.replayed, again.replayed) == (False, True)
    assert floor_app.last_position() == length


def test_a_command_id_reused_for_another_command_is_refused(floor_app):
    sector_id = open_sector(floor_app)
    command_id = new_id()
    floor_app.open_table(JEFE, command_id, sector_id=sector_id, **HOLDEM)
    with pytest.raises(DomainError) as refused:
        floor_app.open_table(
            JEFE, command_id, sector_id=sector_id, **{**HOLDEM, "minimum_cents": 400}
        )
    assert refused.value.code == "command_id_reused"


def test_a_refused_command_leaves_its_id_free_for_the_corrected_one(floor_app):
    sector_id = open_sector(floor_app)
    command_id = new_id()
    with pytest.raises(DomainError):
        floor_app.open_table(JEFE, command_id, sector_id=sector_id, **{**HOLDEM, "seats": 2})
    outcome = floor_app.open_table(JEFE, command_id, sector_id=sector_id, **HOLDEM)
    assert outcome.replayed is False


@pytest.mark.parametrize("command_id", ["", "   ", None, "x" * 101])
def test_a_command_needs_a_usable_command_id(floor_app, command_id):
    with pytest.raises(DomainError) as refused:
        floor_app.open_sector(DIRECTOR, command_id, name="Sector A")
    assert refused.value.code in {"command_id_required", "command_id_too_long"}
    assert floor_app.last_position() == 0


def test_every_event_names_actor_role_command_profile_and_the_clock_time(floor_app, clock):
    sector_command = new_id()
    sector_id = floor_app.open_sector(DIRECTOR, sector_command, name="Sector A").result["sector_id"]
    clock.advance(timedelta(minutes=7))
    table_command = new_id()
    floor_app.open_table(JEFE, table_command, sector_id=sector_id, **HOLDEM)
    events = all_events(floor_app)
    # The sector and its record; then the table added, the table, its game's
    # balance group opened with the table in it, and the record.
    assert len(events) == 7
    expected = [("dora", "director", sector_command)] * 2 + [
        ("jaime", "jefe_sector", table_command)
    ] * 5
    assert [(e.actor, e.actor_role, e.command_id) for e in events] == expected
    assert {e.rule_profile for e in events} == {floor_app.profile.code}
    start = clock.now() - timedelta(minutes=7)
    assert [e.timestamp for e in events] == [start, start] + [clock.now()] * 5


def test_a_version_conflict_is_decided_again_on_fresh_state(make_app):
    """Two processes open the fourth and fifth table at once: one wins, the
    other sees four tables on its retry and is refused, nothing lost."""
    first, second = make_app(), make_app()
    sector_id = open_sector(first)
    open_tables(first, sector_id, 3)
    barrier = threading.Barrier(2)
    results: list[object] = []
    original_save = type(first).save

    def racing_save(app):
        def save(*objs, **kwargs):
            if not getattr(app, "_raced", False):
                app._raced = True
                barrier.wait(timeout=10)  # both decided on three tables
            return original_save(app, *objs, **kwargs)

        return save

    for app in (first, second):
        app.save = racing_save(app)

    def attempt(app):
        try:
            results.append(app.open_table(JEFE, new_id(), sector_id=sector_id, **HOLDEM))
        except DomainError as refused:
            results.append(refused.code)

    threads = [threading.Thread(target=attempt, args=(app,)) for app in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    codes = sorted(r if isinstance(r, str) else "opened" for r in results)
    assert codes == ["opened", "sector_full"]
    assert sorted(first.repository.get(uuid.UUID(sector_id)).tables.values()) == [1, 2, 3, 4]


def test_endless_conflicts_are_refused_and_record_nothing_of_ours(make_app):
    """Another writer changes the sector between every decision and save: after
    its attempts the command is refused, and only the other writer's events exist."""
    roomy = replace(CM, code="ROOMY", max_tables_per_sector=20)
    ours, theirs = make_app(roomy), make_app(roomy)
    sector_id = open_sector(theirs)
    real_save = type(ours).save
    their_commands = []

    def save_after_a_rival_write(*objs, **kwargs):
        their_commands.append(new_id())
        theirs.open_table(JEFE, their_commands[-1], sector_id=sector_id, **HOLDEM)
        return real_save(ours, *objs, **kwargs)  # now stale: IntegrityError

    ours.save = save_after_a_rival_write
    our_command = new_id()
    with pytest.raises(ConcurrentUpdateError) as refused:
        ours.open_table(JEFE, our_command, sector_id=sector_id, **HOLDEM)
    assert refused.value.code == "concurrent_update"
    assert len(their_commands) == ours.max_attempts
    recorded = {e.command_id for e in all_events(ours)}
    assert our_command not in recorded
    assert set(their_commands) <= recorded
    assert len(ours.repository.get(uuid.UUID(sector_id)).tables) == ours.max_attempts


def test_the_same_command_id_from_another_person_is_their_own_command(floor_app):
    other_director = Actor("dario", frozenset({Role.DIRECTOR}))
    command_id = new_id()
    first = floor_app.open_sector(DIRECTOR, command_id, name="Sector A")
    second = floor_app.open_sector(other_director, command_id, name="Sector B")
    assert (first.replayed, second.replayed) == (False, False)
    assert second.result["name"] == "Sector B"


def test_a_repeat_racing_its_first_copy_gets_the_first_outcome_not_a_refusal(make_app):
    """A client retries while its first request is in flight: the first copy
    commits between the repeat's look for a record and its decision."""
    first, repeat = make_app(), make_app()
    command_id = new_id()
    looked = threading.Event()
    real_find = repeat.find

    def find(cls, aggregate_id):
        found = real_find(cls, aggregate_id)
        if found is None and not looked.is_set():
            looked.set()
            first.open_sector(DIRECTOR, command_id, name="Sector R")
        return found

    repeat.find = find
    outcome = repeat.open_sector(DIRECTOR, command_id, name="Sector R")
    assert looked.is_set()
    assert outcome.replayed is True
    assert outcome.result["name"] == "Sector R"
    assert repeat.last_position() == 2  # one sector, one record
