"""Each console's live part answers 204 until something IT shows changes
(floor.projections.live_marks): an event in another sector leaves a jefe's
console, and another table's dealer, at 204; every kind of change a sector's
console shows (a seat, a list called, a clock, money on its tables, the timers'
banner) moves it.

Two sectors play two games (hold'em in A, omaha in B), so their lists are
their own: a list of A's game is not B's.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from floor import runtime
from floor.domain.balance_group import BalanceGroup
from floor.liveness import heartbeat
from tests.support.floor import CRUPIER, JEFE, new_id
from tests.support.room import OMAHA, Room

pytestmark = pytest.mark.django_db


@pytest.fixture
def rooms(floor_app):
    a = Room(floor_app, tag="LA")
    b = Room(floor_app, tag="LB")
    table_a, cards_a = a.drawn_table(4, buy_in=500)
    table_b, cards_b = b.drawn_table(4, **OMAHA)
    runtime.floor_projector().catch_up()
    return {"a": (a, table_a, cards_a), "b": (b, table_b, cards_b)}


@pytest.fixture
def director(make_user) -> Client:
    make_user("dora", "director", password="pa55-word-ok")
    client = Client()
    assert client.login(username="dora", password="pa55-word-ok")
    return client


class Consoles:
    """Where each console stands, to ask each again with ``since``."""

    def __init__(self, client: Client, rooms: dict) -> None:
        self.client = client
        a, table_a, _ = rooms["a"]
        b, table_b, _ = rooms["b"]
        self.urls = {
            "sector a": f"/sectors/{a.sector_id}/live/",
            "sector b": f"/sectors/{b.sector_id}/live/",
            "table a": f"/tables/{table_a}/live/",
            "table b": f"/tables/{table_b}/live/",
            "cage": "/cage/live/",
        }
        self.seen = {name: self.ask(name).headers["X-Floor-Position"] for name in self.urls}

    def ask(self, name: str, since: str = ""):
        return self.client.get(self.urls[name], {"since": since})

    def changed(self) -> set[str]:
        """The consoles whose live part answers with HTML (not 204) now."""
        runtime.floor_projector().catch_up()
        found = set()
        for name, since in self.seen.items():
            answer = self.ask(name, since)
            assert answer.status_code in (200, 204), (name, answer.status_code)
            if answer.status_code == 200:
                assert answer.headers["X-Floor-Position"] != since
                found.add(name)
        return found


def test_an_idle_console_answers_204_with_one_query_for_its_position(rooms, director):
    consoles = Consoles(director, rooms)
    assert consoles.changed() == set()
    since = consoles.seen["sector a"]

    with CaptureQueriesContext(connection) as queries:
        assert consoles.ask("sector a", since).status_code == 204

    marks = [q["sql"] for q in queries.captured_queries if "floor_livemark" in q["sql"]]
    assert len(marks) == 1
    assert "floor_tableview" not in marks[0]


def test_a_seat_in_another_sector_leaves_this_sectors_console_at_204(rooms, director):
    consoles = Consoles(director, rooms)
    b, table_b, cards_b = rooms["b"]

    b.app.start_rest(JEFE, new_id(), table_id=table_b, player=cards_b[0])

    assert consoles.changed() == {"sector b", "table b", "cage"}


def test_a_seat_in_this_sector_changes_its_console_and_its_table(rooms, director):
    consoles = Consoles(director, rooms)
    a, table_a, cards_a = rooms["a"]

    a.app.start_rest(JEFE, new_id(), table_id=table_a, player=cards_a[1])

    assert consoles.changed() == {"sector a", "table a", "cage"}


def test_a_player_joining_this_sectors_list_changes_it_not_the_other(rooms, director):
    consoles = Consoles(director, rooms)
    a, table_a, _ = rooms["a"]

    a.join(a.new_player("Uxía Waiting"), table_a)  # [CM-3]

    assert consoles.changed() == {"sector a", "table a", "cage"}


def test_calling_the_list_to_a_seat_changes_this_sector(rooms, director):
    a, table_a, _ = rooms["a"]
    a.join(a.new_player("Uxía Waiting"), table_a)
    free = next(s for s in range(1, 11) if s not in a.seats(table_a))
    runtime.floor_projector().catch_up()
    consoles = Consoles(director, rooms)

    a.app.call_next(JEFE, new_id(), table_id=table_a, seat=free)  # [CM-6]

    # The call is the list's (the cage shows no list); the seat's button is the table's.
    assert consoles.changed() == {"sector a", "table a"}


def test_the_action_clock_changes_this_sector_not_the_other(rooms, director):
    a, table_a, _ = rooms["a"]
    started = a.start(table_a)
    runtime.floor_projector().catch_up()
    consoles = Consoles(director, rooms)

    a.app.start_action_clock(
        JEFE, new_id(), table_id=table_a, seat=started["dealt_in"][0], pot_cents=1000
    )  # [CM-21]

    assert consoles.changed() == {"sector a", "table a", "cage"}


def test_money_asked_for_this_sectors_table_changes_it_and_the_cage(rooms, director):
    consoles = Consoles(director, rooms)
    a, table_a, _ = rooms["a"]

    a.app.request_tray_move(JEFE, new_id(), table_id=table_a, move="fill", amount_cents=10_000)

    assert consoles.changed() == {"sector a", "table a", "cage"}


def test_a_buy_in_at_this_sectors_table_changes_it(rooms, director):
    consoles = Consoles(director, rooms)
    a, table_a, cards_a = rooms["a"]

    a.app.buy_in(CRUPIER, new_id(), table_id=table_a, player=cards_a[2], amount_cents=500)

    assert consoles.changed() == {"sector a", "table a", "cage"}


def test_a_table_change_asked_changes_the_tables_of_its_balancing_group(rooms, director):
    a, table_a, cards_a = rooms["a"]
    other = a.table()  # the same game: the two tables balance together [CM-10]
    runtime.floor_projector().catch_up()
    consoles = Consoles(director, rooms)
    consoles.urls["other table a"] = f"/tables/{other}/live/"
    consoles.seen["other table a"] = consoles.ask("other table a").headers["X-Floor-Position"]

    a.app.request_table_change(JEFE, new_id(), table_id=table_a, player=cards_a[0])

    assert consoles.changed() == {"sector a", "table a", "other table a"}


def test_the_closing_time_changes_this_sector_and_its_tables(rooms, director, clock):
    consoles = Consoles(director, rooms)
    a, _, _ = rooms["a"]

    closes_at = clock.now() + timedelta(hours=1)
    a.app.announce_closing(JEFE, new_id(), sector_id=a.sector_id, closes_at=closes_at.isoformat())

    assert consoles.changed() == {"sector a", "table a"}  # [CM-24]


def test_the_timers_banner_shows_on_every_console(rooms, director):
    consoles = Consoles(director, rooms)
    assert all(position.endswith("-timers-stopped") for position in consoles.seen.values())

    heartbeat("sweep")  # the timers run again: every console drops its banner

    assert consoles.changed() == set(consoles.urls)


def test_each_console_page_loads_htmx_and_idiomorph_from_its_static_files(rooms, director):
    a, table_a, _ = rooms["a"]
    for url in (f"/sectors/{a.sector_id}/", f"/tables/{table_a}/", "/cage/"):
        page = director.get(url).content.decode()
        scripts = re.findall(r'<script src="([^"]+)"', page)
        assert [s.rsplit("/", 1)[-1] for s in scripts] == ["htmx-2.min.js", "idiomorph-ext.min.js"]
        for script in scripts:
            served = director.get(script)
            assert served.status_code == 200, script
            assert b"".join(served.streaming_content if served.streaming else [served.content])


# --- two sectors playing ONE game: their cards read each other's tables [CM-8, CM-10, CM-12] ---


@pytest.fixture
def one_game(floor_app) -> tuple[Room, Room]:
    """Two sectors whose tables play the same game (one list, one balancing group)."""
    return Room(floor_app, tag="XA"), Room(floor_app, tag="XB")


def sector_live(client: Client, room: Room, since: str = ""):
    runtime.floor_projector().catch_up()
    return client.get(f"/sectors/{room.sector_id}/live/", {"since": since})


def test_a_seat_taken_at_another_sectors_table_withdraws_the_undo_offered_here(one_game, jefe):
    """The undo of a move reads the seat the player left [CM-12]: once another
    player takes it, the console of the sector the player moved to stops
    offering it (the command now refuses it), without a reload."""
    a, b = one_game
    table_a, _ = a.drawn_table(4, buy_in=1000, seats=4)
    table_b, _ = b.drawn_table(4, buy_in=1000, seats=6)
    seat_left, moved = next(iter(a.seats(table_a).items()))
    group = str(BalanceGroup.id_for(a.get(table_a).game))
    a.app.override_move(
        JEFE, new_id(), group_id=group, player=moved, to_table_id=table_b, reason="balance"
    )
    first = sector_live(jefe, b)
    assert 'data-command="undo_move"' in first.content.decode()

    stayed = next(iter(a.seats(table_a).values()))
    a.app.change_seat(JEFE, new_id(), table_id=table_a, player=stayed, seat=seat_left)

    again = sector_live(jefe, b, first.headers["X-Floor-Position"])
    assert again.status_code == 200
    assert 'data-command="undo_move"' not in again.content.decode()


def test_a_table_event_moves_the_consoles_of_every_sector_playing_its_game(one_game, jefe):
    """A sector's cards read the game's other tables: the draw counts their
    free seats [CM-8], a table change weighs the whole group [CM-10, CM-11].
    So a table's event moves the console of each sector with an open table of
    its game, and that table's own view."""
    a, b = one_game
    table_a, cards_a = a.drawn_table(4, buy_in=1000, seats=6)
    table_b = b.table(seats=6)
    first = sector_live(jefe, b)
    table_b_view = jefe.get(f"/tables/{table_b}/live/")

    a.app.start_rest(JEFE, new_id(), table_id=table_a, player=cards_a[0])

    assert sector_live(jefe, b, first.headers["X-Floor-Position"]).status_code == 200
    since = table_b_view.headers["X-Floor-Position"]
    assert jefe.get(f"/tables/{table_b}/live/", {"since": since}).status_code == 200


def test_an_event_at_a_table_of_another_game_leaves_this_sector_at_204(rooms, director):
    """The marks follow the game: a table of another game in another sector
    (omaha in B) changes nothing the hold'em cards of A read."""
    consoles = Consoles(director, rooms)
    b, table_b, cards_b = rooms["b"]

    b.leave(table_b, cards_b[0])

    assert "sector a" not in consoles.changed()


@pytest.mark.parametrize(
    ("console", "read_midway"),
    [
        ("sector a", "floor.console.sector.sector_lists"),
        ("table a", "floor.console.sector.table_cards"),
        ("cage", "ledger.console.pending_requests"),
    ],
)
def test_a_command_answered_while_a_live_part_is_read_shows_on_the_next_poll(
    rooms, director, monkeypatch, console, read_midway
):
    """The position a live part claims is read before what it shows: a fill
    asked while the page is being read (after the tables were read, before it
    was sent) must not be claimed as shown, or the console would answer 204 and
    keep the stale page until something else changed (seen: a cage's fill
    confirmed and still listed for 15 s)."""
    consoles = Consoles(director, rooms)
    a, table_a, _ = rooms["a"]
    module, name = read_midway.rsplit(".", 1)
    reads = getattr(__import__(module, fromlist=[name]), name)
    landed = []

    def read_then_a_command_lands(*args, **kwargs):
        shown = reads(*args, **kwargs)
        if not landed:
            landed.append(
                a.app.request_tray_move(
                    JEFE, new_id(), table_id=table_a, move="fill", amount_cents=10_000
                )
            )
            runtime.floor_projector().catch_up()
        return shown

    monkeypatch.setattr(read_midway, read_then_a_command_lands)
    first = consoles.ask(console)  # no position: the whole part, read now
    assert first.status_code == 200 and landed
    monkeypatch.undo()

    again = consoles.ask(console, first.headers["X-Floor-Position"])

    assert again.status_code == 200  # the fill shows now, not never
