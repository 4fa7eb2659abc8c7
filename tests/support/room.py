"""A floor to test seating rules in: a sector, its tables, numbered players,
and ``refused`` to check a command is refused with its code and records nothing.
Shared by the floor's seating tests."""

from __future__ import annotations

import itertools
import random
from uuid import UUID

import pytest

from floor.application.players import game_for, waiting_list
from floor.domain.player import Player
from floor.kernel.errors import DomainError
from floor.kernel.roles import Actor
from floor.kernel.unit_of_work import UnitOfWork
from tests.support.floor import CRUPIER, HOLDEM, JEFE, new_id, open_sector
from tests.support.money import fill_tray

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

    def table(self, *, tray_cents: int = 500_000, **change) -> str:
        """A table whose tray the cage filled with ``tray_cents`` of chips, dealt
        by the room's crupier."""
        spec = {**HOLDEM, **change}
        table_id = self.app.open_table(JEFE, new_id(), sector_id=self.sector_id, **spec).result[
            "table_id"
        ]
        if tray_cents:
            fill_tray(self.app, table_id, tray_cents)
        self.deal(table_id)
        return table_id

    def deal(self, table_id: str, dealer: Actor = CRUPIER) -> None:
        """Names the crupier dealing at ``table_id`` (the only one who may report there)."""
        self.app.assign_dealer(JEFE, new_id(), table_id=table_id, dealer=dealer.username)

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
        """A whole hand where everyone dealt in bets the same (100, or the
        biggest blind posted) and takes it back: nobody goes idle and the
        stacks stay as they were, but for missed blinds posted dead [PT 90],
        dead money the first seat dealt in takes."""
        started = self.start(table_id, dealt_in, **report)
        bet = max([100, *started["blinds"].values()])
        bets = {str(s): bet for s in started["dealt_in"]}
        put_in = {s: b + started["dead_blinds"].get(s, 0) for s, b in bets.items()}
        first = str(started["dealt_in"][0])
        bets[first] += sum(started["dead_blinds"].values())
        self.end(table_id, put_in, bets)
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

    def work(self) -> UnitOfWork:
        """A unit of work on the room's store, to read it as the commands do."""
        return UnitOfWork(self.app, self.app.profile)

    def waiting(self, table_id: str | None = None, **game):
        work = self.work()
        game_obj = self.get(table_id).game if table_id else game_for(work, **game)
        return waiting_list(work, game_obj)

    def listed(self, table_id: str) -> list[str]:
        """The cards on the table's game list, in order."""
        waiting = self.waiting(table_id)
        return [self.get(e["player_id"]).card_number for e in waiting.entries] if waiting else []
