"""The player's sign-in and page (issue 24, items 1 and 7): the desk gives a
one-time code (recorded, never kept in clear), the player signs in with it,
chooses a PIN, signs in with the PIN afterwards; wrong ones lock out as the
staff's passwords do; a player's sign-in reaches the player's page and
nothing else; the page shows only real games and the player's own entries.

No sleeping: a code's end is passed by moving its expiry, the lockout's
cool-off by moving axes' attempt times (as tests/floor/test_login.py).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from floor import runtime
from floor.domain.player import Player
from floor.models import PlayerContact, PlayerSignInCode, WaitingEntryView
from floor.player import signin as signing
from floor.player.signin import pin_refusal, player_username
from tests.support.floor import JEFE, new_id
from tests.support.room import Room, events_of, pid

pytestmark = pytest.mark.django_db

LIMIT = settings.AXES_FAILURE_LIMIT
PIN = "472591"


def catch_up() -> None:
    runtime.floor_projector().catch_up()


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="PD")


@pytest.fixture
def desk(api_as) -> APIClient:
    return api_as("jaime", "jefe_sector")


def give_code(desk: APIClient, card: str, command_id: str | None = None):
    return desk.post(
        "/api/player-sign-in-codes/", {"player": card, "command_id": command_id or new_id()}
    )


def code_for(desk: APIClient, card: str) -> str:
    answer = give_code(desk, card)
    assert answer.status_code == 201, answer.content
    return answer.json()["code"]


def sign_in(card: str, secret: str, client: Client | None = None, address: str = "10.0.0.7"):
    client = client or Client(REMOTE_ADDR=address)
    response = client.post("/jugador/entrar/", {"card": card, "secret": secret})
    return client, response


def signed_in_player(desk: APIClient, card: str, pin: str = PIN) -> Client:
    """A player's phone, signed in with the desk's code, its PIN chosen."""
    client, response = sign_in(card, code_for(desk, card))
    assert response.status_code == 302 and response["Location"] == "/jugador/pin/"
    chosen = client.post("/jugador/pin/", {"pin": pin, "pin_again": pin})
    assert chosen.status_code == 302 and chosen["Location"] == "/jugador/"
    return client


def words(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


# --- the desk's code ------------------------------------------------------------------


def test_the_desk_gives_a_code_recorded_with_its_actor_and_kept_only_hashed(
    room, desk, floor_app, clock
):
    card = room.new_player("Ana")
    answer = give_code(desk, card)
    assert answer.status_code == 201
    given = answer.json()
    code = given["code"]
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}", code)
    assert given["card_number"] == card and given["player_id"] == pid(card)

    [event] = events_of(floor_app, pid(card), "SignInCodeIssued")
    assert (event.actor, event.actor_role) == ("jaime", "jefe_sector")
    assert event.expires_at == clock.now() + timedelta(minutes=settings.FLOOR_PLAYER_CODE_MINUTES)
    assert code.replace("-", "") not in repr(event.__dict__)  # no secret in the log

    [kept] = PlayerSignInCode.objects.all()
    assert kept.expires_at == event.expires_at
    assert kept.username == player_username(card) and kept.issued_by == "jaime"
    assert code.replace("-", "") not in kept.code_hash and kept.code_hash.count("$") >= 2
    user = User.objects.get(username=player_username(card))
    assert list(user.groups.values_list("name", flat=True)) == ["player"]
    assert not user.is_staff and not user.is_superuser and not user.has_usable_password()


def test_the_desks_retry_records_nothing_again_and_keeps_the_code_given(
    room, desk, floor_app, clock
):
    """A repeated command id (the desk's retry, a reloaded page) answers 200,
    records no second event and makes no new code: the first may be in the
    player's hand already, and still opens."""
    card = room.new_player()
    command_id = new_id()
    first = give_code(desk, card, command_id)
    clock.advance(timedelta(minutes=2))
    again = give_code(desk, card, command_id)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["code"] is None
    assert again.json()["expires_at"] == first.json()["expires_at"]
    assert len(events_of(floor_app, pid(card), "SignInCodeIssued")) == 1
    _client, signed = sign_in(card, first.json()["code"])
    assert signed.status_code == 302


def test_the_cage_gives_codes_too_and_other_roles_are_refused_with_nothing_kept(
    room, api_as, floor_app
):
    card = room.new_player()
    assert give_code(api_as("carla", "cajero"), card).status_code == 201
    before = floor_app.recorder.max_notification_id()
    for username, role in (("ines", "inspector"), ("cris", "crupier"), ("dora", "director")):
        refused = give_code(api_as(username, role), card)
        assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")
    assert floor_app.recorder.max_notification_id() == before
    assert PlayerSignInCode.objects.count() == 1


def test_no_code_for_an_unknown_or_barred_player_and_nothing_kept(room, desk, floor_app):
    card = room.new_player()
    floor_app.bar_player(JEFE, new_id(), player=card, reason="trouble")
    before = floor_app.recorder.max_notification_id()
    unknown = give_code(desk, "NOBODY-1")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "player_not_found")
    barred = give_code(desk, card)
    assert (barred.status_code, barred.json()["code"]) == (409, "player_barred")
    bad = give_code(desk, "not a card!")
    assert (bad.status_code, bad.json()["code"]) == (400, "card_number_invalid")
    assert floor_app.recorder.max_notification_id() == before
    assert (
        not PlayerSignInCode.objects.exists()
        and not User.objects.filter(username__startswith="player-").exists()
    )


BARRED_SAYS = b"Tienes prohibida la entrada en la sala"


def bar(floor_app, card: str) -> None:
    floor_app.bar_player(JEFE, new_id(), player=card, reason="trouble")
    catch_up()


def lift(floor_app, card: str) -> None:
    floor_app.lift_bar(JEFE, new_id(), player=card)
    catch_up()


def test_a_bar_ends_the_players_session_at_its_next_request(room, desk, floor_app, clock):
    card = room.new_player()
    phone = signed_in_player(desk, card)
    assert phone.get("/jugador/").status_code == 200
    clock.advance(timedelta(minutes=1))
    bar(floor_app, card)
    # The live part (htmx) is told where to go; the session is over.
    live = phone.get("/jugador/en-vivo/", HTTP_HX_REQUEST="true")
    assert (live.status_code, live["HX-Redirect"]) == (200, "/jugador/entrar/")
    assert phone.get("/jugador/")["Location"] == "/jugador/entrar/"
    assert "_auth_user_id" not in phone.session
    # A form sent from the page left open records nothing.
    before = floor_app.recorder.max_notification_id()
    sent = phone.post("/jugador/apuntarse/", {"game": "x", "command_id": new_id()})
    assert sent["Location"] == "/jugador/entrar/"
    assert floor_app.recorder.max_notification_id() == before


def test_a_barred_players_page_says_why_when_the_session_ends(room, desk, floor_app, clock):
    card = room.new_player()
    phone = signed_in_player(desk, card)
    clock.advance(timedelta(minutes=1))
    bar(floor_app, card)
    page = phone.get("/jugador/", follow=True)
    assert page.redirect_chain == [("/jugador/entrar/", 302)]
    assert BARRED_SAYS in page.content


def test_a_barred_player_signs_in_with_the_right_pin_to_a_clear_refusal(
    room, desk, floor_app, clock
):
    card = room.new_player()
    signed_in_player(desk, card)
    clock.advance(timedelta(minutes=1))
    bar(floor_app, card)
    phone, refused = sign_in(card, PIN)
    assert refused.status_code == 403 and BARRED_SAYS in refused.content
    assert "_auth_user_id" not in phone.session
    # A wrong PIN learns nothing of the bar.
    _, wrong = sign_in(card, "902613")
    assert wrong.status_code == 400 and BARRED_SAYS not in wrong.content
    clock.advance(timedelta(minutes=1))
    lift(floor_app, card)
    assert sign_in(card, PIN)[1]["Location"] == "/jugador/"


def test_a_bar_voids_the_code_the_desk_gave_before_it(room, desk, floor_app, clock):
    spent, kept = room.new_player(), room.new_player()
    spent_code, kept_code = code_for(desk, spent), code_for(desk, kept)
    clock.advance(timedelta(minutes=1))
    bar(floor_app, spent)
    bar(floor_app, kept)
    # While barred: the right code opens nothing, and says why.
    phone, refused = sign_in(spent, spent_code)
    assert refused.status_code == 403 and BARRED_SAYS in refused.content
    assert "_auth_user_id" not in phone.session
    # Lifted within the code's time: the code given before the bar is void.
    clock.advance(timedelta(minutes=1))
    lift(floor_app, spent)
    lift(floor_app, kept)
    for card, code in ((spent, spent_code), (kept, kept_code)):
        _, response = sign_in(card, code)
        assert response.status_code == 400 and b"signin-error" in response.content
    clock.advance(timedelta(minutes=1))
    assert sign_in(kept, code_for(desk, kept))[1]["Location"] == "/jugador/pin/"  # a new one


def test_a_staff_user_name_never_becomes_a_players_sign_in(room, desk, make_user, floor_app):
    card = room.new_player()
    make_user(player_username(card), "jefe_sector")
    before = floor_app.recorder.max_notification_id()
    refused = give_code(desk, card)
    assert (refused.status_code, refused.json()["code"]) == (409, "player_sign_in_taken")
    assert floor_app.recorder.max_notification_id() == before


def test_the_console_form_shows_the_code_once(room, make_user, floor_app):
    card = room.new_player()
    make_user("carla", "cajero", password="pa55-word-ok")
    cage = Client()
    assert cage.login(username="carla", password="pa55-word-ok")
    form = cage.get("/players/sign-in-code/")
    assert form.status_code == 200 and b'name="card"' in form.content
    answer = cage.post("/players/sign-in-code/", {"card": card, "command_id": new_id()})
    assert answer.status_code == 200
    code = re.search(rb'data-testid="player-code">([A-Z0-9-]+)<', answer.content).group(1)
    assert sign_in(card, code.decode())[1]["Location"] == "/jugador/pin/"
    refused = cage.post("/players/sign-in-code/", {"card": "NOBODY-2", "command_id": new_id()})
    assert refused.status_code == 404 and b"form-error" in refused.content


# --- signing in -----------------------------------------------------------------------


def test_a_code_signs_in_once_then_the_player_chooses_a_pin_and_signs_in_with_it(
    room, desk, floor_app
):
    card = room.new_player("Bea")
    code = code_for(desk, card)
    phone, response = sign_in(card.lower(), code.lower())  # typed in any case
    assert response["Location"] == "/jugador/pin/"
    # No page before the PIN is chosen.
    assert phone.get("/jugador/")["Location"] == "/jugador/pin/"
    refused = phone.post("/jugador/pin/", {"pin": "111111", "pin_again": "111111"})
    assert refused.status_code == 400 and b"cifra repetida" in refused.content
    chosen = phone.post("/jugador/pin/", {"pin": PIN, "pin_again": PIN})
    assert chosen["Location"] == "/jugador/"
    assert phone.get("/jugador/").status_code == 200
    assert phone.post("/jugador/salir/")["Location"] == "/jugador/entrar/"
    assert phone.get("/jugador/")["Location"] == "/jugador/entrar/"

    assert sign_in(card, code)[1].status_code == 400  # the code is spent
    other, response = sign_in(card, PIN)
    assert response["Location"] == "/jugador/"
    page = other.get("/jugador/")
    assert "Bea" in words(page.content) and card in words(page.content)


def test_a_code_signs_in_until_its_time_and_not_after(room, desk, clock):
    card, late = room.new_player(), room.new_player()
    code, late_code = code_for(desk, card), code_for(desk, late)
    clock.advance(timedelta(minutes=settings.FLOOR_PLAYER_CODE_MINUTES, seconds=-1))
    assert sign_in(card, code)[1]["Location"] == "/jugador/pin/"
    clock.advance(timedelta(seconds=1))
    _, response = sign_in(late, late_code)
    assert response.status_code == 400 and b"signin-error" in response.content


def test_a_new_code_replaces_the_older_one(room, desk):
    card = room.new_player()
    first, second = code_for(desk, card), code_for(desk, card)
    assert sign_in(card, first)[1].status_code == 400
    assert sign_in(card, second)[1]["Location"] == "/jugador/pin/"


@pytest.mark.parametrize(
    ("pin", "refusal"),
    [
        ("123", "pin_format"),
        ("4725", "pin_format"),  # four digits: too few against guessing
        ("47259", "pin_format"),
        ("123456789", "pin_format"),
        ("12a456", "pin_format"),
        ("１２３４５６", "pin_format"),  # full-width digits
        ("", "pin_format"),
        ("000000", "pin_same_digit"),
        ("77777777", "pin_same_digit"),
        ("123456", "pin_straight_run"),
        ("3456789", "pin_straight_run"),
        ("987654", "pin_straight_run"),
        ("472591", None),
        ("123457", None),
        ("00000001", None),
    ],
)
def test_the_pin_rules(pin, refusal):
    assert pin_refusal(pin) == refusal


def test_two_different_pins_are_refused(room, desk):
    card = room.new_player()
    phone, _ = sign_in(card, code_for(desk, card))
    refused = phone.post("/jugador/pin/", {"pin": PIN, "pin_again": "472592"})
    assert refused.status_code == 400 and b"pin-error" in refused.content
    assert not User.objects.get(username=player_username(card)).has_usable_password()


def test_wrong_pins_lock_the_player_out_and_say_until_when_a_director_lifts_it(room, desk, api_as):
    card = room.new_player()
    signed_in_player(desk, card)
    for n in range(LIMIT - 1):
        _, response = sign_in(card, f"90{n}3", address="10.0.0.9")
        assert response.status_code == 400
        assert b"signin-error" in response.content
    _, locking = sign_in(card, "9993", address="10.0.0.9")
    assert locking.status_code == 429
    _, refused = sign_in(card, PIN, address="10.0.0.10")  # the right PIN, locked out
    assert refused.status_code == 429
    lifts = timezone.localtime(
        AccessAttempt.objects.filter(username=player_username(card))
        .latest("attempt_time")
        .attempt_time
        + settings.AXES_COOLOFF_TIME
    )
    assert f"{lifts:%H:%M}".encode() in refused.content

    director = api_as("dora", "director")
    lifted = director.post("/api/auth/lockouts/lift/", {"username": player_username(card)})
    assert lifted.status_code == 200, lifted.content
    assert sign_in(card, PIN, address="10.0.0.10")[1]["Location"] == "/jugador/"


def test_a_wrong_code_counts_towards_the_lockout(room, desk):
    card = room.new_player()
    code_for(desk, card)
    for _ in range(LIMIT):
        sign_in(card, "ABCD-EFGH", address="10.0.0.11")
    assert AccessAttempt.objects.get(username=player_username(card)).failures_since_start == LIMIT


# --- one door each --------------------------------------------------------------------


def test_a_player_signs_in_at_no_staff_door(room, desk):
    card = room.new_player()
    signed_in_player(desk, card)
    console = Client()
    page = console.post("/accounts/login/", {"username": player_username(card), "password": PIN})
    assert page.status_code == 200 and "_auth_user_id" not in console.session
    token = APIClient().post(
        "/api/auth/token/", {"username": player_username(card), "password": PIN}
    )
    assert (token.status_code, token.json()["code"]) == (400, "login_failed")


def test_no_staff_member_signs_in_at_the_players_door(make_user, floor_app):
    make_user("player-STAFF1", "jefe_sector", password="s3cret-pass")
    _, response = sign_in("STAFF1", "s3cret-pass")
    assert response.status_code == 400


@pytest.mark.parametrize(
    "url", ["/", "/board/", "/admin/", "/cage/", "/accounts/login/", "/metrics"]
)
def test_a_players_session_reaches_no_console_nor_admin(room, desk, url):
    phone = signed_in_player(desk, room.new_player())
    response = phone.get(url)
    assert response.status_code == 302 and response["Location"] == "/jugador/"


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/api/me/"),
        ("get", "/api/tables/"),
        ("post", "/api/waiting-lists/"),
        ("post", "/api/player-sign-in-codes/"),
        ("post", "/api/auth/lockouts/lift/"),
    ],
)
def test_a_players_session_reaches_no_api(room, desk, floor_app, method, url):
    card = room.new_player()
    phone = signed_in_player(desk, card)
    before = floor_app.recorder.max_notification_id()
    response = getattr(phone, method)(url, {"player": card}, content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (403, "role_not_allowed")
    assert floor_app.recorder.max_notification_id() == before


# --- the page -------------------------------------------------------------------------


def test_the_page_shows_only_games_dealing_to_players(room, desk, floor_app):
    room.drawn_table(4, buy_in=None)  # ten seats, four taken
    room.table(minimum_cents=400, maximum_cents=2_000)  # opened, no draw: no game yet
    phone = signed_in_player(desk, room.new_player())
    catch_up()
    page = words(phone.get("/jugador/").content)
    games = re.findall(
        r'data-testid="game" data-game="([^"]+)"', phone.get("/jugador/").content.decode()
    )
    assert games == ["texas_holdem/no_limit/200/1000"]
    assert "1 €/2 €" in page and "6 asientos libres" in page and "1 mesa" in page
    # The board keeps to the same rule (item 7).
    board = Client().get("/board/").content.decode()
    assert board.count('data-testid="board-game"') == 1


def test_a_suspended_table_is_no_game(room, desk, floor_app):
    table_id, cards = room.drawn_table(4, buy_in=None)
    room.leave(table_id, cards[0])  # three left: suspended [PT 24]
    catch_up()
    phone = signed_in_player(desk, room.new_player())
    assert b'data-testid="game"' not in phone.get("/jugador/").content
    assert b'data-testid="no-games"' in phone.get("/jugador/").content


def test_the_page_shows_the_players_own_entries_and_no_one_elses(room, desk, floor_app):
    table_id, _cards = room.drawn_table(4, buy_in=None)
    mine, theirs = room.new_player("Mía"), room.new_player("Suya")
    room.join(theirs, table_id)
    room.join(mine, table_id)
    catch_up()
    entries = {e.player.card_number: e for e in WaitingEntryView.objects.select_related("player")}
    phone = signed_in_player(desk, mine)
    live = phone.get("/jugador/en-vivo/")
    assert live.status_code == 200
    html = live.content.decode()
    assert re.findall(r'data-testid="reservation">(\d+)<', html) == [str(entries[mine].reservation)]
    assert re.findall(r'data-testid="position">(\d+)<', html) == [str(entries[mine].position)]
    assert theirs not in html and "Suya" not in html


def test_a_call_shows_on_the_page_with_table_seat_and_time(room, desk, floor_app):
    table_id, _cards = room.drawn_table(4, buy_in=None)
    card = room.new_player()
    room.join(card, table_id)
    seat = next(s for s in range(1, 11) if s not in room.seats(table_id))
    floor_app.call_next(JEFE, new_id(), table_id=table_id, seat=seat)
    catch_up()
    phone = signed_in_player(desk, card)
    page = phone.get("/jugador/").content.decode()
    call = re.search(r'data-testid="call".*?</div>', page, re.S).group(0)
    number = room.get(table_id).number
    assert f"Mesa {number}, asiento {seat}" in words(call.encode())
    ends = WaitingEntryView.objects.get().call_ends_at
    assert f"{timezone.localtime(ends):%H:%M}" in call


# --- acting on one's own lists (both the page and the command refuse the rest) ------------

OMAHA_GAME = {
    "variant": "omaha",
    "limit": "pot_limit",
    "minimum_cents": 200,
    "maximum_cents": 1000,
}
HOLDEM_KEY = "texas_holdem/no_limit/200/1000"
OMAHA_KEY = "omaha/pot_limit/200/1000"


def list_id_of(floor_app, key: str) -> str:
    from floor.domain.game import Game

    return str(Game.from_key(key).waiting_list_id)


def post(phone: Client, url: str, **data):
    return phone.post(url, {"command_id": new_id(), **data}, follow=True)


def messages_of(response) -> str:
    return " ".join(
        words(m.encode())
        for m in re.findall(r'data-testid="message">(.*?)</p>', response.content.decode(), re.S)
    )


def test_the_player_joins_two_lists_and_leaves_one_as_the_actor_of_each_event(
    room, desk, floor_app
):
    room.drawn_table(4, buy_in=None)  # Hold'em is running
    room.join(room.new_player(), **OMAHA_GAME)  # Omaha has a list, no table
    card = room.new_player("Carmen")
    phone = signed_in_player(desk, card)
    [pin_chosen] = events_of(floor_app, pid(card), "PinChosen")
    assert (pin_chosen.actor, pin_chosen.actor_role) == (player_username(card), "player")
    catch_up()
    page = phone.get("/jugador/").content.decode()
    assert f'value="{HOLDEM_KEY}"' in page and f'value="{OMAHA_KEY}"' in page

    joined = phone.post(
        "/jugador/apuntarse/", {"command_id": new_id(), "game": [HOLDEM_KEY, OMAHA_KEY]}
    )
    assert joined.status_code == 302
    catch_up()
    mine = WaitingEntryView.objects.filter(player__card_number=card)
    assert {e.waiting_list.game for e in mine} == {HOLDEM_KEY, OMAHA_KEY}
    assert all(e.remote and not e.checked_in for e in mine)  # called in from outside
    for key in (HOLDEM_KEY, OMAHA_KEY):
        [registered] = [
            e
            for e in events_of(floor_app, list_id_of(floor_app, key), "Registered")
            if e.player_id == Player.create_id(card)
        ]
        assert (registered.actor, registered.actor_role) == (player_username(card), "player")
    live = phone.get("/jugador/en-vivo/").content.decode()
    assert len(re.findall(r'data-testid="position">\d+<', live)) == 2

    left = post(phone, "/jugador/borrarse/", game=OMAHA_KEY)
    assert "Te has borrado de la lista" in messages_of(left)
    catch_up()
    assert [e.waiting_list.game for e in mine.all()] == [HOLDEM_KEY]
    [removed] = events_of(floor_app, list_id_of(floor_app, OMAHA_KEY), "Removed")
    assert (removed.actor, removed.reason) == (player_username(card), "withdrew")


def test_a_player_acts_on_no_one_elses_entries(room, desk, floor_app):
    table_id, _cards = room.drawn_table(4, buy_in=None)
    theirs = room.new_player("Otra")
    room.join(theirs, table_id)
    room.join(theirs, **OMAHA_GAME)
    mine = room.new_player("Yo")
    phone = signed_in_player(desk, mine)
    catch_up()
    before = floor_app.recorder.max_notification_id()
    their_entries = list(
        WaitingEntryView.objects.filter(player__card_number=theirs).values_list("id", "position")
    )

    # A forged form naming the other's card: the page acts for the signed-in player only.
    left = post(phone, "/jugador/borrarse/", game=OMAHA_KEY, player=theirs)
    assert "no está en esta lista" in messages_of(left)
    answered = post(phone, "/jugador/responder/", game=HOLDEM_KEY, answer="coming", player=theirs)
    assert "no está en esta lista" in messages_of(answered)
    assert floor_app.recorder.max_notification_id() == before
    # Another's id or card in the URL or the query: no such page, nothing of theirs shown.
    assert phone.get(f"/jugador/{pid(theirs)}/").status_code == 404
    assert phone.get(f"/api/players/{pid(theirs)}/").status_code == 403
    shown = phone.get(f"/jugador/?player={theirs}&card={theirs}").content.decode()
    assert theirs not in shown and "Otra" not in shown
    # The command itself refuses a player acting for another (PlayerSelf).
    from floor.kernel.errors import DomainError
    from floor.kernel.web.gateway import perform

    user = User.objects.get(username=player_username(mine))
    for command, extra in (("join_waiting_list", {}), ("leave_waiting_list", {})):
        with pytest.raises(DomainError) as refused:
            perform(command, user, new_id(), player=theirs, **OMAHA_GAME, **extra)
        assert refused.value.code == "not_your_player"
    assert floor_app.recorder.max_notification_id() == before
    assert their_entries == list(
        WaitingEntryView.objects.filter(player__card_number=theirs).values_list("id", "position")
    )


@pytest.mark.parametrize(
    ("url", "data", "said"),
    [
        ("/jugador/apuntarse/", {}, "Elige una partida"),
        ("/jugador/apuntarse/", {"game": "not/a/game"}, "Elige una partida"),
        ("/jugador/apuntarse/", {"game": "poker/no_limit/x/y"}, "Elige una partida"),
        ("/jugador/apuntarse/", {"game": "chess/no_limit/200/1000"}, ""),
        ("/jugador/borrarse/", {"game": "x" * 500}, "Elige la lista"),
        ("/jugador/responder/", {"game": HOLDEM_KEY, "answer": "maybe"}, "Elige una respuesta"),
    ],
)
def test_bad_forms_are_refused_with_a_message_and_nothing_recorded(
    room, desk, floor_app, url, data, said
):
    phone = signed_in_player(desk, room.new_player())
    before = floor_app.recorder.max_notification_id()
    response = post(phone, url, **data)
    assert response.status_code == 200
    assert 'class="errors"' in response.content.decode()
    assert said in messages_of(response)
    assert floor_app.recorder.max_notification_id() == before


def test_a_form_without_its_id_records_nothing(room, desk, floor_app):
    room.drawn_table(4, buy_in=None)
    phone = signed_in_player(desk, room.new_player())
    before = floor_app.recorder.max_notification_id()
    response = phone.post("/jugador/apuntarse/", {"game": HOLDEM_KEY}, follow=True)
    assert "recarga la página" in messages_of(response)
    assert floor_app.recorder.max_notification_id() == before


def test_the_called_player_answers_from_the_page(room, desk, floor_app):
    table_id, _cards = room.drawn_table(4, buy_in=None)
    card = room.new_player()
    phone = signed_in_player(desk, card)
    post(phone, "/jugador/apuntarse/", game=HOLDEM_KEY)
    catch_up()
    waiting = phone.get("/jugador/en-vivo/").content.decode()
    assert 'data-testid="check-in"' in waiting  # remote: check in at the desk first
    floor_app.check_in_player(JEFE, new_id(), player=card, table_id=table_id)
    seat = next(s for s in range(1, 11) if s not in room.seats(table_id))
    floor_app.call_next(JEFE, new_id(), table_id=table_id, seat=seat)
    catch_up()
    page = phone.get("/jugador/").content.decode()
    for answer in ("coming", "five_more", "not_coming"):
        assert f'data-testid="answer-{answer}"' in page
    assert "Necesito 5 minutos más" in page and ">Voy<" in page and ">No voy<" in page

    answered = post(phone, "/jugador/responder/", game=HOLDEM_KEY, answer="five_more")
    assert "Respuesta enviada: Necesito 5 minutos más" in messages_of(answered)
    # CM-6: 5 minutes at most, the seat is not held longer, and the page says so.
    ends = room.waiting(table_id).entry_of(Player.create_id(card))["call"]["ends_at"]
    until = timezone.localtime(datetime.fromisoformat(ends)).strftime("%H:%M")
    assert f"El asiento se guarda hasta las {until} y no más" in messages_of(answered)
    [event] = events_of(floor_app, list_id_of(floor_app, HOLDEM_KEY), "CallAnswered")
    assert (event.actor, event.answer) == (player_username(card), "five_more")
    catch_up()
    page = phone.get("/jugador/").content.decode()
    assert 'data-testid="answer-given"' in page
    assert 'data-testid="answer-five_more"' not in page  # once a call
    assert 'data-testid="answer-coming"' in page


def test_the_jefes_and_the_cages_consoles_carry_the_code_form(room, make_user, floor_app):
    card = room.new_player()
    catch_up()
    for username, role, url in (
        ("jaime", "jefe_sector", f"/sectors/{room.sector_id}/"),
        ("carla", "cajero", f"/cage/?card={card}"),
    ):
        make_user(username, role, password="pa55-word-ok")
        console = Client()
        assert console.login(username=username, password="pa55-word-ok")
        page = console.get(url).content.decode()
        form = re.search(r'<form [^>]*data-testid="player-code-form".*?</form>', page, re.S)
        assert form is not None, role
        assert 'action="/players/sign-in-code/"' in form.group(0)
    assert f'name="card" value="{card}"' in form.group(0)  # the cage's: the player found


@pytest.mark.parametrize("choice", ["drop", "keep"])
def test_once_seated_the_other_lists_go_or_stay_as_the_player_chose(room, desk, floor_app, choice):
    table_id, _cards = room.drawn_table(4, buy_in=None)
    card = room.new_player()
    room.join(card, table_id)  # at the desk: Hold'em
    room.join(card, **OMAHA_GAME)  # and Omaha
    phone = signed_in_player(desk, card)
    saved = post(phone, "/jugador/otras-listas/", other_lists=choice)
    assert "Guardado" in messages_of(saved)
    if choice == "drop":
        [chosen] = events_of(floor_app, pid(card), "OtherListsChosen")
        assert (chosen.actor, chosen.drop) == (player_username(card), True)
    else:  # keeping them is the default: nothing to record
        assert events_of(floor_app, pid(card), "OtherListsChosen") == []
    catch_up()
    checked = 'value="drop" checked' if choice == "drop" else 'value="keep" checked'
    assert checked in phone.get("/jugador/").content.decode()

    room.sit(table_id, card)  # the jefe seats the player at Hold'em (a seat drawn)
    catch_up()
    left = {e.waiting_list.game for e in WaitingEntryView.objects.filter(player__card_number=card)}
    assert left == (set() if choice == "drop" else {OMAHA_KEY})


def test_a_bad_choice_of_the_other_lists_records_nothing(room, desk, floor_app):
    phone = signed_in_player(desk, room.new_player())
    before = floor_app.recorder.max_notification_id()
    response = post(phone, "/jugador/otras-listas/", other_lists="maybe")
    assert "Elige si sigues" in messages_of(response)
    assert floor_app.recorder.max_notification_id() == before


def test_the_page_speaks_the_language_the_player_picks(room, desk):
    phone = signed_in_player(desk, room.new_player())
    assert "Mis listas" in words(phone.get("/jugador/").content)  # Spanish by default
    for language, said in (
        ("gl", "As miñas listas"),
        ("pt", "As minhas listas"),
        ("en", "My lists"),
    ):
        switched = phone.post("/i18n/setlang/", {"language": language, "next": "/jugador/"})
        assert switched["Location"] == "/jugador/"
        assert said in words(phone.get("/jugador/").content)


def test_a_staff_session_sees_no_players_page(make_user, floor_app):
    make_user("jaime", "jefe_sector", password="pa55-word-ok")
    jefe = Client()
    assert jefe.login(username="jaime", password="pa55-word-ok")
    for url in ("/jugador/", "/jugador/en-vivo/", "/jugador/pin/"):
        assert jefe.get(url)["Location"] == "/jugador/entrar/"
    refused = jefe.post("/jugador/apuntarse/", {"command_id": new_id(), "game": "x/y/1/2"})
    assert refused["Location"] == "/jugador/entrar/"


def test_a_code_is_given_even_while_the_read_models_lag(room, desk, monkeypatch):
    """The command is recorded; the code needs no read model, so the desk
    still gets it (the screens catch up later)."""
    from floor.projections.floor_views import FloorProjection

    card = room.new_player()
    catch_up()

    def broken_apply(self, event, position):
        raise RuntimeError("read model bug")

    monkeypatch.setattr(FloorProjection, "apply", broken_apply)
    answer = give_code(desk, card)
    assert answer.status_code == 201 and answer.json()["card_number"] == card
    monkeypatch.undo()
    assert sign_in(card, answer.json()["code"])[1]["Location"] == "/jugador/pin/"


def test_a_seat_drawn_follows_the_players_choice_of_their_other_lists(room, desk, floor_app):
    table_id = room.table()
    dropping, keeping = room.new_player(), room.new_player()
    others = room.new_players(2)
    for card in (dropping, keeping, *others):
        room.join(card, table_id)
    for card in (dropping, keeping):
        room.join(card, **OMAHA_GAME)
    phone = signed_in_player(desk, dropping)
    post(phone, "/jugador/otras-listas/", other_lists="drop")
    floor_app.draw_seats(JEFE, new_id(), table_ids=[table_id])  # all four drawn
    catch_up()
    assert {dropping, keeping} <= set(room.seats(table_id).values())
    omaha = {e.player.card_number for e in WaitingEntryView.objects.select_related("player")}
    assert omaha == {keeping}


def test_a_player_asks_for_a_game_no_table_plays_from_the_page(room, desk, floor_app):
    """Issue 24, item 4: the game's list is joined from outside (a remote
    entry, callable once checked in), amounts as Spanish writes them; a game
    the profile refuses, or amounts that are not amounts, record nothing."""
    card = room.new_player()
    phone = signed_in_player(desk, card)
    page = phone.get("/jugador/").content.decode()
    assert 'data-testid="ask-form"' in page and "¿No está tu juego? Pídelo" in page
    before = floor_app.recorder.max_notification_id()
    not_amounts, not_allowed = {"minimum_cents": "cuatro"}, {"maximum_cents": "500,00"}
    for wrong in (not_amounts, not_allowed):
        fields = {"variant": "omaha", "limit": "pot_limit", "minimum_cents": "4,00"}
        fields |= {"maximum_cents": "20,00", **wrong}
        refused_page = post(phone, "/jugador/pedir-juego/", **fields)
        assert refused_page.status_code == 200 and messages_of(refused_page)
    assert floor_app.recorder.max_notification_id() == before

    fields = {"variant": "omaha", "limit": "pot_limit", "minimum_cents": "4,00"}
    asked = post(phone, "/jugador/pedir-juego/", **fields, maximum_cents="20,00")
    assert "Has pedido Omaha" in messages_of(asked)
    catch_up()
    (entry,) = WaitingEntryView.objects.filter(player__card_number=card)
    listed = entry.waiting_list
    assert (listed.variant, listed.limit, listed.minimum_cents, listed.maximum_cents) == (
        "omaha",
        "pot_limit",
        400,
        2000,
    )
    assert (entry.remote, entry.checked_in) == (True, False)
    page = phone.get("/jugador/en-vivo/").content.decode()
    assert 'data-game="omaha/pot_limit/400/2000"' in page


def test_a_player_chooses_from_the_page_how_a_call_reaches_them(room, desk, floor_app):
    """Issue 24, item 3: e-mail or SMS when the page is closed; the address
    kept outside the event log, the event naming the channel and the player
    as its actor; a wrong address records nothing."""
    card = room.new_player()
    phone = signed_in_player(desk, card)
    before = floor_app.recorder.max_notification_id()
    wrong = post(phone, "/jugador/aviso/", channel="email", email="not an address")
    assert messages_of(wrong) and floor_app.recorder.max_notification_id() == before

    saved = post(phone, "/jugador/aviso/", channel="email", email="ana@example.org")
    assert "Guardado: te avisaremos así." in messages_of(saved)
    (contact,) = PlayerContact.objects.all()
    assert (str(contact.player_id), contact.channel, contact.email, contact.language) == (
        pid(card),
        "email",
        "ana@example.org",
        "es",
    )
    [event] = events_of(floor_app, pid(card), "ContactPreferenceChanged")
    assert (event.actor, event.channel) == (player_username(card), "email")
    assert "ana@example.org" not in str(event.__dict__)
    page = phone.get("/jugador/").content.decode()
    assert 'value="ana@example.org"' in page
    other = signed_in_player(desk, room.new_player())
    assert "ana@example.org" not in other.get("/jugador/").content.decode()


def test_a_reloaded_desk_page_gives_no_second_code(room, make_user, floor_app):
    """The console's form sent again (a reload) is the same command: it says
    the code was given and shows none, so the one in the player's hand opens."""
    make_user("jaime", "jefe_sector", password="pa55-word-ok")
    console = Client()
    assert console.login(username="jaime", password="pa55-word-ok")
    card = room.new_player()
    form = {"card": card, "command_id": new_id()}
    first = console.post("/players/sign-in-code/", form).content.decode()
    code = re.search(r'data-testid="player-code">([^<]+)<', first).group(1)
    again = console.post("/players/sign-in-code/", form).content.decode()
    assert 'data-testid="code-already-given"' in again and code not in again
    assert 'data-testid="player-code"' not in again
    _client, signed = sign_in(card, code)
    assert signed.status_code == 302


def test_a_session_signed_in_with_the_pin_cannot_change_it(room, desk):
    """A phone left on a table (or a cookie taken) keeps the PIN it found:
    only the sign-in a desk's code opened chooses one."""
    card = room.new_player()
    signed_in_player(desk, card)
    phone, response = sign_in(card, PIN)
    assert response.status_code == 302 and response["Location"] == "/jugador/"
    changed = phone.post("/jugador/pin/", {"pin": "918273", "pin_again": "918273"})
    assert changed.status_code == 302 and changed["Location"] == "/jugador/"
    _other, again = sign_in(card, PIN, address="10.0.0.8")
    assert again.status_code == 302  # the PIN is still the one chosen


def test_a_game_asked_for_from_a_phone_alone_is_shown_to_nobody_else(room, desk, floor_app):
    """Only real games (issue 24, item 7): stakes a player asked for from
    outside appear on nobody else's page nor on the public board until a
    player who asked is in the room (checked in)."""
    asker, other = room.new_player(), room.new_player()
    phone = signed_in_player(desk, asker)
    fields = {"variant": "omaha", "limit": "pot_limit", "minimum_cents": "4,00"}
    post(phone, "/jugador/pedir-juego/", **fields, maximum_cents="20,00")
    catch_up()
    key = "omaha/pot_limit/400/2000"
    assert f'data-testid="join-{key}"' not in signed_in_player(desk, other).get("/jugador/").text
    assert "Omaha" not in Client().get("/board/").content.decode()
    floor_app.check_in_player(JEFE, new_id(), player=asker, variant="omaha", limit="pot_limit",
                              minimum_cents=400, maximum_cents=2000)  # fmt: skip
    catch_up()
    page = signed_in_player(desk, room.new_player()).get("/jugador/").content.decode()
    assert f'data-testid="join-{key}"' in page
    assert "Omaha" in Client().get("/board/").content.decode()


def test_a_wrong_code_costs_a_hash_whether_or_not_the_card_holds_one(room, desk, monkeypatch):
    """No card told by the time a wrong code takes (cross review): with a
    live code, a card without one and an unknown card alike, a hash is made."""
    holder, without = room.new_player(), room.new_player()
    code_for(desk, holder)
    signed_in_player(desk, without)  # a player whose code is spent
    hashed = []
    real = signing.make_password
    monkeypatch.setattr(signing, "make_password", lambda typed: hashed.append(1) or real(typed))
    monkeypatch.setattr(signing, "check_password", lambda typed, stored: hashed.append(1) or False)
    counts = []
    for card in (holder, without, "PD-9999"):
        hashed.clear()
        sign_in(card, "ABCD-EFGH", address=f"10.0.1.{len(counts)}")
        counts.append(len(hashed))
    assert counts == [1, 1, 1]
