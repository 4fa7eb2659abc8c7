"""The estimated wait on a game's list (issue 24, item 6; floor.selectors.waits):
from the game's own recent history on an injected clock, to the minute; none
without history; on the jefe's console and the public board (which names no
one); and read by an index, its queries as many however long the log.

The history: two full Hold'em tables of ten drawn at 20:00, then every ten
minutes a player leaves one of them in turn (each table frees a seat every
twenty minutes) and the first of the list takes the seat, until 23:00. Six
seats an hour for the game: ten minutes a seat, so the third player waiting
waits about thirty minutes.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from floor import runtime
from floor.application.player_self import player_username
from floor.kernel.roles import Actor, Role
from floor.models import TableView, WaitingEntryView
from floor.selectors import waits
from floor.selectors.waits import estimate_wait, estimates_for_list
from tests.floor.test_player_door import signed_in_player
from tests.support.floor import JEFE, new_id
from tests.support.room import Room, pid

pytestmark = pytest.mark.django_db

MINUTE = timedelta(minutes=1)
GAME = "texas_holdem/no_limit/200/1000"


def project() -> None:
    runtime.floor_projector().catch_up()


class History:
    """Two full tables and a list; ``turn()`` frees a seat at one table (in
    turn) ten minutes on and seats the first of the list there."""

    def __init__(self, app, clock, queue: int = 22) -> None:
        self.room = Room(app, tag="WE")
        self.clock = clock
        self.tables = []
        for _ in range(2):
            table_id, cards = self.room.drawn_table(10, buy_in=None)
            self.tables.append([table_id, cards])
        self.queue = self.room.new_players(queue)
        for card in self.queue:
            self.room.join(card, self.tables[0][0])
        self.turns = 0

    def turn(self) -> None:
        self.clock.advance(10 * MINUTE)
        table_id, cards = self.tables[self.turns % 2]
        self.turns += 1
        leaving = cards.pop(0)
        self.room.leave(table_id, leaving)
        seat = next(s for s in range(1, 11) if s not in self.room.seats(table_id))
        newcomer = self.queue.pop(0)
        self.room.sit(table_id, newcomer, seat)
        cards.append(newcomer)

    def hours(self, hours: int) -> None:
        for _ in range(hours * 6):
            self.turn()


@pytest.fixture
def history(floor_app, clock) -> History:
    """Three hours of the history: 20:00 to 23:00, eighteen seats freed."""
    history = History(floor_app, clock)
    history.hours(3)
    clock.advance(MINUTE)  # 23:01: the window [20:01, 23:01) holds all eighteen
    project()
    return history


def test_the_third_waiting_player_waits_about_thirty_minutes(history, clock):
    """Two tables, a seat freed at each every twenty minutes: six an hour,
    ten minutes a seat; nobody called was absent, no seat free now."""
    estimate = estimate_wait(GAME, 3, clock.now())
    assert estimate.expected_minutes == 30
    # The 10-90 % range of a gamma of mean 30 and squared CV 1/3 + 1/18
    # (three seats to free, the rate known from eighteen): Wilson-Hilferty.
    assert (estimate.low_minutes, estimate.high_minutes) == (9, 55)
    assert "2 mesas abiertas" in estimate.basis and "18 asientos" in estimate.basis
    assert str(estimate) == "~30 min (9-55)"
    first, tenth = estimate_wait(GAME, 1, clock.now()), estimate_wait(GAME, 10, clock.now())
    assert first.expected_minutes == 10 and tenth.expected_minutes == 100
    assert first.low_minutes < 10 < first.high_minutes


def test_the_list_gets_each_waiting_players_estimate_by_place(history, clock):
    estimates = estimates_for_list(GAME, clock.now())
    waiting = history.queue  # four left, in list order
    assert [estimates[pid(card).replace("-", "")].expected_minutes for card in waiting] == [
        10,
        20,
        30,
        40,
    ]
    assert estimates[pid(waiting[2]).replace("-", "")] == estimate_wait(GAME, 3, clock.now())


def test_a_player_not_here_yet_is_nobody_s_wait_and_gets_the_wait_of_arriving_now(history, clock):
    """A remote entry is not called until its player is checked in (issue 24,
    item 2): the players behind it wait as if it were not there, and it is
    told the wait it would have on arriving now, in its place (CM keeps the
    order) or last among those here (GA and PT queue from arrival)."""
    remote = history.room.new_player()
    player = Actor(player_username(remote), frozenset({Role.PLAYER}))
    table_id = history.tables[0][0]
    history.room.app.join_waiting_list(player, new_id(), player=remote, table_id=table_id)
    behind = history.room.new_player()
    history.room.join(behind, table_id)  # at the desk, after the remote entry
    project()
    here = [*history.queue, behind]
    for keeps_order, remote_minutes in ((True, 50), (False, 60)):
        estimates = estimates_for_list(GAME, clock.now(), remote_keeps_order=keeps_order)
        minutes = [estimates[pid(card).replace("-", "")].expected_minutes for card in here]
        assert minutes == [10, 20, 30, 40, 50]
        assert estimates[pid(remote).replace("-", "")].expected_minutes == remote_minutes
    # Checked in in its place (CM keeps a remote entry's order): ahead of ``behind``.
    history.room.app.check_in_player(JEFE, new_id(), player=remote, table_id=table_id)
    project()
    estimates = estimates_for_list(GAME, clock.now())
    assert estimates[pid(remote).replace("-", "")].expected_minutes == 50
    assert estimates[pid(behind).replace("-", "")].expected_minutes == 60


def test_a_player_seated_at_another_game_is_nobody_s_wait_ahead(history, clock):
    """A player seated at an Omaha table may wait for Hold'em [CM-7], but is
    not called while seated (offer_seat passes them over): those behind wait
    as if they were not there."""
    _omaha, omaha_cards = history.room.drawn_table(4, buy_in=None, variant="omaha")
    seated = omaha_cards[0]
    history.room.join(seated, history.tables[0][0])
    behind = history.room.new_player()
    history.room.join(behind, history.tables[0][0])
    project()
    estimates = estimates_for_list(GAME, clock.now())
    here = [*history.queue, behind]
    minutes = [estimates[pid(card).replace("-", "")].expected_minutes for card in here]
    assert minutes == [10, 20, 30, 40, 50]


def test_a_called_player_holds_a_seat_and_waits_no_longer_in_line(history, clock):
    """A seat freed and offered to the first of the list: the others keep
    their places behind the call, and the called one has no estimate."""
    table_id, cards = history.tables[0]
    history.room.leave(table_id, cards.pop(0))
    project()  # the freed seat is offered to the first of the list [CM-6]
    estimates = estimates_for_list(GAME, clock.now())
    called, *others = history.queue
    assert WaitingEntryView.objects.get(player_id=pid(called)).status == "called"
    assert pid(called).replace("-", "") not in estimates
    assert [estimates[pid(card).replace("-", "")].expected_minutes for card in others] == [
        10,
        20,
        30,
    ]


def test_calls_that_were_no_shows_move_the_list_faster():
    """Half the calls absent: of the two players ahead, one takes a seat."""
    rate = waits._Rate(
        per_table_hour=3.0,
        freed=18,
        table_hours=6.0,
        hours=3,
        tables_open=2,
        no_show_share=0.5,
        calls=10,
        no_shows=5,
        free_now=0,
    )
    assert waits._estimate(rate, 3).expected_minutes == 20
    free = waits._estimate(replace(rate, no_show_share=0.0, free_now=3), 3)
    assert (free.expected_minutes, free.low_minutes) == (0, 0)  # a seat is free for them


@pytest.mark.parametrize("shape", [0.9, 1.0, 2.6, 8.0, 40.0])
def test_the_ranges_gamma_quantiles_are_within_a_few_per_cent_of_a_sampled_gammas(shape):
    """Wilson-Hilferty's quantiles against 200,000 draws of the gamma (seeded)."""
    draws = random.Random(24)
    sample = sorted(draws.gammavariate(shape, 1.0) for _ in range(200_000))
    for q in (0.10, 0.90):
        sampled = sample[int(q * len(sample))]
        approximated = waits.gamma_quantile(shape, 1.0, q)
        assert abs(approximated - sampled) <= 0.04 * shape + 0.05, (q, approximated, sampled)


def test_no_history_no_estimate(floor_app, clock):
    """Tables just drawn (nobody has left yet), or no table open: no estimate,
    never a made-up number."""
    assert estimate_wait(GAME, 1, clock.now()) is None
    assert estimates_for_list(GAME, clock.now()) == {}
    history = History(floor_app, clock, queue=3)
    history.turn()
    project()
    assert estimate_wait(GAME, 1, clock.now()) is None  # one seat freed: too little
    assert estimates_for_list(GAME, clock.now()) == {}
    assert estimate_wait("no/such/game", 1, clock.now()) is None
    assert estimate_wait(GAME, 0, clock.now()) is None


def test_an_old_history_falls_back_to_the_longer_window(history, clock):
    """Nothing freed in the last three hours, but in the last twelve: the
    longer window's rate, and the basis says so."""
    clock.advance(timedelta(hours=4))
    estimate = estimate_wait(GAME, 3, clock.now())
    assert estimate is not None and "12 h" in estimate.basis
    clock.advance(timedelta(hours=9))
    assert estimate_wait(GAME, 3, clock.now()) is None


def test_the_console_shows_each_waiting_players_estimate(history, clock, make_user):
    user = make_user("jefe-we", "jefe_sector")
    client = Client()
    client.force_login(user)
    table = TableView.objects.get(id=history.tables[0][0])
    page = client.get(f"/sectors/{table.sector_id}/live/")
    assert page.status_code == 200, page.content
    html = page.content.decode()
    shown = re.findall(r'data-testid="wait-estimate">(.*?)</td>', html, re.S)
    texts = [re.sub(r"<[^>]+>", "", s).strip() for s in shown]
    assert texts == ["~10 min (0-24)", "~20 min (4-40)", "~30 min (9-55)", "~40 min (15-70)"]
    assert "2 mesas abiertas" in html  # the basis, for the jefe


def test_the_console_says_there_is_no_estimate_without_history(floor_app, clock, make_user):
    history = History(floor_app, clock, queue=2)
    project()
    user = make_user("jefe-we2", "jefe_sector")
    client = Client()
    client.force_login(user)
    sector = TableView.objects.get(id=history.tables[0][0]).sector_id
    html = client.get(f"/sectors/{sector}/live/").content.decode()
    shown = re.findall(r'data-testid="wait-estimate">(.*?)</td>', html, re.S)
    assert len(shown) == 2 and all("—" in s and "min" not in s for s in shown)


def test_the_board_shows_the_wait_to_join_and_no_player(history, clock):
    html = Client().get("/board/").content.decode()
    [wait] = re.findall(r'data-testid="board-wait">(.*?)</p>', html, re.S)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", wait)).strip()
    # Four waiting: a player joining now is the fifth.
    assert text == "Espera estimada para apuntarse ~50 min (21-84)"
    room = history.room
    cards = history.queue + [c for _, cs in history.tables for c in cs]
    for card in cards:  # the TV names no one, estimate or not
        assert card not in html and room.player(card).display_name not in html
    assert "mesas abiertas" not in html  # the basis is the jefe's


def test_the_board_shows_no_wait_where_a_seat_is_free_for_whoever_joins(history, clock):
    """Nobody waiting and a seat free: the board says the seat is free, and no wait."""
    room, table_id = history.room, history.tables[0][0]
    for card in history.queue:
        room.app.leave_waiting_list(
            JEFE, new_id(), player=card, reason="withdrew", table_id=table_id
        )
    room.leave(table_id, history.tables[0][1][0])
    project()
    assert estimate_wait(GAME, 1, clock.now()).expected_minutes == 0
    html = Client().get("/board/").content.decode()
    assert "1 asiento libre" in html
    assert 'data-testid="board-wait"' not in html


def test_the_board_shows_no_wait_without_history(floor_app, clock):
    History(floor_app, clock, queue=2)
    project()
    html = Client().get("/board/").content.decode()
    assert 'data-testid="board-wait"' not in html


def read(clock) -> tuple[dict, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        answer = estimates_for_list(GAME, clock.now())
    return answer, [q["sql"] for q in queries.captured_queries]


def test_the_estimates_queries_do_not_grow_with_the_log(history, clock):
    """Twelve more hours of history (a log four times as long): the same
    number of queries, and the history is read by its indexes, without a sort
    of all of it (PostgreSQL asked with its sequential and bitmap scans off:
    on a test's few rows they are cheaper, and the question is which index
    serves the statement)."""
    _answer, before = read(clock)
    history.queue += history.room.new_players(80)
    for card in history.queue[-80:]:
        history.room.join(card, history.tables[0][0])
    history.hours(12)
    clock.advance(MINUTE)
    project()
    answer, after = read(clock)
    assert answer and len(after) == len(before)
    sqlite = connection.vendor == "sqlite"
    used = {
        "floor_occupancystep": ("occupancy_table_at",),
        "floor_listmove": ("list_move_at",),
    }
    with connection.cursor() as cursor:
        if not sqlite:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
        for table, indexes in used.items():
            statements = [s for s in after if f'FROM "{table}"' in s]
            assert statements, table
            plans = []
            for sql in statements:
                cursor.execute(f"{'EXPLAIN QUERY PLAN' if sqlite else 'EXPLAIN'} {sql}")
                plan = " / ".join(str(row[-1]) for row in cursor.fetchall())
                # No sort of the rows found: a sort of a table's every step
                # before the window would grow with the log. The index gives
                # them by moment; only the ties of one moment are sorted by
                # position (SQLite's "right part", PostgreSQL's incremental
                # sort on the presorted moment).
                if sqlite:
                    assert "TEMP B-TREE FOR ORDER BY" not in plan, plan
                else:
                    assert not re.search(r"(?<!Incremental )Sort  \(", plan), plan
                    assert plan.count("Sort Key") == plan.count("Presorted Key"), plan
                plans.append(plan)
            for index in indexes:
                assert any(index in plan for plan in plans), (index, plans)


def test_the_players_page_shows_their_own_wait(history, clock, api_as):
    """The player's page (issue 24, item 1) shows the estimate of the player's
    own entry, the same the jefe's console shows for them, and nobody else's."""
    mine = history.queue[2]
    phone = signed_in_player(api_as("dora", "jefe_sector"), mine)
    html = phone.get("/jugador/en-vivo/").content.decode()
    expected = estimates_for_list(GAME, clock.now())[pid(mine).replace("-", "")]
    assert expected.expected_minutes == 30
    shown = re.findall(r'data-testid="estimate">([^<]+)<', html)
    assert shown == [
        f"Espera estimada: unos {expected.expected_minutes} min "
        f"(de {expected.low_minutes} a {expected.high_minutes})"
    ]
