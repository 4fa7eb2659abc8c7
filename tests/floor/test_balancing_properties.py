"""Random sequences of joins, leaves, table changes, accepted proposals, breaks
and overrides over three tables of one game [CM-10]: no accepted operation
leaves the group out of tolerance (or widens a spread left by players leaving)
unless the jefe overrode it with a reason, and nobody is ever seated twice."""

from __future__ import annotations

import itertools
from uuid import UUID

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from floor.domain import balance
from floor.domain.balance_group import BalanceGroup
from floor.domain.player import Player
from floor.kernel.errors import DomainError
from tests.support.floor import JEFE, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db

OPERATIONS = ("join", "join", "leave", "change", "accept", "accept", "break", "override")
# Refusals an operation may meet on a random floor; anything else fails the test.
EXPECTED_REFUSALS = {
    "tables_unbalanced",
    "table_full",
    "table_closed",
    "no_such_proposal",
    "no_table_change_request",
    "table_change_already_requested",
    "move_not_same_game",
    "same_table",
    "player_not_seated",
    "players_kept_apart",
    "waiting_list_first",
    "table_not_started",
    "table_change_requested_first",
}
games = itertools.count()


class Floor:
    """Three tables of a game of its own (stakes differ by example)."""

    def __init__(self, app) -> None:
        n = next(games)
        self.room = Room(app, seed=n, tag=f"P{n}")
        self.stakes = {"minimum_cents": 200 + 2 * (n % 100), "maximum_cents": 1000}
        self.tables = [self.room.table(**self.stakes) for _ in range(3)]
        for card in self.room.new_players(14):  # drawn together: 5, 5 and 4 [PT 25]
            self.room.join(card, self.tables[0])
        app.draw_seats(JEFE, new_id(), table_ids=self.tables)
        self.app = app

    def table(self, table_id: str):
        return self.room.get(table_id)

    def counts(self) -> dict[str, int]:
        playing = [self.table(t) for t in self.tables]
        return {t.id.hex: t.player_count for t in playing if t.status in ("running", "suspended")}

    def group(self) -> BalanceGroup:
        return self.app.repository.get(BalanceGroup.id_for(self.table(self.tables[0]).game))

    def seated_cards(self) -> list[str]:
        cards = []
        for table_id in self.tables:
            cards += list(self.room.seats(table_id).values())
        return cards

    def run(self, operation: str, pick: int) -> bool:
        """Runs one operation; True when it was the jefe's override."""
        app, room, tables = self.app, self.room, self.tables
        table_id = tables[pick % len(tables)]
        seated = self.seated_cards()
        if operation == "join":  # the first on the list, or a newcomer
            waiting = room.listed(table_id)
            card = waiting[0] if waiting else room.new_player()
            if not waiting:
                room.join(card, table_id)
            table = self.table(table_id)
            seat = None if table.draw_open or not table.free_seats() else table.free_seats()[0]
            app.seat_player(JEFE, new_id(), table_id=table_id, player=card, seat=seat)
        elif operation == "leave" and seated:
            card = seated[pick % len(seated)]
            where = room.player(card).seated_at["table_id"]
            app.leave_table(JEFE, new_id(), table_id=str(UUID(where)), player=card)
        elif operation == "change" and seated:
            card = seated[pick % len(seated)]
            source = str(UUID(room.player(card).seated_at["table_id"]))
            # Mostly the emptiest other table (a jefe's choice), sometimes any.
            others = [t for t in tables if t != source and self.table(t).status != "closed"]
            target = tables[(pick // 7) % len(tables)]
            if others and pick % 4:
                target = min(others, key=lambda t: self.table(t).player_count)
            app.request_table_change(JEFE, new_id(), table_id=source, player=card)
            app.grant_table_change(JEFE, new_id(), table_id=source, to_table_id=target)
        elif operation == "accept":
            proposal = self.group().proposal
            app.accept_move(
                JEFE,
                new_id(),
                group_id=str(self.group().id),
                proposal_id=proposal["id"] if proposal else -1,
            )
        elif operation == "break" and len(self.counts()) > 2:
            app.break_table(JEFE, new_id(), table_id=table_id)
        elif operation == "override" and seated:
            card = seated[pick % len(seated)]
            app.override_move(
                JEFE,
                new_id(),
                group_id=str(self.group().id),
                player=card,
                to_table_id=tables[(pick // 3) % len(tables)],
                reason="Property test: the jefe's call",
            )
            return True
        return False

    def check_nobody_seated_twice(self) -> None:
        where: dict[str, tuple[str, int]] = {}
        for table_id in self.tables:
            for seat, state in self.table(table_id).occupants.items():
                player = state["player_id"]
                assert player not in where, f"{player} sits at {where[player]} and {seat}"
                where[player] = (UUID(table_id).hex, int(seat))
                found = self.app.repository.get(UUID(player))
                assert isinstance(found, Player)
                assert found.seated_at == {"table_id": UUID(table_id).hex, "seat": int(seat)}


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(OPERATIONS), st.integers(0, 10_000)), min_size=4, max_size=30
    )
)
def test_no_accepted_operation_unbalances_the_tables_and_nobody_sits_twice(floor_app, steps):
    floor = Floor(floor_app)
    limit = balance.tolerance(floor_app.profile)
    for operation, pick in steps:
        before = floor.counts()
        try:
            overridden = floor.run(operation, pick)
        except DomainError as refused:
            event(f"{operation} refused: {refused.code}")
            assert refused.code in EXPECTED_REFUSALS, (operation, refused.code, refused.message)
            assert floor.counts() == before  # a refusal changes nothing
            continue
        event(f"{operation} accepted")
        after = floor.counts()
        if operation != "leave" and not overridden and len(after) > 1:
            wide, was = balance.spread(after), balance.spread(before)
            assert wide <= limit or wide <= was, (operation, before, after)
        floor.check_nobody_seated_twice()
