"""Money-laundering thresholds at the cage (issue 25, item 3): a patron whose
chips bought, or cashed, at the cage in one gaming day reach 2,000 EUR is
identified before the operation completes [ES: Ley 10/2010 art. 7.5, as
amended by Real Decreto-ley 11/2018; PT: Lei 83/2017]. Purchases and
cash-outs are summed each on their own (ledger.application.aml); a refusal
records nothing; a new gaming day starts from zero."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.test import Client

from floor import runtime
from floor.messages import STATUS_BY_KIND, message_for
from floor.models import PatronIdentity
from games.profiles import get_profile
from ledger.domain import accounts
from ledger.domain.cage import Cage
from ledger.domain.gaming_day import GamingDay
from tests.support.books import Books
from tests.support.floor import new_id
from tests.support.money import CAJERO, open_cage
from tests.support.room import Room, all_events, events_of, pid, refused

pytestmark = pytest.mark.django_db

EUR = 100
THRESHOLD = 2_000 * EUR


@pytest.fixture
def room(make_app) -> Room:
    return Room(make_app("CM"))


@pytest.fixture
def books(room) -> Books:
    return Books(room.app)


def identify(card: str) -> None:
    """The patron's document, as the desk or the cage records it (floor.compliance)."""
    PatronIdentity.objects.create(
        player_id=pid(card),
        document_type=PatronIdentity.DNI,
        document_number="12345678Z",
        country="ES",
        full_name="Ana Pérez Souto",
        birth_date=date(1980, 5, 17),
        recorded_at=datetime(2026, 11, 22, 20, 0, tzinfo=UTC),
        recorded_by="carla",
    )


def sell(room: Room, card: str, amount: int):
    return room.app.sell_chips(CAJERO, new_id(), player=card, amount_cents=amount)


def cash(room: Room, card: str, amount: int):
    return room.app.cash_out(CAJERO, new_id(), player=card, amount_cents=amount)


def the_day(room: Room) -> GamingDay:
    return room.app.repository.get(GamingDay.id_for(room.app.repository.get(Cage.ID).open_day))


def next_gaming_day(room: Room, books: Books) -> None:
    """The cage counts as booked, closes the day and opens the next."""
    books.catch_up()
    counts = {n: books.balance(accounts.AccountRef(n)) for n in ("cage_cash", "cage_chips")}
    room.app.count_gaming_day(CAJERO, new_id(), counts=counts)
    room.app.close_gaming_day(CAJERO, new_id())
    room.app.open_gaming_day(CAJERO, new_id())


def test_the_profiles_carry_the_threshold_with_its_source():
    for code in ("GA", "CM", "TEST", "TEST_GA"):
        rule = get_profile(code).cage_identification
        assert (rule.threshold_cents, rule.source) == (THRESHOLD, "Ley 10/2010 art. 7.5")
    for code in ("PT", "TEST_PT"):
        rule = get_profile(code).cage_identification
        assert (rule.threshold_cents, rule.source) == (THRESHOLD, "Lei 83/2017")


def test_a_second_purchase_reaching_2000_euros_waits_for_identification(room, books):
    """1,500 + 600 EUR: linked purchases of one day [Ley 10/2010 art. 7.5]."""
    open_cage(room.app)
    card = room.new_player()
    sell(room, card, 1_500 * EUR)
    cage_cash = books.catch_up().balance(accounts.CAGE_CASH)
    day_events = len(events_of(room.app, the_day(room).id))
    error = refused(room.app, "identification_required", sell, room, card, 600 * EUR)
    assert error.params == {
        "direction": "bought",
        "total_cents": 2_100 * EUR,
        "threshold_cents": THRESHOLD,
        "source": "Ley 10/2010 art. 7.5",
    }
    assert STATUS_BY_KIND[error.kind] == 409
    text = message_for(error.code, **error.params)
    assert "2.100,00" in text or "2,100.00" in text or "2 100,00" in text, text
    # Nothing recorded: the books and the day's totals as before.
    assert books.catch_up().balance(accounts.CAGE_CASH) == cage_cash
    assert books.balance(accounts.player_chips(pid(card))) == 1_500 * EUR
    assert len(events_of(room.app, the_day(room).id)) == day_events
    assert the_day(room).patron_totals(pid_hex(card)) == (1_500 * EUR, 0)
    identify(card)
    sell(room, card, 600 * EUR)
    assert books.catch_up().balance(accounts.player_chips(pid(card))) == 2_100 * EUR
    assert the_day(room).patron_totals(pid_hex(card)) == (2_100 * EUR, 0)
    books.check()


def pid_hex(card: str) -> str:
    return pid(card).replace("-", "")


def test_just_below_the_threshold_passes_and_each_patron_has_their_own_total(room, books):
    open_cage(room.app)
    card, other = room.new_player(), room.new_player()
    sell(room, card, 1_500 * EUR)
    sell(room, card, 499_99)  # 1,999.99 EUR
    sell(room, other, 1_999 * EUR)  # another patron: another total
    refused(room.app, "identification_required", sell, room, card, 1)
    # One operation alone at the threshold is refused too ("igual o superior").
    third = room.new_player()
    refused(room.app, "identification_required", sell, room, third, THRESHOLD)


def test_a_new_gaming_day_starts_from_zero(room, books):
    open_cage(room.app)
    card = room.new_player()
    sell(room, card, 1_500 * EUR)
    next_gaming_day(room, books)
    sell(room, card, 600 * EUR)  # 600 today: not linked to yesterday's
    assert the_day(room).patron_totals(pid_hex(card)) == (600 * EUR, 0)
    refused(room.app, "identification_required", sell, room, card, 1_400 * EUR)


def test_cash_outs_are_summed_apart_from_purchases(room, books):
    """Purchases and cash-outs are each their own total: 1,900 bought and
    1,900 cashed reach neither; cashing 100 more reaches the cash-outs'."""
    open_cage(room.app)
    card = room.new_player()
    identify(card)
    sell(room, card, 3_000 * EUR)  # identified: the purchase passes
    PatronIdentity.objects.filter(player_id=pid(card)).delete()  # say the data was erased
    cash(room, card, 1_500 * EUR)
    cash(room, card, 499_99)
    books.catch_up()
    held = books.balance(accounts.player_chips(pid(card)))
    error = refused(room.app, "identification_required", cash, room, card, 600 * EUR)
    assert (error.params["direction"], error.params["total_cents"]) == ("cashed", 2_599_99)
    assert books.catch_up().balance(accounts.player_chips(pid(card))) == held
    identify(card)
    cash(room, card, 600 * EUR)
    assert the_day(room).patron_totals(pid_hex(card)) == (3_000 * EUR, 2_599_99)
    books.check()


def test_a_buy_in_at_the_cage_is_a_purchase(room, books):
    open_cage(room.app)
    table_id, cards = room.drawn_table(4, buy_in=None)
    card = cards[0]
    sell(room, card, 1_995 * EUR)
    error = refused(
        room.app, "identification_required", room.app.buy_in_at_cage, CAJERO, new_id(),
        table_id=table_id, player=card, amount_cents=5 * EUR,
    )  # fmt: skip
    assert error.params["total_cents"] == THRESHOLD  # reaching it is enough
    room.app.buy_in_at_cage(
        CAJERO, new_id(), table_id=table_id, player=cards[1], amount_cents=5 * EUR
    )
    identify(card)
    room.app.buy_in_at_cage(CAJERO, new_id(), table_id=table_id, player=card, amount_cents=5 * EUR)
    assert the_day(room).patron_totals(pid_hex(card)) == (THRESHOLD, 0)


def test_a_voided_sale_comes_off_the_patrons_total(room, books):
    open_cage(room.app)
    card = room.new_player()
    sold = sell(room, card, 1_500 * EUR)
    room.app.void_entry(
        CAJERO,
        new_id(),
        transaction_id=sold.result["transaction_ids"][0],
        reason_code="wrong_player",
    )
    assert the_day(room).patron_totals(pid_hex(card)) == (0, 0)
    sell(room, card, 1_900 * EUR)


# --- the cage's console and the compliance officer's report ------------------------------

PASSWORD = "pa55-word-ok"
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def live_room(floor_app) -> Room:
    return Room(floor_app, tag="AML")


def client_as(make_user, username: str, role: str) -> Client:
    make_user(username, role, password=PASSWORD)
    client = Client()
    assert client.login(username=username, password=PASSWORD)
    return client


def test_the_cage_console_says_the_refusal_in_the_cashiers_form(live_room, make_user):
    cajero = client_as(make_user, "carla", "cajero")
    open_cage(live_room.app)
    card = live_room.new_player()
    runtime.floor_projector().catch_up()

    def sell_at_console(euros: str):
        form = {"command_id": new_id(), "player": card, "amount_eur": euros}
        answer = cajero.post("/console/commands/sell_chips/", form, **JSON)
        return answer.status_code, answer.json()

    assert sell_at_console("1.500")[0] == 201
    before = len(all_events(live_room.app))
    status, answer = sell_at_console("600")
    assert status == 409, answer
    assert answer["code"] == "identification_required"
    assert "2.100,00 €" in answer["message"] and "2.000,00 €" in answer["message"]
    assert "documento de identidad" in answer["message"]  # the cashier's language (es)
    assert len(all_events(live_room.app)) == before


def test_the_report_lists_the_patrons_over_the_threshold_and_their_operations(
    live_room, make_user, clock
):
    director = client_as(make_user, "dora", "director")
    app = live_room.app
    open_cage(app)
    card, below = live_room.new_player(), live_room.new_player()
    identify(card)
    sell(live_room, card, 1_500 * EUR)
    clock.advance(timedelta(minutes=30))
    sell(live_room, card, 600 * EUR)
    sell(live_room, below, 1_999 * EUR)  # under the threshold: not listed
    cash(live_room, card, 100 * EUR)  # the cash-outs' total is apart, under it
    runtime.floor_projector().catch_up()

    rows = director.get("/api/reports/aml/").json()["results"]

    assert [(r["kind"], r["amount_cents"], r["cashier"]) for r in rows] == [
        ("chips_sold", 1_500 * EUR, "carla"),
        ("chips_sold", 600 * EUR, "carla"),
    ]
    first, second = rows
    assert first["player_id"] == pid(card) and first["card_number"] == card
    assert (first["direction"], first["day_total_cents"], first["identified"]) == (
        "bought",
        2_100 * EUR,
        True,
    )
    assert (first["threshold_cents"], first["source"]) == (
        THRESHOLD,
        app.profile.cage_identification.source,
    )
    assert second["at"] > first["at"]
    assert first["gaming_day"] == app.repository.get(Cage.ID).open_day
    csv = director.get("/api/reports/aml/", {"format": "csv"}).content.decode()
    assert csv.splitlines()[0].startswith("gaming_day,player_id,card_number")
    assert len(csv.splitlines()) == 3
    # A range after the day's operations lists none; the cashier does not read it.
    assert director.get("/api/reports/aml/", {"from": "2027-01-01"}).json()["results"] == []
    cajero = client_as(make_user, "carla", "cajero")
    assert cajero.get("/api/reports/aml/").status_code == 403
