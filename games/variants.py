"""The poker variants a regulated room may run, and what each needs of a table."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Variant(StrEnum):
    TEXAS_HOLDEM = "texas_holdem"
    OMAHA = "omaha"
    SINTETICO = "sintetico"
    SEVEN_STUD = "seven_stud"
    FIVE_STUD = "five_stud"
    FIVE_CARD_DRAW = "five_card_draw"
    SEN_DESCARTE = "sen_descarte"
    TRIJOKER = "trijoker"
    PAI_GOW = "pai_gow"


@dataclass(frozen=True)
class VariantSpec:
    """What a variant fixes: its deck, whether the house banks it, its seats."""

    variant: Variant
    deck_size: int
    banked: bool
    max_seats: int
    source: str


VARIANTS: dict[Variant, VariantSpec] = {
    spec.variant: spec
    for spec in (
        # 10 seats; PT lets the seat at the dealer's right be disabled [PT 6].
        VariantSpec(Variant.TEXAS_HOLDEM, 52, False, 10, "PT 6; GA art. 34-35"),
        VariantSpec(Variant.OMAHA, 52, False, 10, "PT 6; GA art. 32-33"),
        # 28 cards (8..A), 11 seats [PT 6; GA art. 39-43].
        VariantSpec(Variant.SINTETICO, 28, False, 11, "PT 6; GA art. 39-43"),
        # "Table's" seats in GA: bounded here by the deck, 7 cards each of 52.
        VariantSpec(Variant.SEVEN_STUD, 52, False, 7, "GA art. 29-31"),
        # 32 cards (7..A), 5 each: at most 6 players.
        VariantSpec(Variant.FIVE_STUD, 32, False, 6, "GA art. 36-38"),
        # 5 cards plus one draw of up to 5 from 52: at most 7 players (GA art. 26-28).
        VariantSpec(Variant.FIVE_CARD_DRAW, 52, False, 7, "GA art. 26-28"),
        VariantSpec(Variant.SEN_DESCARTE, 52, True, 7, "GA art. 2-8; PT-SD"),
        VariantSpec(Variant.TRIJOKER, 52, True, 7, "GA art. 9-16"),
        # 52 cards plus a joker; at most six players [PG].
        VariantSpec(Variant.PAI_GOW, 53, True, 6, "PG"),
    )
}
