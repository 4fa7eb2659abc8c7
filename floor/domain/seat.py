"""A seat's state at a table, as a typed value: who sits there, their stack,
and the flags the rules raise on them (RULES.md sections 3 and 4).

The domain reads and changes seats as ``Seat`` values; the table stores each as
the plain dict ``Seat.to_state`` gives (the same keys, in the same order, as
before the value existed), so snapshots stay JSON and a snapshot taken by the
older code loads unchanged (``Seat.from_state``). Events never held a seat's
state: they record seat numbers, stacks and the flags a decision raised.

This is the one declaration of a seat's fields: the floor's read model
(floor.projections.floor_views) and the API's serializer show ``SEAT_FLAGS``,
the fields marked ``shown`` here, instead of listing them again.
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import deepcopy
from dataclasses import dataclass, field, fields, replace
from typing import Any


def _shown(default: Any) -> Any:
    """A field the floor's views show for each seat (SEAT_FLAGS)."""
    return field(default=default, metadata={"shown": True})


@dataclass(frozen=True)
class Seat:
    """One occupied seat. Field order is the stored dict's key order."""

    player_id: str  # the player's id, hex
    stack: int = 0  # cents of chips in front of the player
    # Joined a game already dealing: may not take the button for a first hand
    # [PT 80], posts the big blind or waits for it [CM-17].
    newcomer: bool = _shown(False)
    posts_big_blind: bool = _shown(False)
    resting: bool = _shown(False)
    rested_hands: int = _shown(0)  # hands sat out in the current rest
    rests: int = 0  # rests taken at this table
    idle_hands: int = _shown(0)  # dealt in without betting of their own will [PT 89]
    owes_cents: int = _shown(0)  # blinds missed while resting, posted dead [PT 90]
    must_rebuy: bool = _shown(False)  # [CM-16; PT 79]
    must_leave: str = _shown("")  # why, under PT 13
    must_post_big_blind: bool = _shown(False)  # [PT 89]
    rest_exceeded: bool = _shown(False)  # rested past the allowance [GA art. 20; PT 13]
    # Dealt a hand here: may ask for the absence clock [CM-19]; shown, so the
    # console offers "Away" only when the command would take it.
    played_hand: bool = _shown(False)
    # On the absence clock [CM-18] (floor.domain.absence): its times (ISO text),
    # ``warned`` and ``posting_blinds``; None when present.
    away: Mapping[str, Any] | None = _shown(None)
    time_due: bool = _shown(False)  # owes the session's time charge [GA art. 18.3b; PT 7b]
    # Asked for the absence clock while dealt in: it starts when the hand ends
    # [CM-18] (floor.domain.absence). Added last, so older seats load with False.
    away_after_hand: bool = _shown(False)
    # Where the player sat before the move or seat change that brought them
    # here, while it may still be undone (floor.domain.corrections): {"table":
    # hex, "seat": n, "kind": why they moved, "played": dealt a hand since}.
    # None when they sat down here, or once undone. Added last, as above.
    moved_from: Mapping[str, Any] | None = _shown(None)
    # When the player sat down at this table, as an order: the table's event
    # number times 100, plus their place among the players one draw seated
    # (floor.domain.table_seats.arrival_at). A seat change keeps it; a
    # must-move table moves its players in this order (floor.domain.must_move).
    # None for a seat taken before it was recorded. Added last, as above.
    arrival: int | None = _shown(None)

    @classmethod
    def sit(cls, player_id: str, *, newcomer: bool, posts_big_blind: bool) -> Seat:
        """A seat's state when a player sits down."""
        return cls(player_id=player_id, newcomer=newcomer, posts_big_blind=posts_big_blind)

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Seat:
        """The value of a stored seat (a snapshot's, or the table's own)."""
        return cls(**state)

    def to_state(self) -> dict[str, Any]:
        """The stored, JSON form: a dict of the fields, in declaration order.

        What ``dataclasses.asdict`` gives (a copy of every value that is not
        immutable: the dict fields), without its recursive walk of every
        field through ``deepcopy``: that walk
        was three quarters of a table's replay (issue 23, item 5; bench/replay.py)."""
        state = {name: getattr(self, name) for name in _FIELD_NAMES}
        for name, value in state.items():
            if type(value) not in _PLAIN and not isinstance(value, _IMMUTABLE):
                state[name] = deepcopy(value)
        return state

    @classmethod
    def changed(cls, state: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
        """``from_state(state).but(**changes).to_state()``, without making
        the two values on the way: a table's fold changes a seat or two per
        event, and making them was most of a rebuild's folding (issue 23). A
        stored seat of another shape (an older snapshot's, with fields
        missing) takes the long way, which fills them in."""
        if tuple(state) != _FIELD_NAMES or not changes.keys() <= _FIELD_SET:
            return cls.from_state(state).but(**changes).to_state()
        new = {**state, **changes}
        # Copied as ``to_state`` copies them: the values given, and the
        # fields declared to hold a mapping (the others hold scalars). Not a
        # look at every field: a hand's fold changes most dealt-in seats, and
        # that look was most of this call (issue 23, sixth pass).
        for name, value in changes.items():
            if type(value) not in _PLAIN and not isinstance(value, _IMMUTABLE):
                new[name] = deepcopy(value)
        for name in _NESTED:
            value = new[name]
            if value is not None and name not in changes and type(value) not in _PLAIN:
                new[name] = deepcopy(value)
        return new

    @staticmethod
    def stored(state: Mapping[str, Any], name: str) -> Any:
        """One field of a stored seat, as ``from_state(state)`` would hold it
        (its default where an older snapshot's seat lacks it), without making
        the value: a hand's fold reads a few fields of every dealt-in seat."""
        try:
            return state[name]
        except KeyError:
            return _DEFAULTS[name]

    def but(self, **changes: Any) -> Seat:
        """This seat with ``changes``."""
        return replace(self, **changes)

    @property
    def on_clock_posting_blinds(self) -> bool:
        """Away past the absence clock, their blinds posted [CM-18]."""
        return bool(self.away and self.away["posting_blinds"])


# The stored dict's keys, in order; values of these types are stored as they are.
_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Seat))
_IMMUTABLE = (str, int, float, type(None))
_PLAIN = frozenset({str, int, bool, float, type(None)})  # most values: no isinstance
_FIELD_SET = frozenset(_FIELD_NAMES)
# The fields declared to hold a mapping: ``to_state`` copies their values.
_NESTED: tuple[str, ...] = tuple(f.name for f in fields(Seat) if "Mapping" in str(f.type))
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Seat)}

# The flags the floor's read model and the API show for each seat, in this order.
SEAT_FLAGS: tuple[str, ...] = tuple(f.name for f in fields(Seat) if f.metadata.get("shown"))
