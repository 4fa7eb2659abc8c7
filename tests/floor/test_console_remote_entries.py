"""What the jefe sees of the list's player side on the console (issue 24): a
remote entry shows "remoto / sin llegar" and when it expires, with a "Ha
llegado" button that checks the player in (one tap, an event with its actor);
a called player's answer shows on the list [CM-6]."""

from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.test import Client

from floor import runtime
from floor.application.player_self import player_username
from floor.kernel.roles import Actor, Role
from tests.support.floor import JEFE, new_id
from tests.support.room import Room, events_of, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="RC")


def as_player(card: str) -> Actor:
    return Actor(player_username(card), frozenset({Role.PLAYER}))


def list_row(client: Client, room: Room, card: str) -> str:
    """The waiting list's row of ``card`` on the sector's live console."""
    runtime.floor_projector().catch_up()
    html = client.get(f"/sectors/{room.sector_id}/live/").content.decode()
    match = re.search(
        rf'<tr data-testid="waiting-entry" data-card="{re.escape(card)}">(.*?)</tr>', html, re.S
    )
    assert match, f"no list row for {card}"
    return match.group(1)


def test_a_remote_entry_shows_until_the_jefe_taps_has_arrived(room, jefe, clock):
    table_id, _cards = room.drawn_table(5, seats=5)
    card = room.new_player()
    room.app.join_waiting_list(as_player(card), new_id(), player=card, table_id=table_id)
    row = list_row(jefe, room, card)
    assert 'data-testid="remote"' in row and "remoto / sin llegar" in row
    expires = (clock.now() + timedelta(minutes=90)).astimezone(ZoneInfo(settings.TIME_ZONE))
    assert f"caduca a las {expires:%H:%M}" in row
    assert 'data-command="check_in_player"' in row and "Ha llegado" in row
    response = jefe.post(
        "/console/commands/check_in_player/",
        {"command_id": new_id(), "table_id": table_id, "player": card},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["message"].startswith("El jugador ha llegado")
    (checked,) = events_of(room.app, room.waiting(table_id).id, "CheckedIn")
    assert (checked.actor, checked.actor_role) == ("jaime", "jefe_sector")
    row = list_row(jefe, room, card)
    assert 'data-testid="remote"' not in row and "check_in_player" not in row
    # a tap again is refused with its reason, nothing recorded
    again = jefe.post(
        "/console/commands/check_in_player/",
        {"command_id": new_id(), "table_id": table_id, "player": card},
        HTTP_ACCEPT="application/json",
    )
    assert again.status_code == 409
    assert len(events_of(room.app, room.waiting(table_id).id, "CheckedIn")) == 1


@pytest.mark.parametrize(
    ("answer", "shown"),
    [("coming", "viene"), ("five_more", "5 minutos más"), ("not_coming", None)],
)
def test_a_called_players_answer_shows_on_the_list(room, jefe, answer, shown):
    table_id, cards = room.drawn_table(5, seats=5)
    first, second = room.new_players(2)
    room.join(first, table_id)
    room.join(second, table_id)
    room.leave(table_id, cards[0])
    assert 'data-testid="call-answer"' not in list_row(jefe, room, first)
    room.app.answer_call(as_player(first), new_id(), player=first, table_id=table_id, answer=answer)
    if shown is None:
        # CM-6: the player who will not come is off the list; the next is called
        assert room.listed(table_id) == [second]
        assert 'data-testid="called"' in list_row(jefe, room, second)
    else:
        row = list_row(jefe, room, first)
        assert f'data-answer="{answer}"' in row and shown in row


def test_the_answer_reads_in_each_language(room, jefe):
    table_id, cards = room.drawn_table(5, seats=5)
    first = room.new_player()
    room.join(first, table_id)
    room.leave(table_id, cards[0])
    room.app.answer_call(
        as_player(first), new_id(), player=first, table_id=table_id, answer="five_more"
    )
    said = {}
    for language in ("es", "gl", "pt", "en"):
        jefe.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        said[language] = list_row(jefe, room, first)
    assert "5 minutos más" in said["es"]
    assert "5 minutos máis" in said["gl"]
    assert "mais 5 minutos" in said["pt"]
    assert "5 more minutes" in said["en"]


def test_the_call_is_offered_on_a_free_seat_only_once_a_remote_player_is_here(room, jefe):
    """The card offers "call the list" by the command's own check: a remote
    entry not checked in is nobody to call (issue 24)."""
    from tests.floor.test_console_seat_offers import card_rows

    table_id, _cards = room.drawn_table(5)  # free seats, nobody waiting
    card = room.new_player()
    room.app.join_waiting_list(as_player(card), new_id(), player=card, table_id=table_id)
    free = [seat for seat, row in card_rows(jefe, room, table_id).items() if row["card"] is None]
    assert free
    rows = card_rows(jefe, room, table_id)
    assert not any("call_next" in rows[seat]["commands"] for seat in free)
    refused(
        room.app, "nobody_to_call", room.app.call_next, JEFE, new_id(), table_id=table_id,
        seat=free[0],
    )  # fmt: skip
    room.app.check_in_player(JEFE, new_id(), player=card, table_id=table_id)
    rows = card_rows(jefe, room, table_id)
    assert all("call_next" in rows[seat]["commands"] for seat in free)
    called = room.app.call_next(JEFE, new_id(), table_id=table_id, seat=free[0]).result
    assert called["offered"]["called"] == str(room.player(card).id)
