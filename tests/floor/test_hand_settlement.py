"""The pot's rules at a hand's end (issue 19): the service builds the pots from
the contributions, returns uncalled chips, refuses winnings outside a seat's
pots and a folded seat's winnings [PT 38, 49-50; CM "restados"; GA art. 23.2],
limits the rake to the called pots [GA art. 18.3a; PT 7a, 65; CM "Beneficio"],
holds the blinds owed to the contributions [PT 89, 90; CM-17], and settles the
pots itself from who won [PT 66-67; GA art. 23.3; CM "split pot"].

The issue's hand, with m = 10 EUR: stacks a 2m, b 4m, c 3m, d 4m; a, b and c
all in or calling, d folding: main pot 7m (a, b, c), side pot 2m (b, c), b's
1m uncalled and handed back.
"""

from __future__ import annotations

import pytest

from floor.kernel.roles import Actor, Role
from ledger.domain import accounts
from tests.support.books import Books
from tests.support.floor import CRUPIER, new_id
from tests.support.room import Room, events_of, pid, refused

pytestmark = pytest.mark.django_db

PROFILES = ["CM", "GA", "PT", "TEST"]
M = 1000
STACKS = (2 * M, 4 * M, 3 * M, 4 * M)
PUT_IN = (2 * M, 4 * M, 3 * M, 1 * M)
# The called pots' rake limit (9m) and what it would be on all put in (10m).
RAKE_ON_CALLED = {"CM": 400, "TEST": 400, "GA": 450, "PT": 450}
RAKE_ON_ALL = {"CM": 500, "TEST": 500, "GA": 500, "PT": 500}


def issue_table(room: Room) -> tuple[str, tuple[int, ...]]:
    """A 10/50 EUR table, its four players bought in for the issue's stacks,
    a hand dealt to all four (no blinds reported); the seats a, b, c, d."""
    table_id, _cards = room.drawn_table(4, buy_in=None, minimum_cents=M, maximum_cents=5 * M)
    seats = tuple(room.get(table_id).occupied())
    by_seat = room.seats(table_id)
    for seat, stack in zip(seats, STACKS, strict=True):
        room.buy(table_id, by_seat[seat], stack)
    room.start(
        table_id, list(seats), **({"button": seats[0]} if room.app.profile.code == "GA" else {})
    )
    return table_id, seats


def end(room: Room, table_id: str, **report):
    return room.app.end_hand(CRUPIER, new_id(), table_id=table_id, **report).result


def end_refused(room: Room, code: str, table_id: str, **report):
    return refused(
        room.app, code, room.app.end_hand, CRUPIER, new_id(), table_id=table_id, **report
    )


def by(seats, amounts) -> dict[str, int]:
    return {str(s): a for s, a in zip(seats, amounts, strict=True) if a is not None}


@pytest.fixture(params=PROFILES)
def hand(request, make_app):
    room = Room(make_app(request.param))
    table_id, seats = issue_table(room)
    return room, table_id, seats, request.param


def test_the_all_in_player_wins_only_the_main_pot(hand):
    room, table_id, (a, b, c, d), _profile = hand
    error = end_refused(
        room,
        "winnings_outside_pot",
        table_id,
        contributions=by((a, b, c, d), PUT_IN),
        winnings={str(a): 10 * M},
    )
    assert error.params == {
        "seat": a,
        "won_cents": 10 * M,
        "most_cents": 7 * M,
        "pot": 1,
        "pot_cents": 7 * M,
        "eligible": f"{a}, {b}, {c}",
    }


def test_uncalled_chips_go_back_to_their_owner(hand):
    room, table_id, (a, b, c, d), _profile = hand
    error = end_refused(
        room,
        "uncalled_not_returned",
        table_id,
        contributions=by((a, b, c, d), PUT_IN),
        winnings={str(a): 7 * M, str(c): 3 * M},
    )
    assert error.params == {"seat": b, "returned_cents": M, "won_cents": 0}


def test_a_folded_seat_wins_nothing(hand):
    room, table_id, (a, b, c, d), _profile = hand
    error = end_refused(
        room,
        "folded_seat_wins",
        table_id,
        contributions=by((a, b, c, d), PUT_IN),
        winnings={str(a): 6 * M, str(b): 3 * M, str(d): M},
    )
    assert error.params["seat"] == d and error.params["pot"] == 1


def test_the_rake_limit_is_on_the_called_pots(hand):
    room, table_id, (a, b, c, d), profile = hand
    most, too_much = RAKE_ON_CALLED[profile], RAKE_ON_ALL[profile]
    put_in = by((a, b, c, d), PUT_IN)
    error = end_refused(
        room,
        "rake_above_maximum",
        table_id,
        contributions=put_in,
        winnings={str(a): 7 * M - too_much, str(b): 3 * M},
        rake_cents=too_much,
    )
    # The called pots: 9 M of the 10 M put in (1 M was nobody's call, returned).
    assert error.params == {"maximum_cents": most, "rake_cents": too_much, "pot_cents": 9 * M}
    ended = end(
        room,
        table_id,
        contributions=put_in,
        winnings={str(a): 7 * M - most, str(b): 3 * M},
        rake_cents=most,
    )
    assert ended["pot_cents"] == 9 * M  # the called pots
    assert ended["returned"] == {str(b): M}
    assert ended["folded"] == [d]
    assert ended["pots"] == [
        {"amount_cents": 7 * M, "eligible": [a, b, c]},
        {"amount_cents": 2 * M, "eligible": [b, c]},
    ]
    stacks = [room.state(table_id, seat=s)["stack"] for s in (a, b, c, d)]
    assert stacks == [7 * M - most, 3 * M, 0, 3 * M]


def test_the_service_settles_the_side_pots(hand):
    """a wins the main pot, c the side pot; b's uncalled 1m goes back; the rake
    per pot on the called chips [PT 65] or per hand over the pots."""
    room, table_id, (a, b, c, d), profile = hand
    put_in = by((a, b, c, d), PUT_IN)
    preview = room.app.preview_settlement(
        CRUPIER, table_id=table_id, contributions=put_in, pot_winners=[[a], [c]]
    )
    assert room.get(table_id).hand is not None  # the preview recorded nothing
    rake = RAKE_ON_CALLED[profile]
    assert preview["rake_cents"] == rake
    assert preview["returned"] == {str(b): M}
    main, side = preview["pots"]
    assert (main["eligible"], side["eligible"]) == ([a, b, c], [b, c])
    assert main["rake_cents"] + side["rake_cents"] == rake
    assert preview["payments"] == {
        str(a): 7 * M - main["rake_cents"],
        str(b): M,
        str(c): 2 * M - side["rake_cents"],
    }
    ended = end(room, table_id, contributions=put_in, pot_winners=[[a], [c]])
    assert ended["winnings"] == preview["payments"]
    assert ended["stacks"] == preview["stacks"]
    stacks = [room.state(table_id, seat=s)["stack"] for s in (a, b, c, d)]
    assert stacks == [7 * M - main["rake_cents"], M, 2 * M - side["rake_cents"], 3 * M]
    (event,) = events_of(room.app, table_id, "HandEnded")
    assert event.pots == ended["pots"] and event.returned == {str(b): M}


def test_a_side_pot_winner_must_have_reached_it(hand):
    room, table_id, (a, b, c, d), _profile = hand
    error = end_refused(
        room,
        "pot_winner_not_eligible",
        table_id,
        contributions=by((a, b, c, d), PUT_IN),
        pot_winners=[[a], [a]],
    )
    assert error.params == {"seat": a, "pot": 2, "pot_cents": 2 * M, "eligible": f"{b}, {c}"}


def test_the_hands_shown_are_ranked(hand):
    room, table_id, (a, b, c, d), _profile = hand
    put_in = by((a, b, c, d), PUT_IN)
    board = "Ks Kd 2c 7h 9s"
    shown = {str(a): "As Ad", str(b): "Qs Qd", str(c): "Ac Ah"}
    ended = end(room, table_id, contributions=put_in, shown=shown, board=board)
    main, side = ended["pots"]
    assert main["winners"] == [a, c] and side["winners"] == [c]
    assert sum(ended["winnings"].values()) + ended["rake_cents"] == sum(PUT_IN)
    assert ended["winnings"][str(b)] == M  # its uncalled chips only


def test_exactly_one_result_form(hand):
    room, table_id, (a, b, c, d), profile = hand
    put_in = by((a, b, c, d), PUT_IN)
    end_refused(room, "hand_result_required", table_id, contributions=put_in)
    end_refused(
        room,
        "hand_result_twice",
        table_id,
        contributions=put_in,
        winnings={str(a): 7 * M, str(b): 3 * M},
        pot_winners=[[a], [b]],
    )
    end_refused(
        room,
        "rake_above_maximum",
        table_id,
        contributions=put_in,
        pot_winners=[[a], [b]],
        rake_cents=RAKE_ON_CALLED[profile] + 1,
    )


def test_the_dealer_may_take_less_rake_than_the_most(hand):
    """The rake is a maximum [GA art. 18.3a; PT 7a; CM "Beneficio"]: a lower
    one is taken from the main pot first, the rest paid to the winners."""
    room, table_id, (a, b, c, d), profile = hand
    put_in = by((a, b, c, d), PUT_IN)
    ended = end(room, table_id, contributions=put_in, pot_winners=[[a], [c]], rake_cents=100)
    assert ended["rake_cents"] == 100
    assert sum(ended["winnings"].values()) + 100 == sum(PUT_IN)
    assert ended["pots"][0]["rake_cents"] == 100 and ended["pots"][1]["rake_cents"] == 0
    assert RAKE_ON_CALLED[profile] > 100


# --- blinds owed [PT 89, 90; CM-17] ---------------------------------------------------


def test_a_posted_blind_is_in_the_contributions(make_app):
    room = Room(make_app("CM"))
    table_id, _ = room.drawn_table(4)
    seats = room.get(table_id).occupied()
    room.start(table_id, blinds={str(seats[1]): 100, str(seats[2]): 200})
    put_in = {str(seats[1]): 99, str(seats[2]): 200, str(seats[3]): 200}
    error = end_refused(
        room,
        "blind_not_in_contributions",
        table_id,
        contributions=put_in,
        winnings={str(seats[2]): 499},
    )
    assert error.params == {"seat": seats[1], "blind_cents": 100, "put_in_cents": 99}


def test_pt_90_a_dead_blind_is_in_the_contributions_and_is_dead_money(make_app):
    """The returning player owes 300 (PT 90): a hand end where they put in one
    cent less is refused; with 300 more than their bet, the 300 are dead money
    in the main pot."""
    room = Room(make_app("PT"))
    table_id, _ = room.drawn_table(5)
    s = room.get(table_id).occupied()
    resting = room.seats(table_id)[s[2]]
    room.app.start_rest(CRUPIER, new_id(), table_id=table_id, player=resting)
    room.played(table_id)
    room.played(table_id)
    room.app.end_rest(CRUPIER, new_id(), table_id=table_id, player=resting)
    started = room.start(table_id)
    assert started["dead_blinds"] == {str(s[2]): 300}
    bets = {str(seat): 100 for seat in started["dealt_in"]}
    error = end_refused(
        room,
        "dead_blind_not_in_contributions",
        table_id,
        contributions={**bets, str(s[2]): 299},
        winnings={str(s[0]): 4 * 100 + 299},
    )
    assert error.params == {"seat": s[2], "blind_cents": 300, "put_in_cents": 299}
    put_in = {**bets, str(s[2]): 400}  # 100 bet, 300 dead
    preview = room.app.preview_settlement(
        CRUPIER, table_id=table_id, contributions=put_in, pot_winners=[[s[2]]]
    )
    (pot,) = preview["pots"]
    assert pot["amount_cents"] == 5 * 100 + 300 and pot["eligible"] == sorted(started["dealt_in"])
    assert preview["returned"] == {}  # the dead 300 is no bet of theirs: nothing to return
    stack = room.state(table_id, seat=s[2])["stack"]
    end(room, table_id, contributions=put_in, pot_winners=[[s[2]]])
    assert room.state(table_id, seat=s[2])["stack"] == stack - 400 + preview["payments"][str(s[2])]


def test_the_books_keep_the_returned_chips_with_their_owner(make_app):
    """HandEnded books each stack by what it takes back less what it put in:
    b's uncalled 1m never leaves it; the rake goes to the rake box."""
    room = Room(make_app("PT"))
    books = Books(room.app)
    table_id, (a, b, c, d) = issue_table(room)
    ended = end(room, table_id, contributions=by((a, b, c, d), PUT_IN), pot_winners=[[a], [c]])
    by_seat = room.seats(table_id)

    def stack(seat):
        return books.balance(accounts.stack(table_id, pid(by_seat[seat])))

    assert books.balance(accounts.rake_box(table_id)) == ended["rake_cents"] == 450
    assert stack(b) == 4 * M - 4 * M + M  # put in 4m, 1m came back
    assert [stack(s) for s in (a, b, c, d)] == [ended["stacks"][str(s)] for s in (a, b, c, d)]
    books.check()


def test_the_preview_is_the_hand_ends_check_in_the_dealers_scope(make_app):
    """The preview refuses what the hand end refuses, and only the table's
    dealer (or its sector's jefe) may ask it; it records nothing."""
    room = Room(make_app("CM"))
    table_id, (a, b, c, d) = issue_table(room)
    put_in = by((a, b, c, d), PUT_IN)
    error = refused(
        room.app, "winnings_outside_pot", room.app.preview_settlement, CRUPIER,
        table_id=table_id, contributions=put_in, winnings={str(a): 10 * M},
    )  # fmt: skip
    assert error.params["pot"] == 1
    typed = room.app.preview_settlement(
        CRUPIER, table_id=table_id, contributions=put_in,
        winnings={str(a): 7 * M - 400, str(b): 3 * M}, rake_cents=400,
    )  # fmt: skip
    assert typed["payments"] == {str(a): 7 * M - 400, str(b): 3 * M}
    other = Actor("carlos", frozenset({Role.CRUPIER}))
    error = refused(
        room.app, "not_your_table", room.app.preview_settlement, other,
        table_id=table_id, contributions=put_in,
    )  # fmt: skip


def test_through_the_api_the_refusal_names_the_pot(floor_app, api_as):
    """The dealer's client gets the pot in the refusal, not only in prose."""
    room = Room(floor_app)
    table_id, (a, b, c, d) = issue_table(room)
    client = api_as(CRUPIER.username, "crupier")
    answer = client.post(
        f"/api/tables/{table_id}/hands/end/",
        {
            "command_id": new_id(),
            "contributions": by((a, b, c, d), PUT_IN),
            "winnings": {str(a): 10 * M},
        },
        format="json",
    )
    assert answer.status_code == 409, answer.content
    body = answer.json()
    assert body["code"] == "winnings_outside_pot"
    assert body["details"] == {
        "seat": a,
        "won_cents": 10 * M,
        "most_cents": 7 * M,
        "pot": 1,
        "pot_cents": 7 * M,
        "eligible": f"{a}, {b}, {c}",
    }
    assert room.get(table_id).hand is not None  # nothing recorded: the hand still runs


def test_a_top_bettor_who_mucks_takes_back_what_nobody_called(hand):
    """b bets 40 and c calls all in for 30; b mucks at the showdown: b's 10
    nobody called go back to b, unraked, and c wins the 60 called [PT 38]."""
    room, table_id, (_a, b, c, _d), _profile = hand
    put_in = {str(b): 4 * M, str(c): 3 * M}
    seen = room.app.preview_settlement(
        CRUPIER, table_id=table_id, contributions=put_in, folded=[b], pot_winners=[]
    )
    assert seen["returned"] == {str(b): M}
    assert seen["pots"][0]["amount_cents"] == 6 * M and seen["pots"][0]["eligible"] == [c]
    rake = seen["rake_cents"]
    assert seen["payments"] == {str(b): M, str(c): 6 * M - rake}
    # The same, typed: b's winnings are its returned chips, and no more.
    end_refused(
        room,
        "folded_seat_wins",
        table_id,
        contributions=put_in,
        folded=[b],
        winnings={str(b): M + 1, str(c): 6 * M - rake - 1},
        rake_cents=rake,
    )
    ended = end(
        room,
        table_id,
        contributions=put_in,
        folded=[b],
        winnings={str(b): M, str(c): 6 * M - rake},
        rake_cents=rake,
    )
    assert ended["pot_cents"] == 6 * M and ended["returned"] == {str(b): M}


def test_a_seat_is_named_once_and_plainly(hand):
    """ "2" and "02" would be one seat twice, one report silently replacing the
    other: refused, in every map keyed by seat."""
    room, table_id, (_a, b, c, _d), _profile = hand
    put_in = {str(b): 3 * M, str(c): 3 * M}
    for key in (f"0{b}", f" {b}", f"{b}_0", f"+{b}"):
        refused(
            room.app,
            "seat_out_of_range",
            room.app.preview_settlement,
            CRUPIER,
            table_id=table_id,
            contributions=put_in,
            shown={str(b): "As Ad", key: "2c 7d", str(c): "Kc Kd"},
            board="Qs Jh 2s 3d 9h",
        )
    end_refused(
        room,
        "seat_out_of_range",
        table_id,
        contributions={str(b): 3 * M, f"0{b}": 3 * M, str(c): 3 * M},
        winnings={str(c): 9 * M},
    )


def test_a_refusal_s_details_say_no_more_than_its_message():
    """An account refusing a debit knows its balance; the reader (a jefe
    buying in with a player's chips, say) is told only that it does not hold
    enough: the API's details keep to what the message says."""
    from floor.api.errors import refusal_body
    from floor.kernel.errors import conflict

    refused_debit = conflict(
        "insufficient_funds", account="player_chips:x", balance_cents=700, amount_cents=900
    )
    assert "details" not in refusal_body(refused_debit)
    over = conflict("rake_above_maximum", maximum_cents=400, internal="x")
    assert refusal_body(over)["details"] == {"maximum_cents": 400}
