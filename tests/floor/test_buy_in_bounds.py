"""The house's buy-in amounts [CM-2]: "en las mesas de póker Texas Hold'em la
reposición inicial será de 100€ a 1.000€. Las reposiciones deberán ser del
total del importe mínimo, sin embargo sin superar el importe máximo permitido
(1.000€)". A profile setting (games.profiles, ``buy_in``), checked wherever
chips are bought for a seat: at the table (the floor) and at the cage."""

from __future__ import annotations

import pytest
from django.utils import translation

from floor.messages import describe
from floor.templatetags.floor_format import euros
from games.profiles import CM, GA, PT, TEST
from games.variants import Variant
from tests.support.floor import CRUPIER, new_id
from tests.support.money import CAJERO
from tests.support.room import OMAHA, Room, refused

pytestmark = pytest.mark.django_db

EUR = 100


@pytest.fixture
def room(make_app) -> Room:
    # The profile as it runs, with CM-2's amounts (the suite leaves them out).
    return Room(make_app("CM", house_buy_in=True))


def refused_at_table(room: Room, code: str, table_id: str, card: str, amount: int):
    return refused(
        room.app,
        code,
        room.app.buy_in,
        CRUPIER,
        new_id(),
        table_id=table_id,
        player=card,
        amount_cents=amount,
    )


def refused_at_cage(room: Room, code: str, table_id: str, card: str, amount: int):
    return refused(
        room.app,
        code,
        room.app.buy_in_at_cage,
        CAJERO,
        new_id(),
        table_id=table_id,
        player=card,
        amount_cents=amount,
    )


def test_the_profiles_say_what_their_texts_say():
    """CM fixes 100 to 1,000 EUR for its Hold'em tables only; PT leaves the
    amounts to the casino [PT 75, 78] and GA names none."""
    bounds = CM.buy_in.bounds_for(Variant.TEXAS_HOLDEM)
    assert (bounds.minimum_cents, bounds.maximum_cents, bounds.source) == (
        100 * EUR,
        1_000 * EUR,
        "CM-2",
    )
    assert CM.buy_in.bounds_for(Variant.OMAHA) is None
    assert TEST.buy_in == CM.buy_in
    assert GA.buy_in.bounds_for(Variant.TEXAS_HOLDEM) is None
    assert PT.buy_in.bounds_for(Variant.TEXAS_HOLDEM) is None


def test_a_cm_holdem_table_with_a_2_eur_big_blind_refuses_an_8_eur_buy_in(room):
    table_id, cards = room.drawn_table(4, buy_in=None)  # blinds 1/2 EUR, maximum 10 EUR
    error = refused_at_table(room, "buy_in_below_minimum", table_id, cards[0], 8 * EUR)
    assert error.params == {
        "minimum_cents": 100 * EUR,
        "maximum_cents": 1_000 * EUR,
        "amount_cents": 8 * EUR,
        "rule": "CM-2",
    }
    with translation.override("es"):
        message, low, high = describe(error), euros(100 * EUR), euros(1_000 * EUR)
    assert low == "100,00 €" and high.endswith("000,00 €")  # as the consoles write money
    assert low in message and high in message and "CM-2" in message
    assert room.state(table_id, cards[0])["stack"] == 0


@pytest.mark.parametrize(
    ("amount", "code"),
    [
        (100 * EUR - 1, "buy_in_below_minimum"),
        (100 * EUR, None),
        (1_000 * EUR, None),
        (1_000 * EUR + 1, "buy_in_above_maximum"),
    ],
)
def test_the_first_buy_in_is_100_to_1000_eur(room, amount, code):
    table_id, cards = room.drawn_table(4, buy_in=None)
    if code is None:
        assert room.buy(table_id, cards[0], amount) == amount
    else:
        refused_at_table(room, code, table_id, cards[0], amount)


def test_a_rebuy_is_at_least_the_minimum_and_never_takes_the_stack_past_the_maximum(room):
    """ "Las reposiciones deberán ser del total del importe mínimo ... sin superar
    el importe máximo permitido (1.000€)": read as the chips in front of the
    player (``BuyInRules.rebuy_caps_stack``)."""
    table_id, cards = room.drawn_table(4, buy_in=500 * EUR)
    error = refused_at_table(room, "rebuy_below_minimum", table_id, cards[0], 100 * EUR - 1)
    assert error.params["stack_cents"] == 500 * EUR
    error = refused_at_table(room, "rebuy_above_maximum", table_id, cards[0], 500 * EUR + 1)
    with translation.override("es"):
        message, high = describe(error), euros(1_000 * EUR)
    assert high in message and "500,00 €" in message and "CM-2" in message
    assert room.buy(table_id, cards[0], 100 * EUR) == 600 * EUR
    assert room.buy(table_id, cards[1], 500 * EUR) == 1_000 * EUR


def test_the_cage_refuses_alike(room):
    """A buy-in paid at the cage puts chips on the seat: the same amounts."""
    table_id, cards = room.drawn_table(4, buy_in=None)
    refused_at_cage(room, "buy_in_below_minimum", table_id, cards[0], 8 * EUR)
    refused_at_cage(room, "buy_in_above_maximum", table_id, cards[0], 1_000 * EUR + 1)
    paid = room.app.buy_in_at_cage(
        CAJERO, new_id(), table_id=table_id, player=cards[0], amount_cents=900 * EUR
    )
    assert paid.result["stack_cents"] == 900 * EUR
    refused_at_cage(room, "rebuy_below_minimum", table_id, cards[0], 50 * EUR)
    refused_at_cage(room, "rebuy_above_maximum", table_id, cards[0], 101 * EUR)


def test_a_cm_omaha_table_keeps_its_own_limits(room):
    """CM-2 speaks of the Hold'em tables: an Omaha table's buy-in lies within
    its minimum and maximum."""
    table_id, cards = room.drawn_table(4, buy_in=None, **OMAHA)
    assert room.buy(table_id, cards[0], 8 * EUR) == 8 * EUR
    refused_at_table(room, "buy_in_out_of_limits", table_id, cards[1], 100 * EUR)


def test_a_refusal_over_the_api_names_the_bounds(api_as, make_app):
    """The API answers the code and the message in the reader's language."""
    from floor import runtime

    app = make_app("CM", house_buy_in=True)
    runtime.install(app)
    try:
        room = Room(app, tag="API")
        table_id, cards = room.drawn_table(4, buy_in=None)
        crupier = api_as("cris", "crupier")
        answer = crupier.post(
            f"/api/tables/{table_id}/buy-in/",
            {"command_id": new_id(), "player": cards[0], "amount_cents": 8 * EUR},
            format="json",
            HTTP_ACCEPT_LANGUAGE="es",
        )
        assert answer.status_code == 409
        body = answer.json()
        assert body["code"] == "buy_in_below_minimum"
        assert "100,00 €" in body["message"] and "CM-2" in body["message"]
    finally:
        runtime.install(None)
