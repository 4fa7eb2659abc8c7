"""Rule profiles: every number and choice that differs between the sources.

A casino runs one profile; events record the profile in force. Each field names
the article it comes from (see shared RULES.md section 12). Later issues add the
fields their rules need.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta
from enum import StrEnum
from fractions import Fraction

from games.errors import RuleViolation


class SeatNumbering(StrEnum):
    FROM_DEALER_RIGHT = "from_dealer_right"  # GA art. 18.2
    FROM_DEALER_LEFT = "from_dealer_left"  # PT 6; CM


@dataclass(frozen=True)
class RuleProfile:
    code: str
    name: str
    # A sector holds at most four tables [GA art. 19; PG III.1].
    max_tables_per_sector: int
    # A game needs four players to start and to go on [GA art. 23; PT 24].
    min_players: int
    # The table minimum lies between these shares of the maximum
    # [GA art. 22.3a; PT 20].
    minimum_share_band: tuple[Fraction, Fraction]
    # A suspended table closes after this long without four players [PT 24];
    # None: it stays suspended until there are four again [GA art. 23].
    suspension_closes_after: timedelta | None
    # Seat 1 is at the dealer's right [GA art. 18.2] or left [PT 6; CM].
    seat_numbering: SeatNumbering


GA = RuleProfile(
    code="GA",
    name="Galicia, Decreto 112/2005",
    max_tables_per_sector=4,
    min_players=4,
    minimum_share_band=(Fraction(20, 100), Fraction(40, 100)),
    suspension_closes_after=None,
    seat_numbering=SeatNumbering.FROM_DEALER_RIGHT,
)

PT = RuleProfile(
    code="PT",
    name="Portugal, póquer sem banca (2007)",
    max_tables_per_sector=4,
    min_players=4,
    minimum_share_band=(Fraction(20, 100), Fraction(40, 100)),
    suspension_closes_after=timedelta(minutes=15),
    seat_numbering=SeatNumbering.FROM_DEALER_LEFT,
)

# Casino Mediterráneo house rules, layered on the Galician regulation.
CM = replace(
    GA,
    code="CM",
    name="Casino Mediterráneo (house rules on GA)",
    # The service default where the house manual is silent (RULES.md §12).
    suspension_closes_after=timedelta(minutes=15),
    seat_numbering=SeatNumbering.FROM_DEALER_LEFT,
)

# CM with every duration cut to seconds, for tests that need a real worker.
TEST = replace(
    CM,
    code="TEST",
    name="Test profile (CM with short durations)",
    suspension_closes_after=timedelta(seconds=3),
)

PROFILES: dict[str, RuleProfile] = {p.code: p for p in (GA, PT, CM, TEST)}


def get_profile(code: str) -> RuleProfile:
    """The profile of that code; an unknown code is a configuration error."""
    try:
        return PROFILES[code.upper()]
    except KeyError:
        raise RuleViolation(
            "unknown_rule_profile",
            f"Unknown rule profile {code!r}; known: {', '.join(PROFILES)}.",
        ) from None
