"""A table's game, stakes and seats, checked against the rule profile before the
table opens (RULES.md sections 2 and 8)."""

from __future__ import annotations

from dataclasses import dataclass

from floor.domain.errors import DomainError, ErrorKind, invalid
from floor.domain.game import Game
from games.errors import RuleViolation
from games.limits import BettingLimit, TableStakes, check_stakes
from games.profiles import RuleProfile
from games.variants import VARIANTS, Variant


def _variant(name: object) -> Variant:
    try:
        return Variant(name)
    except ValueError:
        raise invalid("unknown_variant", f"Unknown variant {name!r}.", variant=str(name)) from None


def check_game(
    variant: object,
    limit: object,
    minimum_cents: object,
    maximum_cents: object,
    profile: RuleProfile,
) -> Game:
    """A game the profile allows: a known variant and limit, stakes in the band
    [GA art. 22.3a; PT 20]."""
    game = _variant(variant)
    try:
        betting = BettingLimit(limit)
    except ValueError:
        raise invalid("unknown_limit", f"Unknown betting limit {limit!r}.", limit=limit) from None
    for amount in (minimum_cents, maximum_cents):
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise invalid("not_an_integer", "Amounts and seats are integers.")
    try:
        check_stakes(TableStakes(betting, minimum_cents, maximum_cents), profile.minimum_share_band)
    except RuleViolation as broken:
        raise DomainError(
            broken.code, broken.message, kind=ErrorKind.INVALID, **broken.params
        ) from None
    return Game(str(game), str(betting), minimum_cents, maximum_cents)


@dataclass(frozen=True)
class TableSpec:
    """What a table plays: ``variant`` (and ``second_variant`` on a mixed
    table, PT 23), the limit, the stakes in cents and the number of seats."""

    variant: str
    limit: str
    minimum_cents: int
    maximum_cents: int
    seats: int
    second_variant: str | None = None

    @property
    def game(self) -> Game:
        return Game(self.variant, self.limit, self.minimum_cents, self.maximum_cents)

    @property
    def banked(self) -> bool:
        return VARIANTS[Variant(self.variant)].banked

    @classmethod
    def check(
        cls,
        *,
        variant: str,
        limit: str,
        minimum_cents: int,
        maximum_cents: int,
        seats: int,
        profile: RuleProfile,
        second_variant: str | None = None,
    ) -> TableSpec:
        """The spec, or the first rule it breaks: variant, limit, stakes, seats."""
        checked = check_game(variant, limit, minimum_cents, maximum_cents, profile)
        game, betting = Variant(checked.variant), BettingLimit(checked.limit)
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise invalid("not_an_integer", "Amounts and seats are integers.")
        variants = [game]
        if second_variant:
            variants.append(cls._check_mixed(game, _variant(second_variant), profile))
        low, high = 0, 99
        for one in variants:
            allowed = profile.seats.range_for(one)
            if allowed is None:
                raise invalid(
                    "variant_not_in_profile",
                    f"The {profile.code} rules do not provide for {one} tables.",
                    variant=str(one),
                    profile=profile.code,
                )
            low, high = max(low, allowed.min_seats), min(high, allowed.max_seats)
        if not low <= seats <= high:
            raise invalid(
                "seats_out_of_range",
                f"A {'/'.join(variants)} table has between {low} and {high} seats.",
                variant=str(game),
                low=low,
                high=high,
            )
        return cls(
            str(game),
            str(betting),
            minimum_cents,
            maximum_cents,
            seats,
            str(variants[1]) if len(variants) > 1 else None,
        )

    @staticmethod
    def _check_mixed(first: Variant, second: Variant, profile: RuleProfile) -> Variant:
        """Mixed tables play two non-banked variants where authorised [PT 23]."""
        if not profile.seating.mixed_tables_allowed:
            raise invalid(
                "mixed_table_not_allowed",
                f"The {profile.code} rules do not provide for mixed tables.",
                profile=profile.code,
            )
        if second == first or VARIANTS[first].banked or VARIANTS[second].banked:
            raise invalid(
                "mixed_table_variants_invalid",
                "A mixed table plays two different non-banked variants (PT 23).",
            )
        return second
