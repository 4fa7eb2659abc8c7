"""Honest hands for the benches that deal them (ledger.py, balance.py, timers.py).

A bench measures what the floor costs, so its hands must be ones the floor
accepts under its strictest reading of the rules, not reports that merely
balance: the blinds posted by the seats the button puts them on [GA art. 23;
PT 29-30; CM-17], dead blinds owed paid in [PT 90], and one pot that every
player in it matched, so there is no side pot to share out and no uncalled bet
to return [PT 38, 49-50; CM "restados"]. The hand is the commonest at a table:
everybody folds to the blinds, the small blind calls, the big blind checks, and
one of the two wins the pot less the house's rake, at most what the table
announced [GA art. 18.3a; PT 7a; CM "Beneficio"].
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from floor.domain import positions
from floor.domain.hand_rules import expected_button, most_rake


@dataclass(frozen=True)
class Deal:
    """What the dealer reports when the hand starts: the blinds, and who posts them."""

    dealt_in: list[int]
    blinds: dict[str, int]
    small: int
    big: int


def deal(app, table, dealt_in: list[int]) -> Deal:
    """The blinds of the next hand at ``table`` with ``dealt_in`` playing:
    the button where the floor will put it, the small blind (the profile's
    share of the minimum) and the big blind (the table's minimum) on the next
    two seats in play order. Heads-up the button posts the small blind."""
    direction = positions.step(app.profile)
    button, _ = expected_button(table, direction)
    if button is None:  # no button drawn yet: the dealer would have to name one
        raise RuntimeError(f"{table.label} has no button to deal from")
    small, big = positions.blind_seats(button, table.seats, direction, dealt_in)
    small_blind = int(table.minimum_cents * app.profile.blinds.small_share_of_minimum)
    return Deal(
        dealt_in=sorted(dealt_in),
        blinds={str(small): small_blind, str(big): table.minimum_cents},
        small=small,
        big=big,
    )


def showdown(app, table_id: str, dealt: Deal, started: dict, winner_is_big_blind: bool) -> dict:
    """The end of the hand ``dealt`` (``started``: the start's result): both
    blinds in for the big blind, plus any dead blind a seat owed [PT 90] (dead
    money: in the pot, not a bet); the winner takes the pot less the most rake
    the table allows. Returns ``end_hand``'s keyword arguments."""
    table = app.repository.get(UUID(table_id))
    big_blind = table.minimum_cents
    small, big = dealt.small, dealt.big
    put_in = {small: big_blind, big: big_blind}
    for seat, owed in started.get("dead_blinds", {}).items():
        put_in[int(seat)] = put_in.get(int(seat), 0) + owed
    pot = sum(put_in.values())
    rake = most_rake(table, app.profile, pot)
    winner = big if winner_is_big_blind else small
    return {
        "contributions": {str(seat): amount for seat, amount in put_in.items()},
        "winnings": {str(winner): pot - rake},
        "rake_cents": rake,
    }
