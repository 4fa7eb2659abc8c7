"""Players and waiting lists (issue 4 items 2 and 5): the player record, barring,
reservation numbers, re-registering, several lists, and who comes first for a
vacant seat [PT 12; CM-5, CM-6, CM-7, CM-11].

The ``Room`` helper and ``refused`` are shared by the floor's seating tests.
"""

from __future__ import annotations

import itertools
import random
from uuid import UUID

import pytest

from floor.domain.errors import DomainError, ErrorKind
from floor.domain.player import Player
from tests.support.floor import CRUPIER, HOLDEM, JEFE, new_id, open_sector

pytestmark = pytest.mark.django_db

OMAHA = {**HOLDEM, "variant": "omaha"}


def refused(app, code: str, command, *args, **kwargs) -> DomainError:
    """Runs a command that must be refused with ``code`` and record nothing."""
    before = app.recorder.max_notification_id()
    with pytest.raises(DomainError) as caught:
        command(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    assert app.recorder.max_notification_id() == before, "a refused command recorded events"
    return caught.value


def all_events(app) -> list:
    return [app.mapper.to_domain_event(n) for n in app.recorder.select_notifications(1, 100_000)]


def events_of(app, aggregate_id: str | UUID, name: str | None = None) -> list:
    """One aggregate's events, optionally only those whose class is ``name``."""
    found = app.repository.event_store.get(UUID(str(aggregate_id)))
    return [e for e in found if name is None or type(e).__name__ == name]


def pid(card: str) -> str:
    """The player id of a card number, as the commands' results give it."""
    return str(Player.create_id(card))


class Room:
    """A floor under one profile: a sector, its tables and numbered players."""

    def __init__(self, app, seed: int = 7, tag: str = "C") -> None:
        self.app = app
        app.random = random.Random(seed)  # deterministic draws
        self.tag = tag  # rooms sharing one store need their own tag
        self.sector_id = open_sector(app, f"Sector {tag}")
        self._numbers = itertools.count(1)

    # --- building -------------------------------------------------------------------

    def table(self, **change) -> str:
        spec = {**HOLDEM, **change}
        return self.app.open_table(JEFE, new_id(), sector_id=self.sector_id, **spec).result[
            "table_id"
        ]

    def new_player(self, name: str | None = None) -> str:
        card = f"{self.tag}-{next(self._numbers):04d}"
        self.app.register_player(JEFE, new_id(), card_number=card, display_name=name or card)
        return card

    def new_players(self, count: int) -> list[str]:
        return [self.new_player() for _ in range(count)]

    def join(self, card: str, table_id: str | None = None, **game) -> dict:
        """Registers ``card`` for the game of ``table_id`` (or the game named)."""
        where = {"table_id": table_id} if table_id else game
        return self.app.join_waiting_list(JEFE, new_id(), player=card, **where).result

    def drawn_table(self, players: int, *, buy_in: int | None = 1000, **change) -> tuple:
        """A table whose seats were drawn among ``players`` new players, each with
        ``buy_in`` cents of chips; returns the table id and the cards."""
        table_id = self.table(**change)
        cards = self.new_players(players)
        for card in cards:
            self.join(card, table_id)
        self.app.draw_seats(JEFE, new_id(), table_ids=[table_id])
        if buy_in:
            for card in cards:
                self.buy(table_id, card, buy_in)
        return table_id, cards

    def buy(self, table_id: str, card: str, amount: int) -> int:
        return self.app.buy_in(
            CRUPIER, new_id(), table_id=table_id, player=card, amount_cents=amount
        ).result["stack_cents"]

    def sit(self, table_id: str, card: str, seat: int | None = None, **options) -> dict:
        return self.app.seat_player(
            JEFE, new_id(), table_id=table_id, player=card, seat=seat, **options
        ).result

    def leave(self, table_id: str, card: str, reason: str = "left") -> dict:
        return self.app.leave_table(
            JEFE, new_id(), table_id=table_id, player=card, reason=reason
        ).result

    # --- hands ----------------------------------------------------------------------

    def start(self, table_id: str, dealt_in: list[int] | None = None, **report) -> dict:
        """Reports a hand dealt; by default to every seat not resting."""
        if dealt_in is None:
            dealt_in = [
                s for s in self.seats(table_id) if not self.state(table_id, seat=s)["resting"]
            ]
        return self.app.start_hand(
            CRUPIER, new_id(), table_id=table_id, dealt_in=dealt_in, **report
        ).result

    def end(self, table_id: str, contributions=None, winnings=None, rake_cents: int = 0) -> dict:
        return self.app.end_hand(
            CRUPIER,
            new_id(),
            table_id=table_id,
            contributions=contributions or {},
            winnings=winnings or {},
            rake_cents=rake_cents,
        ).result

    def hand(self, table_id: str, dealt_in=None, *, contributions=None, winnings=None, **report):
        """A whole hand; by default nobody puts anything in."""
        started = self.start(table_id, dealt_in, **report)
        self.end(table_id, contributions, winnings)
        return started

    def played(self, table_id: str, dealt_in=None, **report) -> dict:
        """A whole hand where everyone dealt in bets 100 and the pot is split
        back: nobody goes idle and the stacks stay as they were."""
        started = self.start(table_id, dealt_in, **report)
        bets = {str(s): 100 for s in started["dealt_in"]}
        self.end(table_id, bets, bets)
        return started

    # --- reading --------------------------------------------------------------------

    def get(self, aggregate_id: str | UUID):
        return self.app.repository.get(UUID(str(aggregate_id)))

    def player(self, card: str) -> Player:
        return self.app.repository.get(Player.create_id(card))

    def seats(self, table_id: str) -> dict[int, str]:
        """``{seat: card}`` of the players at the table."""
        table = self.get(table_id)
        return {
            int(seat): self.get(state["player_id"]).card_number
            for seat, state in sorted(table.occupants.items(), key=lambda kv: int(kv[0]))
        }

    def seat_of(self, table_id: str, card: str) -> int:
        return self.get(table_id).seat_of(Player.create_id(card))

    def state(self, table_id: str, card: str | None = None, *, seat: int | None = None) -> dict:
        table = self.get(table_id)
        if seat is None:
            seat = table.seat_of(Player.create_id(card))
        return table.occupants[str(seat)]

    def waiting(self, table_id: str | None = None, **game):
        game_obj = self.get(table_id).game if table_id else self.app.game_for(**game)
        return self.app.waiting_list(game_obj)

    def listed(self, table_id: str) -> list[str]:
        """The cards on the table's game list, in order."""
        waiting = self.waiting(table_id)
        return [self.get(e["player_id"]).card_number for e in waiting.entries] if waiting else []


@pytest.fixture
def room(make_app) -> Room:
    return Room(make_app("CM"))


# --- the player record -----------------------------------------------------------------


def test_a_player_has_a_card_number_and_a_display_name_only_and_is_found_by_card(room):
    outcome = room.app.register_player(
        JEFE, new_id(), card_number=" ab-123 ", display_name="  Ana   Pérez "
    )
    assert outcome.result == {"player_id": pid("AB-123"), "card_number": "AB-123"}
    found = room.app.player("ab-123")  # by card number, whatever its case
    assert (found.card_number, found.display_name, found.barred) == ("AB-123", "Ana Pérez", False)
    assert room.app.player(pid("AB-123")).id == found.id  # and by id
    (registered,) = events_of(room.app, found.id, "Registered")
    personal = {"card_number", "display_name"}
    audit = {"actor", "actor_role", "command_id", "rule_profile", "timestamp"}
    assert set(registered.__dict__) - audit - {"originator_id", "originator_version"} == (
        personal | {"originator_topic"}
    )


def test_a_card_number_is_registered_once(room):
    room.app.register_player(JEFE, new_id(), card_number="X-1", display_name="Uno")
    error = refused(
        room.app,
        "player_exists",
        room.app.register_player,
        JEFE,
        new_id(),
        card_number="x-1",
        display_name="Otro",
    )
    assert error.kind is ErrorKind.CONFLICT
    assert room.app.player("X-1").display_name == "Uno"


@pytest.mark.parametrize(
    ("card", "name", "code"),
    [
        ("", "Ana", "card_number_invalid"),
        ("A 1", "Ana", "card_number_invalid"),
        ("A1", " ", "display_name_required"),
    ],
)
def test_bad_player_records_are_refused(room, card, name, code):
    refused(
        room.app,
        code,
        room.app.register_player,
        JEFE,
        new_id(),
        card_number=card,
        display_name=name,
    )


def test_an_unknown_card_is_not_found(room):
    error = refused(room.app, "player_not_found", room.app.player, "NOBODY")
    assert error.kind is ErrorKind.NOT_FOUND


def test_a_barred_player_may_not_register_for_a_game_nor_sit(room):
    table_id, _ = room.drawn_table(4)
    card = room.new_player()
    room.app.bar_player(JEFE, new_id(), player=card, reason="Trampas")
    assert room.player(card).barred
    refused(
        room.app,
        "player_barred",
        room.app.join_waiting_list,
        JEFE,
        new_id(),
        player=card,
        table_id=table_id,
    )
    refused(
        room.app,
        "player_barred",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=card,
    )
    # the bar lifted, the player plays again
    room.app.lift_bar(JEFE, new_id(), player=card)
    assert room.join(card, table_id)["position"] == 1


def test_barring_takes_the_player_off_every_list_and_a_barred_player_is_never_drawn(room):
    holdem = room.table()
    omaha = room.table(**OMAHA)
    cards = room.new_players(5)
    for card in cards:
        room.join(card, holdem)
    room.join(cards[0], omaha)
    room.app.bar_player(JEFE, new_id(), player=cards[0], reason="Conducta")
    assert cards[0] not in room.listed(holdem) + room.listed(omaha)
    assert room.player(cards[0]).waiting_lists == []
    drawn = room.app.draw_seats(JEFE, new_id(), table_ids=[holdem]).result
    assert pid(cards[0]) not in drawn["tables"][holdem]["seats"].values()
    assert len(drawn["tables"][holdem]["seats"]) == 4


def test_a_seated_player_is_not_barred_before_leaving(room):
    _table_id, cards = room.drawn_table(4)
    refused(
        room.app, "player_seated", room.app.bar_player, JEFE, new_id(), player=cards[0], reason="x"
    )


# --- the waiting list ---------------------------------------------------------------


def test_each_registration_gets_the_next_reservation_number_and_its_place(room):
    table_id = room.table()
    cards = room.new_players(3)
    results = [room.join(card, table_id) for card in cards]
    assert [(r["reservation"], r["position"]) for r in results] == [(1, 1), (2, 2), (3, 3)]
    # the list is the game's: naming the game instead of the table is the same list
    by_game = room.join(room.new_player(), **{k: v for k, v in HOLDEM.items() if k != "seats"})
    assert (by_game["waiting_list_id"], by_game["reservation"]) == (
        results[0]["waiting_list_id"],
        4,
    )


def test_registering_again_puts_the_player_last_under_a_new_number(room):
    """CM-6: a called player may re-register, and then goes last."""
    table_id = room.table()
    first, second, third = room.new_players(3)
    for card in (first, second, third):
        room.join(card, table_id)
    again = room.join(first, table_id)
    assert (again["reservation"], again["position"]) == (4, 3)
    assert room.listed(table_id) == [second, third, first]


def test_a_player_may_be_on_several_lists_and_leaves_them_all_when_seated_if_asked(room):
    holdem, _cards = room.drawn_table(4)  # CM: the draw stays open, seats are drawn
    omaha = room.table(**OMAHA)
    big_holdem = room.table(minimum_cents=400, maximum_cents=2000)
    keeps, leaves = room.new_players(2)
    for card in (keeps, leaves):
        room.join(card, holdem)
        room.join(card, omaha)
        room.join(card, big_holdem)
    assert len(room.player(leaves).waiting_lists) == 3
    room.sit(holdem, keeps)  # not asked: the other lists keep the player
    assert room.listed(omaha) == [keeps, leaves] and room.listed(big_holdem) == [keeps, leaves]
    assert room.listed(holdem) == [leaves]
    room.sit(holdem, leaves, leave_other_lists=True)
    assert room.listed(omaha) == [keeps] and room.listed(big_holdem) == [keeps]
    assert room.listed(holdem) == []
    assert sorted(room.player(keeps).waiting_lists) == sorted(
        [room.get(omaha).game.key, room.get(big_holdem).game.key]
    )
    assert room.player(leaves).waiting_lists == []


def test_a_seated_player_registers_only_for_another_variant(room):
    """CM-7: players already playing may register for a different variant only."""
    _holdem, cards = room.drawn_table(4)
    omaha = room.table(**OMAHA)
    other_holdem = room.table(minimum_cents=400, maximum_cents=2000)
    refused(
        room.app,
        "seated_same_variant",
        room.app.join_waiting_list,
        JEFE,
        new_id(),
        player=cards[0],
        table_id=other_holdem,
    )
    assert room.join(cards[0], omaha)["position"] == 1


def test_leaving_a_list_takes_the_player_off_it(room):
    table_id = room.table()
    first, second = room.new_players(2)
    room.join(first, table_id)
    room.join(second, table_id)
    room.app.leave_waiting_list(
        JEFE, new_id(), player=first, table_id=table_id, reason="absent_when_called"
    )
    assert room.listed(table_id) == [second]
    refused(
        room.app,
        "player_not_on_list",
        room.app.leave_waiting_list,
        JEFE,
        new_id(),
        player=first,
        table_id=table_id,
    )


def test_a_vacant_seat_goes_to_the_list_in_order(make_app):
    """PT 12 b; CM-5: the list in order. GA: no open draw, the jefe names the seat."""
    room = Room(make_app("GA"))
    table_id, _cards = room.drawn_table(5)
    first, second = room.new_players(2)
    outsider = room.new_player()
    room.join(first, table_id)
    room.join(second, table_id)
    free = room.get(table_id).free_seats()
    error = refused(
        room.app,
        "waiting_list_first",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=second,
        seat=free[0],
    )
    assert error.params == {"reservation": 6}  # numbers go on after the drawn five
    refused(
        room.app,
        "waiting_list_first",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=outsider,
        seat=free[0],
    )
    room.sit(table_id, first, free[0])
    room.sit(table_id, second, free[1])
    assert room.listed(table_id) == []
    # nobody waits now: a player who is not on the list may sit
    room.sit(table_id, outsider, free[2])
    assert room.seat_of(table_id, outsider) == free[2]


def test_seated_players_asking_to_change_seat_come_before_the_list(make_app):
    """PT 12 a; CM-5, CM-11: the seated player who asked first, then the list."""
    room = Room(make_app("PT"))
    table_id, cards = room.drawn_table(10)  # a full table
    waiting = room.new_player()
    room.join(waiting, table_id)
    mover = cards[0]
    room.app.request_seat_change(JEFE, new_id(), table_id=table_id, player=mover)
    refused(
        room.app,
        "seat_change_already_requested",
        room.app.request_seat_change,
        JEFE,
        new_id(),
        table_id=table_id,
        player=mover,
    )
    leaving = next(c for c in cards if c != mover)
    freed = room.seat_of(table_id, leaving)
    left = room.leave(table_id, leaving)
    assert left["offered"] == {"seat_change_request": pid(mover)}
    assert room.waiting(table_id).entries[0]["status"] == "waiting"  # nobody called yet
    refused(
        room.app,
        "seat_change_requested_first",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=waiting,
        seat=freed,
    )
    old = room.seat_of(table_id, mover)
    moved = room.app.change_seat(JEFE, new_id(), table_id=table_id, player=mover, seat=freed).result
    assert (moved["seat"], moved["freed_seat"]) == (freed, old)
    assert room.player(mover).seated_at["seat"] == freed
    # the seat the mover left now goes to the list: its first player is called
    assert moved["offered"] == {"called": pid(waiting), "reservation": 11}
    room.sit(table_id, waiting, old)
    assert room.seats(table_id)[old] == waiting


def test_only_a_player_at_the_table_asks_to_change_seat(room):
    table_id, _ = room.drawn_table(4)
    stranger = room.new_player()
    refused(
        room.app,
        "player_not_at_table",
        room.app.request_seat_change,
        JEFE,
        new_id(),
        table_id=table_id,
        player=stranger,
    )


def test_a_player_sits_at_one_table_at_a_time(room):
    _first, cards = room.drawn_table(4)
    second = room.table(**OMAHA)
    refused(
        room.app,
        "player_already_seated",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=second,
        player=cards[0],
    )
