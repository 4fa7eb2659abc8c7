"""The floor's reports (issue 9, item 2), each checked against a known shift
built through the real commands with the injected clock moved between steps.

The shift (UTC, profile CM), in Sector RP:
- 20:00 table 1 (Hold'em) and table 2 (Omaha) open; five players register for
  table 1's game, four for table 2's.
- 20:10 both draw their seats (waits of ten minutes); 20:15 two more register
  for Hold'em.
- 20:20 a hand at each table with 1 EUR of rake; 20:30 a hand at table 1.
- 20:40 table 1's third hand: the action clock is called on one seat and runs
  out at 20:43 (the hand is dead), called on another at 20:43 and stopped at
  20:44; the hand ends at 20:45.
- 20:50 a player of table 1 takes the absence clock and is back at 21:00.
- 21:00 a player leaves table 1: the first of the list is called, does not
  come, and at 21:05 the second is called; a hand at table 2 with 1 EUR of rake.
- 21:08 the second called player sits down (a wait of 53 minutes).
- 21:10 two players leave table 1: it is suspended with three, and its
  suspension closes it at 21:25. 21:30 the jefe closes table 2.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest

from floor import runtime
from tests.support.floor import CRUPIER, JEFE, new_id
from tests.support.room import Room
from tests.support.timers import fire_due

pytestmark = pytest.mark.django_db

MINUTE = timedelta(minutes=1)


def raked_hand(room: Room, table_id: str, loser: int, winner: int, card: str) -> None:
    """A hand of 20 EUR where ``loser`` puts in all 10 EUR of their stack and
    rebuys; CM rakes 5 % of the pot: 1 EUR."""
    room.start(table_id)
    room.end(table_id, {str(loser): 1000, str(winner): 1000}, {str(winner): 1900}, 100)
    room.buy(table_id, card, 1000)


def fire(clock) -> int:
    """Projects what happened (the timers are read models), then fires what is due."""
    runtime.floor_projector().catch_up()
    return fire_due(clock)


@pytest.fixture
def shift(floor_app, clock) -> dict:
    """Builds the shift of the module's docstring; returns its tables and cards."""
    room = Room(floor_app, tag="RP")
    holdem, omaha = room.table(), room.table(variant="omaha")
    h_cards, o_cards = room.new_players(5), room.new_players(4)
    for card in h_cards:
        room.join(card, holdem)
    for card in o_cards:
        room.join(card, omaha)
    clock.advance(10 * MINUTE)  # 20:10
    for table_id, cards in ((holdem, h_cards), (omaha, o_cards)):
        room.app.draw_seats(JEFE, new_id(), table_ids=[table_id])
        for card in cards:
            room.buy(table_id, card, 1000)
    seat = {card: room.seat_of(holdem, card) for card in h_cards}
    o_seat = {card: room.seat_of(omaha, card) for card in o_cards}
    clock.advance(5 * MINUTE)  # 20:15
    late = room.new_players(2)
    for card in late:
        room.join(card, holdem)
    clock.advance(5 * MINUTE)  # 20:20
    raked_hand(room, holdem, seat[h_cards[0]], seat[h_cards[1]], h_cards[0])
    raked_hand(room, omaha, o_seat[o_cards[0]], o_seat[o_cards[1]], o_cards[0])
    clock.advance(10 * MINUTE)  # 20:30
    room.played(holdem)
    clock.advance(10 * MINUTE)  # 20:40
    room.start(holdem)
    slow, other = seat[h_cards[2]], seat[h_cards[3]]
    app = room.app
    app.start_action_clock(CRUPIER, new_id(), table_id=holdem, seat=slow, pot_cents=5000)
    clock.advance(2 * MINUTE)
    assert fire(clock) == 1  # the warning
    clock.advance(MINUTE)  # 20:43
    assert fire(clock) == 1  # the hand is dead
    app.start_action_clock(CRUPIER, new_id(), table_id=holdem, seat=other, pot_cents=0)
    clock.advance(MINUTE)  # 20:44
    app.stop_action_clock(CRUPIER, new_id(), table_id=holdem, seat=other)
    clock.advance(MINUTE)  # 20:45
    room.end(holdem, {str(other): 100, str(seat[h_cards[4]]): 100}, {str(other): 200})
    clock.advance(5 * MINUTE)  # 20:50
    app.start_absence(CRUPIER, new_id(), table_id=holdem, player=h_cards[4])
    clock.advance(10 * MINUTE)  # 21:00
    app.end_absence(CRUPIER, new_id(), table_id=holdem, player=h_cards[4])
    room.leave(holdem, h_cards[0])
    clock.advance(5 * MINUTE)  # 21:05
    assert fire(clock) >= 1  # the first called did not come
    raked_hand(room, omaha, o_seat[o_cards[2]], o_seat[o_cards[3]], o_cards[2])
    clock.advance(3 * MINUTE)  # 21:08
    room.sit(holdem, late[1])  # the draw stays open [CM-3]
    clock.advance(2 * MINUTE)  # 21:10
    room.leave(holdem, h_cards[1])
    assert room.leave(holdem, h_cards[2])["status"] == "suspended"
    clock.advance(15 * MINUTE)  # 21:25
    assert fire(clock) >= 1
    assert room.get(holdem).status == "closed"
    clock.advance(5 * MINUTE)  # 21:30
    app.close_table(JEFE, new_id(), table_id=omaha)
    runtime.floor_projector().catch_up()
    return {"room": room, "holdem": holdem, "omaha": omaha, "sector": room.sector_id}


@pytest.fixture
def inspector(api_as):
    return api_as("ines", "inspector")


def rows(client, path: str, **params) -> list[dict]:
    response = client.get(f"/api/reports/{path}/", params)
    assert response.status_code == 200, response.content
    return response.json()["results"]


# --- tables ------------------------------------------------------------------------------


def test_the_tables_report_counts_the_shift(shift, inspector):
    holdem, omaha = rows(inspector, "tables")
    assert holdem == {
        "table_id": shift["holdem"],
        "sector": "Sector RP",
        "table": 1,
        "game": "texas_holdem/no_limit/200/1000",
        "opened_at": "2026-11-22T20:00:00Z",
        "started_at": "2026-11-22T20:10:00Z",
        "closed_at": "2026-11-22T21:25:00Z",
        "closed_reason": "suspension_expired",
        "running_seconds": 3600,
        "hours_running": 1.0,
        "hands": 3,
        "players": 5,
        "suspended_seconds": 900,
        "suspensions": [
            {
                "at": "2026-11-22T21:10:00Z",
                "cause": "players_below_minimum",
                "players": 3,
                "needed": 4,
                "closes_at": "2026-11-22T21:25:00Z",
                "ended_at": "2026-11-22T21:25:00Z",
                "ended_by": "closed",
            }
        ],
    }
    assert (omaha["game"], omaha["closed_reason"], omaha["closed_at"]) == (
        "omaha/no_limit/200/1000",
        "closed_by_jefe",
        "2026-11-22T21:30:00Z",
    )
    assert (omaha["running_seconds"], omaha["hours_running"]) == (4800, 1.33)
    assert (omaha["hands"], omaha["players"], omaha["suspensions"]) == (2, 4, [])


def test_the_tables_report_clips_to_the_range_and_filters(shift, inspector):
    (holdem,) = rows(
        inspector, "tables", **{"from": "2026-11-22T20:30:00Z", "to": "2026-11-22T21:00:00"},
        game="texas_holdem",
    )  # fmt: skip
    assert (holdem["running_seconds"], holdem["hands"], holdem["suspensions"]) == (1800, 2, [])
    assert [r["table"] for r in rows(inspector, "tables", table=shift["omaha"])] == [2]
    assert [r["table"] for r in rows(inspector, "tables", sector="Sector RP")] == [1, 2]
    assert rows(inspector, "tables", **{"from": "2026-11-23"}) == []
    assert rows(inspector, "tables", game="omaha/pot_limit") == []


def test_the_tables_report_pages_and_links_the_next(shift, inspector):
    first = inspector.get("/api/reports/tables/", {"page_size": 1}).json()
    assert (first["count"], len(first["results"]), first["previous"]) == (2, 1, None)
    assert "page=2" in first["next"] and "page_size=1" in first["next"]
    second = inspector.get(first["next"]).json()
    assert second["next"] is None and second["results"][0]["table"] == 2
    assert "page=1" in second["previous"]


def test_the_tables_report_as_csv(shift, inspector):
    response = inspector.get("/api/reports/tables/", {"format": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == 'attachment; filename="tables.csv"'
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0][:4] == ["table_id", "sector", "table", "game"]
    found = dict(zip(table[0], table[2], strict=True))
    assert (found["table"], found["hours_running"], found["hands"], found["closed_reason"]) == (
        "2",
        "1.33",
        "2",
        "closed_by_jefe",
    )
    by_accept = inspector.get("/api/reports/tables/", HTTP_ACCEPT="text/csv")
    assert by_accept.content == response.content


# --- rake --------------------------------------------------------------------------------


def test_the_rake_report_per_hand(shift, inspector):
    found = [
        (r["table"], r["hand"], r["ended_at"][11:16], r["model"], r["pot_cents"], r["rake_cents"])
        for r in rows(inspector, "rake", by="hand")
    ]
    assert found == [
        (1, 1, "20:20", "per_hand", 2000, 100),
        (1, 2, "20:30", "per_hand", 500, 0),
        (1, 3, "20:45", "per_hand", 200, 0),
        (2, 1, "20:20", "per_hand", 2000, 100),
        (2, 2, "21:05", "per_hand", 2000, 100),
    ]


def test_the_rake_report_per_table_and_hour(shift, inspector):
    found = [(r["table"], r["hour"], r["hands"], r["rake_cents"]) for r in rows(inspector, "rake")]
    assert found == [
        (1, "2026-11-22T20:00:00Z", 3, 100),
        (2, "2026-11-22T20:00:00Z", 1, 100),
        (2, "2026-11-22T21:00:00Z", 1, 100),
    ]
    late = rows(inspector, "rake", by="table_hour", **{"from": "2026-11-22T21:00:00Z"})
    assert [(r["table"], r["rake_cents"]) for r in late] == [(2, 100)]


def test_the_rake_report_per_gaming_day_and_by_model(shift, inspector):
    assert rows(inspector, "rake", by="gaming_day") == [
        {
            "gaming_day": "2026-11-22",
            "hands": 5,
            "hand_rake_cents": 300,
            "time_rake_cents": 0,
            "rake_cents": 300,
        }
    ]
    assert rows(inspector, "rake", by="model") == [
        {"model": "per_hand", "tables": 2, "hands": 5, "rake_cents": 300}
    ]
    assert rows(inspector, "rake", by="model", game="omaha") == [
        {"model": "per_hand", "tables": 1, "hands": 2, "rake_cents": 200}
    ]
    # CM charges no time: no session to report [GA art. 18.3b; PT 7b].
    assert rows(inspector, "rake", by="session") == []


def test_the_cage_reads_the_rake_but_not_the_other_reports(shift, api_as):
    cajero = api_as("carla", "cajero")
    response = cajero.get("/api/reports/rake/", {"by": "gaming_day", "format": "csv"})
    assert response["Content-Disposition"] == 'attachment; filename="rake-gaming_day.csv"'
    assert list(csv.reader(io.StringIO(response.content.decode()))) == [
        ["gaming_day", "hands", "hand_rake_cents", "time_rake_cents", "rake_cents"],
        ["2026-11-22", "5", "300", "0", "300"],
    ]
    assert cajero.get("/api/reports/tables/").status_code == 403


def test_the_rake_report_refuses_an_unknown_grouping(db, floor_app, inspector):
    response = inspector.get("/api/reports/rake/", {"by": "week"})
    assert (response.status_code, response.json()["code"]) == (400, "report_by_invalid")


# --- waiting lists -----------------------------------------------------------------------


def test_the_waiting_lists_report_waits_calls_and_no_shows(shift, inspector):
    omaha, holdem = rows(inspector, "waiting-lists")  # by game
    # Five waited 10 minutes for the draw; the second called waited 53.
    assert holdem == {
        "game": "texas_holdem/no_limit/200/1000",
        "registrations": 7,
        "seated": 6,
        "median_wait_seconds": 600,
        "p90_wait_seconds": 3180,
        "calls": 2,
        "no_shows": 1,
        "withdrew": 0,
    }
    assert omaha == {
        "game": "omaha/no_limit/200/1000",
        "registrations": 4,
        "seated": 4,
        "median_wait_seconds": 600,
        "p90_wait_seconds": 600,
        "calls": 0,
        "no_shows": 0,
        "withdrew": 0,
    }
    (late,) = rows(inspector, "waiting-lists", **{"from": "2026-11-22T20:15:00Z"})
    assert (late["registrations"], late["seated"], late["median_wait_seconds"]) == (2, 1, 3180)
    assert [r["game"] for r in rows(inspector, "waiting-lists", table=shift["omaha"])] == [
        "omaha/no_limit/200/1000"
    ]
    assert rows(inspector, "waiting-lists", to="2026-11-21") == []


# --- clocks ------------------------------------------------------------------------------


def test_the_clocks_report_counts_the_clocks(shift, inspector):
    assert rows(inspector, "clocks") == [
        {
            "table_id": shift["holdem"],
            "sector": "Sector RP",
            "table": 1,
            "game": "texas_holdem/no_limit/200/1000",
            "action_clocks_called": 2,
            "action_clocks_warned": 1,
            "action_clocks_stopped": 1,
            "action_clocks_expired": 1,
            "absence_clocks_used": 1,
            "absence_clocks_warned": 0,
            "absence_clocks_expired": 0,
            "absences_ended": 1,
        }
    ]
    (early,) = rows(inspector, "clocks", to="2026-11-22T20:43:00Z")
    assert (early["action_clocks_called"], early["action_clocks_expired"]) == (1, 0)
    assert rows(inspector, "clocks", game="omaha") == []


# --- occupancy ---------------------------------------------------------------------------


def test_the_occupancy_report_per_hour(shift, inspector):
    found = [
        (r["table"], r["hour"][11:16], r["seat_seconds"], r["seats_occupied"])
        for r in rows(inspector, "occupancy")
    ]
    # Table 1: five seats 20:10-21:00; four to 21:08, five to 21:10, three to 21:25.
    # Table 2: four seats 20:10-21:30.
    assert found == [
        (1, "20:00", 5 * 50 * 60, 4.17),
        (1, "21:00", 4 * 8 * 60 + 5 * 2 * 60 + 3 * 15 * 60, 1.45),
        (2, "20:00", 4 * 50 * 60, 3.33),
        (2, "21:00", 4 * 30 * 60, 2.0),
    ]
    clipped = rows(inspector, "occupancy", by="hour", **{"from": "2026-11-22T21:20:00Z"})
    assert [(r["table"], r["seat_seconds"]) for r in clipped] == [(1, 3 * 5 * 60), (2, 4 * 600)]


def test_the_occupancy_report_per_game(shift, inspector):
    assert rows(inspector, "occupancy", by="game") == [
        {"game": "omaha/no_limit/200/1000", "tables": 1, "player_seconds": 19200,
         "player_hours": 5.33},
        {"game": "texas_holdem/no_limit/200/1000", "tables": 1, "player_seconds": 20220,
         "player_hours": 5.62},
    ]  # fmt: skip
    assert rows(inspector, "occupancy", by="game", **{"from": "2026-11-23"}) == []


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"from": "yesterday"}, "report_filter_invalid"),
        ({"from": "2026-11-23", "to": "2026-11-22"}, "report_range_empty"),
        ({"table": "12"}, "report_filter_invalid"),
        ({"sector": "Nowhere"}, "report_filter_invalid"),
        ({"game": "canasta"}, "report_filter_invalid"),
        ({"to": "9999-12-31"}, "report_filter_invalid"),  # a day past the calendar's end
        ({"from": "0001-01-01T00:00:00+05:00"}, "report_filter_invalid"),  # before its start
        ({"page": "0"}, "report_page_invalid"),
        ({"page": str(10**20)}, "report_page_invalid"),
        ({"page_size": "1001"}, "report_page_invalid"),
        ({"format": "xml"}, "report_format_invalid"),
    ],
)
def test_a_bad_filter_is_a_400_with_its_code(db, floor_app, inspector, params, code):
    response = inspector.get("/api/reports/tables/", params)
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["message"]


@pytest.mark.parametrize("report", ["tables", "rake", "waiting-lists", "clocks", "occupancy"])
def test_a_dealer_and_a_stranger_may_not_read_reports(db, floor_app, api_as, report):
    from rest_framework.test import APIClient

    dealer = api_as("cris", "crupier").get(f"/api/reports/{report}/")
    assert dealer.status_code == 403 and dealer.json()["code"] == "role_not_allowed"
    assert APIClient().get(f"/api/reports/{report}/").status_code in (401, 403)
    for role in ("director", "jefe_sector"):
        assert api_as(f"u-{role}", role).get(f"/api/reports/{report}/").status_code == 200


def test_the_rake_report_per_session_under_a_time_charge(make_app, clock, inspector):
    """PT charges by time [PT 7b]: 10 % of the table's 10 EUR maximum, 1 EUR, per
    seated player at each session's start. Five players, two sessions:
    the first at 20:00 (opened by the first hand), the second an hour and a
    minute later, when the next hand opens it."""
    app = make_app("PT")
    runtime.install(app)
    try:
        room = Room(app, tag="TS")
        table_id, _cards = room.drawn_table(5, rake_model="per_session", session_percent="10")
        opened = clock.now()
        room.start(table_id)
        room.end(table_id)
        runtime.floor_projector().catch_up()
        clock.advance(timedelta(hours=1))
        assert fire_due(clock) == 1  # the hour strikes with no hand in play: it ends
        clock.advance(MINUTE)
        second = clock.now()
        room.start(table_id)
        room.end(table_id)
        runtime.floor_projector().catch_up()
        sessions = rows(inspector, "rake", by="session")
        assert [
            (r["session"], r["started_at"], r["charges"], r["rake_cents"]) for r in sessions
        ] == [
            (1, opened.isoformat().replace("+00:00", "Z"), 5, 500),
            (2, second.isoformat().replace("+00:00", "Z"), 5, 500),
        ]
        (day,) = rows(inspector, "rake", by="gaming_day")
        assert (day["hands"], day["hand_rake_cents"], day["time_rake_cents"]) == (2, 0, 1000)
        (model,) = rows(inspector, "rake", by="model")
        assert (model["model"], model["tables"], model["rake_cents"]) == ("per_session", 1, 1000)
    finally:
        runtime.install(None)


def test_an_unreadable_stored_event_refuses_the_rake_report_with_its_position(
    shift, floor_app, inspector, caplog
):
    """A report replays the events' data from the store: one gone or that
    cannot be decoded is logged with its position and refuses the report (409
    with a code), never a 500 nor a hand counted without its fields."""
    from floor.selectors.journal import entries
    from tests.floor.test_verify_log import tamper_stored

    posted = [r for r in entries().filter(topic__endswith=":Transaction.Posted")]
    raked = next(r for r in posted if r.data["kind"] == "hand")
    tamper_stored(floor_app, raked.position, state=b"x not a zlib stream")
    # The raking command's transaction dates it (by gaming day): refused.
    response = inspector.get("/api/reports/rake/", {"by": "gaming_day"})
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "stored_event_unreadable"
    assert str(raked.position) in response.json()["message"]
    assert f"journal data at position {raked.position}: the stored event cannot be decoded" in (
        caplog.text
    )

    hand = entries().filter(topic__endswith=":Table.HandEnded").first()
    tamper_stored(floor_app, hand.position, sql="DELETE")
    response = inspector.get("/api/reports/rake/", {"by": "hand"})
    assert (response.status_code, response.json()["code"]) == (409, "stored_event_unreadable")
    assert str(hand.position) in response.json()["message"]
    assert f"journal data at position {hand.position}: no stored event there" in caplog.text
