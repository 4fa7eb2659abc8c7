"""Interest lists (issue 24, item 4): players ask for a game no table plays;
every jefe's console shows it with how many wait, prompts the jefe once enough
do to start a game [GA art. 23; PT 24] (or the house's figure), fills in the
open-table form for it, and the new table draws its seats from that list
[CM-7, CM-8]."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.test import Client

from floor import runtime
from floor.application.player_self import player_username
from floor.kernel.roles import Actor, Role
from floor.models import SeatView, TableView, WaitingListView
from floor.selectors import interest
from games.profile_rules import WaitingListRules
from tests.support.floor import JEFE, new_id, open_sector
from tests.support.room import OMAHA, Room

pytestmark = pytest.mark.django_db

# The game asked for: no table plays it.
WANTED = {k: OMAHA[k] for k in ("variant", "limit", "minimum_cents", "maximum_cents")}


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="IL")


def wanted_panel(client: Client, sector_id: str) -> str:
    """The console's panel of the games asked for ('' when it shows none)."""
    runtime.floor_projector().catch_up()
    html = client.get(f"/sectors/{sector_id}/live/").content.decode()
    start = html.find('data-testid="wanted-games"')
    return "" if start < 0 else html[start : html.index("</section>", start)]


def ask_for_game(room: Room, players: int) -> list[str]:
    cards = room.new_players(players)
    for card in cards:
        room.join(card, **WANTED)
    return cards


def test_a_game_no_table_plays_shows_with_how_many_wait_and_prompts_at_the_minimum(room, jefe):
    room.table()  # Hold'em: played, so not asked for
    ask_for_game(room, 3)
    panel = wanted_panel(jefe, room.sector_id)
    assert "3 jugadores esperan" in panel
    assert 'data-testid="open-prompt"' not in panel
    assert "una mesa se abre con 4" in panel

    ask_for_game(room, 1)
    panel = wanted_panel(jefe, room.sector_id)
    assert "4 jugadores esperan" in panel
    assert 'data-testid="open-prompt"' in panel  # GA art. 23; PT 24: four start a game
    listed = WaitingListView.objects.get(variant="omaha")
    assert f'href="?open_for={listed.id}#open-table"' in panel
    # The played game's list is not a game asked for.
    assert [w.waiting_list.variant for w in interest.wanted_games(room.app.profile)] == ["omaha"]


def test_every_sector_console_shows_it_and_hears_of_each_player_who_joins(room, jefe):
    other = open_sector(room.app, "Sector IL-2")
    ask_for_game(room, 2)
    assert "2 jugadores esperan" in wanted_panel(jefe, other)

    runtime.floor_projector().catch_up()
    position = jefe.get(f"/sectors/{other}/live/").headers["X-Floor-Position"]
    assert jefe.get(f"/sectors/{other}/live/", {"since": position}).status_code == 204
    ask_for_game(room, 1)
    runtime.floor_projector().catch_up()
    # The other sector's console changed (a game asked for), so it is sent again.
    assert jefe.get(f"/sectors/{other}/live/", {"since": position}).status_code == 200
    assert "3 jugadores esperan" in wanted_panel(jefe, other)


def test_the_prompt_fills_in_the_open_table_form_and_the_table_draws_from_the_list(room, jefe):
    cards = ask_for_game(room, 4)
    runtime.floor_projector().catch_up()
    listed = WaitingListView.objects.get(variant="omaha")
    page = jefe.get(f"/sectors/{room.sector_id}/", {"open_for": str(listed.id)}).content.decode()
    assert 'data-testid="opening-for"' in page
    assert re.search(r'<option value="omaha" selected>', page)
    assert 'value="2,00"' in page and 'value="10,00"' in page  # as Spanish writes amounts

    form = {
        "command_id": new_id(),
        "variant": "omaha",
        "limit": OMAHA["limit"],
        "minimum_cents": "2,00",
        "maximum_cents": "10,00",
        "seats": "10",
    }
    assert jefe.post(f"/sectors/{room.sector_id}/", form).status_code == 302
    runtime.floor_projector().catch_up()
    assert wanted_panel(jefe, room.sector_id) == ""  # played now: no longer asked for

    table_id = str(TableView.objects.get(variant="omaha").id)
    room.deal(table_id)
    room.app.draw_seats(JEFE, new_id(), table_ids=[table_id])  # CM-8: in list order
    runtime.floor_projector().catch_up()
    seated = set(
        SeatView.objects.filter(table_id=table_id).values_list("player__card_number", flat=True)
    )
    assert seated == set(cards)


def test_players_still_outside_do_not_count_until_the_jefe_checks_them_in(room, jefe):
    """An entry made from outside cannot be called to a seat until its player
    is checked in (issue 24, item 2), so it cannot fill a table either."""
    ask_for_game(room, 3)
    outside = room.new_player()
    player = Actor(player_username(outside), frozenset({Role.PLAYER}))
    room.app.join_waiting_list(player, new_id(), player=outside, **WANTED)
    assert "3 jugadores esperan" in wanted_panel(jefe, room.sector_id)
    assert 'data-testid="open-prompt"' not in wanted_panel(jefe, room.sector_id)

    room.app.check_in_player(JEFE, new_id(), player=outside, **WANTED)
    panel = wanted_panel(jefe, room.sector_id)
    assert "4 jugadores esperan" in panel and 'data-testid="open-prompt"' in panel


def test_the_jefe_checks_in_from_the_panel_a_player_who_asked_from_outside(room, jefe):
    """A player asks from their phone for a game no table plays (issue 24,
    items 2 and 4): the panel lists them as coming, and checks them in on
    arrival with one tap; then they count."""
    ask_for_game(room, 3)
    outside = room.new_player("Olga")
    player = Actor(player_username(outside), frozenset({Role.PLAYER}))
    room.app.join_waiting_list(player, new_id(), player=outside, **WANTED)
    panel = wanted_panel(jefe, room.sector_id)
    assert 'data-testid="wanted-coming"' in panel and "Olga" in panel
    form = re.search(r'<form[^>]*data-command="check_in_player".*?</form>', panel, re.S).group(0)
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
    fields["command_id"] = new_id()
    answer = jefe.post("/console/commands/check_in_player/", fields, HTTP_ACCEPT="application/json")
    assert answer.status_code in (200, 201), answer.content
    panel = wanted_panel(jefe, room.sector_id)
    assert "4 jugadores esperan" in panel and 'data-testid="open-prompt"' in panel
    assert 'data-testid="wanted-coming"' not in panel


def test_an_unknown_or_played_game_asked_for_leaves_the_form_empty(room, jefe):
    ask_for_game(room, 4)
    runtime.floor_projector().catch_up()
    for hostile in ("not-an-id", "'; DROP TABLE x;--", str(new_id()), "\x00"):
        response = jefe.get(f"/sectors/{room.sector_id}/", {"open_for": hostile})
        assert response.status_code == 200, repr(hostile)
        assert 'data-testid="opening-for"' not in response.content.decode()


def test_the_house_may_ask_for_more_players_never_fewer_than_a_game_needs(floor_app):
    profile = floor_app.profile
    assert interest.players_to_prompt(profile) == profile.min_players == 4
    more = replace(profile, waiting_list=replace(profile.waiting_list, interest_prompt_players=6))
    assert interest.players_to_prompt(more) == 6
    fewer = replace(profile, waiting_list=replace(profile.waiting_list, interest_prompt_players=2))
    assert interest.players_to_prompt(fewer) == 4  # GA art. 23; PT 24
    assert WaitingListRules().interest_prompt_players is None


def test_a_player_seated_at_another_game_does_not_count_until_they_leave_it(room, jefe):
    """CM-7 lets a seated player register for another variant, but the new
    table's draw passes over anyone seated anywhere [CM-8], as a call does:
    the prompt counts whom the draw would seat, so it comes when the table
    can start, and the panel says who else waits seated elsewhere."""
    holdem, seated = room.drawn_table(5, buy_in=None)
    free = ask_for_game(room, 3)
    for card in seated[:2]:  # seated at Hold'em, they ask for Omaha [CM-7]
        room.join(card, **WANTED)
    panel = wanted_panel(jefe, room.sector_id)
    assert "3 jugadores esperan" in panel
    assert 'data-testid="open-prompt"' not in panel
    assert "(y 2 sentados en otras mesas, que tendrían que dejarlas)" in panel
    (wanted,) = interest.wanted_games(room.app.profile)
    assert (wanted.waiting, wanted.elsewhere, wanted.ready) == (3, 2, False)

    room.leave(holdem, seated[0])
    panel = wanted_panel(jefe, room.sector_id)
    assert "4 jugadores esperan" in panel and 'data-testid="open-prompt"' in panel
    assert "(y 1 sentado en otra mesa, que tendría que dejarla)" in panel

    # The table opened from the prompt draws exactly those it counted.
    table_id = room.table(**WANTED)
    room.deal(table_id)
    room.app.draw_seats(JEFE, new_id(), table_ids=[table_id])
    runtime.floor_projector().catch_up()
    drawn = set(
        SeatView.objects.filter(table_id=table_id).values_list("player__card_number", flat=True)
    )
    assert drawn == {*free, seated[0]}
