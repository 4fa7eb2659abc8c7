"""The public board on the room's TV: games with their stakes (blinds, or a
banked table's limits), free seats, the numbers called and the lists by
reservation number, never a name or a card [CM-6]."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from floor import runtime
from floor.models import WaitingEntryView
from tests.support.floor import JEFE, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def games_of(html: str) -> list[str]:
    """Each game's card on the board, as text."""
    return [words(g) for g in re.findall(r'data-testid="board-game">(.*?)</section>', html, re.S)]


def test_the_board_shows_games_free_seats_and_reservation_numbers(floor_app):
    room = Room(floor_app, tag="TV")
    table_id, _cards = room.drawn_table(4, buy_in=None)  # ten seats, four taken
    waiting = room.new_players(3)
    for card in waiting:
        room.join(card, table_id)
    seat = next(s for s in range(1, 11) if s not in room.seats(table_id))
    floor_app.call_next(JEFE, new_id(), table_id=table_id, seat=seat)  # the first is called
    runtime.floor_projector().catch_up()
    entries = {e.player.card_number: e for e in WaitingEntryView.objects.select_related("player")}
    number = room.get(table_id).number

    page = Client().get("/board/")  # a TV: nobody logs in
    assert page.status_code == 200
    html = page.content.decode()
    [game] = games_of(html)
    assert "Texas Hold" in game and "Sin límite" in game
    assert "Ciegas 1 € / 2 €" in game  # the TV's short amounts: no ",00"
    assert "6 asientos libres" in game and f"Mesa {number}" in game
    called, *still = waiting
    assert f"{entries[called].reservation} → mesa {number}, asiento {seat}" in game
    assert "hasta las" in game  # the called player's five minutes [CM-6]
    listed = re.search(r'data-testid="waiting">(.*?)</ol>', html, re.S).group(1)
    numbers = [int(n) for n in re.findall(r"<li>(\d+)</li>", listed)]
    assert numbers == [entries[card].reservation for card in still]
    for card in [*waiting, *_cards]:  # the players' names and cards stay off the TV
        assert card not in html and room.player(card).display_name not in html


def test_the_board_fetches_its_own_live_part(floor_app):
    room = Room(floor_app, tag="TL")
    table_id, cards = room.drawn_table(4, buy_in=None)
    room.join(room.new_player(), table_id)
    runtime.floor_projector().catch_up()

    page = Client().get("/board/").content.decode()
    assert 'id="board-live"' in page and "?live=1" in page  # the page asks for it
    assert 'http-equiv="refresh"' in page.split("<noscript>")[1].split("</noscript>")[0]
    live = Client().get("/board/?live=1")
    assert live.status_code == 200
    part = live.content.decode()
    assert "<html" not in part and "<script" not in part  # the live part only
    assert games_of(part) == games_of(page)
    for card in cards:
        assert card not in part and room.player(card).display_name not in part


def test_the_boards_live_part_answers_204_while_the_room_stands_still(floor_app):
    """A TV left on all night asks every second whether the room moved: 204
    while it did not, the new part (and its position) once it did."""
    room = Room(floor_app, tag="TS")
    table_id, _cards = room.drawn_table(4, buy_in=None)
    runtime.floor_projector().catch_up()
    tv = Client()
    first = tv.get("/board/?live=1")
    position = first["X-Floor-Position"]
    assert first.status_code == 200 and position

    still = tv.get(f"/board/?live=1&since={position}")
    assert still.status_code == 204 and still["X-Floor-Position"] == position
    assert 'data-position="' + position + '"' in tv.get("/board/").content.decode()

    room.join(room.new_player(), table_id)
    runtime.floor_projector().catch_up()
    moved = tv.get(f"/board/?live=1&since={position}")
    assert moved.status_code == 200 and moved["X-Floor-Position"] != position
    assert games_of(moved.content.decode()) != games_of(first.content.decode())


def test_a_banked_table_shows_its_limits_not_blinds(floor_app):
    """A banked game bets against the bank between a minimum and a maximum
    [GA art. 2-8; PT-SD]: no blinds, no betting limit."""
    room = Room(floor_app, tag="TB")
    room.drawn_table(
        2, buy_in=None, variant="sen_descarte", seats=7, minimum_cents=500, maximum_cents=10_000
    )
    runtime.floor_projector().catch_up()

    [game] = games_of(Client().get("/board/").content.decode())
    assert "Contra la banca: póquer sin descarte" in game
    assert "Límites 5 € – 100 €" in game and "5 asientos libres" in game
    assert "Ciegas" not in game and "límite" not in game.lower().replace("límites", "")


def test_a_full_game_says_so(floor_app):
    room = Room(floor_app, tag="TF")
    room.drawn_table(6, buy_in=None, seats=6)
    runtime.floor_projector().catch_up()

    [game] = games_of(Client().get("/board/").content.decode())
    assert "Completo" in game and "asientos libres" not in game


def test_the_board_speaks_the_language_picked(floor_app):
    room = Room(floor_app, tag="TG")
    room.drawn_table(
        2, buy_in=None, variant="sen_descarte", seats=7, minimum_cents=500, maximum_cents=10_000
    )
    runtime.floor_projector().catch_up()
    tv = Client()
    tv.post("/i18n/setlang/", {"language": "gl", "next": "/board/"})

    [game] = games_of(tv.get("/board/?live=1").content.decode())
    assert "Límites 5 € – 100 €" in game and "5 asentos libres" in game


def test_the_called_numbers_flash_unless_the_room_asks_for_no_motion(floor_app):
    page = Client().get("/board/").content.decode()
    assert re.search(r"\.called li \{[^}]*animation:called", page)
    reduced = page.split("@media (prefers-reduced-motion: reduce)")[1].split("}")[0]
    assert "animation:none" in reduced


def test_an_empty_room_has_an_empty_board(floor_app):
    page = Client().get("/board/")
    assert page.status_code == 200
    assert "Ningún juego abierto" in page.content.decode()
