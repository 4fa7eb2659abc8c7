"""The jefe's console without a browser: its live part and its command door.

Every button posts to /console/commands/<name>/ with a form; what a person
types (euros with a comma, one field per seat) reaches the command in the
API's shapes, a refusal is answered in Spanish and records nothing, and the
live part answers 204 until the floor changes.
"""

import re

import pytest
from django.test import Client

from floor import runtime
from tests.support.floor import new_id
from tests.support.room import Room, all_events

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="CC")


def command(client: Client, name: str, **fields) -> tuple[int, dict]:
    response = client.post(f"/console/commands/{name}/", {"command_id": new_id(), **fields}, **JSON)
    return response.status_code, response.json()


def live(client: Client, room: Room, since: str = "") -> object:
    return client.get(f"/sectors/{room.sector_id}/live/", {"since": since})


def test_the_console_shows_each_seat_and_the_list(room, jefe):
    table_id, cards = room.drawn_table(4, buy_in=1000)
    waiting = room.new_player("Uxía Waiting")
    room.join(waiting, table_id)
    runtime.floor_projector().catch_up()

    page = jefe.get(f"/sectors/{room.sector_id}/").content.decode()

    assert page.count('data-testid="seat"') == 10  # free seats too
    for card in cards:
        assert f'data-card="{card}"' in page
    assert page.count("10,00 €") == 4
    assert 'data-testid="waiting-entry" data-card="CC-0005"' in page
    assert "Uxía Waiting" in page


def test_a_button_runs_its_command_and_the_live_part_shows_it(room, jefe):
    table_id, cards = room.drawn_table(4)
    runtime.floor_projector().catch_up()
    first = live(jefe, room)
    position = first["X-Floor-Position"]
    assert live(jefe, room, since=position).status_code == 204

    status, answer = command(jefe, "start_rest", table_id=table_id, player=cards[0])

    assert (status, answer) == (201, {"ok": True, "message": "El jugador descansa."})
    changed = live(jefe, room, since=position)
    assert changed.status_code == 200 and changed["X-Floor-Position"] != position
    assert 'data-testid="resting"' in changed.content.decode()
    assert room.state(table_id, cards[0])["resting"] is True


def test_a_refusal_is_answered_inline_in_spanish_and_records_nothing(room, jefe):
    table_id, cards = room.drawn_table(4, buy_in=None)
    before = len(all_events(room.app))

    status, answer = command(jefe, "buy_in", table_id=table_id, player=cards[0], amount_eur="50")

    assert status == 409 and answer["ok"] is False
    assert answer["code"] == "buy_in_out_of_limits"
    assert (
        answer["message"]
        == "La compra de fichas debe estar entre el mínimo (2,00 €) y el máximo (10,00 €) "
        "de la mesa."
    )
    assert len(all_events(room.app)) == before


def test_euros_typed_with_a_comma_become_cents(room, jefe):
    table_id, cards = room.drawn_table(4, buy_in=None)

    status, _answer = command(jefe, "buy_in", table_id=table_id, player=cards[1], amount_eur="7,50")

    assert status == 201
    assert room.state(table_id, cards[1])["stack"] == 750


def test_a_hand_is_reported_seat_by_seat(room, jefe):
    table_id, _cards = room.drawn_table(4, buy_in=1000)
    seats = sorted(room.seats(table_id))
    status, _ = command(jefe, "start_hand", table_id=table_id, dealt_in=[str(s) for s in seats])
    assert status == 201
    put_in = {f"contributions_eur.{s}": "2" for s in seats}

    status, answer = command(
        jefe,
        "end_hand",
        table_id=table_id,
        **put_in,
        **{f"winnings_eur.{seats[0]}": "7,50"},
        rake_eur="0,50",
    )
    assert status == 400 and answer["code"] == "rake_above_maximum"  # CM: no rake on 8 EUR

    status, answer = command(
        jefe, "end_hand", table_id=table_id, **put_in, **{f"winnings_eur.{seats[0]}": "8"}
    )

    assert status == 201, answer
    stacks = {s: room.state(table_id, seat=s)["stack"] for s in seats}
    assert stacks == {seats[0]: 1000 - 200 + 800, **{s: 800 for s in seats[1:]}}


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("es", "Una comisión de 0,20 € es más de lo que permiten las normas sobre estos "
         "botes igualados (4,00 €): escriba como máximo 0,00 €."),
        ("gl", "Unha comisión de 0,20 € é máis do que permiten as normas sobre estes "
         "botes igualados (4,00 €): escriba como máximo 0,00 €."),
        ("pt", "Uma comissão de 0,20 € é mais do que as regras permitem sobre estes "
         "potes igualados (4,00 €): escreva no máximo 0,00 €."),
        ("en", "A rake of 0.20 € is more than the rules allow on these called pots "
         "(4.00 €): type at most 0.00 €."),
    ],
)  # fmt: skip
def test_a_rake_too_high_is_told_the_figure_allowed(room, jefe, language, said):
    """A 0,20 EUR rake on a 4 EUR pot: CM takes nothing below its first step
    (CM "Beneficio"), and the refusal says so as a figure, with the pot."""
    table_id, _cards = room.drawn_table(4, buy_in=1000)
    a, b = sorted(room.seats(table_id))[:2]
    status, _ = command(jefe, "start_hand", table_id=table_id, dealt_in=[str(a), str(b)])
    assert status == 201
    jefe.cookies["django_language"] = language
    before = len(all_events(room.app))
    rake = "0.20" if language == "en" else "0,20"
    won = "3.80" if language == "en" else "3,80"

    status, answer = command(
        jefe,
        "end_hand",
        table_id=table_id,
        **{f"contributions_eur.{a}": "2", f"contributions_eur.{b}": "2"},
        **{f"winnings_eur.{a}": won},
        rake_eur=rake,
    )

    assert (status, answer["code"]) == (400, "rake_above_maximum")
    assert answer["message"] == said
    assert len(all_events(room.app)) == before


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"amount_eur": "doce"}, "amount_eur"),
        ({"amount_eur": "1,234"}, "amount_eur"),
        ({"amount_eur": "-5"}, "amount_eur"),
        ({"amount_eur": "99999999"}, "amount_eur"),
        ({}, "amount_cents"),
        ({"amount_eur": "5", "table_id": "not-a-table"}, "table_id"),
    ],
)
def test_a_wrong_field_is_named_and_nothing_is_recorded(room, jefe, fields, field):
    table_id, cards = room.drawn_table(4, buy_in=None)
    before = len(all_events(room.app))

    status, answer = command(jefe, "buy_in", **{"table_id": table_id, "player": cards[0], **fields})

    assert status == 400 and answer["ok"] is False
    assert field in answer["fields"]
    assert len(all_events(room.app)) == before


def test_every_amount_typed_wrong_is_named_and_each_reason_said_once(room, jefe):
    """Two seats' amounts typed the same wrong way are both named (each field
    marked) and the reason is said once; a third, wrong another way, adds its own."""
    table_id, _cards = room.drawn_table(4, buy_in=1000)
    a, b, c = sorted(room.seats(table_id))[:3]
    status, _ = command(jefe, "start_hand", table_id=table_id, dealt_in=[str(a), str(b), str(c)])
    assert status == 201
    before = len(all_events(room.app))

    status, answer = command(
        jefe,
        "end_hand",
        table_id=table_id,
        **{f"contributions_eur.{a}": "dos", f"contributions_eur.{b}": "tres"},
        **{f"contributions_eur.{c}": "-2", f"winnings_eur.{a}": "6"},
    )

    assert status == 400 and answer["code"] == "amount_not_a_number"
    typed_wrong = "Escriba un importe en euros, por ejemplo 1.250,50."
    negative = "Un importe no puede ser negativo."
    assert answer["fields"] == {
        f"contributions_eur.{a}": typed_wrong,
        f"contributions_eur.{b}": typed_wrong,
        f"contributions_eur.{c}": negative,
    }
    assert answer["message"] == f"{typed_wrong} {negative}"
    assert len(all_events(room.app)) == before


def test_an_unknown_command_and_a_get_are_refused(room, jefe):
    assert command(jefe, "drop_database")[0] == 404
    assert jefe.get("/console/commands/start_rest/").status_code == 405


def test_a_role_without_the_command_is_refused(room, make_user):
    table_id, cards = room.drawn_table(4)
    make_user("ines", "inspector", password="pa55-word-ok")
    inspector = Client()
    inspector.login(username="ines", password="pa55-word-ok")

    status, answer = command(inspector, "start_rest", table_id=table_id, player=cards[0])

    assert status == 403 and answer["ok"] is False


def test_without_the_script_a_form_comes_back_with_its_answer(room, jefe):
    table_id, cards = room.drawn_table(4)
    back = f"/sectors/{room.sector_id}/"

    response = jefe.post(
        "/console/commands/start_rest/",
        {"command_id": new_id(), "table_id": table_id, "player": cards[2], "next": back},
        follow=True,
    )

    assert response.redirect_chain[-1][0] == back
    assert "El jugador descansa." in response.content.decode()


def test_the_way_back_never_leaves_the_site(room, jefe):
    table_id, cards = room.drawn_table(4)
    response = jefe.post(
        "/console/commands/start_rest/",
        {"command_id": new_id(), "table_id": table_id, "player": cards[2], "next": "https://evil"},
    )
    assert response["Location"] == "/"


def test_the_dealer_s_tablet_shows_the_table_and_runs_its_hands(room, make_user):
    table_id, _cards = room.drawn_table(4, buy_in=1000)
    runtime.floor_projector().catch_up()
    make_user("cris", "crupier", password="pa55-word-ok")
    dealer = Client()
    dealer.login(username="cris", password="pa55-word-ok")

    page = dealer.get(f"/tables/{table_id}/").content.decode()

    assert page.count('data-testid="seat"') == 10
    assert 'data-command="start_hand"' in page
    assert 'data-command="start_rest"' not in page  # the jefe's buttons are not the dealer's
    assert 'data-command="close_table"' not in page
    seats = [str(s) for s in sorted(room.seats(table_id))]
    status, _ = command(dealer, "start_hand", table_id=table_id, dealt_in=seats)
    assert status == 201
    changed = dealer.get(f"/tables/{table_id}/live/", {"since": "0"}).content.decode()
    assert 'data-testid="end-hand"' in changed and 'data-command="start_action_clock"' in changed


def test_the_table_page_links_back_to_a_page_its_reader_may_read(room, jefe, make_user):
    # A new user took the dealer's "<- Sector A" for the sector's page, which is
    # not his: his link back says where it goes, his tables.
    table_id, _cards = room.drawn_table(4)
    runtime.floor_projector().catch_up()
    make_user("cris", "crupier", password="pa55-word-ok")
    dealer = Client()
    dealer.login(username="cris", password="pa55-word-ok")
    assert dealer.get(f"/sectors/{room.sector_id}/").status_code == 403

    for reader, lands_on, says in ((jefe, "/sectors/", "Sector"), (dealer, "/", "Mis mesas")):
        page = reader.get(f"/tables/{table_id}/").content.decode()
        back, label = re.search(r'<a href="([^"]+)">\u2190 ([^<]+)</a>', page).groups()
        assert back.startswith(lands_on) and (lands_on != "/" or back == "/")
        assert label.startswith(says)
        assert reader.get(back).status_code == 200


def test_an_unknown_table_view_is_a_404(room, jefe):
    assert jefe.get("/tables/00000000-0000-0000-0000-000000000000/").status_code == 404
    assert jefe.get(f"/sectors/{new_id()}/live/").status_code == 404


def test_a_seat_change_asked_at_the_console_shows_on_the_seat(room, jefe):
    table_id, cards = room.drawn_table(4)

    status, _ = command(jefe, "request_seat_change", table_id=table_id, player=cards[3])

    assert status == 201
    row = live(jefe, room).content.decode().split(f'data-card="{cards[3]}"')[1].split("</tr>")[0]
    assert "pide cambio de asiento" in row and 'data-command="withdraw_seat_change"' in row


def test_the_player_s_rules_take_the_player_from_the_form(room, jefe):
    card = room.new_player()

    status, answer = command(jefe, "bar_player", player=card, reason="Conducta")
    assert (status, answer["ok"]) == (201, True)
    assert room.player(card).barred is True

    status, answer = command(jefe, "lift_bar")  # no player named
    assert status == 400 and "player" in answer["fields"]


def test_calculate_shows_the_settlement_before_the_hand_is_ended(room, make_user):
    """The dealer's end-hand form has a Calculate button (issue 19): the same
    form posted to the settlement's preview, answered in words in the
    person's language, recording nothing; then the hand is ended."""
    table_id, _cards = room.drawn_table(4, buy_in=1000)
    runtime.floor_projector().catch_up()
    make_user("cris", "crupier", password="pa55-word-ok")
    dealer = Client()
    dealer.login(username="cris", password="pa55-word-ok")
    seats = sorted(room.seats(table_id))
    a, b, c, d = seats
    assert (
        command(dealer, "start_hand", table_id=table_id, dealt_in=[str(s) for s in seats])[0] == 201
    )
    page = dealer.get(f"/tables/{table_id}/live/", {"since": "0"}).content.decode()
    assert 'data-testid="calculate"' in page and f'name="shown.{a}"' in page
    form = {
        "table_id": table_id,
        f"contributions_eur.{a}": "10",  # all in
        f"contributions_eur.{b}": "10",  # calls, all in
        f"contributions_eur.{c}": "4",  # folds
        f"contributions_eur.{d}": "1",  # folds
        f"shown.{a}": "As Ad",
        f"shown.{b}": "Qs Qd",
        "board": "2s 5d 9c Th Jh",
    }
    before = room.app.recorder.max_notification_id()
    response = dealer.post(
        "/console/commands/preview_settlement/",
        form,
        HTTP_ACCEPT="application/json",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    answer = response.json()
    assert response.status_code == 200 and answer["preview"], answer
    assert room.app.recorder.max_notification_id() == before  # nothing recorded
    # One pot of 25 EUR to a's aces, less 1 EUR of rake (5 % of 20 EUR, CM).
    (pot,) = answer["answer"]["pots"]
    assert (pot["winners"], pot["rake_cents"], answer["answer"]["folded"]) == ([a], 100, [c, d])
    assert "Bote 1: 25,00 EUR" in answer["message"] and "ganado por" in answer["message"]
    assert f"se retiraron: asientos {c}, {d}" in answer["message"]
    status, ended = command(dealer, "end_hand", **form)
    assert status == 201, ended
    assert room.state(table_id, seat=a)["stack"] == 2400


def test_the_deal_form_names_the_button_seat(room, jefe):
    """Where the dealer marks the first button (GA art. 23.1) the hand cannot
    be dealt without it: the deal form has the seat, blank for "where the
    rules put it", and what is chosen reaches the command."""
    table_id, _cards = room.drawn_table(4, buy_in=1000)
    runtime.floor_projector().catch_up()
    page = jefe.get(f"/sectors/{room.sector_id}/").content.decode()
    assert 'data-testid="button-seat"' in page
    seats = sorted(room.seats(table_id))
    dealt = [str(s) for s in seats]
    expected = room.get(table_id).button
    wrong = next(s for s in seats if s != expected)
    status, answer = command(jefe, "start_hand", table_id=table_id, dealt_in=dealt, button=wrong)
    assert (status, answer["code"]) == (409, "button_out_of_turn"), answer
    status, answer = command(jefe, "start_hand", table_id=table_id, dealt_in=dealt, button="")
    assert status == 201, answer
    assert room.get(table_id).hand["button"] == expected
