"""A command reads each aggregate from the store once (issue 23, item 5).

The scope check, the decision and the books share one unit of work: the table a
dealer's command names is read once for the scope check and found there by the
handler; the books look each account up once, found or not. The counts below
are the reads of whole commands (the idempotency record's lookup included): a
change that makes a command reload what it already holds fails here.
"""

from __future__ import annotations

from collections import Counter

import pytest

from floor.kernel.errors import DomainError
from floor.kernel.roles import Actor, Role
from tests.support.floor import CRUPIER, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db


class Reads:
    """Counts the application's reads from the store, by what was read."""

    def __init__(self, app, monkeypatch) -> None:
        self.found: Counter[str] = Counter()
        read = app.repository.get

        def counted(aggregate_id, *args, **kwargs):
            try:
                aggregate = read(aggregate_id, *args, **kwargs)
            except Exception:
                self.found["(none)"] += 1
                raise
            self.found[type(aggregate).__name__] += 1
            return aggregate

        monkeypatch.setattr(app.repository, "get", counted)

    def during(self, run) -> Counter[str]:
        """What ``run`` read."""
        self.found.clear()
        run()
        return Counter(self.found)


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app)


def test_a_hand_reads_its_table_once_per_command(room, monkeypatch):
    table_id, _ = room.drawn_table(4, buy_in=500)
    dealt_in = sorted(int(s) for s in room.get(table_id).occupants)
    reads = Reads(room.app, monkeypatch)
    started = reads.during(
        lambda: room.app.start_hand(CRUPIER, new_id(), table_id=table_id, dealt_in=dealt_in)
    )
    # The table (the dealer's scope, then the hand) and the command's record
    # looked up (none yet).
    assert started == Counter({"Table": 1, "(none)": 1})
    ended = reads.during(
        lambda: room.app.end_hand(
            CRUPIER, new_id(), table_id=table_id, contributions={}, winnings={}, rake_cents=0
        )
    )
    assert ended == Counter({"Table": 1, "BalanceGroup": 1, "(none)": 1})


def test_a_buy_in_reads_the_table_and_each_account_once(room, monkeypatch):
    table_id, cards = room.drawn_table(4, buy_in=500)
    reads = Reads(room.app, monkeypatch)
    bought = reads.during(lambda: room.buy(table_id, cards[0], 300))
    # The cage and the three accounts the chips move between are the books';
    # the table is read once for the scope check and the decision.
    assert bought == Counter({"Table": 1, "Player": 1, "Cage": 1, "Account": 3, "(none)": 1})


def test_seating_a_player_reads_each_aggregate_once(room, monkeypatch):
    table_id, _ = room.drawn_table(4, buy_in=500)
    card = room.new_player()
    room.join(card, table_id)
    free = room.get(table_id).free_seats()
    reads = Reads(room.app, monkeypatch)
    # The draw is open: the seat is drawn among the free ones [CM-3].
    seated = reads.during(lambda: room.sit(table_id, card))
    # The table, the jefe's sector (scope), the player, the game's list and
    # balance group; the command's record and one id not found, each once.
    assert seated == Counter(
        {"Table": 1, "Sector": 1, "Player": 1, "WaitingList": 1, "BalanceGroup": 1, "(none)": 2}
    )
    assert room.seat_of(table_id, card) in free


def test_a_repeat_reads_only_the_scope_and_the_record(room, monkeypatch):
    table_id, cards = room.drawn_table(4, buy_in=500)
    command_id = new_id()
    arguments = {"table_id": table_id, "player": cards[0], "amount_cents": 300}
    first = room.app.buy_in(CRUPIER, command_id, **arguments)
    reads = Reads(room.app, monkeypatch)
    again = reads.during(lambda: room.app.buy_in(CRUPIER, command_id, **arguments))
    assert again == Counter({"Table": 1, "CommandRecord": 1})
    assert room.app.buy_in(CRUPIER, command_id, **arguments).result == first.result


def test_a_command_refused_by_scope_reads_nothing_more_and_records_nothing(room, monkeypatch):
    table_id, cards = room.drawn_table(4, buy_in=500)
    stranger = Actor("other-dealer", frozenset({Role.CRUPIER}))
    before = room.app.last_position()
    reads = Reads(room.app, monkeypatch)
    with pytest.raises(DomainError):
        reads.during(
            lambda: room.app.buy_in(
                stranger, new_id(), table_id=table_id, player=cards[0], amount_cents=300
            )
        )
    assert reads.found == Counter({"Table": 1})
    assert room.app.last_position() == before
    assert room.state(table_id, cards[0])["stack"] == 500
