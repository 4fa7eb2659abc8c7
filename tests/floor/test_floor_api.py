"""The floor's main flows through the HTTP API (issue 4): players, waiting lists,
the draw, buy-ins, hands, rests, leaving and calling the list, suspension and
closing; the sector, list and history views; and bad input answered with a
code, never a 500, recording nothing."""

from __future__ import annotations

import json
from datetime import timedelta
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from floor import runtime
from tests.support.floor import JEFE, new_id
from tests.support.money import fill_tray

pytestmark = pytest.mark.django_db

# A six-seat Hold'em table, no limit, 2 / 10 EUR (blinds 1 / 2 EUR).
SIX_SEATS = {
    "variant": "texas_holdem",
    "limit": "no_limit",
    "minimum_cents": 200,
    "maximum_cents": 1000,
    "seats": 6,
}
UNKNOWN = "8b2f7f0e-0000-4000-8000-000000000000"
CARDS = [f"C-{n}" for n in range(1, 9)]


@pytest.fixture
def jefe(api_as, floor_app):
    floor_app.random = Random(4)  # seeded draws: the same seats every run
    return api_as("jaime", "jefe_sector")


@pytest.fixture
def crupier(api_as, floor_app):
    return api_as("cris", "crupier")


@pytest.fixture
def sector(api_as, floor_app):
    director = api_as("dora", "director")
    response = director.post("/api/sectors/", {"command_id": new_id(), "name": "Sector C"})
    assert response.status_code == 201, response.content
    return response.json()


def post(client, url: str, **body):
    """A command: a fresh command id, a JSON body."""
    return client.post(url, {"command_id": new_id(), **body}, format="json")


def ok(response) -> dict:
    assert response.status_code == 201, response.content
    return response.json()


def refused(response, status: int, code: str) -> dict:
    assert (response.status_code, response.json().get("code")) == (status, code), response.content
    assert response.json()["message"]
    return response.json()


def open_table(jefe, sector: dict, **change) -> dict:
    """A table, its tray filled by the cage (so buy-ins at the table find chips),
    dealt by cris."""
    table = ok(post(jefe, f"/api/sectors/{sector['id']}/tables/", **{**SIX_SEATS, **change}))
    fill_tray(runtime.floor_app(), table["id"])
    runtime.floor_app().assign_dealer(JEFE, new_id(), table_id=table["id"], dealer="cris")
    return table


def register(client, cards=CARDS) -> dict[str, str]:
    """Registers players; returns card number -> player id."""
    ids = {}
    for n, card in enumerate(cards, start=1):
        player = ok(post(client, "/api/players/", card_number=card, display_name=f"Player {n}"))
        ids[card] = player["id"]
    return ids


def join(jefe, table_id: str, cards) -> list[dict]:
    return [
        ok(post(jefe, "/api/waiting-lists/", player=card, table_id=table_id))["result"]
        for card in cards
    ]


def seats_of(table: dict) -> dict[str, int]:
    """Card number -> seat, from a table's floor view."""
    return {s["card_number"]: s["seat"] for s in table["occupied_seats"]}


def blinds_after(button: int, seats: list[int]) -> tuple[int, int]:
    """The next two occupied seats after the button, upward (CM turns clockwise)."""
    order = sorted(s for s in seats if s > button) + sorted(s for s in seats if s <= button)
    return order[0], order[1]


@pytest.fixture
def running(jefe, crupier, sector):
    """A six-seat table drawn among seven players (the seventh stays on the
    list), every seated player bought in for 10 EUR."""
    table = open_table(jefe, sector)
    players = register(jefe, CARDS[:7])
    join(jefe, table["id"], CARDS[:7])
    drawn = ok(post(jefe, f"/api/tables/{table['id']}/draw/"))
    for card in seats_of(drawn["table"]):
        ok(post(crupier, f"/api/tables/{table['id']}/buy-in/", player=card, amount_cents=1000))
    return {"table": drawn["table"], "players": players, "draw": drawn["result"]}


# --- the main flow -------------------------------------------------------------------------


def test_a_shift_through_the_api(jefe, crupier, sector, floor_app):
    table = open_table(jefe, sector)
    assert table["status"] == "registering"
    url = f"/api/tables/{table['id']}"

    # Players: card number and display name only; found by card (any case).
    players = register(jefe, CARDS[:7])
    found = jefe.get("/api/players/", {"card": "c-3"}).json()
    assert [(p["id"], p["display_name"]) for p in found] == [(players["C-3"], "Player 3")]
    assert set(found[0]) == {
        "id",
        "card_number",
        "display_name",
        "barred",
        "bar_reason",
        "table_id",
        "seat",
        "registered_at",
        "in_tournament",
        "kept_apart",
    }

    # Registered for the table's game: reservation numbers in order.
    joined = join(jefe, table["id"], CARDS[:7])
    assert [(j["reservation"], j["position"]) for j in joined] == [(n, n) for n in range(1, 8)]

    # The draw seats six of the seven and starts the table; the draw closes, full.
    drawn = ok(post(jefe, f"{url}/draw/"))
    after = drawn["table"]
    assert (after["status"], after["players"], after["draw_open"]) == ("running", 6, False)
    assert after["free_seats"] == []
    assert drawn["result"]["left_on_list"] == 1
    seats = seats_of(after)
    assert sorted(seats.values()) == [1, 2, 3, 4, 5, 6]
    (waiting,) = set(CARDS[:7]) - set(seats)
    drawn_seats = drawn["result"]["tables"][table["id"]]["seats"]
    assert {players[card]: seat for card, seat in seats.items()} == {
        pid: int(seat) for seat, pid in drawn_seats.items()
    }
    assert after["button"] in seats.values()

    # Buy-ins within the table's limits (CM-2), by the dealer.
    for card in seats:
        bought = ok(post(crupier, f"{url}/buy-in/", player=card, amount_cents=1000))
        assert bought["result"]["stack_cents"] == 1000
    assert {s["stack_cents"] for s in jefe.get(f"{url}/floor/").json()["occupied_seats"]} == {1000}

    # A hand: the button where the card draw put it, both blinds posted.
    button = after["button"]
    small, big = blinds_after(button, list(seats.values()))
    started = ok(
        post(
            crupier,
            f"{url}/hands/start/",
            dealt_in=sorted(seats.values()),
            blinds={str(small): 100, str(big): 200},
        )
    )
    assert (started["result"]["number"], started["result"]["button"]) == (1, button)
    assert started["table"]["hand_in_progress"] == 1
    ended = ok(
        post(
            crupier,
            f"{url}/hands/end/",
            contributions={str(small): 200, str(big): 200},
            winnings={str(big): 400},
            rake_cents=0,  # CM counts 5 % in whole steps of 20 EUR: none on 4 EUR
        )
    )
    assert ended["result"]["pot_cents"] == 400
    stacks = {s["seat"]: s["stack_cents"] for s in ended["table"]["occupied_seats"]}
    assert (stacks[small], stacks[big]) == (800, 1200)
    assert (ended["table"]["hands_played"], ended["table"]["hand_in_progress"]) == (1, None)
    hands = jefe.get(f"{url}/hands/").json()
    assert [(h["number"], h["pot_cents"], h["rake_cents"]) for h in hands] == [(1, 400, 0)]

    # A rest of two hands keeps the seat (GA art. 20).
    resting_card = next(c for c, s in seats.items() if s not in (small, big))
    rested = ok(post(jefe, f"{url}/rest/", player=resting_card))
    seat_state = {s["card_number"]: s for s in rested["table"]["occupied_seats"]}
    assert seat_state[resting_card]["resting"] is True
    back = ok(post(crupier, f"{url}/rest/end/", player=resting_card))
    assert back["result"]["seat"] == seats[resting_card]

    # A player leaves with their stack; the first waiting player is called.
    leaver = resting_card
    left = ok(post(jefe, f"{url}/leave/", player=leaver))
    assert left["result"]["stack_cents"] == 1000
    assert left["result"]["offered"] == {"called": players[waiting], "reservation": 7}
    assert left["table"]["free_seats"] == [seats[leaver]]
    (game_list,) = jefe.get("/api/waiting-lists/").json()
    assert [(e["card_number"], e["status"], e["call_seat"]) for e in game_list["entries"]] == [
        (waiting, "called", seats[leaver])
    ]
    assert game_list["entries"][0]["call_table"] == table["id"]
    assert game_list["entries"][0]["call_ends_at"]  # the five-minute window [CM-6]

    # The called player takes the seat: a newcomer, off the list.
    seated = ok(post(jefe, f"{url}/seat/", player=waiting, seat=seats[leaver]))
    assert seated["result"]["seat"] == seats[leaver]
    newcomer = {s["card_number"]: s for s in seated["table"]["occupied_seats"]}[waiting]
    assert newcomer["newcomer"] is True
    assert jefe.get("/api/waiting-lists/").json()[0]["entries"] == []
    player = jefe.get(f"/api/players/{players[waiting]}/").json()
    assert (player["table_id"], player["seat"]) == (table["id"], seats[leaver])

    # Below four players the table is suspended, with its closing deadline.
    remaining = [c for c in seats_of(seated["table"]) if c != waiting]
    for card in remaining[:2]:
        ok(post(jefe, f"{url}/leave/", player=card))
    last = ok(post(jefe, f"{url}/leave/", player=remaining[2]))
    assert (last["result"]["status"], last["table"]["players"]) == ("suspended", 3)
    assert last["table"]["suspended_at"] and last["table"]["closes_at"]

    # Closing: the players leave with their stacks.
    closed = ok(post(jefe, f"{url}/close/"))
    assert closed["table"]["status"] == "closed"
    assert closed["table"]["occupied_seats"] == []
    assert set(closed["result"]["stacks"]) == {players[c] for c in seats_of(last["table"])}
    assert jefe.get(f"/api/players/{players[waiting]}/").json()["table_id"] is None


def test_the_sector_floor_and_the_lists_show_seats_and_positions(jefe, sector, running):
    table = running["table"]
    other = open_table(jefe, sector, minimum_cents=400)
    register(jefe, ["D-1", "D-2"])
    join(jefe, other["id"], ["D-2", "D-1"])
    floor = jefe.get(f"/api/sectors/{sector['id']}/floor/").json()
    assert (floor["name"], floor["table_count"]) == ("Sector C", 2)
    by_number = {t["number"]: t for t in floor["tables"]}
    assert (by_number[1]["status"], by_number[1]["players"]) == ("running", 6)
    assert seats_of(by_number[1]) == seats_of(table)
    assert {s["stack_cents"] for s in by_number[1]["occupied_seats"]} == {1000}
    assert (by_number[2]["status"], by_number[2]["occupied_seats"]) == ("registering", [])
    assert by_number[2]["free_seats"] == [1, 2, 3, 4, 5, 6]

    lists = {w["minimum_cents"]: w for w in jefe.get("/api/waiting-lists/").json()}
    (left,) = set(CARDS[:7]) - set(seats_of(table))
    assert [(e["position"], e["card_number"]) for e in lists[200]["entries"]] == [(1, left)]
    assert [
        (e["position"], e["reservation"], e["card_number"], e["status"])
        for e in lists[400]["entries"]
    ] == [(1, 1, "D-2", "waiting"), (2, 2, "D-1", "waiting")]
    assert lists[400]["game"] == "texas_holdem/no_limit/400/1000"
    assert all(e["waiting_seconds"] >= 0 for e in lists[400]["entries"])

    # Registering again puts a player last under a new number [CM-6].
    again = ok(post(jefe, "/api/waiting-lists/", player="D-2", table_id=other["id"]))
    assert (again["result"]["reservation"], again["result"]["position"]) == (3, 2)
    entries = again["waiting_list"]["entries"]
    assert [(e["card_number"], e["reservation"]) for e in entries] == [("D-1", 2), ("D-2", 3)]

    # Leaving the list; by variant, limit and stakes rather than by table.
    game = {"variant": "texas_holdem", "limit": "no_limit", "minimum_cents": 400}
    ok(post(jefe, "/api/waiting-lists/leave/", player="D-1", maximum_cents=1000, **game))
    entries = {w["minimum_cents"]: w for w in jefe.get("/api/waiting-lists/").json()}[400]
    assert [(e["position"], e["card_number"]) for e in entries["entries"]] == [(1, "D-2")]


def test_histories_list_the_events_with_actor_and_command_id(jefe, crupier, running, api_as):
    table, players = running["table"], running["players"]
    card = next(iter(seats_of(table)))
    command_id = new_id()
    response = jefe.post(
        f"/api/tables/{table['id']}/rest/", {"command_id": command_id, "player": card}, "json"
    )
    assert response.status_code == 201

    inspector = api_as("ines", "inspector")
    history = inspector.get(f"/api/tables/{table['id']}/history/").json()
    events = [e["event"] for e in history]
    assert events[:3] == ["Table.Opened", "Table.DealerAssigned", "Table.SeatsDrawn"]
    assert events.count("Table.ChipsBought") == 6
    assert events[-1] == "Table.RestStarted"
    assert (history[-1]["actor"], history[-1]["actor_role"]) == ("jaime", "jefe_sector")
    assert history[-1]["command_id"] == command_id
    assert history[-1]["rule_profile"] == "CM"
    assert all(e["actor"] and e["command_id"] for e in history)
    assert {e["originator_id"] for e in history} == {table["id"]}
    assert [e["position"] for e in history] == sorted(e["position"] for e in history)
    bought = [e for e in history if e["event"] == "Table.ChipsBought"]
    assert {(e["actor"], e["actor_role"]) for e in bought} == {("cris", "crupier")}
    drawn = history[2]["data"]
    assert set(drawn) >= {"assignment", "record", "button", "button_draw"}

    mine = inspector.get(f"/api/players/{players[card]}/history/").json()
    assert [e["event"] for e in mine] == [
        "Player.Registered",
        "Player.JoinedWaitingList",
        "Player.Seated",
        "Player.LeftWaitingList",
    ]
    assert {(e["actor"], e["actor_role"]) for e in mine} == {("jaime", "jefe_sector")}
    assert all(e["command_id"] for e in mine)

    # Paged by log position: ``?after=`` the last position seen.
    url = f"/api/tables/{table['id']}/history/"
    rest = inspector.get(url, {"after": history[1]["position"]}).json()
    assert rest == history[2:]
    assert inspector.get(url, {"after": history[-1]["position"]}).json() == []
    for bad in ("-1", "x", "1e3", str(2**64)):
        refused(inspector.get(url, {"after": bad}), 400, "filter_invalid")


def test_a_repeated_command_answers_its_first_outcome(jefe, running, floor_app):
    table = running["table"]
    card = next(iter(seats_of(table)))
    body = {"command_id": new_id(), "player": card}
    first = jefe.post(f"/api/tables/{table['id']}/rest/", body, format="json")
    length = floor_app.recorder.max_notification_id()
    again = jefe.post(f"/api/tables/{table['id']}/rest/", body, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["result"] == first.json()["result"]
    assert floor_app.recorder.max_notification_id() == length


# --- bad input: a code, never a 500, nothing recorded -------------------------------------


@pytest.fixture
def unchanged(floor_app):
    """Asserts that the requests made inside recorded no event."""

    class Unchanged:
        def __enter__(self):
            self.before = floor_app.recorder.max_notification_id()

        def __exit__(self, *exc):
            assert floor_app.recorder.max_notification_id() == self.before

    return Unchanged()


def test_an_unknown_table_or_player_is_404(jefe, crupier, running, unchanged):
    with unchanged:
        for path, client, body in [
            ("buy-in/", crupier, {"player": CARDS[0], "amount_cents": 500}),
            ("seat/", jefe, {"player": CARDS[0], "seat": 1}),
            ("draw/", jefe, {}),
            ("close/", jefe, {}),
            ("hands/start/", crupier, {"dealt_in": [1, 2]}),
        ]:
            refused(post(client, f"/api/tables/{UNKNOWN}/{path}", **body), 404, "table_not_found")
        for path in ("floor/", "hands/", "history/"):
            refused(jefe.get(f"/api/tables/{UNKNOWN}/{path}"), 404, "not_found")
        refused(jefe.get(f"/api/sectors/{UNKNOWN}/floor/"), 404, "not_found")
        refused(jefe.get(f"/api/players/{UNKNOWN}/history/"), 404, "not_found")
        refused(
            post(jefe, "/api/waiting-lists/", player=CARDS[0], table_id=UNKNOWN),
            404,
            "table_not_found",
        )
        table = running["table"]["id"]
        refused(
            post(crupier, f"/api/tables/{table}/buy-in/", player="NOBODY", amount_cents=500),
            404,
            "player_not_found",
        )
        refused(post(jefe, f"/api/players/{UNKNOWN}/bar/", reason="x"), 404, "player_not_found")
        assert jefe.get("/api/players/", {"card": "nobody"}).json() == []
        # No card has a NUL (PostgreSQL refuses one in a query): a filter that
        # cannot be read, not a 500.
        refused(jefe.get("/api/players/", {"card": "C-1\x00"}), 400, "filter_invalid")


def test_a_seat_out_of_range_is_400(jefe, crupier, running, unchanged):
    url = f"/api/tables/{running['table']['id']}"
    card = next(iter(seats_of(running["table"])))
    ok(post(jefe, f"{url}/leave/", player=card))  # a free seat, the list's player called
    (called,) = set(CARDS[:7]) - set(seats_of(running["table"]))
    with unchanged:
        for seat in (0, 7, -1, 10**12):
            refused(post(jefe, f"{url}/seat/", player=called, seat=seat), 400, "seat_out_of_range")
        seated = next(c for c in seats_of(running["table"]) if c != card)
        refused(post(jefe, f"{url}/change-seat/", player=seated, seat=7), 400, "seat_out_of_range")
        refused(post(crupier, f"{url}/hands/start/", dealt_in=[1, 2, 9]), 400, "seat_out_of_range")
        refused(
            post(crupier, f"{url}/hands/start/", dealt_in=[1, 2], blinds={"x": 100}),
            400,
            "seat_out_of_range",
        )


def test_a_negative_or_zero_buy_in_is_400(crupier, running, unchanged):
    url = f"/api/tables/{running['table']['id']}/buy-in/"
    card = next(iter(seats_of(running["table"])))
    with unchanged:
        for amount in (-500, 0, "-1", 2.5, "ten", None, True, 10**30):
            response = post(crupier, url, player=card, amount_cents=amount)
            body = refused(response, 400, "invalid_input")
            assert "amount_cents" in body["fields"]
        # Within the types but outside the table's limits: the domain's 409.
        refused(post(crupier, url, player=card, amount_cents=50), 409, "rebuy_out_of_limits")


def player_id(client, card: str) -> str:
    (player,) = client.get("/api/players/", {"card": card}).json()
    return player["id"]


def test_a_barred_player_may_neither_register_nor_sit(jefe, sector, unchanged):
    table = open_table(jefe, sector)
    register(jefe, ["B-1"])
    url = f"/api/players/{player_id(jefe, 'B-1')}"
    barred = ok(post(jefe, f"{url}/bar/", reason="Self-excluded"))
    assert (barred["player"]["barred"], barred["player"]["bar_reason"]) == (True, "Self-excluded")
    with unchanged:
        refused(
            post(jefe, "/api/waiting-lists/", player="B-1", table_id=table["id"]),
            409,
            "player_barred",
        )
        refused(post(jefe, f"/api/tables/{table['id']}/seat/", player="B-1"), 409, "player_barred")
        refused(post(jefe, f"{url}/bar/", reason="again"), 409, "player_already_barred")
    lifted = ok(post(jefe, f"{url}/lift-bar/"))
    assert lifted["player"]["barred"] is False
    ok(post(jefe, "/api/waiting-lists/", player="B-1", table_id=table["id"]))


def test_a_closed_table_refuses_every_command(jefe, crupier, running, unchanged):
    url = f"/api/tables/{running['table']['id']}"
    ok(post(jefe, f"{url}/close/"))
    register(jefe, ["L-1"])
    card = CARDS[0]
    with unchanged:
        refused(post(jefe, f"{url}/seat/", player="L-1", seat=1), 409, "table_closed")
        refused(post(crupier, f"{url}/hands/start/", dealt_in=[1, 2]), 409, "table_closed")
        refused(post(jefe, f"{url}/close/"), 409, "table_closed")
        refused(post(jefe, f"{url}/draw/"), 409, "table_closed")
        # Its players left with the closing: they no longer sit there.
        refused(
            post(crupier, f"{url}/buy-in/", player=card, amount_cents=500),
            409,
            "table_closed",
        )
        refused(post(jefe, f"{url}/rest/", player=card), 409, "table_closed")


def test_a_role_that_may_not_is_403(api_as, jefe, running, unchanged):
    url = f"/api/tables/{running['table']['id']}"
    card = next(iter(seats_of(running["table"])))
    inspector = api_as("ines", "inspector")
    crupier = api_as("cris2", "crupier")
    cajero = api_as("caja", "cajero")
    with unchanged:
        for client, path, body in [
            (inspector, f"{url}/buy-in/", {"player": card, "amount_cents": 500}),
            (inspector, "/api/players/", {"card_number": "Z-1", "display_name": "Z"}),
            (crupier, f"{url}/draw/", {}),
            (crupier, f"{url}/seat/", {"player": card, "seat": 1}),
            (crupier, f"{url}/leave/", {"player": card}),
            (crupier, f"{url}/close/", {}),
            (crupier, "/api/waiting-lists/", {"player": card, "table_id": running["table"]["id"]}),
            (cajero, f"{url}/hands/start/", {"dealt_in": [1, 2]}),
            (cajero, f"/api/players/{running['players'][card]}/bar/", {"reason": "x"}),
        ]:
            refused(post(client, path, **body), 403, "role_not_allowed")
    # The cage may register players.
    ok(post(cajero, "/api/players/", card_number="Z-1", display_name="Z"))


def test_garbage_bodies_are_400(jefe, crupier, running, unchanged):
    url = f"/api/tables/{running['table']['id']}"
    card = next(iter(seats_of(running["table"])))
    with unchanged:
        for path in ("seat/", "buy-in/", "hands/start/", "close/", "draw/"):
            for raw in (b"{not json", b"[1, 2]", b'"text"', b"", b"null", b"\xff\xfe"):
                response = jefe.generic(
                    "POST", f"{url}/{path}", raw, content_type="application/json"
                )
                assert response.status_code == 400, (path, raw, response.content)
                assert response.json()["code"] in ("parse_error", "invalid_input"), raw
        for path, body in [
            ("buy-in/", {"player": card, "amount_cents": {"a": 1}}),
            ("buy-in/", {"player": [card], "amount_cents": 500}),
            ("buy-in/", {"player": card}),
            ("hands/start/", {"dealt_in": "1,2"}),
            ("hands/start/", {"dealt_in": []}),
            ("hands/start/", {"dealt_in": [1, 2], "blinds": [100]}),
            ("hands/start/", {"dealt_in": [1, 2], "blinds": {"1": -1}}),
            ("hands/end/", {"contributions": {"1": "x"}, "winnings": {}}),
            ("hands/end/", {"contributions": {}, "winnings": {}, "rake_cents": -1}),
            ("rest/", {"player": None}),
            ("close/", {"reason": "tired"}),
        ]:
            refused(post(jefe, f"{url}/{path}", **body), 400, "invalid_input")
        refused(post(jefe, f"{url}/seat/", player="bad card!"), 400, "card_number_invalid")
        refused(
            jefe.post(f"{url}/seat/", {"player": card}, format="json"), 400, "invalid_input"
        )  # no command id
        refused(post(jefe, "/api/waiting-lists/", player=card), 400, "invalid_input")
        refused(
            post(jefe, "/api/players/", card_number="A" * 41, display_name="x"),
            400,
            "invalid_input",
        )
        refused(
            post(jefe, "/api/players/", card_number="A B", display_name="x"),
            400,
            "card_number_invalid",
        )


# --- random bodies -----------------------------------------------------------------------

TABLE_COMMANDS = [
    "seat/",
    "seat-change-request/",
    "change-seat/",
    "leave/",
    "buy-in/",
    "rest/",
    "rest/end/",
    "close/",
    "hands/start/",
    "hands/end/",
    "draw/",
]
GAME = ["variant", "limit", "minimum_cents", "maximum_cents"]
FIELDS = [
    "command_id",
    "player",
    "seat",
    "amount_cents",
    "reason",
    "dealt_in",
    "button",
    "blinds",
    "variant",
    "contributions",
    "winnings",
    "rake_cents",
    "pot_cents",
    "table_id",
    "table_ids",
    "post_big_blind",
    "leave_other_lists",
    "limit",
    "minimum_cents",
    "maximum_cents",
    "card_number",
    "display_name",
    "closes_at",
    "to_table_id",
    "other",
    "on",
    "proposal_id",
]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from([*CARDS, "1", "-5", "texas_holdem", "no_limit", UNKNOWN, "\x00", "1e3"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["1", "2", "3", "x", "-1"]), inner, max_size=4)
    ),
    max_leaves=8,
)
# Plausible values most of the time, so that bodies get past the types to the rules.
plausible = {
    "player": st.sampled_from([*CARDS, "c-1", "Z-9", UNKNOWN]),
    "seat": st.integers(min_value=-1, max_value=8),
    "button": st.integers(min_value=0, max_value=7),
    "amount_cents": st.sampled_from([1, 100, 200, 500, 1000, 5000]),
    "rake_cents": st.integers(min_value=0, max_value=60),
    "pot_cents": st.sampled_from([0, 400, 20_000, 20_001]),
    "dealt_in": st.lists(st.integers(min_value=0, max_value=7), max_size=7),
    "blinds": st.dictionaries(st.sampled_from("1234567"), st.sampled_from([0, 100, 200])),
    "contributions": st.dictionaries(st.sampled_from("123456"), st.sampled_from([0, 200, 400])),
    "winnings": st.dictionaries(st.sampled_from("123456"), st.sampled_from([0, 200, 390, 400])),
    "reason": st.sampled_from(["left", "must_leave", "removed", "closed_by_jefe", "withdrew"]),
    "variant": st.sampled_from(["texas_holdem", "omaha", "pai_gow"]),
    "limit": st.sampled_from(["no_limit", "pot_limit"]),
    "minimum_cents": st.sampled_from([200, 201, 400]),
    "maximum_cents": st.sampled_from([1000, 600]),
    "card_number": st.sampled_from(["N-1", "n-2", "C-1", " ", "a b"]),
    "display_name": st.sampled_from(["Ana", "", "x" * 61, "A\x07"]),
    "table_id": st.sampled_from(["TABLE", UNKNOWN]),
    "table_ids": st.lists(st.sampled_from(["TABLE", UNKNOWN]), max_size=3),
    "to_table_id": st.sampled_from(["TABLE", "SPARE", UNKNOWN, "x"]),
    "other": st.sampled_from([*CARDS, UNKNOWN, ""]),
    "on": st.booleans(),
    "proposal_id": st.integers(min_value=-1, max_value=3),
    "closes_at": st.sampled_from(
        ["2026-11-23T05:00:00+01:00", "2026-11-23T05:00:00", "2020-01-01T00:00:00Z", "tonight"]
    ),
}


def mostly(strategy):
    """``strategy`` three times in four, any JSON value otherwise (an explicit
    choice: ``one_of`` would weigh the many branches of ``json_values``)."""
    return st.integers(0, 3).flatmap(lambda k: json_values if k == 0 else strategy)


fields = {name: mostly(plausible[name]) if name in plausible else json_values for name in FIELDS}
random_bodies = st.one_of(st.dictionaries(st.sampled_from(FIELDS), json_values), json_values)

# Each endpoint's fields: those it needs, then those it may take.
ENDPOINT_FIELDS = {
    "seat/": (["player"], ["seat", "post_big_blind", "leave_other_lists"]),
    "seat-change-request/": (["player"], []),
    "seat-change-request/withdraw/": (["player"], []),
    "call-next/": (["seat"], []),
    "action-clock/start/": (["seat", "pot_cents"], []),
    "action-clock/stop/": (["seat"], []),
    "absence/": (["player"], []),
    "absence/end/": (["player"], []),
    "closing/": (["closes_at"], []),
    "table-change-request/": (["player"], []),
    "table-change-request/withdraw/": (["player"], []),
    "grant-table-change/": (["to_table_id"], ["seat"]),
    "break/": ([], []),
    "keep-apart/": (["other", "reason"], []),
    "allow-together/": (["other"], []),
    "tournament/": ([], []),
    "tournament/leave/": ([], []),
    "/api/tournament/dinner-break/": (["on"], []),
    "accept/": (["proposal_id"], []),
    "override/": (["player", "to_table_id", "reason"], ["seat"]),
    "change-seat/": (["player", "seat"], []),
    "leave/": (["player"], ["reason"]),
    "buy-in/": (["player", "amount_cents"], []),
    "rest/": (["player"], []),
    "rest/end/": (["player"], []),
    "close/": ([], ["reason"]),
    "hands/start/": (["dealt_in"], ["button", "blinds", "variant"]),
    "hands/end/": (["contributions", "winnings"], ["rake_cents"]),
    "draw/": ([], ["table_ids"]),
    "/api/players/": (["card_number", "display_name"], []),
    "/api/waiting-lists/": (["player"], ["table_id", *GAME]),
    "/api/waiting-lists/leave/": (["player"], ["table_id", "reason", *GAME]),
    "bar/": (["reason"], []),
    "lift-bar/": ([], []),
}


def body_for(path: str, kind: int):
    """Kinds 0-5: the endpoint's own fields, plausible; 6-7: its fields, mostly
    plausible, among other fields; 8-9: anything."""
    needed, optional = ENDPOINT_FIELDS[path]
    if kind <= 5:
        return st.fixed_dictionaries(
            {name: plausible.get(name, json_values) for name in needed},
            optional={name: plausible.get(name, json_values) for name in optional},
        )
    if kind <= 7:
        return st.fixed_dictionaries(
            {name: fields[name] for name in needed},
            optional={name: fields[name] for name in FIELDS if name not in needed},
        )
    return random_bodies


@pytest.fixture
def spare(jefe, sector, running):
    """A second table of another game, still registering."""
    return open_table(jefe, sector, minimum_cents=400)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    path=st.sampled_from(list(ENDPOINT_FIELDS)),
    kind=st.integers(0, 9),
    data=st.data(),
    with_command_id=st.integers(0, 3).map(bool),
)
def test_no_body_makes_a_floor_command_answer_500(
    jefe, sector, running, spare, path, kind, data, with_command_id
):
    """Random JSON to every command endpoint: a refusal with a code, or a success."""
    body = data.draw(body_for(path, kind), label="body")
    if with_command_id and isinstance(body, dict):
        body = {**body, "command_id": new_id()}
    table, players = running["table"], running["players"]
    if path.startswith("/api/"):
        url = path
    elif path in ("accept/", "override/"):
        group = jefe.get("/api/balance-groups/").json()[0]
        url = f"/api/balance-groups/{group['id']}/{path}"
    elif path in (
        "bar/",
        "lift-bar/",
        "keep-apart/",
        "allow-together/",
        "tournament/",
        "tournament/leave/",
    ):
        url = f"/api/players/{players[CARDS[0]]}/{path}"
    elif path == "closing/":
        url = f"/api/sectors/{sector['id']}/closing/"
    elif path in ("close/", "draw/", "break/"):
        # Not the running table: closing it would end the exploration early.
        url = f"/api/tables/{spare['id']}/{path}"
    else:
        url = f"/api/tables/{table['id']}/{path}"
    raw = json.dumps(body).replace('"TABLE"', f'"{table["id"]}"')
    raw = raw.replace('"SPARE"', f'"{spare["id"]}"')
    response = jefe.generic("POST", url, raw, content_type="application/json")
    assert response.status_code < 500, (url, body, response.content)
    if response.status_code >= 400:
        assert response.json()["code"], response.content


def test_the_absence_clock_and_the_closing_time_through_the_api(
    jefe, crupier, sector, running, floor_app, clock
):
    table = running["table"]
    seated = sorted(seats_of(table), key=seats_of(table).get)
    url = f"/api/tables/{table['id']}"
    # A hand first: the absence clock is for a player who has played one (CM-19).
    refused(post(crupier, f"{url}/absence/", player=seated[0]), 409, "absence_needs_hand_played")
    dealt = [seats_of(table)[c] for c in seated]
    ok(post(crupier, f"{url}/hands/start/", dealt_in=dealt))
    ok(post(crupier, f"{url}/hands/end/", contributions={}, winnings={}))
    away = ok(post(crupier, f"{url}/absence/", player=seated[0]))
    seat = next(s for s in away["table"]["occupied_seats"] if s["card_number"] == seated[0])
    assert seat["away"]["expires_at"] == away["result"]["expires_at"]
    assert away["result"]["warn_at"] == (clock.now() + timedelta(minutes=20)).isoformat()
    back = ok(post(crupier, f"{url}/absence/end/", player=seated[0]))
    assert all(s["away"] is None for s in back["table"]["occupied_seats"])
    refused(post(crupier, f"{url}/absence/", player=seated[0]), 409, "absence_used_today")
    # The closing time: the crupier may not announce it; the jefe does.
    closes_at = (clock.now() + timedelta(hours=2)).isoformat()
    closing_url = f"/api/sectors/{sector['id']}/closing/"
    refused(post(crupier, closing_url, closes_at=closes_at), 403, "role_not_allowed")
    answer = ok(post(jefe, closing_url, closes_at=closes_at))
    assert answer["sector"]["last_hands_at"] == answer["result"]["last_hands_at"]
    past = (clock.now() - timedelta(minutes=1)).isoformat()
    refused(post(jefe, closing_url, closes_at=past), 409, "closing_time_past")
    refused(post(jefe, closing_url, closes_at="tonight"), 400, "invalid_input")


def test_balancing_through_the_api(jefe, crupier, sector, running, floor_app):
    """A second table of the game: a proposal with why, accepted; separation and
    the tournament refuse a seat with their codes."""
    table = running["table"]
    second = open_table(jefe, sector)
    extra = [f"D-{n}" for n in range(1, 6)]
    register(jefe, extra)
    join(jefe, second["id"], extra)
    ok(post(jefe, f"/api/tables/{second['id']}/draw/"))
    seated = sorted(seats_of(table))
    for card in seated[:2]:  # six and five... then four: two apart
        ok(post(jefe, f"/api/tables/{table['id']}/leave/", player=card))
    groups = jefe.get("/api/balance-groups/").json()
    assert len(groups) == 1
    group = groups[0]
    assert group["spread"] == 2 and group["proposal"]["why"]["player"]
    assert group["proposal"]["from_table"] == second["id"]
    floor = jefe.get(f"/api/sectors/{sector['id']}/floor/").json()
    assert [p["id"] for p in floor["balance_proposals"]] == [group["proposal"]["id"]]
    assert floor["balance_proposals"][0]["why"] == group["proposal"]["why"]
    accepted = ok(
        post(
            jefe,
            f"/api/balance-groups/{group['id']}/accept/",
            proposal_id=group["proposal"]["id"],
        )
    )
    assert accepted["balance_group"]["spread"] == 0
    assert accepted["balance_group"]["proposal"] is None
    assert jefe.get(f"/api/sectors/{sector['id']}/floor/").json()["balance_proposals"] == []
    refused(
        post(jefe, f"/api/balance-groups/{group['id']}/accept/", proposal_id=99),
        409,
        "no_such_proposal",
    )
    # Kept apart from someone at the table, or in the tournament: refused.
    free = second_floor(jefe, table)["free_seats"][0]
    newcomers = register(jefe, ["D-8", "D-9"])
    join(jefe, table["id"], ["D-8", "D-9"])
    still = sorted(seats_of(second_floor(jefe, table)))[0]
    ok(post(jefe, f"/api/players/{newcomers['D-8']}/keep-apart/", other=still, reason="Cousins"))
    seat_url = f"/api/tables/{table['id']}/seat/"
    refused(post(jefe, seat_url, player="D-8", seat=free), 409, "players_kept_apart")
    ok(post(jefe, "/api/waiting-lists/leave/", player="D-8", table_id=table["id"]))
    ok(post(jefe, f"/api/players/{newcomers['D-9']}/tournament/"))
    refused(post(jefe, seat_url, player="D-9", seat=free), 409, "player_in_tournament")
    ok(post(jefe, "/api/tournament/dinner-break/", on=True))
    ok(post(jefe, seat_url, player="D-9", seat=free))


def second_floor(jefe, table: dict) -> dict:
    return jefe.get(f"/api/tables/{table['id']}/floor/").json()
