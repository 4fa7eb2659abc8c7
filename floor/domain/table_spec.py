"""A table's game, stakes and seats, checked against the rule profile before the
table opens (RULES.md sections 2 and 8)."""

from __future__ import annotations

from dataclasses import dataclass

from floor.domain.game import Game
from floor.kernel.errors import DomainError, ErrorKind, invalid
from games.betting import check_ante, check_banked_stakes
from games.errors import RuleViolation
from games.limits import BettingLimit, TableStakes, check_stakes
from games.profiles import RuleProfile
from games.variants import VARIANTS, Variant


def _variant(name: object) -> Variant:
    try:
        return Variant(name)
    except ValueError:
        raise invalid("unknown_variant", variant=str(name)) from None


def check_game(
    variant: object,
    limit: object,
    minimum_cents: object,
    maximum_cents: object,
    profile: RuleProfile,
) -> Game:
    """A game the profile allows: a known variant and limit, stakes in the band.

    Circle games keep their minimum between 20 and 40 % of the maximum [GA
    art. 22.3a; PT 20]. Banked games have their own fluctuation bands instead
    (``check_banked_stakes``): sen descarte's maximum is 10, 20 or 25 times the
    minimum [GA art. 6.3], at most 25 times under PT-SD 14; Trijoker's 10, 20 or
    30 times [GA art. 14.2]. A banked variant the profile gives no band (Pai
    Gow: the PG excerpt names none) only needs a positive minimum not above the
    maximum; the circle band never applies to it (docs/games.md).
    """
    game = _variant(variant)
    try:
        betting = BettingLimit(limit)
    except ValueError:
        raise invalid("unknown_limit", limit=limit) from None
    for amount in (minimum_cents, maximum_cents):
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise invalid("not_an_integer")
    try:
        if VARIANTS[game].banked:
            _check_banked_band(game, minimum_cents, maximum_cents, profile)
        else:
            stakes = TableStakes(betting, minimum_cents, maximum_cents)
            check_stakes(stakes, profile.minimum_share_band)
    except RuleViolation as broken:
        raise DomainError(broken.code, kind=ErrorKind.INVALID, **broken.params) from None
    return Game(str(game), str(betting), minimum_cents, maximum_cents)


def _check_banked_band(game: Variant, minimum: int, maximum: int, profile: RuleProfile) -> None:
    """A banked table's stakes: the profile's band for the variant, or, where
    the profile has none, just a positive minimum not above the maximum."""
    band = profile.limits.band_for(game)
    if band is not None:
        check_banked_stakes(band, minimum=minimum, maximum=maximum)
        return
    if minimum <= 0:
        raise RuleViolation(
            "stakes_minimum_not_positive", "The table minimum must be a positive amount."
        )
    if maximum < minimum:
        raise RuleViolation(
            "stakes_maximum_below_minimum", "The table maximum may not be below its minimum."
        )


def _as_domain(check, *args: object, **kwargs: object):
    """Runs a games check; its refusal becomes the floor's 400 with the same code."""
    try:
        return check(*args, **kwargs)
    except RuleViolation as broken:
        raise DomainError(broken.code, kind=ErrorKind.INVALID, **broken.params) from None


RAKE_FIELDS = (
    "rake_model",
    "rake_percent",
    "rake_cap_cents",
    "rake_step_cents",
    "session_percent",
    "session_base",
)


def announced_rake(profile: RuleProfile, variant: Variant, seats: int, given: dict) -> dict | None:
    """The house benefit a table announces, within the profile [GA art. 18.3;
    PT 7; CM "Beneficio"]: what is not given takes the profile's default."""
    unknown = sorted(set(given) - set(RAKE_FIELDS))
    if unknown:
        raise invalid("rake_field_unknown", field=unknown[0])
    chosen = {k: v for k, v in given.items() if v is not None}
    rules = _as_domain(profile.for_table, variant, seats=seats, **chosen)
    if rules.rake_model is None:
        return None
    if rules.rake_model == "per_hand":
        return {
            "model": "per_hand",
            "share": str(rules.rake_share),
            "cap_cents": rules.rake_cap_cents,
            "step_cents": rules.rake_step_cents,
        }
    return {
        "model": "per_session",
        "share": str(rules.session_share),
        "base": str(rules.session_base),
    }


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
    ante_cents: int = 0
    # The announced house benefit [GA art. 18.3; PT 7; CM "Beneficio"]:
    # {"model": "per_hand", "share": "1/20", "cap_cents", "step_cents"} or
    # {"model": "per_session", "share", "base"}; None for a banked game.
    rake: dict | None = None

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
        ante_cents: int = 0,
        rake: dict | None = None,
    ) -> TableSpec:
        """The spec, or the first rule it breaks: variant, limit, stakes, seats,
        ante, rake model."""
        checked = check_game(variant, limit, minimum_cents, maximum_cents, profile)
        game, betting = Variant(checked.variant), BettingLimit(checked.limit)
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise invalid("not_an_integer")
        variants = [game]
        if second_variant:
            variants.append(cls._check_mixed(game, _variant(second_variant), profile))
        low, high = 0, 99
        for one in variants:
            allowed = profile.seats.range_for(one)
            if allowed is None:
                raise invalid("variant_not_in_profile", variant=str(one), profile=profile.code)
            low, high = max(low, allowed.min_seats), min(high, allowed.max_seats)
        if not low <= seats <= high:
            raise invalid("seats_out_of_range", variant=str(game), low=low, high=high)
        if isinstance(ante_cents, bool) or not isinstance(ante_cents, int) or ante_cents < 0:
            raise invalid("not_an_integer")
        _as_domain(check_ante, ante_cents, minimum_cents)
        return cls(
            str(game),
            str(betting),
            minimum_cents,
            maximum_cents,
            seats,
            str(variants[1]) if len(variants) > 1 else None,
            ante_cents,
            announced_rake(profile, game, seats, rake or {}),
        )

    @staticmethod
    def _check_mixed(first: Variant, second: Variant, profile: RuleProfile) -> Variant:
        """Mixed tables play two non-banked variants where authorised [PT 23]."""
        if not profile.seating.mixed_tables_allowed:
            raise invalid("mixed_table_not_allowed", profile=profile.code)
        if second == first or VARIANTS[first].banked or VARIANTS[second].banked:
            raise invalid("mixed_table_variants_invalid")
        return second
