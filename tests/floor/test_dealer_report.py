"""The dealers' report (issue 26, item 4): hands dealt per dealer and hands per
hour of dealing per dealer and table, a hand counting for the dealer the table
had when it started [GA art. 19.1], on a scripted shift to the second."""

from __future__ import annotations

from datetime import timedelta

import pytest

from floor import runtime
from tests.support.floor import JEFE, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db

MIN = timedelta(minutes=1)


@pytest.fixture
def inspector(api_as):
    return api_as("ines", "inspector")


def hand(room: Room, clock, table_id: str, minutes: int) -> None:
    """A hand the jefe reports, lasting ``minutes``."""
    started = room.app.start_hand(
        JEFE, new_id(), table_id=table_id, dealt_in=list(room.seats(table_id))
    ).result
    clock.advance(minutes * MIN)
    # Everyone bets the same and takes it back (tests.support.room.Room.played).
    bet = max([100, *started["blinds"].values()])
    bets = {str(s): bet for s in started["dealt_in"]}
    room.app.end_hand(
        JEFE, new_id(), table_id=table_id, contributions=bets, winnings=bets, rake_cents=0
    )


def deal(room: Room, table_id: str, dealer: str) -> None:
    room.app.assign_dealer(JEFE, new_id(), table_id=table_id, dealer=dealer)


def rows(client, **params) -> list[dict]:
    response = client.get("/api/reports/dealers/", params)
    assert response.status_code == 200, response.content
    return response.json()["results"]


@pytest.fixture
def shift(floor_app, clock) -> dict:
    room = Room(floor_app, tag="DH")
    table_id, _cards = room.drawn_table(4)  # cris deals (tests.support.room)
    hand(room, clock, table_id, 2)  # 20:00-20:02
    clock.advance(MIN)
    hand(room, clock, table_id, 2)  # 20:03-20:05: cris, 2 hands in 300 s
    clock.advance(5 * MIN)
    deal(room, table_id, "ana")
    for _ in range(3):  # 20:10-20:16: ana, 3 hands in 360 s
        hand(room, clock, table_id, 2)
    clock.advance(4 * MIN)
    deal(room, table_id, "cris")
    hand(room, clock, table_id, 2)  # 20:20-20:22: cris again, 120 s
    runtime.floor_projector().catch_up()
    return {"table_id": table_id}


def test_hands_dealt_per_dealer_and_per_hour_of_dealing(shift, inspector):
    assert rows(inspector) == [
        {
            "dealer": "ana",
            "hands": 3,
            "tables": 1,
            "dealing_seconds": 360,
            "hands_per_hour": 30.0,
            "first": "2026-11-22T20:10:00Z",
            "last": "2026-11-22T20:14:00Z",
        },
        {
            "dealer": "cris",
            "hands": 3,
            "tables": 1,
            "dealing_seconds": 420,  # two stretches: 300 s and 120 s
            "hands_per_hour": 25.7,
            "first": "2026-11-22T20:00:00Z",
            "last": "2026-11-22T20:20:00Z",
        },
    ]


def test_hands_per_hour_per_dealer_and_table_and_as_csv(shift, inspector):
    by_table = rows(inspector, by="table")
    assert [(r["dealer"], r["table"], r["hands"], r["hands_per_hour"]) for r in by_table] == [
        ("ana", 1, 3, 30.0),
        ("cris", 1, 3, 25.7),
    ]
    assert by_table[0]["table_id"] == shift["table_id"]
    # A range counts the hands started in it.
    late = rows(inspector, **{"from": "2026-11-22T20:10:00Z"})
    assert [(r["dealer"], r["hands"]) for r in late] == [("ana", 3), ("cris", 1)]
    csv = inspector.get("/api/reports/dealers/", {"format": "csv", "by": "table"})
    assert csv.status_code == 200
    lines = csv.content.decode().splitlines()
    assert lines[0].startswith("dealer,table_id,sector,table,game,hands")
    assert len(lines) == 3


def test_the_pushed_dealer_is_the_hands_dealer(floor_app, clock, inspector):
    room = Room(floor_app, tag="DP")
    table_id, _cards = room.drawn_table(4)
    floor_app.clock_in_dealer(
        JEFE, new_id(), sector_id=room.sector_id, dealer="bea", games=["texas_holdem"]
    )
    floor_app.push_dealer(JEFE, new_id(), table_id=table_id, dealer="bea")  # relieves cris
    hand(room, clock, table_id, 3)
    runtime.floor_projector().catch_up()
    assert [(r["dealer"], r["hands"]) for r in rows(inspector)] == [("bea", 1)]
