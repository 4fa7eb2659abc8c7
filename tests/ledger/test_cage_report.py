"""The cage report (issue 9, item 2): each gaming day's opening, money and
position, and each fill, credit and count difference with who, when and why,
checked to the cent against two days built through the real commands.

Day 2026-11-22 (UTC, profile CM): the cage is funded (10,000 EUR cash, 20,000
of chips) and opens at 20:00. Table 1 is drawn among five players; the jefe
asks a fill of 500 EUR at 20:05, the cage confirms it at 20:06; he asks one of
200 EUR at 20:10 and the cage cancels it at 20:11. Buy-ins of 85 EUR in all
(35 cash at the table, 40 with chips bought at the cage, 10 paid at the cage),
three hands raked 1 + 2 EUR, 8 EUR of tips and 2 of hospitality; a credit of
100 EUR asked at 20:40, confirmed at 20:41; three players cash out 82 EUR. The
count at 21:00 finds the tray 15 EUR short, the recount at 21:02 5 EUR short;
explained at 21:05 ("other"), counted again at 21:07, the day closes at 21:10
(the same day as tests/ledger/test_gaming_day.py, with the reasons' steps).

Day 2026-11-23: at 12:00 the director adds 50 EUR of chips to the cage, at
12:05 the cage opens counting its cash 1 EUR short, explains it at 12:10
(cash_short), sells 10 EUR of chips at 12:20; at 12:30 the jefe asks a credit
of 50 EUR that nobody has confirmed yet.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from rest_framework.test import APIClient

from floor import runtime
from ledger.models import AccountView, GamingDayView, TransactionView
from ledger.reports.cage import COLUMNS as DAY_COLUMNS
from ledger.reports.cage_moves import COLUMNS as MOVE_COLUMNS
from tests.support.floor import CRUPIER, DIRECTOR, JEFE, new_id
from tests.support.money import CAJERO
from tests.support.room import Room

pytestmark = pytest.mark.django_db

STAKES = {"minimum_cents": 400, "maximum_cents": 2_000}  # CM rakes 5 % of each whole 20 EUR
MINUTE = timedelta(minutes=1)
NOTE = "a 5 EUR chip under the table"


def at(clock, hhmm: str, day: int = 22) -> None:
    """Moves the clock forward to ``hhmm`` UTC of November ``day``."""
    hour, minute = map(int, hhmm.split(":"))
    target = datetime(2026, 11, day, hour, minute, tzinfo=UTC)
    assert target >= clock.now()
    clock.advance(target - clock.now())


@pytest.fixture
def days(floor_app, clock, django_capture_on_commit_callbacks) -> dict:
    """Builds the two days of the module's docstring."""
    app = floor_app
    room = Room(app, tag="CR")
    app.fund_cage(CAJERO, new_id(), cash_cents=1_000_000, chips_cents=2_000_000)
    app.open_gaming_day(CAJERO, new_id())
    table_id, cards = room.drawn_table(5, buy_in=None, tray_cents=0, **STAKES)
    p1, p2, p3, p4, p5 = cards

    def ask(move: str, cents: int) -> str:
        asked = app.request_tray_move(
            JEFE, new_id(), table_id=table_id, move=move, amount_cents=cents
        )
        return asked.result["request_id"]

    at(clock, "20:05")
    fill = ask("fill", 50_000)
    at(clock, "20:06")
    app.confirm_tray_move(CAJERO, new_id(), request_id=fill)
    at(clock, "20:10")
    cancelled = ask("fill", 20_000)
    at(clock, "20:11")
    app.cancel_tray_move(CAJERO, new_id(), request_id=cancelled, reason="the tray is full enough")

    at(clock, "20:15")
    for card, cents, paid_with in ((p1, 2_000, "cash"), (p2, 1_500, "cash")):
        app.buy_in(CRUPIER, new_id(), table_id=table_id, player=card, amount_cents=cents,
                   paid_with=paid_with)  # fmt: skip
    app.sell_chips(CAJERO, new_id(), player=p3, amount_cents=2_000)
    app.buy_in(CRUPIER, new_id(), table_id=table_id, player=p3, amount_cents=2_000,
               paid_with="chips")  # fmt: skip
    app.buy_in_at_cage(CAJERO, new_id(), table_id=table_id, player=p4, amount_cents=1_000)
    app.sell_chips(CAJERO, new_id(), player=p5, amount_cents=3_000)
    app.buy_in(CRUPIER, new_id(), table_id=table_id, player=p5, amount_cents=2_000,
               paid_with="chips")  # fmt: skip
    seat = {card: room.seat_of(table_id, card) for card in cards}

    def hand(put_in: dict, won: dict, rake: int) -> None:
        table = room.get(table_id)
        playing = [s for s in table.occupied() if not table.occupants[str(s)]["must_rebuy"]]
        room.start(table_id, playing)
        room.end(table_id, put_in, won, rake_cents=rake)

    at(clock, "20:20")
    hand({str(seat[p1]): 1_000, str(seat[p2]): 1_000}, {str(seat[p1]): 1_900}, 100)
    hand({str(seat[c]): 1_000 for c in (p3, p4, p5, p1)}, {str(seat[p3]): 3_800}, 200)
    hand({str(seat[p2]): 500, str(seat[p5]): 500}, {str(seat[p5]): 1_000}, 0)
    for card, cents, purpose in ((p1, 500, "tip"), (p3, 300, "tip"), (p5, 200, "hospitality")):
        app.take_chips_off(CRUPIER, new_id(), table_id=table_id, player=card,
                           amount_cents=cents, purpose=purpose)  # fmt: skip
    at(clock, "20:40")
    credit = ask("credit", 10_000)
    at(clock, "20:41")
    app.confirm_tray_move(CAJERO, new_id(), request_id=credit)
    at(clock, "20:50")
    for card in cards:
        room.leave(table_id, card)
    for card in (p1, p3, p5):
        app.cash_out(CAJERO, new_id(), player=card)

    tray = f"tray:{table_id.replace('-', '')}"
    counts = {"cage_cash": 997_800, "cage_chips": 1_962_200, tray: 36_500}
    counts |= {f"drop:{tray[5:]}": 3_500, f"rake:{tray[5:]}": 300, f"tips:{tray[5:]}": 800}
    at(clock, "21:00")
    app.count_gaming_day(CAJERO, new_id(), counts={**counts, tray: 35_000})
    at(clock, "21:02")
    app.count_gaming_day(CAJERO, new_id(), counts={**counts, tray: 36_000})
    at(clock, "21:05")
    app.explain_difference(CAJERO, new_id(), account=tray, reason_code="other", note=NOTE)
    at(clock, "21:07")
    app.count_gaming_day(CAJERO, new_id(), counts={**counts, tray: 36_000})
    at(clock, "21:10")
    app.close_gaming_day(CAJERO, new_id())

    at(clock, "12:00", day=23)
    app.fund_cage(DIRECTOR, new_id(), chips_cents=5_000)
    at(clock, "12:05", day=23)
    app.open_gaming_day(CAJERO, new_id(), counts={"cage_cash": 1_000_400})
    at(clock, "12:10", day=23)
    app.explain_difference(CAJERO, new_id(), account="cage_cash", reason_code="cash_short")
    at(clock, "12:20", day=23)
    app.sell_chips(CAJERO, new_id(), player=p1, amount_cents=1_000)
    at(clock, "12:30", day=23)
    pending = ask("credit", 5_000)
    with django_capture_on_commit_callbacks(execute=True):  # the close's anchor, once committed
        runtime.floor_projector().catch_up()
    return {"table_id": table_id, "tray": tray, "requests": (fill, cancelled, credit, pending),
            "sector": room.sector_id}  # fmt: skip


@pytest.fixture
def inspector(api_as):
    return api_as("ines", "inspector")


def page(client, **params) -> dict:
    response = client.get("/api/reports/cage/", params)
    assert response.status_code == 200, response.content
    return response.json()


def rows(client, **params) -> list[dict]:
    return page(client, **params)["results"]


# --- by gaming day -------------------------------------------------------------------------

FIRST_DAY = {
    "gaming_day": "2026-11-22",
    "status": "closed",
    "opened_at": "2026-11-22T20:00:00Z",
    "opened_by": "carla",
    "closed_at": "2026-11-22T21:10:00Z",
    "closed_by": "carla",
    "opening_cash_cents": 1_000_000,
    "opening_chips_cents": 2_000_000,
    "chips_sold_cents": 5_000,
    "buy_ins": 5,
    "buy_in_cents": 8_500,
    "cash_outs": 3,
    "cashed_out_cents": 8_200,
    "fills": 1,  # the cancelled one moved nothing
    "fill_cents": 50_000,
    "credits": 1,
    "credit_cents": 10_000,
    "rake_cents": 300,
    "tips_cents": 800,
    "hospitality_cents": 200,
    "jackpot_stakes_cents": 0,
    "jackpot_prizes_cents": 0,
    "exceptions": 1,  # the recount replaced the first count's difference
    "unexplained": 0,
    "differences_cents": -500,
    "result_cents": -200,  # the rake, less the 5 EUR the tray is short
    # Chips sold 5,000 and the buy-in paid at the cage 1,000, the drop 3,500 at the close.
    "cash_in_cents": 9_500,
    "cash_out_cents": 9_000,  # the cash-outs 8,200, the tips paid to the staff 800
    "chips_in_cents": 19_500,  # the credit, the chips cashed, the boxes at the close
    "chips_out_cents": 56_000,  # the fill, the chips sold and paid for at the cage
    "cash_cents": 1_000_500,
    "chips_cents": 1_963_500,
}
SECOND_DAY = {
    **dict.fromkeys(DAY_COLUMNS, 0),
    "gaming_day": "2026-11-23",
    "status": "open",
    "opened_at": "2026-11-23T12:05:00Z",
    "opened_by": "carla",
    "closed_at": None,
    "closed_by": None,
    "opening_cash_cents": 1_000_500,
    "opening_chips_cents": 1_963_500 + 5_000,  # the director's chips came before the open
    "chips_sold_cents": 1_000,
    "exceptions": 1,
    "differences_cents": -100,
    "result_cents": None,
    "cash_in_cents": 1_000,
    "cash_out_cents": 100,  # the cash found short, booked once explained
    "chips_out_cents": 1_000,
    "cash_cents": 1_001_400,
    "chips_cents": 1_967_500,
}


def test_each_gaming_day_to_the_cent(days, inspector):
    assert rows(inspector) == [FIRST_DAY, SECOND_DAY]
    assert rows(inspector, by="day") == [FIRST_DAY, SECOND_DAY]


def test_the_day_agrees_with_the_cages_own_books(days, inspector):
    first, second = rows(inspector)
    report = GamingDayView.objects.get(day="2026-11-22").report
    assert first["cash_cents"] == report["cage"]["cash_after_close_cents"]
    assert first["chips_cents"] == report["cage"]["chips_after_close_cents"]
    assert first["result_cents"] == report["total_result_cents"]
    now = dict(AccountView.objects.values_list("name", "balance_cents"))
    assert (second["cash_cents"], second["chips_cents"]) == (now["cage_cash"], now["cage_chips"])


def test_a_table_filter_keeps_its_money_and_leaves_the_cage_out(days, inspector):
    cage_only = ("opening_cash_cents", "opening_chips_cents", "chips_sold_cents", "cash_outs",
                 "cashed_out_cents", "cash_in_cents", "cash_out_cents", "chips_in_cents",
                 "chips_out_cents", "cash_cents", "chips_cents")  # fmt: skip
    expected = {**FIRST_DAY, **dict.fromkeys(cage_only)}
    assert rows(inspector, table=days["table_id"]) == [expected]
    assert rows(inspector, sector=days["sector"], game="texas_holdem") == [expected]
    assert rows(inspector, game="omaha") == []


def test_the_range_selects_the_days(days, inspector):
    assert rows(inspector, **{"from": "2026-11-23"}) == [SECOND_DAY]
    assert rows(inspector, to="2026-11-22") == [FIRST_DAY]
    assert rows(inspector, **{"from": "2026-11-22T23:00:00Z", "to": "2026-11-23T01:00:00Z"}) == [
        FIRST_DAY,
        SECOND_DAY,
    ]
    assert rows(inspector, **{"from": "2026-11-24"}) == []


def test_a_float_after_the_opening_is_a_flow_of_the_day(days, floor_app, inspector):
    at(floor_app.clock, "12:40", day=23)
    floor_app.fund_cage(DIRECTOR, new_id(), chips_cents=700)
    runtime.floor_projector().catch_up()
    (second,) = rows(inspector, **{"from": "2026-11-23"})
    assert (second["opening_chips_cents"], second["chips_in_cents"], second["chips_cents"]) == (
        1_968_500,
        700,
        1_967_500 + 700,
    )


def test_a_day_booked_before_it_opens_has_no_opening_or_position(db, floor_app, inspector):
    floor_app.fund_cage(CAJERO, new_id(), cash_cents=100, chips_cents=200)
    runtime.floor_projector().catch_up()
    (day,) = rows(inspector)
    assert day == {
        **dict.fromkeys(DAY_COLUMNS),
        **dict.fromkeys(DAY_COLUMNS[8:25], 0),
        "gaming_day": "2026-11-22",
        "status": "not_opened",
    }


def test_the_day_report_as_csv(days, api_as):
    cajero = api_as("carla", "cajero")
    response = cajero.get("/api/reports/cage/", {"format": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == 'attachment; filename="cage-day.csv"'
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0] == list(DAY_COLUMNS)
    assert len(table) == 3
    first = dict(zip(table[0], table[1], strict=True))
    assert (first["gaming_day"], first["fill_cents"], first["cash_cents"]) == (
        "2026-11-22",
        "50000",
        "1000500",
    )
    second = dict(zip(table[0], table[2], strict=True))
    assert (second["closed_at"], second["result_cents"], second["status"]) == ("", "", "open")


# --- by transaction: fills, credits, exceptions ---------------------------------------------


def moves(days) -> list[dict]:
    """The six moves of the two days, as the report must show them."""
    fill, cancelled, credit, pending = days["requests"]
    table = {"table_id": days["table_id"], "sector": "Sector CR", "table": 1,
             "game": "texas_holdem/no_limit/400/2000"}  # fmt: skip
    booked = {
        t.reference: str(t.id) for t in TransactionView.objects.filter(kind__in=["fill", "credit"])
    }
    adjustments = [str(t.id) for t in TransactionView.objects.filter(kind="adjustment")]
    blank = dict.fromkeys(MOVE_COLUMNS)

    def tray(request_id, kind, cents, status, asked, decided, **more) -> dict:
        """A fill or credit the jefe asked for and the cage decided (or not yet)."""
        row = {**blank, **table, "gaming_day": "2026-11-22", "kind": kind, "status": status}
        row |= {"at": f"2026-11-22T{asked}:00Z", "by": "jaime", "role": "jefe_sector"}
        row |= {"account": days["tray"], "amount_cents": cents, "request_id": request_id}
        row["transaction_id"] = booked.get(request_id)
        if decided:
            row |= {"decided_at": f"2026-11-22T{decided}:00Z", "decided_by": "carla"}
            row["decided_role"] = "cajero"
        return row | more

    return [
        tray(fill, "fill", 50_000, "confirmed", "20:05", "20:06"),
        tray(
            cancelled,
            "fill",
            20_000,
            "cancelled",
            "20:10",
            "20:11",
            reason="the tray is full enough",
        ),
        tray(credit, "credit", 10_000, "confirmed", "20:40", "20:41"),
        {
            **blank,
            **table,
            "gaming_day": "2026-11-22",
            "kind": "exception",
            "status": "explained",
            "at": "2026-11-22T21:02:00Z",
            "by": "carla",
            "role": "cajero",
            "account": days["tray"],
            "amount_cents": -500,
            "expected_cents": 36_500,
            "counted_cents": 36_000,
            "count": "close",
            "decided_at": "2026-11-22T21:05:00Z",
            "decided_by": "carla",
            "decided_role": "cajero",
            "reason": "other",
            "note": NOTE,
            "transaction_id": adjustments[0],
        },
        {
            **blank,
            "gaming_day": "2026-11-23",
            "kind": "exception",
            "status": "explained",
            "at": "2026-11-23T12:05:00Z",
            "by": "carla",
            "role": "cajero",
            "account": "cage_cash",
            "amount_cents": -100,
            "expected_cents": 1_000_500,
            "counted_cents": 1_000_400,
            "count": "open",
            "decided_at": "2026-11-23T12:10:00Z",
            "decided_by": "carla",
            "decided_role": "cajero",
            "reason": "cash_short",
            "note": "",
            "transaction_id": adjustments[1],
        },
        {
            **tray(pending, "credit", 5_000, "pending", "12:30", None),
            "gaming_day": "2026-11-23",
            "at": "2026-11-23T12:30:00Z",
        },
    ]


def test_each_fill_credit_and_exception_with_who_when_and_why(days, inspector):
    expected = moves(days)
    assert len({e["transaction_id"] for e in expected if e["transaction_id"]}) == 4
    assert rows(inspector, by="transaction") == expected


def test_the_moves_by_kind_table_and_range(days, inspector):
    expected = moves(days)
    assert rows(inspector, by="transaction", kind="exception") == expected[3:5]
    assert rows(inspector, by="transaction", kind="fill") == expected[:2]
    assert rows(inspector, by="transaction", kind="fill,credit") == [
        expected[i] for i in (0, 1, 2, 5)
    ]
    # The cage's own difference belongs to no table.
    assert rows(inspector, by="transaction", table=days["table_id"]) == [
        expected[i] for i in (0, 1, 2, 3, 5)
    ]
    assert rows(inspector, by="transaction", **{"from": "2026-11-23"}) == expected[4:]
    assert rows(inspector, by="transaction", to="2026-11-22T20:10:00Z") == expected[:1]


def test_the_moves_page_and_link_the_next(days, inspector):
    first = page(inspector, by="transaction", page_size=4)
    assert (first["count"], len(first["results"]), first["previous"]) == (6, 4, None)
    assert "page=2" in first["next"] and "by=transaction" in first["next"]
    second = inspector.get(first["next"]).json()
    assert second["next"] is None and second["results"] == moves(days)[4:]


def test_the_moves_as_csv(days, inspector):
    response = inspector.get("/api/reports/cage/", {"by": "transaction", "format": "csv"})
    assert response["Content-Disposition"] == 'attachment; filename="cage-transaction.csv"'
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0] == list(MOVE_COLUMNS) and len(table) == 7
    cancelled = dict(zip(table[0], table[2], strict=True))
    assert (cancelled["status"], cancelled["reason"], cancelled["transaction_id"]) == (
        "cancelled",
        "the tray is full enough",
        "",
    )


# --- who may read it, and bad input ---------------------------------------------------------


def test_management_the_inspector_and_the_cage_read_it_the_floor_does_not(db, floor_app, api_as):
    for role in ("director", "inspector", "cajero"):
        assert api_as(f"u-{role}", role).get("/api/reports/cage/").status_code == 200
    for role in ("jefe_sector", "crupier"):
        refused = api_as(f"u-{role}", role).get("/api/reports/cage/", {"by": "transaction"})
        assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")
    assert APIClient().get("/api/reports/cage/").status_code == 401


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"by": "week"}, "report_by_invalid"),
        ({"by": "transaction", "kind": "jackpot"}, "report_filter_invalid"),
        ({"kind": "fill,"}, "report_filter_invalid"),
        ({"from": "yesterday"}, "report_filter_invalid"),
        ({"from": "2026-11-23", "to": "2026-11-22"}, "report_range_empty"),
        ({"table": "12"}, "report_filter_invalid"),
        ({"page": "0"}, "report_page_invalid"),
        ({"format": "pdf"}, "report_format_invalid"),
    ],
)
def test_a_bad_parameter_is_a_400_with_its_code(db, floor_app, inspector, params, code):
    response = inspector.get("/api/reports/cage/", params)
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["message"]
