"""The players' time and rating (issue 26): a scripted shift, built through the
real commands with the injected clock, and its hours checked to the second.

The shift (UTC, profile CM), one Hold'em table:
- 20:00 the seats are drawn among A, B, C, D, E, each buying 10 EUR of chips.
- 20:10 a hand: A puts all 10 EUR in and loses it to B, and rebuys 10 EUR.
- 20:10 A rests; 20:25 A is back (15 minutes resting).
- 20:30 B takes the absence clock; 20:42 B is back (12 minutes away).
- 20:50 C leaves with 10 EUR.
- 21:00 F sits down and buys 10 EUR.
- 21:30 the jefe closes the table.
"""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from datetime import timedelta

import pytest

from floor import runtime
from games.profile_rules import PlayerRating
from games.profiles import CM
from tests.support.floor import CRUPIER, JEFE, new_id
from tests.support.room import Room, pid

pytestmark = pytest.mark.django_db

MINUTE = timedelta(minutes=1)


def build_shift(app, clock) -> dict:
    room = Room(app, tag="PH")
    table_id, cards = room.drawn_table(5)
    a, b, c, d, e = cards
    seat = {card: room.seat_of(table_id, card) for card in cards}
    clock.advance(10 * MINUTE)  # 20:10
    room.start(table_id)
    room.end(table_id, {str(seat[a]): 1000, str(seat[b]): 1000}, {str(seat[b]): 2000})
    room.buy(table_id, a, 1000)
    app.start_rest(CRUPIER, new_id(), table_id=table_id, player=a)
    clock.advance(15 * MINUTE)  # 20:25
    app.end_rest(CRUPIER, new_id(), table_id=table_id, player=a)
    clock.advance(5 * MINUTE)  # 20:30
    app.start_absence(CRUPIER, new_id(), table_id=table_id, player=b)
    clock.advance(12 * MINUTE)  # 20:42
    app.end_absence(CRUPIER, new_id(), table_id=table_id, player=b)
    clock.advance(8 * MINUTE)  # 20:50
    room.leave(table_id, c)
    clock.advance(10 * MINUTE)  # 21:00
    f = room.new_player()
    room.sit(table_id, f)
    room.buy(table_id, f, 1000)
    clock.advance(30 * MINUTE)  # 21:30
    app.close_table(JEFE, new_id(), table_id=table_id)
    runtime.floor_projector().catch_up()
    return {"room": room, "table": table_id, "cards": [a, b, c, d, e, f]}


@pytest.fixture
def shift(floor_app, clock) -> dict:
    return build_shift(floor_app, clock)


@pytest.fixture
def inspector(api_as):
    return api_as("ines-ph", "inspector")


def rows(client, path: str, **params) -> list[dict]:
    response = client.get(f"/api/reports/{path}/", params)
    assert response.status_code == 200, response.content
    return response.json()["results"]


def by_card(found: list[dict]) -> dict[str, dict]:
    return {r["card_number"]: r for r in found}


def test_each_seat_session_is_timed_to_the_second_without_rest_or_absence(shift, inspector):
    a, b, c, d, e, f = shift["cards"]
    sessions = by_card(rows(inspector, "players", by="session"))
    assert {card: sessions[card]["seconds"] for card in shift["cards"]} == {
        a: 90 * 60 - 15 * 60,  # the rest left out
        b: 90 * 60 - 12 * 60,  # the absence left out
        c: 50 * 60,  # left at 20:50
        d: 90 * 60,
        e: 90 * 60,
        f: 30 * 60,  # sat down at 21:00
    }
    assert (sessions[a]["rest_seconds"], sessions[a]["away_seconds"]) == (900, 0)
    assert (sessions[b]["rest_seconds"], sessions[b]["away_seconds"]) == (0, 720)
    assert sessions[c]["how_ended"] == "left" and sessions[d]["how_ended"] == "closed"
    assert sessions[a]["started_at"] == "2026-11-22T20:00:00Z"
    assert sessions[a]["ended_at"] == "2026-11-22T21:30:00Z"
    assert sessions[f]["started_at"] == "2026-11-22T21:00:00Z"
    # The books' money at the seat: A's buy-in and rebuy; the stacks left with.
    assert (sessions[a]["buy_in_cents"], sessions[a]["rebuys"], sessions[a]["rebuy_cents"]) == (
        1000,
        1,
        1000,
    )
    assert (sessions[b]["buy_in_cents"], sessions[b]["rebuys"]) == (1000, 0)
    assert sessions[b]["left_with_cents"] == 2000
    assert sessions[c]["left_with_cents"] == 1000
    assert sessions[a]["hours"] == 1.25


def test_the_top_players_by_hours_and_their_comp_points(shift, inspector):
    a, b, c, d, e, f = shift["cards"]
    top = rows(inspector, "players")
    assert [r["card_number"] for r in top][:2] == sorted([d, e])
    assert [r["card_number"] for r in top][2:] == [b, a, c, f]
    assert [r["rank"] for r in top] == [1, 2, 3, 4, 5, 6]
    row = by_card(top)[d]
    # The suite's table: a 2 EUR minimum, one comp point an hour (the default bands).
    assert (row["seconds"], row["hours"], row["average_stakes_cents"]) == (5400, 1.5, 200)
    assert row["comp_points"] == 1 and by_card(top)[f]["comp_points"] == 0
    assert row["sessions"] == 1 and row["tables"] == 1


def test_hours_per_gaming_day_and_per_game(shift, inspector):
    a, *_ = shift["cards"]
    days = [r for r in rows(inspector, "players", by="day") if r["card_number"] == a]
    assert [(r["gaming_day"], r["seconds"], r["buy_in_cents"], r["rebuy_cents"]) for r in days] == [
        ("2026-11-22", 4500, 1000, 1000)
    ]
    assert days[0]["cash_out_cents"] == 0  # the books answer: nothing cashed yet
    games = [r for r in rows(inspector, "players", by="game") if r["card_number"] == a]
    assert [(r["game"], r["seconds"]) for r in games] == [("texas_holdem/no_limit/200/1000", 4500)]


def test_hours_per_game_and_hour_of_day(shift, inspector):
    """Madrid is UTC+1 in November: 20:00 UTC is 21:00 there."""
    found = rows(inspector, "game-hours")
    assert [(r["hour"], r["players"], r["player_seconds"]) for r in found] == [
        # 20:00-21:00 UTC: A 45 min, B 48, C 50, D and E 60 each.
        ("21:00", 5, (45 + 48 + 50 + 60 + 60) * 60),
        # 21:00-21:30 UTC: A, B, D, E, F 30 min each.
        ("22:00", 5, 5 * 30 * 60),
    ]
    assert found[0]["days"] == 1 and found[0]["average_players"] == round(263 / 60, 2)


def test_the_range_clips_the_hours(shift, inspector):
    a, *_ = shift["cards"]
    clipped = by_card(rows(inspector, "players", by="session", **{"from": "2026-11-22T20:20:00Z"}))
    # From 20:20: A rested until 20:25, then played to 21:30.
    assert clipped[a]["seconds"] == 65 * 60


def test_the_players_report_as_csv(shift, inspector):
    response = inspector.get("/api/reports/players/", {"by": "session", "format": "csv"})
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="players-session.csv"'
    table = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(table) == 6 and {r["seconds"] for r in table} >= {"5400", "4500"}
    response = inspector.get("/api/reports/game-hours/", {"format": "csv"})
    assert response.status_code == 200 and response.content.decode().startswith("game,hour,")


def test_the_house_may_count_resting_and_away(make_app, clock, inspector):
    """PlayerRating(counts_resting=True, counts_away=True): the seat's whole time."""
    house = replace(CM, rating=PlayerRating(counts_resting=True, counts_away=True))
    app = make_app(house)
    runtime.install(app)
    try:
        found = build_shift(app, clock)
        a, b, *_ = found["cards"]
        sessions = by_card(rows(inspector, "players", by="session"))
        assert (sessions[a]["seconds"], sessions[b]["seconds"]) == (5400, 5400)
    finally:
        runtime.install(None)


def test_a_player_still_seated_counts_until_now(floor_app, clock, inspector):
    room = Room(floor_app, tag="PN")
    _table, cards = room.drawn_table(4)
    clock.advance(7 * MINUTE + timedelta(seconds=13))
    runtime.floor_projector().catch_up()
    sessions = by_card(rows(inspector, "players", by="session"))
    assert sessions[cards[0]]["seconds"] == 7 * 60 + 13
    assert sessions[cards[0]]["ended_at"] is None
    assert pid(cards[0]) == sessions[cards[0]]["player_id"]


def test_a_bad_grouping_is_a_400(db, floor_app, inspector):
    response = inspector.get("/api/reports/players/", {"by": "nope"})
    assert response.status_code == 400 and response.json()["code"] == "report_by_invalid"


def test_a_dealer_may_not_read_the_players_reports(db, floor_app, api_as):
    dealer = api_as("dealer-ph", "crupier")
    for report in ("players", "game-hours"):
        assert dealer.get(f"/api/reports/{report}/").status_code == 403
        for role in ("director", "jefe_sector"):
            reader = api_as(f"{report}-{role}", role)
            assert reader.get(f"/api/reports/{report}/").status_code == 200


def test_a_rebuild_gives_the_same_sessions(shift):
    """The sessions are a read model: a rebuild in batches cutting the shift
    at other places writes the same rows (the rests, the absence and the
    money included)."""
    from django.core.management import call_command

    from tests.support.read_models import read_models

    live = read_models()["floor.seatsession"]
    assert len(live) == 6
    call_command("rebuild_projections", "--batch-size", "7", "--no-progress", stdout=io.StringIO())
    assert read_models()["floor.seatsession"] == live


# --- the time-charged rake and the hours agree (issue 26, item 4) --------------------


def test_the_time_charged_and_the_hours_agree_on_one_shift(make_app, clock, inspector):
    """PT charges a seat by time [PT 7b]: 10 % of the table's 10 EUR maximum,
    1 EUR a session, charged to every seated player when a hand opens the
    session and to a player sitting down in its first thirty minutes. A
    session is an hour plus the hand in progress (none here: it ends when its
    hour strikes).

    20:00 five players drawn (A..E), the first hand opens session 1; A rests
    20:10-20:25; B leaves at 20:40; the hour strikes at 21:00 (session 1 ends).
    21:05 a hand opens session 2; F sits down at 21:20 (within thirty minutes:
    F pays it) and buys in; the hour strikes at 22:05 and the jefe closes.

    The hours, to the second, leave A's rest out (the house default); the
    time charged to each player is what the rake report charged, and for the
    players seated through every session it is the charged rate (1 EUR a
    session hour) times the hours their seat sat in sessions."""
    from tests.support.timers import fire_due

    app = make_app("PT")
    runtime.install(app)
    try:
        room = Room(app, tag="TC")
        table, cards = room.drawn_table(5, rake_model="per_session", session_percent="10")
        a, b, c, d, e = cards
        opened = clock.now()
        room.played(table)  # opens session 1: five charges
        clock.advance(10 * MINUTE)  # 20:10
        app.start_rest(CRUPIER, new_id(), table_id=table, player=a)
        clock.advance(15 * MINUTE)  # 20:25
        app.end_rest(CRUPIER, new_id(), table_id=table, player=a)
        clock.advance(15 * MINUTE)  # 20:40
        b_seat = room.seat_of(table, b)
        room.leave(table, b)
        runtime.floor_projector().catch_up()
        clock.advance(20 * MINUTE)  # 21:00: the hour strikes, no hand in play
        assert fire_due(clock) == 1
        clock.advance(5 * MINUTE)  # 21:05
        room.played(table)  # opens session 2: four charges
        clock.advance(15 * MINUTE)  # 21:20
        f = room.new_player()
        room.sit(table, f, b_seat)
        room.buy(table, f, 800)  # the average capital [PT 28]; F owes session 2: paid now
        runtime.floor_projector().catch_up()
        clock.advance(45 * MINUTE)  # 22:05
        assert fire_due(clock) == 1
        app.close_table(JEFE, new_id(), table_id=table)
        runtime.floor_projector().catch_up()
        closed = clock.now()

        sessions = by_card(rows(inspector, "players", by="session"))
        assert {card: sessions[card]["seconds"] for card in [*cards, f]} == {
            a: 125 * 60 - 15 * 60,
            b: 40 * 60,
            c: 125 * 60,
            d: 125 * 60,
            e: 125 * 60,
            f: 45 * 60,
        }
        charged = {card: sessions[card]["time_charged_cents"] for card in [*cards, f]}
        assert charged == {a: 200, b: 100, c: 200, d: 200, e: 200, f: 100}
        assert {card: sessions[card]["time_charges"] for card in [*cards, f]} == {
            a: 2,
            b: 1,
            c: 2,
            d: 2,
            e: 2,
            f: 1,
        }
        # The rake report charged the same money, session by session.
        by_session = rows(inspector, "rake", by="session")
        assert [(r["session"], r["charges"], r["rake_cents"]) for r in by_session] == [
            (1, 5, 500),
            (2, 5, 500),
        ]
        (day,) = rows(inspector, "rake", by="gaming_day")
        assert day["time_rake_cents"] == sum(charged.values()) == 1000
        # Seated through both sessions (20:00-21:00, 21:05-22:05), a seat sat
        # two session hours and paid 1 EUR for each: the rate times the hours.
        session_hours = [(opened, opened + 60 * MINUTE), (opened + 65 * MINUTE, closed)]
        assert closed == opened + 125 * MINUTE
        rate_cents_an_hour = 100
        for card in (a, c, d, e):
            row = sessions[card]
            seat_seconds = row["seconds"] + row["rest_seconds"] + row["away_seconds"]
            assert seat_seconds == 125 * 60  # the seat's whole stay, rest included
            in_sessions = sum((end - begin).total_seconds() for begin, end in session_hours)
            assert row["time_charged_cents"] == rate_cents_an_hour * in_sessions / 3600
    finally:
        runtime.install(None)


# --- a player's hours in their history (issue 26, item 4) ----------------------------


def test_a_players_hours_in_the_api(shift, inspector):
    a, *_ = shift["cards"]
    found = inspector.get(f"/api/players/{pid(a)}/hours/")
    assert found.status_code == 200, found.content
    body = found.json()
    assert (body["seconds"], body["today_seconds"], body["sessions"]) == (4500, 4500, 1)
    assert body["gaming_day"] == "2026-11-22" and body["hours"] == 1.25
    assert body["seated_since"] is None
    (last,) = body["last_sessions"]
    assert (last["started_at"], last["ended_at"], last["seconds"]) == (
        "2026-11-22T20:00:00Z",
        "2026-11-22T21:30:00Z",
        4500,
    )
    missing = inspector.get("/api/players/00000000-0000-0000-0000-000000000001/hours/")
    assert missing.status_code == 404


def test_a_jefe_counts_a_players_hours_at_the_tables_he_reads(shift, api_as):
    """The table's sector has no jefe named, so it is any jefe's: he counts
    the player's hours there (narrowed to his tables: floor.access.Reader)."""
    a, *_ = shift["cards"]
    jefe = api_as("jefe-ph", "jefe_sector")
    assert jefe.get(f"/api/players/{pid(a)}/hours/").json()["seconds"] == 4500


def test_the_jefes_console_shows_each_seated_players_time_today(floor_app, clock, make_user):
    """On the table card, next to each player: their time played this gaming
    day (A rested 5 of the 17 minutes: 12 counted), in the reader's language."""
    import re

    from django.test import Client

    room = Room(floor_app, tag="PC")
    table_id, cards = room.drawn_table(4)
    room.played(table_id)
    floor_app.start_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    clock.advance(5 * MINUTE)
    floor_app.end_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    clock.advance(12 * MINUTE + timedelta(seconds=40))
    runtime.floor_projector().catch_up()
    make_user("jefe-pc", "jefe_sector")
    client = Client()
    client.login(username="jefe-pc", password="s3cret-pass")
    for language, today in (("es", "hoy"), ("gl", "hoxe"), ("pt", "hoje"), ("en", "today")):
        client.cookies["django_language"] = language
        html = client.get(f"/sectors/{room.sector_id}/").content.decode()
        pattern = r'data-card="([^"]+)".*?data-testid="player-hours"[^>]*>([^<]+)<'
        found = dict(re.findall(pattern, html, re.S))
        assert found[cards[0]] == f"0:12 h {today}", language
        assert found[cards[1]] == f"0:17 h {today}"


def test_a_night_across_the_turn_of_the_gaming_day_counts_on_each_day(floor_app, clock, inspector):
    """The gaming day turns at 10:00 in Madrid (09:00 UTC in November): a
    player seated from 20:00 UTC to 09:30 UTC next morning played 13 hours on
    the first day and half an hour on the next. A seat change keeps the
    session, and a rest taken in the new seat is the same player's."""
    room = Room(floor_app, tag="PD")
    table_id, cards = room.drawn_table(4)
    room.played(table_id)
    seats = room.seats(table_id)
    free = next(s for s in range(1, 11) if s not in seats)
    floor_app.change_seat(JEFE, new_id(), table_id=table_id, player=cards[0], seat=free)
    floor_app.start_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    clock.advance(20 * MINUTE)
    floor_app.end_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    clock.advance(13 * 60 * MINUTE - 20 * MINUTE + 30 * MINUTE)  # 09:30 UTC
    floor_app.close_table(JEFE, new_id(), table_id=table_id)
    runtime.floor_projector().catch_up()
    days = rows(inspector, "players", by="day")
    moved = [(r["gaming_day"], r["seconds"]) for r in days if r["card_number"] == cards[0]]
    stayed = [(r["gaming_day"], r["seconds"]) for r in days if r["card_number"] == cards[1]]
    assert stayed == [("2026-11-22", 13 * 3600), ("2026-11-23", 1800)]
    assert moved == [("2026-11-22", 13 * 3600 - 1200), ("2026-11-23", 1800)]
    (session,) = [
        r for r in rows(inspector, "players", by="session") if r["card_number"] == cards[0]
    ]
    assert (session["seat"], session["rest_seconds"]) == (free, 1200)
    # The console's and the player's page's "today": since the day's turn only.
    from floor.selectors.player_hours import hours_of_players

    today = hours_of_players([pid(cards[1]).replace("-", "")])
    assert today[pid(cards[1]).replace("-", "")]["today_seconds"] == 1800


def test_a_player_moved_to_another_table_starts_a_session_there(floor_app, clock, inspector):
    """Breaking a table moves its players to the game's other table with
    their stacks [CM-12]: the session at the broken table ends ("moved_out")
    and one at the new table begins, carrying the stack in."""
    room = Room(floor_app, tag="PM")
    first, broken = room.table(), room.table()
    for card in room.new_players(8):
        room.join(card, first)
    floor_app.draw_seats(JEFE, new_id(), table_ids=[first, broken])
    for table_id in (first, broken):
        for card in room.seats(table_id).values():
            room.buy(table_id, card, 1000)
    moved = list(room.seats(broken).values())
    clock.advance(30 * MINUTE)
    floor_app.break_table(JEFE, new_id(), table_id=broken)
    clock.advance(30 * MINUTE)
    floor_app.close_table(JEFE, new_id(), table_id=first)
    runtime.floor_projector().catch_up()
    sessions = [r for r in rows(inspector, "players", by="session") if r["card_number"] == moved[0]]
    assert [
        (r["table_id"], r["how_ended"], r["seconds"], r["carried_in_cents"], r["buy_in_cents"])
        for r in sessions
    ] == [(broken, "moved_out", 1800, 0, 1000), (first, "closed", 1800, 1000, 0)]
    (top,) = [r for r in rows(inspector, "players") if r["card_number"] == moved[0]]
    assert (top["sessions"], top["tables"], top["seconds"]) == (2, 2, 3600)


def test_the_rating_by_day_shows_what_the_cage_paid_the_player(shift, inspector):
    """C left at 20:50 with 10 EUR and cashes 6 EUR of it at the cage, then
    the rest: the books' cash-outs of the player's gaming day, 10 EUR; a
    player who cashed nothing shows 0."""
    from tests.support.money import CAJERO

    _a, b, c, *_ = shift["cards"]
    app = shift["room"].app
    app.cash_out(CAJERO, new_id(), player=c, amount_cents=600)
    app.cash_out(CAJERO, new_id(), player=c)
    runtime.floor_projector().catch_up()
    days = by_card(rows(inspector, "players", by="day"))
    assert (days[c]["gaming_day"], days[c]["cash_out_cents"]) == ("2026-11-22", 1000)
    assert days[b]["cash_out_cents"] == 0


def test_a_jefe_reads_the_hours_at_his_sectors_tables_only(floor_app, clock, api_as):
    """The jefe named to sector A reads the players' hours at A's tables; the
    players of sector B are not in his report, nor their hours in his read
    of a player's hours [GA art. 19.1]."""
    from tests.support.floor import DIRECTOR

    mine, other = Room(floor_app, tag="JA"), Room(floor_app, tag="JB")
    _t, at_mine = mine.drawn_table(4)
    _u, at_other = other.drawn_table(4, variant="omaha")
    floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=mine.sector_id, jefes=["jaime-ph"])
    floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=other.sector_id, jefes=["juan-ph"])
    clock.advance(20 * MINUTE)
    runtime.floor_projector().catch_up()
    jefe = api_as("jaime-ph", "jefe_sector")
    assert {r["card_number"] for r in rows(jefe, "players")} == set(at_mine)
    assert {r["players"] for r in rows(jefe, "game-hours")} == {4}
    assert jefe.get(f"/api/players/{pid(at_other[0])}/hours/").json()["seconds"] == 0
    assert jefe.get(f"/api/players/{pid(at_mine[0])}/hours/").json()["seconds"] == 1200
    refused = jefe.get("/api/reports/players/", {"sector": str(other.sector_id)})
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_sector"


def test_a_jefes_rating_by_day_leaves_out_the_cages_payouts(floor_app, clock, api_as):
    """GA art. 19.1: a jefe reads his sectors' tables only. The cage pays a
    player for all their chips, whatever table they played them at: the 10
    EUR bought and played in sector B and cashed would read, in the rating by
    day of the jefe of sector A (where the player then sat 10 minutes), as
    money that left his tables. So his ``cash_out_cents`` is blank (None; an
    empty CSV cell); the director, who reads every table, sees it."""
    from tests.support.floor import DIRECTOR
    from tests.support.money import CAJERO

    mine, other = Room(floor_app, tag="RA"), Room(floor_app, tag="RB")
    at_mine, _cards = mine.drawn_table(4)
    at_other, cards = other.drawn_table(4, variant="omaha")
    player = cards[0]
    clock.advance(60 * MINUTE)
    other.leave(at_other, player)
    floor_app.cash_out(CAJERO, new_id(), player=player)  # the chips of sector B
    mine.sit(at_mine, player)
    clock.advance(10 * MINUTE)
    floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=mine.sector_id, jefes=["jaime-rv"])
    floor_app.assign_jefes(DIRECTOR, new_id(), sector_id=other.sector_id, jefes=["juan-rv"])
    runtime.floor_projector().catch_up()
    jefe = api_as("jaime-rv", "jefe_sector")
    (row,) = [r for r in rows(jefe, "players", by="day") if r["player_id"] == pid(player)]
    assert (row["buy_in_cents"], row["seconds"], row["cash_out_cents"]) == (0, 600, None)
    exported = jefe.get("/api/reports/players/", {"by": "day", "format": "csv"})
    table = csv.DictReader(io.StringIO(exported.content.decode()))
    (line,) = [r for r in table if r["card_number"] == player]
    assert line["cash_out_cents"] == ""
    director = api_as("dora-rv", "director")
    (seen,) = [r for r in rows(director, "players", by="day") if r["player_id"] == pid(player)]
    assert (seen["seconds"], seen["cash_out_cents"]) == (4200, 1000)


def test_the_rating_by_day_of_a_range_shows_only_the_days_in_it(floor_app, clock, inspector):
    """A night played from 20:00 to 09:30 UTC (the gaming day turns at 09:00
    UTC), read from the second day's turn: only that day, its 30 minutes,
    without the night's 10 EUR buy-in, which the first day's range counts
    (once: adjacent ranges add up to the whole)."""
    room = Room(floor_app, tag="RD")
    table_id, cards = room.drawn_table(4)
    clock.advance((13 * 60 + 30) * MINUTE)  # 09:30 UTC, the next gaming day
    floor_app.close_table(JEFE, new_id(), table_id=table_id)
    runtime.floor_projector().catch_up()

    def days(**bounds) -> list[tuple]:
        return [
            (r["gaming_day"], r["seconds"], r["buy_in_cents"])
            for r in rows(inspector, "players", by="day", **bounds)
            if r["player_id"] == pid(cards[0])
        ]

    turn = "2026-11-23T09:00:00Z"
    assert days(**{"from": turn}) == [("2026-11-23", 1800, 0)]
    assert days(to=turn) == [("2026-11-22", 13 * 3600, 1000)]
    assert days() == [("2026-11-22", 13 * 3600, 1000), ("2026-11-23", 1800, 0)]


def test_a_formula_in_a_text_cell_is_exported_as_text(floor_app, clock, inspector):
    """OWASP "CSV Injection": a player registered as ``=HYPERLINK(...)`` would
    run as a formula in the spreadsheet the report is opened in; the shared
    CSV writer (floor.reports.common) writes any text cell starting with =,
    +, -, @, a tab or a carriage return behind an apostrophe, and leaves the
    numbers (a negative amount too) as they are."""
    from floor.reports.common import _cell

    room = Room(floor_app, tag="CI")
    table_id, _cards = room.drawn_table(4)
    name = '=HYPERLINK("http://example.com/x","click")'
    card = room.new_player(name)
    room.sit(table_id, card)
    clock.advance(10 * MINUTE)
    runtime.floor_projector().catch_up()
    response = inspector.get("/api/reports/players/", {"by": "session", "format": "csv"})
    assert response.status_code == 200
    (line,) = [
        r
        for r in csv.DictReader(io.StringIO(response.content.decode()))
        if r["card_number"] == card
    ]
    assert line["player"] == "'" + name and line["seconds"] == "600"
    for text in ("+1", "-1", "@SUM(A1)", "\tx", "\rx"):
        assert _cell(text) == "'" + text
    assert (_cell(-500), _cell(0), _cell(1.5), _cell(None), _cell("Ana")) == (
        -500,
        0,
        1.5,
        "",
        "Ana",
    )
