"""Hands and rests (issue 4 item 7, and the mixed table of item 1): what a hand
report must hold, the pot that balances and the rake within the profile
[GA art. 18.3a; PT 7a; CM "Beneficio"], the two hands of rest [GA art. 20;
PT 13], leaving after repeated rests [PT 13], the big blind after five idle
hands [PT 89], the missed blinds posted dead [PT 90], and the mixed table's
variant named each hand [PT 23]."""

from __future__ import annotations

import pytest

from floor.domain import positions
from tests.support.floor import CRUPIER, HOLDEM, JEFE, new_id
from tests.support.room import OMAHA, Room, refused

pytestmark = pytest.mark.django_db


def rest(room: Room, table_id: str, card: str) -> None:
    room.app.start_rest(CRUPIER, new_id(), table_id=table_id, player=card)


def back(room: Room, table_id: str, card: str) -> dict:
    return room.app.end_rest(CRUPIER, new_id(), table_id=table_id, player=card).result


def start_refused(room: Room, code: str, table_id: str, **report):
    return refused(
        room.app, code, room.app.start_hand, CRUPIER, new_id(), table_id=table_id, **report
    )


def end_refused(room: Room, code: str, table_id: str, **report):
    report = {"contributions": {}, "winnings": {}, **report}
    return refused(
        room.app, code, room.app.end_hand, CRUPIER, new_id(), table_id=table_id, **report
    )


@pytest.fixture
def room(make_app) -> Room:
    return Room(make_app("CM"))


# --- the hand report --------------------------------------------------------------------


def test_a_hand_report_names_seats_at_the_table_two_at_least(room):
    table_id, _ = room.drawn_table(4)
    seats = room.get(table_id).occupied()
    empty = room.get(table_id).free_seats()[0]
    start_refused(room, "too_few_players_dealt_in", table_id, dealt_in=seats[:1])
    start_refused(room, "seat_empty", table_id, dealt_in=[*seats, empty])
    start_refused(room, "seat_out_of_range", table_id, dealt_in=[*seats, 11])
    start_refused(room, "hand_report_invalid", table_id, dealt_in=[*seats, seats[0]])
    start_refused(
        room, "hand_report_invalid", table_id, dealt_in=seats[:2], blinds={str(seats[2]): 100}
    )
    start_refused(room, "blind_over_stack", table_id, dealt_in=seats, blinds={str(seats[1]): 1001})
    end_refused(room, "no_hand_in_progress", table_id)


def test_one_hand_at_a_time_and_the_hands_are_counted(room):
    table_id, _ = room.drawn_table(4)
    started = room.start(table_id)
    assert started["number"] == 1
    start_refused(room, "hand_in_progress", table_id, dealt_in=started["dealt_in"])
    room.end(table_id)
    assert room.played(table_id)["number"] == 2
    assert room.get(table_id).hands_played == 2
    assert room.get(table_id).hand is None


def test_the_hand_must_balance_and_moves_the_stacks(make_app):
    room = Room(make_app("PT"))  # PT: 5 % of any pot, no steps
    table_id, _ = room.drawn_table(4)
    a, b, c, d = room.get(table_id).occupied()
    room.start(table_id, [a, b, c])  # d sits this one out
    put_in = {str(a): 400, str(b): 400, str(c): 200}
    error = end_refused(
        room,
        "hand_does_not_balance",
        table_id,
        contributions=put_in,
        winnings={str(a): 960},
        rake_cents=39,
    )
    assert error.params == {"pot_cents": 1000, "won_cents": 960, "rake_cents": 39}
    end_refused(room, "seat_not_in_hand", table_id, contributions=put_in, winnings={str(d): 1000})
    end_refused(
        room,
        "contribution_over_stack",
        table_id,
        contributions={str(a): 1001},
        winnings={str(b): 1001},
    )
    ended = room.end(table_id, put_in, {str(a): 960}, rake_cents=40)
    assert (ended["pot_cents"], ended["rake_cents"]) == (1000, 40)
    assert [room.state(table_id, seat=s)["stack"] for s in (a, b, c, d)] == [1560, 600, 800, 1000]


def test_cm_counts_the_rake_in_whole_steps_of_the_table(make_app):
    """CM "Beneficio": 5 % of the called pot counted in steps of 20, 50 or
    100 EUR, at most 10 EUR a hand; the table announces its step."""
    room = Room(make_app("CM"))
    table_id, _ = room.drawn_table(4, buy_in=1000, rake_step_cents=5_000)
    assert room.get(table_id).rake == {
        "model": "per_hand",
        "share": "1/20",
        "cap_cents": 1000,
        "step_cents": 5000,
    }
    seats = room.get(table_id).occupied()
    room.start(table_id)
    put_in = {str(s): 1000 for s in seats}  # 40 EUR: no whole step of 50 EUR
    error = end_refused(
        room,
        "rake_above_maximum",
        table_id,
        contributions=put_in,
        winnings={str(seats[0]): 3999},
        rake_cents=1,
    )
    assert error.params == {"maximum_cents": 0, "rake_cents": 1, "pot_cents": 4000}
    room.end(table_id, put_in, {str(seats[0]): 4000}, rake_cents=0)


def test_a_per_session_table_takes_no_rake_per_hand(make_app):
    """GA art. 18.3b: the time charge replaces the per-hand rake."""
    room = Room(make_app("GA"))
    table_id, _ = room.drawn_table(4, rake_model="per_session", session_percent="10")
    a, b, *_ = room.get(table_id).occupied()
    room.start(table_id, button=a)
    error = end_refused(
        room,
        "rake_above_maximum",
        table_id,
        contributions={str(a): 500, str(b): 500},
        winnings={str(a): 990},
        rake_cents=10,
    )
    assert error.params == {"maximum_cents": 0, "rake_cents": 10, "pot_cents": 1000}


@pytest.mark.parametrize("profile", ["GA", "PT"])
def test_the_rake_is_at_most_five_percent_of_the_pot(make_app, profile):
    room = Room(make_app(profile))
    table_id, _ = room.drawn_table(4)
    a, b, *_ = room.get(table_id).occupied()
    start = {"button": a} if profile == "GA" else {}
    room.start(table_id, **start)
    put_in = {str(a): 500, str(b): 500}
    error = end_refused(
        room,
        "rake_above_maximum",
        table_id,
        contributions=put_in,
        winnings={str(a): 949},
        rake_cents=51,
    )
    assert error.params == {"maximum_cents": 50, "rake_cents": 51, "pot_cents": 1000}
    room.end(table_id, put_in, {str(a): 950}, rake_cents=50)


def test_cm_the_rake_is_at_most_ten_euros_a_hand(make_app):
    """CM "Beneficio": up to 5 %, at most 10 EUR a hand; PT leaves the cap to the casino."""
    for profile, maximum in (("CM", 100_000), ("PT", 99_998)):
        # A game of its own for each room: rooms on one store share balance groups.
        big = {"minimum_cents": 20_000, "maximum_cents": maximum}
        room = Room(make_app(profile), tag=profile)
        table_id, _ = room.drawn_table(4, buy_in=maximum, **big)
        a, b, *_ = room.get(table_id).occupied()
        room.start(table_id)
        put_in = {str(a): 25_000, str(b): 25_000}  # 5 % would be 25 EUR
        if profile == "CM":
            error = end_refused(
                room,
                "rake_above_maximum",
                table_id,
                contributions=put_in,
                winnings={str(a): 48_999},
                rake_cents=1_001,
            )
            assert error.params == {
                "maximum_cents": 1_000,
                "rake_cents": 1_001,
                "pot_cents": 50_000,
            }
            room.end(table_id, put_in, {str(a): 49_000}, rake_cents=1_000)
        else:
            room.end(table_id, put_in, {str(a): 47_500}, rake_cents=2_500)


def test_only_a_running_table_deals(room):
    table_id = room.table()
    start_refused(room, "table_not_running", table_id, dealt_in=[1, 2])


# --- the mixed table [PT 23] -----------------------------------------------------------------


def test_pt_a_mixed_table_names_its_variant_at_each_hand(make_app):
    room = Room(make_app("PT"))
    table_id, _ = room.drawn_table(4, second_variant="omaha")
    table = room.get(table_id)
    assert (table.variant, table.second_variant) == ("texas_holdem", "omaha")
    seats = table.occupied()
    error = start_refused(room, "variant_required", table_id, dealt_in=seats)
    assert error.params == {"variants": ["texas_holdem", "omaha"]}
    start_refused(room, "variant_not_at_table", table_id, dealt_in=seats, variant="sintetico")
    assert room.played(table_id, variant="omaha")["variant"] == "omaha"
    assert room.played(table_id, variant="texas_holdem")["variant"] == "texas_holdem"


@pytest.mark.parametrize("profile", ["CM", "GA"])
def test_mixed_tables_only_where_the_profile_allows_them(make_app, profile):
    room = Room(make_app(profile))
    error = refused(
        room.app,
        "mixed_table_not_allowed",
        room.app.open_table,
        JEFE,
        new_id(),
        sector_id=room.sector_id,
        **HOLDEM,
        second_variant="omaha",
    )
    assert error.params == {"profile": profile}


def test_a_mixed_table_plays_two_different_circle_variants(make_app):
    room = Room(make_app("PT"))
    refused(
        room.app,
        "mixed_table_variants_invalid",
        room.app.open_table,
        JEFE,
        new_id(),
        sector_id=room.sector_id,
        **HOLDEM,
        second_variant="texas_holdem",
    )


def test_a_single_variant_table_plays_its_variant(room):
    table_id, _ = room.drawn_table(4, **OMAHA)
    seats = room.get(table_id).occupied()
    start_refused(room, "variant_not_at_table", table_id, dealt_in=seats, variant="texas_holdem")
    assert room.played(table_id)["variant"] == "omaha"


# --- two hands of rest [GA art. 20; PT 13] ---------------------------------------------------


@pytest.mark.parametrize("profile", ["CM", "GA"])
def test_a_player_rests_two_hands_without_losing_the_seat(make_app, profile):
    room = Room(make_app(profile))
    table_id, cards = room.drawn_table(5)
    seats = room.get(table_id).occupied()
    resting = cards[1]
    seat = room.seat_of(table_id, resting)
    rest(room, table_id, resting)
    refused(
        room.app,
        "player_already_resting",
        room.app.start_rest,
        CRUPIER,
        new_id(),
        table_id=table_id,
        player=resting,
    )
    start_refused(
        room,
        "player_resting",
        table_id,
        dealt_in=seats,
        **({"button": seats[0]} if profile == "GA" else {}),
    )
    first = room.played(table_id, **({"button": seats[0]} if profile == "GA" else {}))
    assert seat not in first["dealt_in"] and first["resting"] == [seat]
    second = room.played(table_id)
    assert second["rest_exceeded"] == []
    state = room.state(table_id, resting)
    assert (state["rested_hands"], state["rest_exceeded"]) == (2, False)
    third = room.played(table_id)
    assert third["rest_exceeded"] == [seat]
    state = room.state(table_id, resting)
    assert (state["rested_hands"], state["rest_exceeded"], state["must_leave"]) == (3, True, "")
    assert room.seats(table_id)[seat] == resting  # the flag is for the jefe; the seat stays
    back(room, table_id, resting)
    assert not room.state(table_id, resting)["rest_exceeded"]
    assert seat in room.played(table_id)["dealt_in"]
    refused(
        room.app,
        "player_not_resting",
        room.app.end_rest,
        CRUPIER,
        new_id(),
        table_id=table_id,
        player=resting,
    )


def test_pt_13_a_third_hand_of_rest_obliges_the_player_to_leave(make_app):
    room = Room(make_app("PT"))
    table_id, cards = room.drawn_table(5)
    resting = cards[2]
    seat = room.seat_of(table_id, resting)
    rest(room, table_id, resting)
    room.played(table_id)
    assert room.played(table_id)["must_leave"] == {}
    third = room.played(table_id)
    assert third["must_leave"] == {str(seat): "rest_exceeded"}
    back(room, table_id, resting)
    seats = room.get(table_id).occupied()
    error = start_refused(room, "player_must_leave", table_id, dealt_in=seats)
    assert error.params == {"seat": seat}
    left = room.leave(table_id, resting, reason="must_leave")
    assert left["seat"] == seat
    assert seat not in room.seats(table_id)


def test_pt_13_resting_again_and_again_obliges_the_player_to_leave(make_app):
    room = Room(make_app("PT"))
    table_id, cards = room.drawn_table(5)
    resting = cards[0]
    for _ in range(2):
        rest(room, table_id, resting)
        room.played(table_id)
        back(room, table_id, resting)
        room.played(table_id)
    error = refused(
        room.app,
        "rest_used_repeatedly",
        room.app.start_rest,
        CRUPIER,
        new_id(),
        table_id=table_id,
        player=resting,
    )
    assert error.params == {"seat": room.seat_of(table_id, resting)}


def test_cm_a_player_may_rest_again(room):
    table_id, cards = room.drawn_table(5)
    for _ in range(3):
        rest(room, table_id, cards[0])
        room.played(table_id)
        back(room, table_id, cards[0])
    assert room.state(table_id, cards[0])["rests"] == 3


def test_only_a_player_at_the_table_rests(room):
    table_id, _ = room.drawn_table(4)
    refused(
        room.app,
        "player_not_at_table",
        room.app.start_rest,
        CRUPIER,
        new_id(),
        table_id=table_id,
        player=room.new_player(),
    )


# --- five hands without betting [PT 89] --------------------------------------------------------


def idle_hand(room: Room, table_id: str, idle_seat: int, **report) -> dict:
    """Everyone dealt in bets 300 and takes it back, except ``idle_seat``, which
    puts in only the blind it is reported to post and folds: the first other
    seat wins it."""
    started = room.start(table_id, **report)
    posted = started["blinds"].get(str(idle_seat), 0)
    bets = {str(s): 300 for s in started["dealt_in"] if s != idle_seat}
    put_in = {**bets, str(idle_seat): posted} if posted else bets
    won = dict(bets)
    won[next(iter(won))] += posted
    ended = room.end(table_id, put_in, won)
    return ended


def test_pt_89_five_hands_without_betting_oblige_a_big_blind_in_the_next(make_app):
    room = Room(make_app("PT"))
    table_id, _cards = room.drawn_table(5)
    seats = room.get(table_id).occupied()
    idle = seats[3]  # hand 6: the button on seats[0], the big blind on seats[2]
    for hand in range(1, 6):
        ended = idle_hand(room, table_id, idle)
        assert ended["idle_hands"][str(idle)] == hand
        assert ended["idle_hands"][str(seats[0])] == 0
        assert ended["must_post_big_blind"] == ([idle] if hand == 5 else [])
    assert room.state(table_id, seat=idle)["must_post_big_blind"]
    _small, big = positions.blind_seats(seats[0], 10, 1, seats)
    assert big != idle
    error = start_refused(room, "big_blind_owed", table_id, dealt_in=seats)
    assert error.params == {"seat": idle, "big_blind_cents": 200}
    # posting the big blind, the player plays; the count starts again
    ended = idle_hand(room, table_id, idle, blinds={str(idle): 200})
    assert not room.state(table_id, seat=idle)["must_post_big_blind"]
    assert ended["idle_hands"][str(idle)] == 1
    assert ended["must_post_big_blind"] == []


def test_pt_89_a_bet_starts_the_count_again(make_app):
    room = Room(make_app("PT"))
    table_id, _ = room.drawn_table(5)
    idle = room.get(table_id).occupied()[1]
    for _ in range(4):
        idle_hand(room, table_id, idle)
    assert room.played(table_id)  # this time the player bets
    assert room.state(table_id, seat=idle)["idle_hands"] == 0
    for _ in range(4):
        ended = idle_hand(room, table_id, idle)
    assert ended["must_post_big_blind"] == []


def test_pt_89_posting_only_the_forced_blinds_is_no_bet(make_app):
    room = Room(make_app("PT"))
    table_id, _ = room.drawn_table(4)
    seat = room.get(table_id).occupied()[2]
    room.start(table_id, blinds={str(seat): 200})
    ended = room.end(table_id, {str(seat): 200}, {str(seat): 200})
    assert ended["idle_hands"][str(seat)] == 1


def test_cm_has_no_idle_hand_big_blind(room):
    table_id, _ = room.drawn_table(5)
    seats = room.get(table_id).occupied()
    for _ in range(6):
        ended = idle_hand(room, table_id, seats[3])
    assert ended["must_post_big_blind"] == []
    assert seats[3] in room.start(table_id, dealt_in=seats)["dealt_in"]


# --- the missed blinds, posted dead [PT 90] ---------------------------------------------------


def test_pt_90_blinds_missed_while_resting_are_owed_and_posted_dead_on_return(make_app):
    room = Room(make_app("PT"))
    table_id, _ = room.drawn_table(5)
    s = room.get(table_id).occupied()  # hand 1: button s[0], blinds s[1] and s[2]
    resting = room.seats(table_id)[s[2]]
    rest(room, table_id, resting)
    first = room.played(table_id)
    assert first["missed"] == {str(s[2]): 200}  # the big blind fell on the resting seat
    second = room.played(table_id)  # button s[1]: the small blind falls on s[2]
    assert second["missed"] == {str(s[2]): 100}
    assert room.state(table_id, seat=s[2])["owes_cents"] == 300
    assert back(room, table_id, resting)["owes_cents"] == 300
    returned = room.played(table_id)
    assert returned["dead_blinds"] == {str(s[2]): 300}
    assert room.state(table_id, seat=s[2])["owes_cents"] == 0
    assert room.played(table_id)["dead_blinds"] == {}


def test_cm_missed_blinds_are_not_owed(room):
    table_id, _ = room.drawn_table(5)
    card = next(iter(room.seats(table_id).values()))
    rest(room, table_id, card)
    for _ in range(2):
        assert room.played(table_id)["missed"] == {}
    assert back(room, table_id, card)["owes_cents"] == 0
