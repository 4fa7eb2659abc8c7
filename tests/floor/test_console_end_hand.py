"""Ending a hand in the console the way a dealer thinks (issue 22): how each
seat ended and whose hand won; the service works out what each seat put in
from what the hand recorded (the blinds posted, the stacks, the all-ins),
builds the side pots and takes the rake the rules allow, or less, never more
[GA art. 18.3a; PT 7a; CM "Beneficio"]. Through the Django test client."""

import pytest
from django.test import Client

from floor import runtime
from tests.support.floor import CRUPIER, new_id
from tests.support.room import Room, all_events

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="EH")


def command(client: Client, name: str, **fields) -> tuple[int, dict]:
    response = client.post(f"/console/commands/{name}/", {"command_id": new_id(), **fields}, **JSON)
    return response.status_code, response.json()


def dealt(
    room: Room, jefe: Client, buy_ins: list[int], blinds: tuple[int, int] | None = None
) -> tuple[str, list[int]]:
    """A table of four drawn players, those of ``buy_ins`` bought in for so
    many cents each (seat order) and dealt a hand, the first two seats posting
    ``blinds`` when given (the dealer reports them); the console's read models
    caught up (the form reads them)."""
    table_id, _cards = room.drawn_table(4, buy_in=None, minimum_cents=2000, maximum_cents=10000)
    seats = sorted(room.seats(table_id))[: len(buy_ins)]
    for seat, cents in zip(seats, buy_ins, strict=True):
        room.buy(table_id, room.seats(table_id)[seat], cents)
    if blinds:
        room.start(table_id, seats, blinds={str(s): b for s, b in zip(seats, blinds, strict=False)})
    else:
        status, answer = command(
            jefe, "start_hand", table_id=table_id, dealt_in=[str(s) for s in seats]
        )
        assert status == 201, answer
    runtime.floor_projector().catch_up()
    return table_id, seats


def stack(room: Room, table_id: str, seat: int) -> int:
    return room.state(table_id, seat=seat)["stack"]


def test_the_form_asks_how_each_seat_ended_and_who_won(room, jefe):
    _table_id, seats = dealt(room, jefe, [4000, 4000, 4000], blinds=(1000, 2000))

    page = jefe.get(f"/sectors/{room.sector_id}/").content.decode()

    for seat in seats:
        assert f'name="ended.{seat}"' in page and f'name="place.{seat}"' in page
    assert 'name="called_eur"' in page and 'data-testid="rake-limit"' in page
    assert 'data-testid="blinds-posted"' in page
    assert "Apuesta igualada, EUR" in page and "hasta el final" in page  # Spanish by default


def test_a_hand_ended_by_naming_the_winner_with_the_rake_computed(room, jefe):
    table_id, seats = dealt(room, jefe, [10000, 10000, 10000])
    a, b, c = seats
    blinds = room.get(table_id).hand["blinds"]
    before = {s: stack(room, table_id, s) for s in seats}
    form = {f"ended.{a}": "called", f"ended.{b}": "called", "called_eur": "40"}

    # Calculate before naming the winner: the pots and the most rake allowed.
    status, pots = command(jefe, "preview_settlement", table_id=table_id, **form)
    assert status == 200, pots
    folded_in = blinds.get(str(c), 0)
    assert pots["answer"]["pot_cents"] == 8000 + folded_in
    most = pots["answer"]["rake_cents"]
    assert most > 0

    status, answer = command(jefe, "end_hand", table_id=table_id, **form, **{f"place.{a}": "1"})

    assert status == 201, answer
    pot = 8000 + folded_in
    assert stack(room, table_id, a) == before[a] - 4000 + pot - most
    assert stack(room, table_id, b) == before[b] - 4000
    assert stack(room, table_id, c) == before[c] - folded_in
    assert room.get(table_id).hand is None


def test_the_dealer_may_take_less_rake_never_more(room, jefe):
    table_id, seats = dealt(room, jefe, [10000, 10000])
    a, b = seats
    form = {f"ended.{a}": "called", f"ended.{b}": "called", "called_eur": "40", f"place.{b}": "1"}
    status, pots = command(jefe, "preview_settlement", table_id=table_id, **form)
    most = pots["answer"]["rake_cents"]
    assert status == 200 and most > 100
    events = len(all_events(room.app))
    jefe.cookies["django_language"] = "en"

    status, answer = command(
        jefe, "end_hand", table_id=table_id, **form, rake_eur=f"{(most + 100) / 100:.2f}"
    )

    # Refused inline, saying the limit; nothing recorded.
    assert (status, answer["code"]) == (400, "rake_above_maximum")
    assert f"type at most {most / 100:.2f} €" in answer["message"]
    assert len(all_events(room.app)) == events

    status, answer = command(jefe, "end_hand", table_id=table_id, **form, rake_eur="1")

    assert status == 201, answer
    assert "; rake 1.00 EUR; paid" in answer["message"]
    assert "bet called 40.00 EUR" in answer["message"]
    assert stack(room, table_id, b) == 10000 + 4000 - 100


def test_an_all_in_with_a_side_pot(room, jefe):
    """a goes all in for its 20 EUR; b and c call 60 EUR. a's hand is best and
    wins the main pot (3 x 20 EUR); b's beats c's for the side pot (2 x 40
    EUR). Nobody typed what a put in: its stack, as the hand began."""
    table_id, seats = dealt(room, jefe, [2000, 10000, 10000])
    a, b, c = seats
    form = {
        f"ended.{a}": "all_in",
        f"ended.{b}": "called",
        f"ended.{c}": "called",
        "called_eur": "60",
        f"place.{a}": "1",
        f"place.{b}": "2",
        f"place.{c}": "3",
    }

    status, preview = command(jefe, "preview_settlement", table_id=table_id, **form)

    assert status == 200, preview
    main, side = preview["answer"]["pots"]
    assert (main["amount_cents"], main["eligible"], main["winners"]) == (6000, [a, b, c], [a])
    assert (side["amount_cents"], side["eligible"], side["winners"]) == (8000, [b, c], [b])
    rake = preview["answer"]["rake_cents"]

    status, answer = command(jefe, "end_hand", table_id=table_id, **form)

    assert status == 201, answer
    assert stack(room, table_id, a) == 6000 - main["rake_cents"]
    assert stack(room, table_id, b) == 10000 - 6000 + 8000 - side["rake_cents"]
    assert stack(room, table_id, c) == 10000 - 6000
    assert main["rake_cents"] + side["rake_cents"] == rake


def test_a_side_pot_nobody_was_named_for_is_asked_for(room, jefe):
    """Only the all-in player's hand was placed: the side pot b and c contest
    has no winner named, and the service says which pot it is; nothing is
    recorded."""
    table_id, seats = dealt(room, jefe, [2000, 10000, 10000])
    a, b, c = seats
    events = len(all_events(room.app))
    form = {f"ended.{a}": "all_in", f"ended.{b}": "called", f"ended.{c}": "called"}

    status, answer = command(
        jefe, "end_hand", table_id=table_id, **form, called_eur="60", **{f"place.{a}": "1"}
    )

    assert (status, answer["code"]) == (400, "pot_winners_missing")
    assert len(all_events(room.app)) == events


def test_a_hand_everyone_folded_to_needs_no_winner_named(room, jefe):
    """Everyone folds to the big blind: nothing to type but who stayed; the
    blinds posted are what each put in."""
    table_id, (small, big, other) = dealt(room, jefe, [4000, 4000, 4000], blinds=(1000, 2000))

    form = {f"ended.{big}": "called"}
    status, preview = command(jefe, "preview_settlement", table_id=table_id, **form)
    assert status == 200, preview
    assert preview["answer"]["pot_cents"] == 2000  # the big blind's 10 EUR uncalled go back
    rake = preview["answer"]["rake_cents"]

    status, answer = command(jefe, "end_hand", table_id=table_id, **form)

    assert status == 201, answer
    assert stack(room, table_id, big) == 4000 + 1000 - rake
    assert stack(room, table_id, small) == 4000 - 1000
    assert stack(room, table_id, other) == 4000


def test_a_table_charging_for_time_offers_no_rake_per_hand(make_app, jefe):
    """At a table raking per session [GA art. 18.3b] the form has no rake field
    and says why."""
    app = make_app("GA")
    runtime.install(app)
    try:
        room = Room(app, tag="ET")
        table_id, _cards = room.drawn_table(
            4, buy_in=1000, rake_model="per_session", session_percent="10"
        )
        seats = sorted(room.seats(table_id))[:2]
        room.start(table_id, seats, button=seats[0])
        runtime.floor_projector().catch_up()

        page = jefe.get(f"/sectors/{room.sector_id}/").content.decode()
    finally:
        runtime.install(None)

    assert 'data-testid="end-hand"' in page
    assert "Sin comisión por mano: esta mesa cobra por tiempo." in page
    assert 'name="rake_eur"' not in page


@pytest.mark.parametrize(
    ("put_in", "live", "pots"),
    [
        ({1: 500, 2: 500}, {1, 2}, [[1, 2]]),
        ({1: 200, 2: 600, 3: 600}, {1, 2, 3}, [[1, 2, 3], [2, 3]]),
        # the top bet nobody called goes back: no pot of its own
        ({1: 200, 2: 600}, {1, 2}, [[1, 2]]),
        # everyone else folded: nothing contested
        ({1: 100, 2: 200}, {2}, []),
        ({1: 100, 2: 300, 3: 600, 4: 600}, {1, 2, 3, 4}, [[1, 2, 3, 4], [2, 3, 4], [3, 4]]),
    ],
)
def test_the_pots_follow_the_all_in_levels(put_in, live, pots):
    from floor.console.hand_forms import dealer_pots

    assert dealer_pots(put_in, live) == pots


def test_each_pot_goes_to_its_best_placed_seats():
    from floor.console.hand_forms import winners_by_place

    pots = [[1, 2, 3], [2, 3]]
    assert winners_by_place(pots, {1: 1, 2: 2, 3: 3}) == [[1], [2]]
    assert winners_by_place(pots, {1: 2, 2: 1, 3: 1}) == [[2, 3], [2, 3]]  # a split
    assert winners_by_place(pots, {1: 1}) == [[1], []]  # the side pot left unnamed


def test_hands_placed_equal_split_the_pot(room, jefe):
    """Two hands placed 1 share the pot [PT 66-67; GA art. 23.3; CM]."""
    table_id, (a, b) = dealt(room, jefe, [10000, 10000])
    form = {f"ended.{a}": "called", f"ended.{b}": "called", "called_eur": "40"}
    form.update({f"place.{a}": "1", f"place.{b}": "1", "rake_eur": "0"})

    status, answer = command(jefe, "end_hand", table_id=table_id, **form)

    assert status == 201, answer
    assert stack(room, table_id, a) == stack(room, table_id, b) == 10000


@pytest.fixture
def pt_room(make_app):
    """A floor under the Portuguese rules: missed blinds are posted dead [PT 90]."""
    app = make_app("PT")
    runtime.install(app)
    yield Room(app, tag="EP")
    runtime.install(None)


def back_from_rest_owing(room: Room) -> tuple[str, str, int]:
    """A table where a player rested through two hands and came back: they
    owe the blinds missed, posted dead with the next hand [PT 90]."""
    table_id, _cards = room.drawn_table(5)
    seats = room.get(table_id).occupied()
    resting = room.seats(table_id)[seats[2]]
    room.app.start_rest(CRUPIER, new_id(), table_id=table_id, player=resting)
    room.played(table_id)
    room.played(table_id)
    room.app.end_rest(CRUPIER, new_id(), table_id=table_id, player=resting)
    return table_id, resting, seats[2]


@pytest.mark.parametrize("ended", ["folded", "called"])
def test_a_hand_with_a_dead_blind_is_ended_from_the_form(pt_room, jefe, ended):
    room = pt_room
    table_id, _card, owing = back_from_rest_owing(room)
    small, big = [s for s in room.get(table_id).occupied() if s != owing][:2]
    started = room.start(table_id, blinds={str(small): 100, str(big): 200})
    dead = started["dead_blinds"][str(owing)]
    assert dead > 0
    runtime.floor_projector().catch_up()

    page = jefe.get(f"/sectors/{room.sector_id}/").content.decode()
    assert 'data-testid="dead-blinds-posted"' in page
    assert f'data-testid="dead-blind" data-seat="{owing}"' in page

    before = stack(room, table_id, owing)
    form = {"table_id": table_id, f"ended.{owing}": ended, f"place.{big}": "1"}
    if ended == "called":
        form.update({f"ended.{small}": "called", f"ended.{big}": "called", "called_eur": "4"})
    status, answer = command(jefe, "end_hand", **form)
    assert status == 201, answer
    assert room.get(table_id).hand is None
    # The dead blind left the returning player's stack, with the bet called if any.
    called = 400 if ended == "called" else 0
    assert stack(room, table_id, owing) == before - dead - called
