"""The public board on the room's TV: games, free seats, and the lists by
reservation number, never a name."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from floor import runtime
from floor.models import WaitingEntryView
from tests.support.floor import JEFE, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db


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

    page = Client().get("/board/")  # a TV: nobody logs in
    assert page.status_code == 200
    html = page.content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert 'http-equiv="refresh"' in html
    assert "Texas Hold" in text and "6 asientos libres" in text
    called, *still = waiting
    assert (
        f"{entries[called].reservation} → mesa {room.get(table_id).number}, asiento {seat}" in text
    )
    listed = re.search(r'data-testid="waiting">(.*?)</ol>', html, re.S).group(1)
    numbers = [int(n) for n in re.findall(r"<li>(\d+)</li>", listed)]
    assert numbers == [entries[card].reservation for card in still]
    for card in waiting:  # the players' names and cards stay off the TV
        assert card not in text and room.player(card).display_name not in text


def test_an_empty_room_has_an_empty_board(floor_app):
    page = Client().get("/board/")
    assert page.status_code == 200
    assert (
        "Ningún juego abierto" in page.content.decode()
        or "No game is open" in page.content.decode()
    )
