"""The history reports (issue 9, item 2): the events of one table, player or
account from the journal, and a table replayed to a past moment.

The shift (UTC, profile CM), in Sector HR: at 20:00 tables 1 and 2 open, their
trays filled by the cage, and each draws its seats among four players who buy
in for 10 EUR. Table 1 plays a hand at 20:10; at 20:20 a hand starts, and ends
at 20:25 with seat A winning 4 EUR from seat B; at 20:30 a player leaves (the
table is suspended with three) and cashes out at the cage; at 20:40 the jefe
closes the table. Table 2 plays a hand at 20:15.

The histories are checked against the log itself, read as domain events: a
table's or player's are the events that are theirs or name their id anywhere,
an account's those that post to it or name it. The past tables are checked
against the table's own view, as the API showed it at each moment.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import pytest
from rest_framework.test import APIClient

from floor import runtime
from floor.projections.journal import METADATA
from floor.reports.history import COLUMNS
from floor.reports.table_at import SEAT_COLUMNS
from ledger.domain.accounts import AccountRef
from ledger.domain.transaction import Transaction
from ledger.domain.tray_request import TrayRequest
from ledger.models import AccountView
from tests.support.floor import JEFE, new_id
from tests.support.money import CAJERO
from tests.support.room import Room, all_events

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


def at(clock, minutes: int) -> None:
    """Moves the clock to 20:00 + ``minutes``."""
    clock.advance(START + timedelta(minutes=minutes) - clock.now())


@pytest.fixture
def shift(floor_app, clock, api_as) -> dict:
    """Builds the module's shift; keeps table 1's view at each step."""
    room = Room(floor_app, tag="HR")
    jefe = api_as("jaime-view", "jefe_sector")
    views = {}

    def view(minutes: int) -> None:
        runtime.floor_projector().catch_up()
        response = jefe.get(f"/api/tables/{first}/floor/")
        assert response.status_code == 200
        views[minutes] = response.json()

    first, cards = room.drawn_table(4)
    second, others = room.drawn_table(4, variant="omaha")
    view(0)
    at(clock, 10)
    room.played(first)
    view(10)
    at(clock, 15)
    room.played(second)
    at(clock, 20)
    started = room.start(first)
    view(20)
    a, b = started["dealt_in"][:2]
    at(clock, 25)
    room.end(first, {str(a): 400, str(b): 400}, {str(a): 800})
    view(25)
    at(clock, 30)
    leaver = room.seats(first)[b]
    room.leave(first, leaver)
    floor_app.cash_out(CAJERO, new_id(), player=leaver)
    view(30)
    at(clock, 40)
    floor_app.close_table(JEFE, new_id(), table_id=first)
    view(40)
    runtime.floor_projector().catch_up()
    return {"room": room, "first": first, "second": second, "cards": cards,
            "others": others, "leaver": leaver, "views": views}  # fmt: skip


@pytest.fixture
def inspector(api_as):
    return api_as("ines", "inspector")


def history(client, **params) -> dict:
    response = client.get("/api/reports/history/", {"page_size": 1000, **params})
    assert response.status_code == 200, response.content
    return response.json()


def positions(client, **params) -> list[int]:
    return [e["position"] for e in history(client, **params)["results"]]


# --- the oracle: the log itself -----------------------------------------------------------


def _strings(value) -> list[str]:
    """Every string in an event's attribute, dict keys included."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k), *_strings(v)]]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return [str(value)]


def logged(app) -> list[tuple[int, object]]:
    """(position, event) for every event but the command records."""
    events = all_events(app)
    return [
        (n, e)
        for n, e in enumerate(events, start=1)
        if not type(e).__qualname__.startswith("CommandRecord.")
    ]


def naming(app, some_id: str) -> list[int]:
    """The positions of the events that are ``some_id``'s or name it anywhere."""
    forms = (UUID(some_id).hex, str(UUID(some_id)))
    found = []
    for position, event in logged(app):
        data = {k: v for k, v in vars(event).items() if k not in METADATA}
        named = any(f in s for s in _strings(data) for f in forms)
        if event.originator_id == UUID(some_id) or named:
            found.append(position)
    return found


# --- histories ----------------------------------------------------------------------------


def test_a_players_history_is_every_event_that_names_them(shift, floor_app, inspector):
    player = shift["room"].player(shift["leaver"])
    found = history(inspector, player=str(player.id))
    expected = naming(floor_app, str(player.id))
    assert [e["position"] for e in found["results"]] == expected
    assert found["count"] == len(expected) > 10
    names = [e["event"] for e in found["results"]]
    for name in ("Player.Registered", "WaitingList.Registered", "Table.SeatsDrawn",
                 "Table.ChipsBought", "Table.HandEnded", "Table.PlayerLeft",
                 "Player.LeftTable", "Transaction.Posted", "Account.Opened"):  # fmt: skip
        assert name in names, name
    assert names.count("Table.HandEnded") == 2  # the hands they were dealt in
    cashed = [e for e in found["results"] if e["data"].get("kind") == "cash_out"]
    assert [(e["actor"], e["actor_role"], e["data"]["player_id"]) for e in cashed] == [
        ("carla", "cajero", player.id.hex)
    ]
    # By card number, the same history; another player's is another one.
    assert positions(inspector, player=shift["leaver"]) == expected
    assert positions(inspector, player=shift["leaver"].lower()) == expected
    other = shift["others"][0]
    assert set(positions(inspector, player=other)).isdisjoint(
        set(expected) - set(naming(floor_app, str(shift["room"].player(other).id)))
    )


def test_a_tables_history_takes_its_fills_and_money_too(shift, floor_app, inspector):
    first = shift["first"]
    requests = {
        e.originator_id
        for _, e in logged(floor_app)
        if isinstance(e, TrayRequest.Requested) and e.table_id == UUID(first).hex
    }
    expected = sorted(
        set(naming(floor_app, first))
        | {n for n, e in logged(floor_app) if e.originator_id in requests}
    )
    found = history(inspector, table=first)
    assert [e["position"] for e in found["results"]] == expected
    names = [e["event"] for e in found["results"]]
    assert names.count("Table.HandEnded") == 2
    assert {"TrayRequest.Requested", "TrayRequest.Confirmed", "Sector.TableAdded",
            "Table.Closed", "Transaction.Posted"} <= set(names)  # fmt: skip
    table_events = [e for e in found["results"] if e["originator_id"] == first]
    table = shift["room"].get(first)
    assert [e["originator_version"] for e in table_events] == list(range(1, table.version + 1))
    assert first not in {e["originator_id"] for e in history(inspector, table=shift["second"])[
        "results"]}  # fmt: skip


def test_a_stored_event_gone_or_unreadable_is_shown_as_such_in_a_history(
    shift, floor_app, inspector, caplog
):
    """The history shows every row; one whose stored event is gone or cannot be
    decoded shows the explicit marker with its position (and is logged), never
    ``{}`` nor a 500. An account named by its id needs its opening's data: gone,
    the history is refused with a code."""
    from floor.selectors.journal import entries
    from tests.floor.test_verify_log import tamper_stored

    table = entries().filter(originator_id=shift["first"]).order_by("position")
    drawn = next(r for r in table if r.topic.endswith(":Table.SeatsDrawn"))
    tamper_stored(floor_app, drawn.position, state=b"x not a zlib stream")
    ref = AccountRef("cage_chips")
    opened = entries().filter(originator_id=ref.aggregate_id).order_by("position").first()
    assert opened.topic.endswith(":Account.Opened")
    tamper_stored(floor_app, opened.position, sql="DELETE")

    found = {e["position"]: e for e in history(inspector, table=shift["first"])["results"]}
    shown = found[drawn.position]["data"]
    assert set(shown) == {"_missing", "_position"} and shown["_position"] == drawn.position
    assert shown["_missing"].startswith(
        f"position {drawn.position}: the stored event cannot be decoded: "
        "MapperDeserialisationError: "
    )
    assert f"journal data at position {drawn.position}" in caplog.text
    by_name = {e["position"]: e for e in history(inspector, account="cage_chips")["results"]}
    assert by_name[opened.position]["data"] == {
        "_missing": f"position {opened.position}: no stored event",
        "_position": opened.position,
    }
    response = inspector.get("/api/reports/history/", {"account": str(ref.aggregate_id)})
    assert (response.status_code, response.json()["code"]) == (409, "stored_event_unreadable")
    assert str(opened.position) in response.json()["message"]


def test_an_accounts_history_by_name_or_id(shift, floor_app, inspector):
    ref = AccountRef("cage_chips")
    expected = [
        n
        for n, e in logged(floor_app)
        if e.originator_id == ref.aggregate_id
        or (isinstance(e, Transaction.Posted) and ref.name in e.postings)
        or (type(e).__qualname__.startswith("GamingDay.") and ref.name in _strings(vars(e)))
    ]
    found = history(inspector, account="cage_chips")
    assert [e["position"] for e in found["results"]] == expected
    postings = [e for e in found["results"] if e["event"] == "Account.Posted"]
    balance = AccountView.objects.get(name="cage_chips").balance_cents
    assert postings[-1]["data"]["balance"] == balance
    assert positions(inspector, account=str(ref.aggregate_id)) == expected

    player = shift["room"].player(shift["leaver"]).id
    stack = f"stack:{UUID(shift['first']).hex}:{player.hex}"
    dashed = f"stack:{shift['first']}:{player}"
    found = history(inspector, account=dashed)["results"]
    assert [e["position"] for e in found] == positions(inspector, account=stack)
    kinds = [e["data"]["kind"] for e in found if e["event"] == "Transaction.Posted"]
    # The first hand gave every stack back: it moved no money, so no transaction.
    assert kinds == ["buy_in", "hand", "stack_left"]
    # The world outside is not an aggregate: only the transactions that post to it.
    outside = history(inspector, account="external")["results"]
    assert {e["event"] for e in outside} == {"Transaction.Posted"}


def test_a_history_is_cut_to_the_range(shift, floor_app, inspector):
    first = shift["first"]
    everything = history(inspector, table=first)["results"]
    late = history(inspector, table=first, **{"from": "2026-11-22T20:25:00Z"})["results"]
    assert late == [e for e in everything if e["occurred_at"] >= "2026-11-22T20:25:00Z"]
    own = [e["event"] for e in late if e["originator_id"] == first]
    assert own[0] == "Table.HandEnded" and own[-1] == "Table.Closed"
    # The stacks left at the close go back to their players after it.
    assert late[-1]["event"] == "Transaction.Posted" and late[-1]["data"]["kind"] == "stack_left"
    early = history(inspector, table=first, to="2026-11-22T20:10:00Z")["results"]
    assert {e["occurred_at"] for e in early} == {"2026-11-22T20:00:00Z"}
    assert history(inspector, table=first, **{"from": "2026-11-23"})["results"] == []


def test_a_history_pages_and_links_the_next(shift, inspector):
    everything = history(inspector, table=shift["second"])["results"]
    first = inspector.get("/api/reports/history/", {"table": shift["second"], "page_size": 5})
    body = first.json()
    assert (body["count"], body["results"], body["previous"]) == (
        len(everything),
        everything[:5],
        None,
    )
    second = inspector.get(body["next"]).json()
    assert second["results"] == everything[5:10]
    assert "page=1" in second["previous"]


def test_a_history_as_csv(shift, inspector):
    player = shift["leaver"]
    response = inspector.get("/api/reports/history/", {"player": player, "format": "csv"})
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="history-player.csv"'
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0] == list(COLUMNS)
    everything = history(inspector, player=player)["results"]
    assert len(table) == len(everything) + 1
    for line, event in zip(table[1:], everything, strict=True):
        row = dict(zip(COLUMNS, line, strict=True))
        assert (int(row["position"]), row["event"], row["actor"]) == (
            event["position"],
            event["event"],
            event["actor"],
        )
        assert json.loads(row["data"]) == event["data"]


# --- a table at a past moment -------------------------------------------------------------


TIMES = ("opened_at", "suspended_at", "closes_at", "closed_at")


def in_utc(view: dict) -> dict:
    """The table's view with its times in UTC, as every report gives them (the
    floor's own view gives them in the casino's time zone)."""
    return {
        k: v if k not in TIMES or v is None else
        datetime.fromisoformat(v).astimezone(UTC).isoformat().replace("+00:00", "Z")
        for k, v in view.items()
    }  # fmt: skip


def table_at(client, table_id: str, moment: str, **params):
    return client.get(f"/api/reports/tables/{table_id}/at/", {"moment": moment, **params})


@pytest.mark.parametrize("minutes", [0, 10, 20, 25, 30, 40])
def test_a_table_at_a_past_moment_is_its_view_then(shift, inspector, minutes):
    moment = START + timedelta(minutes=minutes, seconds=30)
    response = table_at(inspector, shift["first"], moment.isoformat())
    assert response.status_code == 200, response.content
    found = response.json()
    assert found["table"] == in_utc(shift["views"][minutes])
    assert found["moment"] == moment.isoformat().replace("+00:00", "Z")
    assert found["last_event_at"] <= found["moment"]


def test_the_past_table_moves_with_the_shift(shift, inspector):
    def state(moment: str) -> dict:
        return table_at(inspector, shift["first"], moment).json()

    drawn, played, dealing, dealt = (
        state(f"2026-11-22T20:{m}:00Z") for m in ("05", "10", "20", "25")
    )
    assert (drawn["table"]["hands_played"], played["table"]["hands_played"]) == (0, 1)
    assert dealing["table"]["hand_in_progress"] == 2 and dealt["table"]["hand_in_progress"] is None
    stacks = {s["seat"]: s["stack_cents"] for s in dealt["table"]["occupied_seats"]}
    assert sorted(stacks.values()) == [600, 1000, 1000, 1400]
    assert [
        len(state(f"2026-11-22T20:{m}:00Z")["table"]["occupied_seats"]) for m in ("29", "30")
    ] == [4, 3]
    suspended = state("2026-11-22T20:35:00Z")["table"]
    assert (suspended["status"], suspended["suspended_at"]) == ("suspended", "2026-11-22T20:30:00Z")
    closed = state("2026-11-22T20:40:00Z")
    assert (closed["table"]["status"], closed["table"]["closed_at"]) == (
        "closed",
        "2026-11-22T20:40:00Z",
    )
    # An offset names the same moment; one still to come is the table now.
    assert state("2026-11-22T21:10:00+01:00")["table"] == played["table"]
    assert state("2030-01-01T00:00:00Z")["table"] == in_utc(shift["views"][40])
    now = inspector.get(f"/api/reports/tables/{shift['first']}/at/").json()
    assert now["table"] == in_utc(shift["views"][40])
    assert now["moment"] == "2026-11-22T20:40:00Z"  # the floor's clock
    assert played["version"] < dealing["version"] < dealt["version"]


def test_the_past_table_seats_as_csv(shift, inspector):
    response = table_at(inspector, shift["first"], "2026-11-22T20:25:00Z", format="csv")
    assert response["Content-Disposition"] == 'attachment; filename="table-at.csv"'
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0] == list(SEAT_COLUMNS)
    seats = shift["views"][25]["occupied_seats"]
    assert [(int(r[3]), r[5], int(r[7])) for r in table[1:]] == [
        (s["seat"], s["card_number"], s["stack_cents"]) for s in seats
    ]


@pytest.mark.parametrize(
    ("moment", "status", "code"),
    [
        ("", 400, "report_filter_invalid"),
        ("2026-11-22T20:30:00+25:00", 400, "report_filter_invalid"),
        ("noon", 400, "report_filter_invalid"),
        ("2026-11-22T20:30:00", 400, "report_filter_invalid"),  # no zone
        ("2026-11-22", 400, "report_filter_invalid"),
        ("0001-01-01T00:00:00+05:00", 400, "report_filter_invalid"),  # before year 1 in UTC
        ("9999-12-31T23:59:59-05:00", 400, "report_filter_invalid"),  # after 9999 in UTC
        ("2026-11-22T19:59:59Z", 404, "report_moment_before_table"),
    ],
)
def test_a_bad_moment_is_a_clear_refusal(shift, inspector, moment, status, code):
    response = table_at(inspector, shift["first"], moment)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert response.json()["message"]


def test_a_table_that_is_not_one_is_a_404(db, floor_app, inspector):
    for table_id in (str(uuid4()), "not-a-table"):
        response = table_at(inspector, table_id, "2026-11-22T20:30:00Z")
        assert (response.status_code, response.json()["code"]) == (404, "table_not_found")


# --- who may read, and bad input ----------------------------------------------------------


def test_the_dealer_reads_no_history_and_the_cage_no_past_table(shift, api_as):
    subject = {"table": shift["first"]}
    moment = "2026-11-22T20:30:00Z"
    for role in ("director", "inspector", "jefe_sector", "cajero"):
        client = api_as(f"u-{role}", role)
        assert client.get("/api/reports/history/", subject).status_code == 200, role
        expected = 403 if role == "cajero" else 200
        assert table_at(client, shift["first"], moment).status_code == expected, role
    dealer = api_as("cris-reader", "crupier")
    for response in (dealer.get("/api/reports/history/", subject),
                     table_at(dealer, shift["first"], moment)):  # fmt: skip
        assert (response.status_code, response.json()["code"]) == (403, "role_not_allowed")
    assert APIClient().get("/api/reports/history/", subject).status_code == 401
    assert table_at(APIClient(), shift["first"], moment).status_code == 401


@pytest.mark.parametrize(
    ("params", "status", "code"),
    [
        ({}, 400, "report_subject_invalid"),
        ({"table": "{first}", "player": "HR-0001"}, 400, "report_subject_invalid"),
        ({"table": "12"}, 400, "report_filter_invalid"),
        ({"table": "{first}", "sector": "Sector HR"}, 400, "report_filter_invalid"),
        ({"table": "{first}", "from": "yesterday"}, 400, "report_filter_invalid"),
        ({"table": "{first}", "page_size": "0"}, 400, "report_page_invalid"),
        ({"account": "vault"}, 400, "report_filter_invalid"),
        ({"account": "tray:12"}, 400, "report_filter_invalid"),
        ({"table": str(uuid4())}, 404, "table_not_found"),
        ({"player": "NOBODY-1"}, 404, "player_not_found"),
        ({"player": str(uuid4())}, 404, "player_not_found"),
        ({"player": "HR-\x00"}, 400, "report_filter_invalid"),  # no card has a NUL
        ({"account": f"tray:{uuid4().hex}"}, 404, "account_not_found"),
        ({"account": str(uuid4())}, 404, "account_not_found"),
    ],
)
def test_a_bad_history_request_is_a_clear_refusal(shift, inspector, params, status, code):
    params = {k: v.format(first=shift["first"]) for k, v in params.items()}
    response = inspector.get("/api/reports/history/", params)
    assert (response.status_code, response.json()["code"]) == (status, code), response.content
    assert response.json()["message"]
