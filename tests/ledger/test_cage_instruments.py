"""How money moves at the cage, and who may be paid otherwise than in cash
(issue 25, item 3): chips bought by card or cheque and cash-outs paid by
casino cheque or transfer go through the casino's bank, not the cage's
drawer; a cheque, a transfer or a certificate of winnings goes only to an
identified patron [ES: Ley 10/2010 art. 7.5]; in Portugal a casino cheque
pays at most what the patron bought by card or cheque [Lei 83/2017]; a
certificate states no more than the day's result at the cage."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.test import Client

from floor import runtime
from floor.messages import message_for
from floor.models import PatronIdentity
from ledger.domain import accounts
from ledger.selectors import winnings_certificates
from tests.ledger.test_aml_thresholds import identify, next_gaming_day, pid_hex, the_day
from tests.support.books import Books
from tests.support.floor import CRUPIER, new_id
from tests.support.money import CAJERO, open_cage
from tests.support.room import Room, events_of, pid, refused

pytestmark = pytest.mark.django_db

EUR = 100
PASSWORD = "pa55-word-ok"


@pytest.fixture
def pt_room(make_app) -> Room:
    return Room(make_app("PT"))


@pytest.fixture
def cm_room(make_app) -> Room:
    return Room(make_app("CM"))


def sell(room: Room, card: str, amount: int, paid_by: str = "cash"):
    return room.app.sell_chips(CAJERO, new_id(), player=card, amount_cents=amount, paid_by=paid_by)


def cash(room: Room, card: str, amount: int, paid_as: str = "cash"):
    return room.app.cash_out(CAJERO, new_id(), player=card, amount_cents=amount, paid_as=paid_as)


def certify(room: Room, card: str, amount: int):
    return room.app.certify_winnings(CAJERO, new_id(), player=card, amount_cents=amount)


def test_a_card_purchase_goes_to_the_bank_not_the_cage_drawer(cm_room):
    books = Books(cm_room.app)
    open_cage(cm_room.app)
    card = cm_room.new_player()
    cage_cash = books.catch_up().balance(accounts.CAGE_CASH)
    sell(cm_room, card, 300 * EUR, paid_by="card")
    sell(cm_room, card, 200 * EUR, paid_by="cheque")
    sell(cm_room, card, 100 * EUR)
    books.catch_up()
    assert books.balance(accounts.CAGE_CASH) == cage_cash + 100 * EUR
    assert books.balance(accounts.BANK) == 500 * EUR
    assert books.balance(accounts.player_chips(pid(card))) == 600 * EUR
    # All three count toward the threshold: one total of purchases.
    assert the_day(cm_room).patron_totals(pid_hex(card)) == (600 * EUR, 0)
    assert the_day(cm_room).patron_traceable(pid_hex(card)) == (500 * EUR, 0)
    books.check()


def test_an_unknown_instrument_is_refused_and_records_nothing(cm_room):
    open_cage(cm_room.app)
    card = cm_room.new_player()
    refused(cm_room.app, "instrument_invalid", sell, cm_room, card, 100 * EUR, "bitcoin")
    sell(cm_room, card, 100 * EUR)
    refused(cm_room.app, "instrument_invalid", cash, cm_room, card, 50 * EUR, "card")


def test_a_cheque_or_transfer_goes_only_to_an_identified_patron_in_spain(cm_room):
    """Ley 10/2010 art. 7.5: whoever receives a cheque or asks for a transfer
    is identified, whatever the amount (Spain names no cap by purchases)."""
    books = Books(cm_room.app)
    open_cage(cm_room.app)
    card = cm_room.new_player()
    sell(cm_room, card, 500 * EUR)
    for paid_as, code in (
        ("cheque", "cheque_to_identified_only"),
        ("transfer", "transfer_to_identified_only"),
    ):
        error = refused(cm_room.app, code, cash, cm_room, card, 100 * EUR, paid_as)
        assert error.params == {"source": "Ley 10/2010 art. 7.5"}
        assert "Ley 10/2010" in message_for(error.code, **error.params)
    cash(cm_room, card, 100 * EUR)  # in cash, below the threshold: no document needed
    identify(card)
    # Identified, a Spanish casino may pay by cheque more than was bought by card.
    cash(cm_room, card, 300 * EUR, paid_as="cheque")
    cash(cm_room, card, 100 * EUR, paid_as="transfer")
    books.catch_up()
    assert books.balance(accounts.BANK) == -400 * EUR
    assert books.balance(accounts.player_chips(pid(card))) == 0
    books.check()


def test_a_portuguese_cheque_pays_at_most_what_was_bought_by_card_or_cheque(pt_room):
    """Lei 83/2017: a casino cheque only to an identified patron who bought
    chips by card or cheque, up to what they so bought (less the cheques
    already paid)."""
    books = Books(pt_room.app)
    open_cage(pt_room.app)
    card = pt_room.new_player()
    identify(card)
    sell(pt_room, card, 400 * EUR, paid_by="card")
    sell(pt_room, card, 100 * EUR, paid_by="cheque")
    sell(pt_room, card, 1_000 * EUR)  # cash: no cheque for it
    error = refused(
        pt_room.app, "cheque_above_card_purchases", cash, pt_room, card, 600 * EUR, "cheque"
    )
    assert (error.params["most_cents"], error.params["bought_by_card_cents"]) == (
        500 * EUR,
        500 * EUR,
    )
    assert error.params["source"] == "Lei 83/2017"
    cash(pt_room, card, 300 * EUR, paid_as="cheque")
    # The cheques already paid come off: 200 EUR more at most.
    error = refused(
        pt_room.app, "cheque_above_card_purchases", cash, pt_room, card, 201 * EUR, "cheque"
    )
    assert error.params["most_cents"] == 200 * EUR
    cash(pt_room, card, 200 * EUR, paid_as="cheque")
    cash(pt_room, card, 1_000 * EUR)  # the rest in cash
    assert the_day(pt_room).patron_traceable(pid_hex(card)) == (500 * EUR, 500 * EUR)
    books.catch_up()
    assert books.balance(accounts.BANK) == 0
    books.check()


def test_a_portuguese_cheque_to_a_patron_who_bought_in_cash_only_is_refused(pt_room):
    open_cage(pt_room.app)
    card = pt_room.new_player()
    identify(card)
    sell(pt_room, card, 500 * EUR)
    error = refused(pt_room.app, "cheque_above_card_purchases", cash, pt_room, card, 1, "cheque")
    assert error.params["most_cents"] == 0
    PatronIdentity.objects.filter(player_id=pid(card)).delete()
    refused(pt_room.app, "cheque_to_identified_only", cash, pt_room, card, 1, "cheque")


def test_a_voided_card_purchase_comes_off_what_a_cheque_may_pay(pt_room):
    open_cage(pt_room.app)
    card = pt_room.new_player()
    identify(card)
    sold = sell(pt_room, card, 400 * EUR, paid_by="card")
    sell(pt_room, card, 400 * EUR)
    pt_room.app.void_entry(
        CAJERO,
        new_id(),
        transaction_id=sold.result["transaction_ids"][0],
        reason_code="wrong_amount",
    )
    assert the_day(pt_room).patron_traceable(pid_hex(card)) == (0, 0)
    refused(pt_room.app, "cheque_above_card_purchases", cash, pt_room, card, 100 * EUR, "cheque")


@pytest.fixture
def live_room(floor_app) -> Room:
    return Room(floor_app, tag="CERT")


def played_heads_up(room: Room) -> tuple[str, str]:
    """A winner who bought 8 EUR of chips at the cage and took them to the
    table (a 2/10 EUR table of the suite), and a loser who paid 10 EUR cash
    at the table; one hand of 5 EUR each, the winner takes the pot; both
    leave: the winner with 13 EUR, the loser with 5. Returns (winner, loser)."""
    open_cage(room.app)
    table_id, (winner, loser, *others) = room.drawn_table(4, buy_in=None)
    for other in others:  # they sit the hand out with what they brought
        room.buy(table_id, other, 500)
    sell(room, winner, 800)
    room.app.buy_in(
        CRUPIER, new_id(), table_id=table_id, player=winner, amount_cents=800, paid_with="chips"
    )
    room.buy(table_id, loser, 1_000)
    seats = {card: str(seat) for seat, card in room.seats(table_id).items()}
    room.start(table_id)
    room.end(table_id, {seats[winner]: 500, seats[loser]: 500}, {seats[winner]: 1_000})
    room.leave(table_id, winner)
    room.leave(table_id, loser)
    return winner, loser


def test_a_certificate_of_winnings_to_an_identified_patron_up_to_the_days_result(live_room):
    """The winner cashes 13 EUR for 8 bought at the cage: 5 EUR of winnings
    to certify. The loser cashes 5 EUR having paid 10 cash at the table: the
    table's cash counts as bought, so nothing to certify (a certificate
    must not turn money brought in into winnings)."""
    winner, loser = played_heads_up(live_room)
    cash(live_room, winner, 1_300)
    cash(live_room, loser, 500)
    runtime.floor_projector().catch_up()
    refused(live_room.app, "certificate_to_identified_only", certify, live_room, winner, 1)
    identify(winner)
    identify_other(loser)
    error = refused(live_room.app, "winnings_above_day_result", certify, live_room, winner, 501)
    assert error.params["most_cents"] == 500
    assert "5,00" in message_for(error.code, **error.params)
    error = refused(live_room.app, "winnings_above_day_result", certify, live_room, loser, 1)
    assert (error.params["bought_cents"], error.params["cashed_cents"]) == (1_000, 500)
    assert error.params["most_cents"] == 0
    first = certify(live_room, winner, 300).result
    assert first["certificate"].endswith("/1")
    assert (first["bought_cents"], first["cashed_cents"]) == (800, 1_300)
    # What was certified comes off: 2 EUR more at most.
    error = refused(live_room.app, "winnings_above_day_result", certify, live_room, winner, 201)
    assert error.params["most_cents"] == 200
    second = certify(live_room, winner, 200).result
    assert second["certificate"].endswith("/2")
    day = the_day(live_room)
    found = events_of(live_room.app, day.id, "WinningsCertified")
    assert [(e.amount, e.actor, e.actor_role) for e in found] == [
        (300, "carla", "cajero"),
        (200, "carla", "cajero"),
    ]


def identify_other(card: str) -> None:
    """A second patron's document (one document, one patron)."""
    PatronIdentity.objects.create(
        player_id=pid(card),
        document_type=PatronIdentity.DNI,
        document_number="87654321X",
        country="ES",
        full_name="Bruno Lado Rey",
        birth_date=date(1975, 3, 2),
        recorded_at=datetime(2026, 11, 22, 20, 0, tzinfo=UTC),
        recorded_by="carla",
    )


def test_the_inspector_reads_the_certificates_and_the_instruments(live_room, make_user):
    winner, _ = played_heads_up(live_room)
    identify(winner)
    cash(live_room, winner, 1_300, paid_as="cheque")
    runtime.floor_projector().catch_up()
    number = certify(live_room, winner, 500).result["certificate"]
    runtime.floor_projector().catch_up()
    assert [c["number"] for _, c in winnings_certificates()] == [number]
    make_user("ines", "inspector", password=PASSWORD)
    inspector = Client()
    assert inspector.login(username="ines", password=PASSWORD)
    rows = inspector.get("/api/reports/aml/?by=certificates", HTTP_ACCEPT="application/json")
    assert rows.status_code == 200, rows.content
    (row,) = rows.json()["results"]
    assert (row["certificate"], row["card_number"], row["amount_cents"]) == (
        number,
        winner,
        500,
    )
    assert (row["identified"], row["cashier"], row["cashier_role"]) == (True, "carla", "cajero")
    csv = inspector.get("/api/reports/aml/?by=certificates&format=csv")
    assert csv.status_code == 200
    assert number in csv.content.decode()
    # The jefe reads no compliance report.
    make_user("juan", "jefe_sector", password=PASSWORD)
    jefe = Client()
    assert jefe.login(username="juan", password=PASSWORD)
    assert jefe.get("/api/reports/aml/?by=certificates").status_code == 403


def test_the_cashier_pays_by_cheque_from_the_console(live_room, make_user):
    make_user("carla", "cajero", password=PASSWORD)
    cajero = Client()
    assert cajero.login(username="carla", password=PASSWORD)
    open_cage(live_room.app)
    card = live_room.new_player()
    runtime.floor_projector().catch_up()

    def post(command: str, **form):
        answer = cajero.post(
            f"/console/commands/{command}/",
            {"command_id": new_id(), "player": card, **form},
            HTTP_ACCEPT="application/json",
        )
        return answer.status_code, answer.json()

    assert post("sell_chips", amount_eur="250,50", paid_by="card")[0] == 201
    status, answer = post("cash_out", amount_eur="100", paid_as="cheque")
    assert status == 409 and answer["code"] == "cheque_to_identified_only", answer
    assert "identificado" in answer["message"]
    identify(card)
    assert post("cash_out", amount_eur="100", paid_as="cheque")[0] == 201
    page = cajero.get(f"/cage/?card={card}").content.decode()
    assert 'name="paid_by"' in page and 'name="paid_as"' in page
    assert 'data-testid="certify-winnings"' in page


# --- what the review found (issue 25): certificates and voids ------------------------------


def test_chips_bought_on_an_earlier_day_are_not_certified_as_todays_winnings(live_room):
    """A patron buys 3,000 EUR of chips, keeps them overnight and cashes them
    the next gaming day: money brought in, not winnings [Ley 10/2010 art. 7.5]."""
    books = Books(live_room.app)
    open_cage(live_room.app)
    card = live_room.new_player()
    identify(card)
    sell(live_room, card, 3_000 * EUR)
    next_gaming_day(live_room, books)
    cash(live_room, card, 3_000 * EUR)
    error = refused(live_room.app, "winnings_above_day_result", certify, live_room, card, 1)
    assert (error.params["carried_cents"], error.params["most_cents"]) == (3_000 * EUR, 0)


def test_a_certificate_waits_for_the_books_to_show_the_days_buy_ins(live_room):
    """The books' read side is brought up to the log before the certificate
    is decided: a cash buy-in the projector had not yet applied still counts."""
    _, loser = played_heads_up(live_room)  # paid 10 EUR cash at the table, holds 5
    cash(live_room, loser, 500)
    identify(loser)
    # No catch-up here: the command brings the books up to date itself.
    error = refused(live_room.app, "winnings_above_day_result", certify, live_room, loser, 1)
    assert error.params["bought_cents"] == 1_000


def test_a_certificate_is_refused_while_the_books_lag(live_room, monkeypatch):
    from floor.kernel.web import projector as projector_module
    from ledger import patron_money

    winner, _ = played_heads_up(live_room)
    cash(live_room, winner, 1_300)
    identify(winner)

    class Lagging:
        def catch_up(self, **_):
            raise projector_module.ProjectionLagging("behind")

    monkeypatch.setattr(patron_money, "host", lambda: Lagging())
    refused(live_room.app, "books_catching_up", certify, live_room, winner, 100)


def test_a_cash_out_behind_a_certificate_cannot_be_voided(live_room):
    winner, _ = played_heads_up(live_room)
    cashed = cash(live_room, winner, 1_300)
    identify(winner)
    certify(live_room, winner, 500)
    error = refused(
        live_room.app, "void_behind_a_certificate", live_room.app.void_entry, CAJERO, new_id(),
        transaction_id=cashed.result["transaction_ids"][0], reason_code="wrong_amount",
    )  # fmt: skip
    assert error.params == {"certified_cents": 500}


def test_a_card_purchase_behind_a_paid_portuguese_cheque_cannot_be_voided(pt_room):
    """Lei 83/2017: the cheque rests on the card purchase."""
    open_cage(pt_room.app)
    card = pt_room.new_player()
    identify(card)
    by_card = sell(pt_room, card, 400 * EUR, paid_by="card")
    cash(pt_room, card, 400 * EUR, paid_as="cheque")
    sell(pt_room, card, 400 * EUR)
    refused(
        pt_room.app, "void_behind_a_cheque", pt_room.app.void_entry, CAJERO, new_id(),
        transaction_id=by_card.result["transaction_ids"][0], reason_code="wrong_amount",
    )  # fmt: skip
    assert the_day(pt_room).patron_traceable(pid_hex(card)) == (400 * EUR, 400 * EUR)


def test_no_certificate_of_winnings_to_a_patron_on_the_national_register(live_room, make_user):
    """A version of the RGIAJ imported since the patron bought their chips:
    the cash-out is theirs, but no certificate says they won where they may
    not play [issue 25, item 2: checked at the cage]."""
    from floor.compliance.exclusions import import_list

    winner, _ = played_heads_up(live_room)
    cash(live_room, winner, 1_300)
    identify(winner)
    director = make_user("dora", "director")
    listed = "document_number,full_name,birth_date\n12345678Z,Ana Pérez Souto,1980-05-17\n"
    import_list(director, new_id(), source="rgiaj", version="2026-11-01", data=listed.encode())
    refused(live_room.app, "patron_excluded", certify, live_room, winner, 500)


def test_the_days_report_accounts_for_the_money_through_the_bank(cm_room):
    books = Books(cm_room.app)
    open_cage(cm_room.app)
    card = cm_room.new_player()
    identify(card)
    sell(cm_room, card, 400 * EUR, paid_by="card")
    sell(cm_room, card, 100 * EUR)
    cash(cm_room, card, 200 * EUR, paid_as="transfer")
    books.catch_up()
    counts = {n: books.balance(accounts.AccountRef(n)) for n in ("cage_cash", "cage_chips")}
    cm_room.app.count_gaming_day(CAJERO, new_id(), counts=counts)
    report = cm_room.app.close_gaming_day(CAJERO, new_id()).result["report"]
    cage = report["cage"]
    assert (cage["bank_in_cents"], cage["bank_out_cents"]) == (400 * EUR, 200 * EUR)
    assert (cage["cash_in_cents"], cage["chips_out_cents"]) == (100 * EUR, 500 * EUR)
