"""Banked tables run through the floor: the stakes bands per profile [GA art.
6.3, 14.2; PT-SD 14], the box counts [GA art. 5, 12; PT-SD 5; PG III.3], and
a banked hand reported box by box, settled by the games engine and booked
against the bank's tray and the jackpot fund [GA art. 6-16; PT-SD; PG]; the
last five (sen descarte) or three (Trijoker) hands at closing [GA art. 7,
15.3]."""

from __future__ import annotations

from datetime import timedelta

import pytest

from floor import runtime
from floor.kernel.roles import Actor, Role
from floor.models import TableView
from games.banked import paigow, sin_descarte, trijoker
from games.profiles import CM, GA, PT
from ledger.domain import accounts
from tests.support.books import Books
from tests.support.floor import CRUPIER, DIRECTOR, JEFE, new_id
from tests.support.money import live_balance
from tests.support.room import Room, events_of, refused
from tests.support.timers import fire_due

pytestmark = pytest.mark.django_db

SEN = {"variant": "sen_descarte", "limit": "no_limit", "seats": 7}
TRI = {"variant": "trijoker", "limit": "no_limit", "seats": 7}
PAI = {"variant": "pai_gow", "limit": "no_limit", "seats": 6}
OTHER_CRUPIER = Actor("otto", frozenset({Role.CRUPIER}))
JSON = {"HTTP_ACCEPT": "application/json"}


def open_banked(room: Room, spec: dict, minimum: int, maximum: int) -> str:
    return room.app.open_table(
        JEFE,
        new_id(),
        sector_id=room.sector_id,
        **spec,
        minimum_cents=minimum,
        maximum_cents=maximum,
    ).result["table_id"]


# --- the stakes bands ---------------------------------------------------------------------


@pytest.mark.parametrize("code", ["GA", "CM"])
def test_sen_descarte_takes_10_20_or_25_times_under_ga_and_cm(make_app, code):
    room = Room(make_app(code))
    for multiple in (10, 20, 25):
        open_banked(room, SEN, 500, 500 * multiple)
    for multiple in (5, 15, 30):
        refused(room.app, "banked_band_not_authorised", open_banked, room, SEN, 500, 500 * multiple)


@pytest.mark.parametrize("code", ["GA", "CM"])
def test_trijoker_takes_10_20_or_30_times(make_app, code):
    room = Room(make_app(code))
    for multiple in (10, 20, 30):
        open_banked(room, TRI, 500, 500 * multiple)
    room2 = Room(make_app(code), tag="T2")
    for multiple in (5, 25):
        refused(
            room2.app, "banked_band_not_authorised", open_banked, room2, TRI, 500, 500 * multiple
        )


def test_pt_sd_takes_at_most_25_times(make_app):
    room = Room(make_app("PT"))
    for multiple in (1, 10, 25):  # three, so the sector has room for the fourth
        open_banked(room, SEN, 500, 500 * multiple)
    refused(room.app, "banked_band_too_wide", open_banked, room, SEN, 500, 500 * 26)


def test_pai_gow_has_no_band_but_not_the_circle_one(make_app):
    """PG names no band: any maximum not below the minimum; the circle band
    [GA art. 22.3a] does not apply (10x would break it)."""
    room = Room(make_app("GA"))
    open_banked(room, PAI, 1000, 10_000)
    open_banked(room, PAI, 1000, 1000)
    refused(room.app, "stakes_maximum_below_minimum", open_banked, room, PAI, 1000, 999)


def test_the_circle_band_still_holds_for_circle_games(make_app):
    room = Room(make_app("GA"))
    refused(room.app, "stakes_out_of_band", room.table, minimum_cents=200, maximum_cents=2000)


def test_the_box_counts_are_the_profiles_seat_ranges_and_agree_with_the_engine():
    for profile in (GA, CM):
        assert profile.seats.range_for("sen_descarte").max_seats == sin_descarte.MAX_BOXES
        assert profile.seats.range_for("sen_descarte").source == "GA art. 5"
        assert profile.seats.range_for("trijoker").max_seats == trijoker.MAX_BOXES
        assert profile.seats.range_for("trijoker").source == "GA art. 12"
        assert profile.seats.range_for("pai_gow").max_seats == paigow.MAX_BOXES
        assert profile.seats.range_for("pai_gow").source == "PG III.3"
    assert PT.seats.range_for("sen_descarte").max_seats == 7
    assert PT.seats.range_for("sen_descarte").source == "PT-SD 5"
    assert PT.seats.range_for("trijoker") is None


def test_a_banked_table_has_no_more_boxes_than_its_game(make_app):
    room = Room(make_app("GA"))
    refused(
        room.app,
        "seats_out_of_range",
        room.app.open_table,
        JEFE,
        new_id(),
        sector_id=room.sector_id,
        **{**PAI, "seats": 7},
        minimum_cents=1000,
        maximum_cents=5000,
    )


# --- a banked hand through the floor ------------------------------------------------------

SEED = 50_000
BANKED_STAKES = {"minimum_cents": 500, "maximum_cents": 10_000}  # 20x [GA art. 6.3]


@pytest.fixture
def ga_room(make_app):
    app = make_app("GA")
    runtime.install(app)
    yield Room(app, tag="BK")
    runtime.install(None)


def banked_table(room: Room, spec: dict, players: int, buy_in: int = 10_000, **stakes) -> tuple:
    """A banked table whose seats were drawn; returns its id and the occupied
    seats in order (the draw places the players)."""
    table_id, _cards = room.drawn_table(
        players, buy_in=buy_in, **spec, **{**BANKED_STAKES, **stakes}
    )
    return table_id, sorted(room.seats(table_id))


def at(seats: list[int], *boxes: dict) -> dict[str, dict]:
    """The boxes in the order of the occupied seats."""
    return {str(seat): box for seat, box in zip(seats, boxes, strict=False)}


def with_jackpot(room: Room, table_ids: list[str], stake_cents: int = 100) -> str:
    return room.app.create_jackpot(
        DIRECTOR,
        new_id(),
        name="Progresivo",
        stake_cents=stake_cents,
        seed_cents=SEED,
        table_ids=table_ids,
    ).result["jackpot_id"]


def settle(room: Room, table_id: str, boxes: dict, bank: dict, actor=CRUPIER, **more) -> dict:
    return room.app.settle_banked_hand(
        actor, new_id(), table_id=table_id, boxes=boxes, bank=bank, **more
    ).result


def preview(room: Room, table_id: str, boxes: dict, bank: dict, **more) -> dict:
    return room.app.preview_banked_hand(
        CRUPIER, new_id(), table_id=table_id, boxes=boxes, bank=bank, **more
    ).result


def balance(room: Room, ref) -> int:
    return live_balance(room.app, ref)


def stacks(room: Room, table_id: str) -> dict[int, int]:
    table = room.get(table_id)
    return {int(s): state["stack"] for s, state in table.occupants.items()}


QUALIFYING_BANK = {"cards": "Ah Kd 7c 5s 2h"}  # ace-king: the bank plays [GA art. 7]
SHORT_BANK = {"cards": "Qh Jh 9d 6c 3h"}  # below ace-king: it does not


def test_a_sen_descarte_hand_is_settled_and_booked_against_the_tray(ga_room):
    room = ga_room
    table_id, seats = banked_table(room, SEN, 5)
    jackpot_id = with_jackpot(room, [table_id])
    books = Books(room.app).catch_up()
    fund = accounts.jackpot_fund(jackpot_id)
    tray = accounts.tray(table_id)
    tray_before, before = balance(room, tray), stacks(room, table_id)
    boxes = at(
        seats,
        {"ante_cents": 500, "call": True, "cards": "9s 9h 4d 3c 2d", "jackpot_cents": 100},
        {"ante_cents": 500, "call": True, "cards": "Qs Jd 8c 6h 3s"},
        {"ante_cents": 500, "call": False},
        {"ante_cents": 500, "call": True, "cards": "8s 8d 8h 4h 4s", "insurance_cents": 200},
        {"ante_cents": 500, "call": True, "cards": "Ac Kc Qc Jc Tc", "jackpot_cents": 100},
    )
    seen = preview(room, table_id, boxes, QUALIFYING_BANK, jackpot_id=jackpot_id)
    assert room.get(table_id).hands_played == 0  # a preview records nothing
    done = settle(room, table_id, boxes, QUALIFYING_BANK, jackpot_id=jackpot_id)
    assert seen["preview"] is True
    assert {k: v for k, v in seen.items() if k != "preview"} == {
        k: v for k, v in done.items() if k != "transaction_ids"
    }
    assert done["bank"] == {"cards": "Ah Kd 7c 5s 2h", "category": "high_card", "qualifies": True}
    pair, loser, passed, full, royal = (done["boxes"][str(s)] for s in seats)
    assert pair["category"] == "pair" and pair["main_cents"] == 500 + 1000  # 1:1 pair
    assert loser["outcome"] == "bank" and loser["main_cents"] == -1500
    assert passed["main_cents"] == -500  # passed: the ante is lost
    assert full["main_cents"] == 500 + 7 * 1000  # full house 7:1 [GA art. 6.1]
    assert full["side_cents"] == 100 * 200  # insurance 100x on a full [GA art. 8a]
    assert royal["main_cents"] == 500 + 100 * 1000  # royal 100:1
    assert royal["jackpot_won_cents"] == SEED  # the royal takes the fund [GA art. 8b]
    assert done["jackpot"] == {
        "jackpot_id": jackpot_id,
        "fund_before_cents": SEED,
        "stakes_cents": 200,
        "won_cents": SEED,
        "fund_after_cents": SEED,  # brought back to its start from the cage [PT-SD 10]
    }
    after = stacks(room, table_id)
    for seat in seats:
        assert after[seat] == before[seat] + done["boxes"][str(seat)]["net_cents"]
    paid = sum(b["main_cents"] + b["side_cents"] for b in done["boxes"].values())
    assert done["bank_cents"] == -paid
    assert balance(room, tray) == tray_before - paid
    assert balance(room, fund) == SEED
    assert room.get(table_id).hands_played == 1
    assert events_of(room.app, table_id, "BankedHandSettled")[-1].number == 1
    books.catch_up().check()


def test_a_bank_below_ace_king_pays_the_antes_and_returns_the_calls(ga_room):
    room = ga_room
    table_id, seats = banked_table(room, SEN, 2)
    before = stacks(room, table_id)
    done = settle(
        room,
        table_id,
        at(
            seats,
            {"ante_cents": 1000, "call": True, "cards": "2s 3d 5c 8h Th"},
            {"ante_cents": 500, "call": False},
        ),
        SHORT_BANK,
    )
    assert done["bank"]["qualifies"] is False
    first, second = seats
    assert stacks(room, table_id) == {first: before[first] + 1000, second: before[second] - 500}
    Books(room.app).catch_up().check()


def test_a_pt_sd_straight_flush_pays_50_and_there_is_no_insurance(make_app):
    room = Room(make_app("PT"), tag="PS")
    table_id, seats = banked_table(room, SEN, 1)
    straight_flush = {"ante_cents": 500, "call": True, "cards": "5d 6d 7d 8d 9d"}
    done = settle(room, table_id, at(seats, straight_flush), QUALIFYING_BANK)
    assert done["boxes"][str(seats[0])]["main_cents"] == 500 + 50 * 1000  # PT-SD 6
    insured = {**straight_flush, "insurance_cents": 100}
    refused(
        room.app,
        "insurance_not_offered",
        settle,
        room,
        table_id,
        at(seats, insured),
        QUALIFYING_BANK,
    )


def test_a_bought_card_costs_the_ante_and_the_progressive_pays_on_the_first_five(ga_room):
    room = ga_room
    table_id, seats = banked_table(room, SEN, 1)
    jackpot_id = with_jackpot(room, [table_id])
    bought = {
        "ante_cents": 500,
        "call": True,
        "cards": "5d 6d 7d 8d 9d",  # a straight flush after the bought card
        "extra_card": True,
        "first_five": "5d 6d 7d 8d 2c",
        "jackpot_cents": 100,
    }
    done = settle(room, table_id, at(seats, bought), QUALIFYING_BANK, jackpot_id=jackpot_id)
    box = done["boxes"][str(seats[0])]
    assert box["main_cents"] == 500 + 25 * 1000  # GA art. 6.1: 25
    assert box["side_cents"] == -500  # the card bought for the ante [GA art. 8c]
    assert box["jackpot_won_cents"] == 0  # the first five were no straight flush
    Books(room.app).catch_up().check()


def test_the_first_five_are_cards_the_box_saw(ga_room):
    """A bought card makes six cards seen: the first five and the hand played
    share four, and none is the bank's or another box's [GA art. 8b-c]; else a
    royal typed as the first five would take the jackpot."""
    room = ga_room
    table_id, seats = banked_table(room, SEN, 1)
    jackpot_id = with_jackpot(room, [table_id])
    fund = accounts.jackpot_fund(jackpot_id)
    bought = {
        "ante_cents": 500,
        "call": True,
        "cards": "2c 3d 5h 7s 9c",
        "extra_card": True,
        "first_five": "Ah Kh Qh Jh Th",
        "jackpot_cents": 100,
    }
    bank = {"cards": "As Kd 7c 5s 2h"}
    refused(
        room.app,
        "first_five_not_these_cards",
        settle,
        room,
        table_id,
        at(seats, bought),
        bank,
        jackpot_id=jackpot_id,
    )
    # Four shared, the fifth one of the bank's cards: dealt twice.
    bought["first_five"] = "2c 3d 5h 7s As"
    refused(
        room.app,
        "duplicate_card",
        settle,
        room,
        table_id,
        at(seats, bought),
        bank,
        jackpot_id=jackpot_id,
    )
    assert balance(room, fund) == SEED  # nothing recorded, nothing paid


def test_a_jackpot_shared_by_two_tables_pays_from_one_fund(ga_room):
    room = ga_room
    first, first_seats = banked_table(room, SEN, 1)
    second, second_seats = banked_table(room, SEN, 1)
    jackpot_id = with_jackpot(room, [first, second])
    fund = accounts.jackpot_fund(jackpot_id)
    staked = {"ante_cents": 500, "call": False, "jackpot_cents": 100}
    for _ in range(3):
        settle(room, first, at(first_seats, staked), QUALIFYING_BANK, jackpot_id=jackpot_id)
    assert balance(room, fund) == SEED + 300
    flush = {"ante_cents": 500, "call": True, "cards": "5d 6d 7d 8d 9d", "jackpot_cents": 100}
    done = settle(room, second, at(second_seats, flush), QUALIFYING_BANK, jackpot_id=jackpot_id)
    # A straight flush takes 10 % of the fund as the hand began [GA art. 8b].
    assert done["boxes"][str(second_seats[0])]["jackpot_won_cents"] == (SEED + 300) // 10
    # Left below its start, the fund is brought back to it [PT-SD 10].
    assert SEED + 300 + 100 - (SEED + 300) // 10 < SEED
    assert balance(room, fund) == SEED
    assert done["jackpot"]["fund_after_cents"] == SEED
    Books(room.app).catch_up().check()


def test_trijoker_bets_taken_back_neither_win_nor_lose(ga_room):
    room = ga_room
    table_id, seats = banked_table(
        room, TRI, 3, minimum_cents=500, maximum_cents=5_000, buy_in=5_000
    )
    before = stacks(room, table_id)
    done = settle(
        room,
        table_id,
        at(
            seats,
            {"bet_cents": 500, "took_back": [], "cards": "Js Jd 4c"},  # jacks: 1 to 1
            {"bet_cents": 500, "took_back": [1, 2], "cards": "Ts Td 4h"},  # tens lose
            {"bet_cents": 500, "took_back": [1], "cards": "Ah Kh Qh"},  # flush 8
        ),
        {"common": "2h 7h"},
    )
    one, two, three = seats
    assert stacks(room, table_id) == {
        one: before[one] + 3 * 500,
        two: before[two] - 500,
        three: before[three] + 2 * 8 * 500,
    }
    assert done["boxes"][str(three)]["category"] == "flush"
    Books(room.app).catch_up().check()


def test_pai_gow_push_and_commission_to_the_rake_box(ga_room):
    room = ga_room
    table_id, seats = banked_table(room, PAI, 3, minimum_cents=1000, maximum_cents=10_000)
    before, tray_before = stacks(room, table_id), balance(room, accounts.tray(table_id))
    done = settle(
        room,
        table_id,
        at(
            seats,
            {"bet_cents": 2000, "high": "Ks Kd 9c 9h 2s", "low": "Ah Qh"},  # both win
            {"bet_cents": 1000, "high": "Ts Td 8c 8h 3s", "low": "4h 2d"},  # one each: push
            {"bet_cents": 1000, "high": "7s 6d 5c 4c 2c", "low": "6h 4d"},  # both lose
        ),
        {"high": "Qs Qd Jc 9d 3c", "low": "Kh 5d"},
    )
    assert done["commission_cents"] == 100  # 5 % of 2000 (the service default)
    one, two, three = seats
    assert stacks(room, table_id) == {
        one: before[one] + 1900,
        two: before[two],
        three: before[three] - 1000,
    }
    assert balance(room, accounts.tray(table_id)) == tray_before - 2000 + 1000
    assert balance(room, accounts.rake_box(table_id)) == 100
    Books(room.app).catch_up().check()


def test_what_a_dealer_may_not_report(ga_room):
    room = ga_room
    table_id, seats = banked_table(room, SEN, 2, buy_in=1_500)
    free = min(set(range(1, 8)) - set(seats))
    call = {"ante_cents": 500, "call": True, "cards": "9s 9h 4d 3c 2d"}
    bank = QUALIFYING_BANK

    def no(code, boxes, **more):
        refused(room.app, code, settle, room, table_id, boxes, bank, **more)

    no("stake_over_stack", at(seats, {**call, "insurance_cents": 100}))
    no("bet_out_of_limits", at(seats, {"ante_cents": 200, "call": False}))
    no("seat_empty", {str(free): call})
    no("seat_out_of_range", {"8": call})
    # "2" and "02" are not two boxes: one would silently replace the other.
    no("seat_out_of_range", {str(seats[0]): call, f"0{seats[0]}": call})
    no("duplicate_card", at(seats, {**call, "cards": "Ah 9h 4d 3c 2d"}))
    no("jackpot_required", at(seats, {"ante_cents": 500, "call": False, "jackpot_cents": 100}))
    no("box_field_unknown", at(seats, {**call, "bet_cents": 5}))
    no("wrong_card_count", at(seats, {**call, "cards": "9s 9h 4d"}))
    no("box_field_required", at(seats, {**call, "call": "yes"}))
    no("boxes_required", {})
    no("not_your_table", at(seats, call), actor=OTHER_CRUPIER)
    circle, _ = room.drawn_table(4)
    refused(room.app, "table_not_banked", settle, room, circle, {"1": call}, bank)
    # ... and a banked table deals no circle hand: the bank plays every box.
    refused(
        room.app,
        "table_is_banked",
        room.app.start_hand,
        CRUPIER,
        new_id(),
        table_id=table_id,
        dealt_in=seats,
    )


def announce_and_fire(room: Room, clock) -> None:
    room.app.announce_closing(
        JEFE,
        new_id(),
        sector_id=room.sector_id,
        closes_at=(clock.now() + timedelta(minutes=30)).isoformat(),
    )
    runtime.floor_projector().catch_up()
    clock.advance(timedelta(minutes=30))
    assert fire_due(clock) >= 1


def test_the_last_five_hands_are_announced_and_the_table_closes_after_them(ga_room, clock):
    room = ga_room
    table_id, seats = banked_table(room, SEN, 2)
    cards = list(room.seats(table_id).values())
    announce_and_fire(room, clock)
    assert room.get(table_id).last_hands == {"left": 5}  # GA art. 7
    from django.test import Client

    board = Client().get("/board/").content.decode()  # the room's board says it too
    assert 'data-testid="board-last-hands"' in board and "5 últimas manos" in board
    box = at(seats, {"ante_cents": 500, "call": False})
    for left in (4, 3, 2, 1):
        assert settle(room, table_id, box, SHORT_BANK)["last_hands_left"] == left
        runtime.floor_projector().catch_up()
        assert TableView.objects.get(id=table_id).last_hands_left == left
    done = settle(room, table_id, box, SHORT_BANK)
    assert done["status"] == "closed"
    assert events_of(room.app, table_id, "Closed")[-1].reason == "closing_time"
    assert all(room.player(card).seated_at is None for card in cards)
    Books(room.app).catch_up().check()


def test_trijoker_announces_three(ga_room, clock):
    room = ga_room
    table_id, _ = banked_table(room, TRI, 1, minimum_cents=500, maximum_cents=5_000, buy_in=5_000)
    announce_and_fire(room, clock)
    assert room.get(table_id).last_hands == {"left": 3}  # GA art. 15.3


# --- through the API ----------------------------------------------------------------------


def test_a_banked_shift_through_the_api(ga_room, make_user):
    from rest_framework.test import APIClient

    room = ga_room
    table_id, seats = banked_table(room, SEN, 3)
    jackpot_id = with_jackpot(room, [table_id])
    runtime.floor_projector().catch_up()
    client = APIClient()
    client.force_authenticate(make_user("cris", "crupier"))
    url = f"/api/tables/{table_id}/banked-hands/"
    body = {
        "boxes": at(
            seats,
            {"ante_cents": 500, "call": True, "cards": "8s 8d 8h 4h 4s", "insurance_cents": 200},
            {"ante_cents": 500, "call": True, "cards": "Ac Kc Qc Jc Tc", "jackpot_cents": 100},
            {"ante_cents": 500, "call": False},
        ),
        "bank": {"cards": "Ah Kd 7c 5s 2h"},
        "jackpot_id": jackpot_id,
    }
    before = room.app.recorder.max_notification_id()
    seen = client.post(f"{url}preview/", {**body, "command_id": new_id()}, format="json")
    assert seen.status_code == 200, seen.content
    assert room.app.recorder.max_notification_id() == before  # the preview records nothing
    assert seen.json()["result"]["preview"] is True
    command_id = new_id()
    done = client.post(url, {**body, "command_id": command_id}, format="json")
    assert done.status_code == 201, done.content
    answer = done.json()
    full, royal, _passed = (answer["result"]["boxes"][str(s)] for s in seats)
    assert full["side_cents"] == 20_000 and royal["jackpot_won_cents"] == SEED
    assert answer["result"]["bank"]["qualifies"] is True
    shown = {row["seat"]: row["stack_cents"] for row in answer["table"]["occupied_seats"]}
    assert shown[seats[2]] == 10_000 - 500
    assert answer["table"]["hands_played"] == 1
    assert {k: v for k, v in seen.json()["result"].items() if k not in ("preview",)} == {
        k: v for k, v in answer["result"].items() if k != "transaction_ids"
    }
    again = client.post(url, {**body, "command_id": command_id}, format="json")
    assert again.status_code == 200  # the same command: its first outcome, nothing new
    # Refusals are 4xx with a code, and record nothing.
    at_limit = client.post(
        url,
        {**body, "boxes": at(seats, {"ante_cents": 20_000, "call": False}), "command_id": new_id()},
        format="json",
    )
    assert at_limit.status_code == 400 and at_limit.json()["code"] == "bet_out_of_limits"
    hands = client.get(f"/api/tables/{table_id}/hands/").json()
    assert hands[0]["number"] == 1 and hands[0]["variant"] == "sen_descarte"
    inspector = APIClient()
    inspector.force_authenticate(make_user("ines", "inspector"))
    report = inspector.get("/api/reports/tables/").json()["results"]
    row = next(r for r in report if r["table_id"] == table_id)
    assert (row["hands"], row["players"]) == (1, 3)  # a banked hand counts as a hand
    Books(room.app).catch_up().check()


# --- the dealer's table view --------------------------------------------------------------


def test_a_banked_shift_through_the_table_view(ga_room, make_user, clock):
    """The dealer types the boxes, reads the settlement, confirms it; the
    view shows the stacks, the last hands, and the table closing after them."""
    from django.test import Client

    room = ga_room
    table_id, seats = banked_table(room, SEN, 2)
    jackpot_id = with_jackpot(room, [table_id])
    runtime.floor_projector().catch_up()
    make_user("cris", "crupier", password="pa55-word-ok")
    dealer = Client()
    assert dealer.login(username="cris", password="pa55-word-ok")
    page = dealer.get(f"/tables/{table_id}/").content.decode()
    assert 'data-testid="banked-hand"' in page
    assert page.count('data-testid="banked-box"') == 2
    assert f'name="jackpot_id" value="{jackpot_id}"' in page
    assert 'data-testid="start-hand"' not in page  # no circle hand here
    first, second = seats
    form = {
        "table_id": table_id,
        "jackpot_id": jackpot_id,
        f"ante_eur.{first}": "5",
        f"play.{first}": "call",
        f"cards.{first}": "8s 8d 8h 4h 4s",
        f"insurance_eur.{first}": "2",
        f"jackpot_eur.{first}": "1",
        f"ante_eur.{second}": "5,00",
        f"play.{second}": "fold",
        "bank_cards": "Ah Kd 7c 5s 2h",
    }
    before = room.app.recorder.max_notification_id()
    asked = dealer.post(
        "/console/commands/settle_banked_hand/", {"command_id": new_id(), **form}, **JSON
    )
    assert asked.status_code == 428
    answer = asked.json()
    assert answer["code"] == "settlement_needs_confirmation"
    # Spanish by default: the full house pays 7:1 and the insurance 100x.
    assert f"Casilla {first}: +274,00 EUR" in answer["message"]  # less its jackpot stake
    assert f"Casilla {second}: -5,00 EUR" in answer["message"]
    assert room.app.recorder.max_notification_id() == before  # nothing recorded yet
    done = dealer.post(
        "/console/commands/settle_banked_hand/",
        {"command_id": new_id(), **form, "confirm_cents": answer["confirm"]["cents"]},
        **JSON,
    )
    assert done.status_code == 201, done.content
    assert "liquidada" in done.json()["message"]
    assert room.get(table_id).hands_played == 1
    # A changed form is a new settlement: asked again.
    changed = dealer.post(
        "/console/commands/settle_banked_hand/",
        {
            "command_id": new_id(),
            **form,
            f"cards.{first}": "8s 8d 8h 4h 3s",
            "confirm_cents": answer["confirm"]["cents"],
        },
        **JSON,
    )
    assert changed.status_code == 428
    refused_form = dealer.post(
        "/console/commands/settle_banked_hand/",
        {"command_id": new_id(), **form, f"ante_eur.{first}": "2"},  # below the minimum
        **JSON,
    )
    assert refused_form.status_code == 400
    assert refused_form.json()["code"] == "bet_out_of_limits"
    # The last five hands [GA art. 7], shown on the dealer's view.
    announce_and_fire(room, clock)
    page = dealer.get(f"/tables/{table_id}/").content.decode()
    assert 'data-testid="banked-last-hands"' in page and "5 últimas manos" in page
    quiet = {
        "table_id": table_id,
        f"ante_eur.{first}": "5",
        f"play.{first}": "fold",
        "bank_cards": "Qh Jh 9d 6c 3h",
    }
    for _ in range(5):
        asked = dealer.post(
            "/console/commands/settle_banked_hand/", {"command_id": new_id(), **quiet}, **JSON
        ).json()
        done = dealer.post(
            "/console/commands/settle_banked_hand/",
            {"command_id": new_id(), **quiet, "confirm_cents": asked["confirm"]["cents"]},
            **JSON,
        )
        assert done.status_code == 201
    assert room.get(table_id).status == "closed"
    page = dealer.get(f"/tables/{table_id}/").content.decode()
    assert 'data-testid="banked-hand"' not in page
    Books(room.app).catch_up().check()


# --- any sen descarte hand: the preview is the settlement, the books balance ---------------


def test_any_sen_descarte_hand_moves_the_chips_it_says(ga_room):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from games.cards import deck

    room = ga_room
    table_id, seats = banked_table(room, SEN, 3)
    tray = accounts.tray(table_id)
    books = Books(room.app)
    box = st.fixed_dictionaries(
        {"ante": st.sampled_from([500, 1000]), "call": st.booleans(), "insured": st.booleans()}
    )

    @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.permutations(deck()), st.lists(box, min_size=1, max_size=3))
    def hand(cards, boxes):
        for seat in seats:  # keep every box able to bet (a rebuy between hands)
            state = room.get(table_id).occupant(seat)
            if state["stack"] < 3_200:  # ante 10 EUR, call 20, insurance 2
                card = room.seats(table_id)[seat]
                room.buy(table_id, card, 5_000)
        shown = [" ".join(str(c) for c in cards[i * 5 : i * 5 + 5]) for i in range(4)]
        report = {
            str(seat): {
                "ante_cents": b["ante"],
                "call": b["call"],
                "cards": shown[i + 1],
                **({"insurance_cents": 200} if b["insured"] else {}),
            }
            for i, (seat, b) in enumerate(zip(seats, boxes, strict=False))
        }
        bank = {"cards": shown[0]}
        before, tray_before = stacks(room, table_id), balance(room, tray)
        seen = preview(room, table_id, report, bank)
        done = settle(room, table_id, report, bank)
        assert {k: v for k, v in seen.items() if k != "preview"} == {
            k: v for k, v in done.items() if k != "transaction_ids"
        }
        after = stacks(room, table_id)
        for seat, result in done["boxes"].items():
            assert after[int(seat)] - before[int(seat)] == result["net_cents"]
        assert balance(room, tray) - tray_before == done["bank_cents"]
        assert sum(r["net_cents"] for r in done["boxes"].values()) == -done["bank_cents"]
        held = {c.rank for c in cards[:5]}
        plays = done["bank"]["category"] != "high_card" or {13, 14} <= held
        assert done["bank"]["qualifies"] is plays  # ace-king or better [GA art. 7]

    hand()
    books.catch_up().check()
