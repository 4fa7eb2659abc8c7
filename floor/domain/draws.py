"""The floor's draws: seats, tables by suit, and the button by high card.

Each draw returns what was drawn (the seat numbers in draw order, each player's
suit, each seat's card) so that the event can record it and an inspector can
replay the assignment from the log. The random source is the caller's: the
application uses ``secrets.SystemRandom`` [issue: the random source is
`secrets`]; tests may pass a seeded one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from floor.kernel.errors import DomainError, conflict
from games.cards import SUIT_CHARS, Card, deck


@dataclass(frozen=True)
class SeatDraw:
    """Players in the order they drew and the seat each drew."""

    players: tuple[str, ...]
    seats: tuple[int, ...]

    def assignment(self) -> dict[str, int]:
        return dict(zip(self.players, self.seats, strict=True))


@dataclass(frozen=True)
class ListedPlayer:
    """A player on the game's list, as the draw weighs them: the Player's or
    the read model's (``player_id`` in hex)."""

    player_id: str
    barred: bool
    seated: bool
    in_tournament: bool
    kept_apart: frozenset[str]


def draw_candidates(listed: Sequence[ListedPlayer], *, on_break: bool) -> list[ListedPlayer]:
    """Who on the list, in its order, may be drawn a seat [CM-8]: not barred,
    seated nowhere, not a tournament player but on its dinner break [CM-23],
    never two kept apart [CM-14]. Shared by ``draw_seats`` and the card."""
    chosen: list[ListedPlayer] = []
    for player in listed:
        if player.barred or player.seated:
            continue
        if player.in_tournament and not on_break:
            continue
        if any(p.player_id in player.kept_apart for p in chosen):
            continue
        chosen.append(player)
    return chosen


def draw_refusal(candidates: int, needed: int) -> DomainError | None:
    """Why the draw may not be made, or None: enough players left on the list
    for the tables drawn, once the open tables are completed [CM-8, CM-9].
    The one check ``draw_seats`` and the card's "Draw the seats" ask."""
    if candidates < needed:
        return conflict("not_enough_players", registered=candidates, needed=needed)
    return None


def draw_seats(players: Sequence[str], free_seats: Sequence[int], rng: Random) -> SeatDraw:
    """Each player, in a shuffled order, draws one of the free seats at random
    [GA art. 20; PT 11]. Needs no more players than seats."""
    order = list(players)
    rng.shuffle(order)
    seats = rng.sample(sorted(free_seats), len(order))
    return SeatDraw(tuple(order), tuple(seats))


def draw_by_suit(
    players: Sequence[str], table_ids: Sequence[str], capacity: dict[str, int], rng: Random
) -> dict[str, dict]:
    """PT 25: with players for more than one table, each draws a card of a pack
    made of one suit per table, as many cards of each suit as that table gets
    players (shared as evenly as the seats allow, so the tables start balanced,
    CM-10); the suit sends the player to that table. The caller passes no more
    players than seats. Returns ``{player: {"card", "table_id"}}``.
    """
    if len(table_ids) > len(SUIT_CHARS):
        raise ValueError("a suit draw serves at most four tables")
    if len(players) > sum(capacity[t] for t in table_ids):
        raise ValueError("more players than seats")
    share = dict.fromkeys(table_ids, 0)
    for _ in players:
        roomy = [t for t in table_ids if share[t] < capacity[t]]
        share[min(roomy, key=lambda t: share[t])] += 1
    pack: list[tuple[Card, str]] = []
    for suit, table_id in zip(SUIT_CHARS, table_ids, strict=False):
        suited = [c for c in deck() if c.suit == suit][: share[table_id]]
        pack.extend((c, table_id) for c in suited)
    rng.shuffle(pack)
    return {
        player: {"card": str(card), "table_id": table_id}
        for player, (card, table_id) in zip(players, pack, strict=True)
    }


def draw_button(seats: Sequence[int], rng: Random) -> tuple[dict[int, str], int]:
    """One card face up to each seated player from seat 1 upward; the highest
    card takes the button, equal ranks broken by suit, spades > hearts >
    diamonds > clubs [CM "Desarrollo del juego"]. Returns each seat's card and
    the winning seat."""
    cards = rng.sample(deck(), len(seats))
    dealt = dict(zip(sorted(seats), cards, strict=True))
    winner = max(dealt, key=lambda seat: dealt[seat])  # Card order: rank, then suit
    return {seat: str(card) for seat, card in dealt.items()}, winner


def draw_high_card(players: Sequence[str], rng: Random) -> tuple[dict[str, str], str]:
    """One card to each player; the highest card wins, equal ranks broken by
    suit [CM-11]. Returns each player's card and the winner."""
    cards = rng.sample(deck(), len(players))
    dealt = dict(zip(players, cards, strict=True))
    winner = max(dealt, key=lambda player: dealt[player])
    return {player: str(card) for player, card in dealt.items()}, winner


def seat_to_take(called_seat: int | None, draw_open: bool) -> int | None:
    """The seat a player called from the list sits in: the one they were
    called to, unless the table's draw is still open, where every seat taken
    is drawn among the free ones (CM-3) and so none is named beforehand."""
    return None if draw_open else called_seat
