"""The staff's scope as one policy every command passes (floor.application.staffing),
and the check of a table's reach the ledger reuses through floor.ports.tables."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from floor.application.staffing import SCOPED_ROLES, StaffScope, check_table_in_reach
from floor.kernel.composition import ROOM
from floor.kernel.errors import DomainError
from floor.kernel.registry import COMMANDS
from floor.kernel.roles import Actor, Role
from tests.support.floor import DIRECTOR, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db

JULIA = Actor("julia", frozenset({Role.JEFE_SECTOR}))
CARLOS = Actor("carlos", frozenset({Role.CRUPIER}))


@pytest.fixture
def room(floor_app) -> Room:
    room = Room(floor_app, tag="SS")
    floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=room.sector_id, jefes=["jaime"])
    return room


def test_the_staff_scope_is_declared_to_the_room_once():
    policies = ROOM.policies()
    assert isinstance(policies["staff_scope"], StaffScope)
    assert sum(isinstance(p, StaffScope) for p in policies.values()) == 1


def refusal(call) -> str:
    with pytest.raises(DomainError) as refused:
        call()
    return refused.value.code


def test_a_table_is_in_reach_of_its_jefe_and_its_dealer_only(room):
    table_id = room.table()  # dealt by the room's crupier (tests.support.floor)
    work = room.work()
    assert SCOPED_ROLES == (Role.JEFE_SECTOR, Role.CRUPIER)
    check_table_in_reach(work, "jaime", Role.JEFE_SECTOR, table_id)
    check_table_in_reach(work, "julia", Role.DIRECTOR, table_id)  # unscoped: no refusal
    check_table_in_reach(work, "julia", Role.JEFE_SECTOR, None)  # names no table
    assert (
        refusal(lambda: check_table_in_reach(work, "julia", Role.JEFE_SECTOR, table_id))
        == "not_your_sector"
    )
    assert (
        refusal(lambda: check_table_in_reach(work, "carlos", Role.CRUPIER, table_id))
        == "not_your_table"
    )


def test_what_names_a_table_by_table_id_is_checked_like_the_table(room):
    """An aggregate of another context (the ledger's tray request) that
    changed a table outside the actor's reach refuses the command."""
    table_id = room.table()
    work = room.work()
    spec = COMMANDS["cancel_tray_move"]
    stand_in = SimpleNamespace(table_id=table_id)
    scope = StaffScope()
    scope.check_changed(work, JULIA, spec, Role.JEFE_SECTOR, [SimpleNamespace()])  # names none
    assert (
        refusal(lambda: scope.check_changed(work, JULIA, spec, Role.JEFE_SECTOR, [stand_in]))
        == "not_your_sector"
    )
    jaime = Actor("jaime", frozenset({Role.JEFE_SECTOR}))
    scope.check_changed(work, jaime, spec, Role.JEFE_SECTOR, [stand_in])
