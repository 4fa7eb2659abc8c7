"""Seating commands: draw a table's seats, seat and move players, chips, rests,
leaving and closing (RULES.md sections 3 to 5).

The commands live by concern, one mixin each, composed here: the draw
(floor.application.seat_draws), joining and moving (floor.application.joining),
leaving and closing (floor.application.leaving), rests and hands
(floor.application.rests_and_hands), on what they share
(floor.application.seat_support).
"""

from __future__ import annotations

from floor.application.joining import JoiningCommands
from floor.application.leaving import LeavingCommands
from floor.application.rests_and_hands import RestAndHandCommands
from floor.application.seat_draws import DrawCommands


class SeatingCommands(DrawCommands, JoiningCommands, LeavingCommands, RestAndHandCommands):
    """The seating commands (RULES.md sections 3 to 5), one class for the
    chain that builds on them (floor.application.clocks)."""
