"""The floor's consoles and projection show the books through the hooks the
ledger fills (floor.kernel.composition, declared by ledger.apps): the floor
imports nothing of the ledger, yet the jefe's console shows each table's rake
box and the jackpot a banked table feeds [GA art. 8b], the one projector keeps
the books' read models, and the consoles run the cage's commands."""

from __future__ import annotations

from uuid import UUID

import pytest

from floor import runtime
from floor.console.actions import FLOOR_COMMANDS, ConsoleCommands
from floor.console.sector import table_cards
from floor.kernel.composition import ROOM
from floor.models import TableView
from floor.projections.floor_views import FloorProjection
from ledger import projections as books
from ledger.console_actions import cage_actions
from tests.support.floor import DIRECTOR, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db

SEN = {"variant": "sen_descarte", "limit": "no_limit", "seats": 7}


@pytest.fixture
def room(make_app):
    app = make_app("GA")
    runtime.install(app)
    yield Room(app, tag="HK")
    runtime.install(None)


def test_the_jefes_console_shows_each_tables_rake_box_and_the_jackpot_it_feeds(room):
    holdem, _cards = room.drawn_table(4, buy_in=1_000)
    banked, _cards = room.drawn_table(
        2, buy_in=10_000, **SEN, minimum_cents=500, maximum_cents=10_000
    )
    jackpot = room.app.create_jackpot(
        DIRECTOR,
        new_id(),
        name="Progresivo",
        stake_cents=100,
        seed_cents=50_000,
        table_ids=[banked],
    ).result["jackpot_id"]
    first, second, *_others = sorted(room.seats(holdem))
    room.start(holdem, [first, second], button=first)
    room.end(holdem, {str(first): 500, str(second): 500}, {str(first): 950}, rake_cents=50)
    runtime.floor_projector().catch_up()

    cards = {str(card["view"].id): card for card in table_cards(list(TableView.objects.all()))}
    assert cards[holdem]["rake_cents"] == 50
    assert cards[banked]["rake_cents"] == 0
    assert cards[banked]["jackpot_id"] == UUID(jackpot)
    assert cards[holdem]["jackpot_id"] is None


def test_a_rebuild_empties_the_books_read_models_with_the_floors_children_first():
    models = list(FloorProjection().read_models())
    assert models[: len(books.READ_MODELS)] == books.READ_MODELS
    assert ROOM.read_model_parts() == (books.READ_MODEL_PART,)


def test_the_consoles_run_the_cages_commands_the_ledger_declared():
    cage = {action.name for action in ConsoleCommands().values()} - set(FLOOR_COMMANDS)
    assert cage == {
        "request_tray_move",
        "confirm_tray_move",
        "cancel_tray_move",
        "sell_chips",
        "buy_in_at_cage",
        "cash_out",
        "certify_winnings",
        "open_gaming_day",
        "count_gaming_day",
        "explain_difference",
        "close_gaming_day",
        "create_jackpot",
        "stake_jackpot",
        "pay_jackpot",
        "void_entry",
        "fund_cage",
    }


def test_a_console_action_declared_twice_is_refused(monkeypatch):
    monkeypatch.setattr(ROOM, "console_actions", lambda: (cage_actions, cage_actions))
    with pytest.raises(ValueError, match="declared twice"):
        len(ConsoleCommands())
