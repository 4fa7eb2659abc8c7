"""Seating commands: draw a table's seats, seat and move players, chips, rests,
leaving and closing (RULES.md sections 3 to 5).

The commands live by concern, one module each, and declare themselves as they
load: the draw (floor.application.seat_draws), joining and moving
(floor.application.joining), leaving and closing (floor.application.leaving),
rests and hands (floor.application.rests_and_hands), on what they share
(floor.application.seat_support). Importing this module declares them all.
"""

from __future__ import annotations

from floor.application import (  # noqa: F401  (their commands declare themselves)
    joining,
    leaving,
    rests_and_hands,
    seat_draws,
)
