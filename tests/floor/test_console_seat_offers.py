"""The table card offers a seat's action only when its command would take it
now (issue 22, item 1): "Clock" only on a player dealt into the hand in play,
"Away" only after a hand played [CM-19] and once a gaming day [CM-18], "Call
the list" never on a seat already offered to a reservation, nor when nobody
is there to call. The card asks the command's own check in the domain
(floor.domain.absence, action_clock, waiting_list); these tests hold the
rendered card against the command itself, run (nothing saved) in each state.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from floor import runtime
from floor.kernel.context import CommandContext, command_context
from floor.kernel.errors import DomainError
from floor.kernel.registry import COMMANDS
from floor.kernel.unit_of_work import UnitOfWork
from tests.floor.test_balancing import two_tables
from tests.support.floor import CRUPIER, JEFE, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db

# The seat's actions the card decides by the domain's checks.
CHECKED = ("start_action_clock", "start_absence", "start_rest", "end_rest", "call_next")


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="SO")


def card_rows(client: Client, room: Room, table_id: str) -> dict[int, dict]:
    """Each seat row of the table's card: its player's card and the commands offered."""
    runtime.floor_projector().catch_up()
    html = client.get(f"/sectors/{room.sector_id}/live/").content.decode()
    start = html.index(f'data-live-key="table-{table_id}"')
    section = html[start : html.index("</section>", start)]
    rows = {}
    for match in re.finditer(r'<tr data-testid="seat" data-seat="(\d+)"(.*?)</tr>', section, re.S):
        card = re.match(r' data-card="([^"]+)"', match.group(2))
        rows[int(match.group(1))] = {
            "card": card.group(1) if card else None,
            "commands": set(re.findall(r'data-command="(\w+)"', match.group(2))),
            "html": match.group(2),
        }
    return rows


def would_run(room: Room, clock, name: str, **arguments) -> DomainError | None:
    """The command's own answer in the present state, nothing saved: its
    refusal, or None when it would be recorded."""
    context = CommandContext("jaime", "jefe_sector", new_id(), room.app.profile, clock.now())
    with command_context(context):
        try:
            getattr(COMMANDS, name)(UnitOfWork(room.app, room.app.profile), **arguments)
        except DomainError as error:
            return error
    return None


def assert_card_matches_commands(room: Room, clock, jefe: Client, table_id: str) -> dict:
    """For every seat and every checked action: offered iff the command takes it."""
    rows = card_rows(jefe, room, table_id)
    for seat, row in rows.items():
        if row["card"] is not None:
            asked = {
                "start_action_clock": {"seat": seat, "pot_cents": 0},
                "start_absence": {"player": row["card"]},
                "start_rest": {"player": row["card"]},
                "end_rest": {"player": row["card"]},
            }
        else:
            asked = {"call_next": {"seat": seat}}
        for name, arguments in asked.items():
            refusal = would_run(room, clock, name, table_id=table_id, **arguments)
            offered = name in row["commands"]
            assert offered == (refusal is None), (seat, name, refusal)
    return rows


def test_before_the_first_hand_neither_clock_is_offered(room, clock, jefe):
    table_id, _cards = room.drawn_table(5)
    rows = assert_card_matches_commands(room, clock, jefe, table_id)
    seated = [r for r in rows.values() if r["card"]]
    assert seated and all(
        not {"start_absence", "start_action_clock"} & r["commands"] for r in seated
    )
    error = would_run(room, clock, "start_absence", table_id=table_id, player=seated[0]["card"])
    assert error.code == "absence_needs_hand_played"  # CM-19


def test_in_a_hand_the_clock_is_offered_only_to_those_dealt_in(room, clock, jefe):
    table_id, cards = room.drawn_table(5)
    room.played(table_id)
    resting = room.seat_of(table_id, cards[0])
    room.app.start_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    started = room.start(table_id)
    assert resting not in started["dealt_in"]

    rows = assert_card_matches_commands(room, clock, jefe, table_id)

    assert "start_action_clock" not in rows[resting]["commands"]
    error = would_run(
        room, clock, "start_action_clock", table_id=table_id, seat=resting, pot_cents=0
    )
    assert error.code == "seat_not_in_hand"
    dealt = started["dealt_in"]
    assert all("start_action_clock" in rows[s]["commands"] for s in dealt)
    # A player in the hand may ask to step away: the button says when.
    assert all("start_absence" in rows[s]["commands"] for s in dealt)
    assert "Ausente al acabar la mano" in rows[dealt[0]]["html"]


def test_a_clock_running_offers_acted_on_its_seat_and_no_other_clock(room, clock, jefe):
    table_id, _cards = room.drawn_table(4)
    room.played(table_id)
    started = room.start(table_id)
    seat = started["dealt_in"][0]
    room.app.start_action_clock(CRUPIER, new_id(), table_id=table_id, seat=seat, pot_cents=400)

    rows = assert_card_matches_commands(room, clock, jefe, table_id)

    assert "stop_action_clock" in rows[seat]["commands"]
    assert not any("start_action_clock" in r["commands"] for r in rows.values())


def test_away_is_offered_after_a_hand_and_once_a_gaming_day(room, clock, jefe):
    table_id, cards = room.drawn_table(5)
    room.played(table_id)
    rows = assert_card_matches_commands(room, clock, jefe, table_id)
    assert all("start_absence" in r["commands"] for r in rows.values() if r["card"])

    room.app.start_absence(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    room.app.end_absence(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    rows = assert_card_matches_commands(room, clock, jefe, table_id)
    seat = room.seat_of(table_id, cards[0])
    assert "start_absence" not in rows[seat]["commands"]  # used today [CM-18]

    # Two away: nobody else is offered it [CM-18].
    room.app.start_absence(CRUPIER, new_id(), table_id=table_id, player=cards[1])
    room.app.start_absence(CRUPIER, new_id(), table_id=table_id, player=cards[2])
    rows = assert_card_matches_commands(room, clock, jefe, table_id)
    assert not any("start_absence" in r["commands"] for r in rows.values())


def test_an_absence_asked_in_the_hand_shows_on_the_seat_until_it_starts(room, clock, jefe):
    table_id, cards = room.drawn_table(5)
    room.played(table_id)
    room.start(table_id)
    room.app.start_absence(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    seat = room.seat_of(table_id, cards[0])

    rows = assert_card_matches_commands(room, clock, jefe, table_id)

    assert 'data-testid="away-after-hand"' in rows[seat]["html"]
    assert "se ausenta al acabar esta mano" in rows[seat]["html"]
    assert 'data-testid="stays"' in rows[seat]["html"]
    room.end(table_id)
    rows = card_rows(jefe, room, table_id)
    assert 'data-testid="away"' in rows[seat]["html"]
    assert 'data-testid="away-after-hand"' not in rows[seat]["html"]


def test_a_seat_offered_to_a_reservation_says_so_and_is_not_called_again(room, clock, jefe):
    table_id, cards = room.drawn_table(5)
    waiting = room.new_player()
    reservation = room.join(waiting, table_id)["reservation"]
    freed = room.seat_of(table_id, cards[0])
    left = room.leave(table_id, cards[0])
    assert left["offered"]["reservation"] == reservation  # the freed seat is called

    rows = assert_card_matches_commands(room, clock, jefe, table_id)

    assert "call_next" not in rows[freed]["commands"]
    assert f'data-reservation="{reservation}"' in rows[freed]["html"]
    assert f"ofrecido a la reserva {reservation}" in rows[freed]["html"]
    # The call's five minutes [CM-6], in the room's time (20:00 UTC is 21:00 in Madrid).
    assert "hasta las 21:05" in rows[freed]["html"]
    # Nobody else waits: no other free seat is offered the call either.
    free = [s for s, r in rows.items() if r["card"] is None]
    assert not any("call_next" in rows[s]["commands"] for s in free)
    other = next(s for s in free if s != freed)
    assert would_run(room, clock, "call_next", table_id=table_id, seat=other).code == (
        "nobody_to_call"
    )
    assert would_run(room, clock, "call_next", table_id=table_id, seat=freed).code == (
        "seat_already_offered"
    )

    room.join(room.new_player(), table_id)
    rows = assert_card_matches_commands(room, clock, jefe, table_id)
    assert "call_next" not in rows[freed]["commands"]
    assert all("call_next" in rows[s]["commands"] for s in free if s != freed)


def test_away_pressed_in_a_hand_says_plainly_that_it_is_recorded_for_its_end(room, jefe):
    table_id, cards = room.drawn_table(5)
    room.played(table_id)
    started = room.start(table_id)

    def press(name: str) -> tuple[int, dict]:
        response = jefe.post(
            f"/console/commands/{name}/",
            {"command_id": new_id(), "table_id": table_id, "player": cards[0]},
            HTTP_ACCEPT="application/json",
        )
        return response.status_code, response.json()

    status, answer = press("start_absence")
    assert status == 201
    assert answer["message"] == (
        f"Ausencia anotada. El jugador está en la mano {started['number']}: el reloj de "
        "ausencia empieza cuando acabe, no hay que hacer nada más."
    )
    status, answer = press("end_absence")
    assert status == 201
    assert "Se retira la ausencia pedida para el final de la mano" in answer["message"]
    status, answer = press("start_absence")
    room.end(table_id)
    assert room.state(table_id, cards[0])["away"] is not None


def test_rest_and_back_are_offered_by_the_rests_own_check(room, clock, jefe):
    table_id, cards = room.drawn_table(4)
    rows = assert_card_matches_commands(room, clock, jefe, table_id)
    assert all("start_rest" in r["commands"] for r in rows.values() if r["card"])
    room.app.start_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    rows = assert_card_matches_commands(room, clock, jefe, table_id)
    seat = room.seat_of(table_id, cards[0])
    assert {"end_rest"} <= rows[seat]["commands"] and "start_rest" not in rows[seat]["commands"]


@pytest.fixture
def pt_room(make_app):
    """A floor under the Portuguese rules: resting again and again means leaving [PT 13]."""
    app = make_app("PT")
    runtime.install(app)
    yield Room(app, tag="SP")
    runtime.install(None)


def test_a_third_rest_under_pt_13_is_not_offered(pt_room, clock, jefe):
    room = pt_room
    table_id, cards = room.drawn_table(4)
    for _ in range(2):
        room.app.start_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
        room.app.end_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])

    rows = assert_card_matches_commands(room, clock, jefe, table_id)

    seat = room.seat_of(table_id, cards[0])
    assert "start_rest" not in rows[seat]["commands"]
    error = would_run(room, clock, "start_rest", table_id=table_id, player=cards[0])
    assert error.code == "rest_used_repeatedly"
    assert "start_rest" in rows[room.seat_of(table_id, cards[1])]["commands"]


def test_a_table_change_the_balance_refuses_does_not_offer_the_call(room, clock, jefe):
    """The case "Call the list" was offered and refused: the only one to call
    was a player of another table asking to change table, whose move the
    balance refuses [CM-10, CM-11]; the card and ``call_next`` now ask the one
    check (floor.domain.balance.table_change_to)."""
    full, short = two_tables(room, 5, 4)  # the tolerance is one player [CM-10]
    asker = next(iter(room.seats(short).values()))
    room.app.request_table_change(JEFE, new_id(), table_id=short, player=asker)

    rows = assert_card_matches_commands(room, clock, jefe, full)

    free = [s for s, r in rows.items() if r["card"] is None]
    assert free and not any("call_next" in rows[s]["commands"] for s in free)
    assert would_run(room, clock, "call_next", table_id=full, seat=free[0]).code == (
        "nobody_to_call"
    )


def test_a_table_change_the_balance_allows_offers_the_call(room, clock, jefe):
    full, short = two_tables(room, 5, 4)
    asker = next(iter(room.seats(full).values()))
    room.app.request_table_change(JEFE, new_id(), table_id=full, player=asker)

    rows = assert_card_matches_commands(room, clock, jefe, short)

    free = [s for s, r in rows.items() if r["card"] is None]
    assert all("call_next" in rows[s]["commands"] for s in free)


def test_the_newcomer_the_button_skips_is_not_ticked_in(room, clock, jefe):
    """A newcomer sitting where the button goes next does not take it for a
    first hand and sits it out [PT 80]: the card ticks them out of the deal,
    names the button where the rules put it, and the deal it offers is taken."""
    table_id, _cards = room.drawn_table(10)  # full: the draw is closed [CM-3]
    room.played(table_id)
    table = room.get(table_id)
    assert not table.draw_open
    after = table.button % table.seats + 1  # the seat the button goes to next
    room.leave(table_id, room.seats(table_id)[after])
    newcomer = room.new_player()
    room.join(newcomer, table_id)
    room.app.seat_player(JEFE, new_id(), table_id=table_id, player=newcomer, seat=after)
    room.buy(table_id, newcomer, 1000)
    runtime.floor_projector().catch_up()

    html = jefe.get(f"/sectors/{room.sector_id}/live/").content.decode()
    start = html.index(f'data-live-key="table-{table_id}"')
    section = html[start : html.index("</section>", start)]
    deal = re.search(r'data-command="start_hand".*?</form>', section, re.S).group(0)
    ticked = sorted(int(n) for n in re.findall(r'name="dealt_in" value="(\d+)"', deal))

    assert after not in ticked and ticked
    assert would_run(room, clock, "start_hand", table_id=table_id, dealt_in=ticked) is None
    assert (
        would_run(room, clock, "start_hand", table_id=table_id, dealt_in=[*ticked, after]).code
        == "newcomer_on_button_seat"
    )


def test_a_newcomer_off_the_big_blind_waits_for_it_unticked(room, clock, jefe):
    """A newcomer posts the big blind or waits for it [CM-17]: the deal form
    posts no blinds, so the card ticks them in only where the big blind falls,
    and the deal it offers is taken."""
    table_id, _cards = room.drawn_table(10)
    room.played(table_id)
    table = room.get(table_id)
    far = (table.button + 4) % table.seats + 1  # neither the button nor a blind next hand
    room.leave(table_id, room.seats(table_id)[far])
    newcomer = room.new_player()
    room.join(newcomer, table_id)
    room.app.seat_player(JEFE, new_id(), table_id=table_id, player=newcomer, seat=far)
    room.buy(table_id, newcomer, 1000)
    runtime.floor_projector().catch_up()

    html = jefe.get(f"/sectors/{room.sector_id}/live/").content.decode()
    start = html.index(f'data-live-key="table-{table_id}"')
    section = html[start : html.index("</section>", start)]
    deal = re.search(r'data-command="start_hand".*?</form>', section, re.S).group(0)
    ticked = sorted(int(n) for n in re.findall(r'name="dealt_in" value="(\d+)"', deal))

    assert far not in ticked and len(ticked) == 9
    assert would_run(room, clock, "start_hand", table_id=table_id, dealt_in=ticked) is None
    refused = would_run(room, clock, "start_hand", table_id=table_id, dealt_in=[*ticked, far])
    assert refused.code == "newcomer_waits_for_big_blind"


def table_section(client: Client, room: Room, table_id: str) -> str:
    runtime.floor_projector().catch_up()
    html = client.get(f"/sectors/{room.sector_id}/live/").content.decode()
    start = html.index(f'data-live-key="table-{table_id}"')
    return html[start : html.index("</section>", start)]


def dealt_offered(section: str) -> set[int]:
    """The seats the deal form ticks, or an empty set when no deal is offered."""
    form = re.search(r'data-command="start_hand".*?</form>', section, re.S)
    if form is None:
        return set()
    return {int(n) for n in re.findall(r'name="dealt_in" value="(\d+)"', form.group(0))}


def test_the_deal_ticks_only_seats_a_hand_may_be_dealt_to(room, clock, jefe):
    """Away, resting, without chips: the deal form leaves them out, and the
    hand dealt to the seats it ticks is taken (issue 22) [CM-18; PT 13]."""
    table_id, cards = room.drawn_table(6)
    room.played(table_id)
    seats = {card: room.seat_of(table_id, card) for card in cards}
    room.app.start_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    room.app.start_absence(CRUPIER, new_id(), table_id=table_id, player=cards[1])
    broke = room.new_player()
    room.sit(table_id, broke)

    offered = dealt_offered(table_section(jefe, room, table_id))

    assert offered == {seats[c] for c in cards[2:]}
    for left_out in (seats[cards[0]], seats[cards[1]], room.seat_of(table_id, broke)):
        error = would_run(
            room, clock, "start_hand", table_id=table_id, dealt_in=[*offered, left_out]
        )
        assert error is not None, left_out
    assert would_run(room, clock, "start_hand", table_id=table_id, dealt_in=sorted(offered)) is None


def test_no_deal_is_offered_at_a_suspended_table(room, clock, jefe):
    table_id, cards = room.drawn_table(4)
    room.played(table_id)
    room.leave(table_id, cards[0])
    assert room.get(table_id).status == "suspended"

    assert dealt_offered(table_section(jefe, room, table_id)) == set()
    seated = sorted(room.seats(table_id))
    error = would_run(room, clock, "start_hand", table_id=table_id, dealt_in=seated)
    assert error.code == "table_not_running"


def test_the_draw_is_offered_once_the_list_holds_enough(room, clock, jefe):
    """Fewer listed than the draw needs: the card says how many more, and the
    draw itself would refuse; with enough, the draw is offered and taken."""
    table_id = room.table()
    for card in room.new_players(3):
        room.join(card, table_id)

    section = table_section(jefe, room, table_id)
    assert 'data-command="draw_seats"' not in section
    assert "Para el sorteo falta 1 jugador más en la lista." in section
    error = would_run(room, clock, "draw_seats", table_ids=[table_id])
    assert error.code == "not_enough_players"

    room.join(room.new_player(), table_id)
    section = table_section(jefe, room, table_id)
    assert 'data-command="draw_seats"' in section and 'data-testid="draw-needs"' not in section
    assert would_run(room, clock, "draw_seats", table_ids=[table_id]) is None


def test_the_draw_counts_the_seats_the_open_tables_take_first(room, clock, jefe):
    """Under a balancing rule [CM-8, CM-10] the draw first fills the free seats
    of the game's playing tables: four listed and two free seats at a running
    table leave two for the new table, which needs four. The card says so
    ("needs 2 more") by the draw's own count, never neither the draw nor the
    need; and the draw itself would refuse."""
    room.drawn_table(4, seats=6)
    table_id = room.table(seats=6)
    for card in room.new_players(4):
        room.join(card, table_id)

    section = table_section(jefe, room, table_id)

    assert 'data-command="draw_seats"' not in section
    assert "Para el sorteo faltan 2 jugadores más en la lista." in section
    error = would_run(room, clock, "draw_seats", table_ids=[table_id])
    assert error.code == "not_enough_players"
    assert error.params == {"registered": 2, "needed": 4}
