"""A poker table: its variant, stakes and seats, within a sector."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from eventsourcing.domain import event

from floor.domain.aggregate import AuditedAggregate
from floor.domain.errors import DomainError, ErrorKind, invalid
from games.errors import RuleViolation
from games.limits import BettingLimit, TableStakes, check_stakes
from games.profiles import RuleProfile
from games.variants import VARIANTS, Variant


class TableStatus:
    OPEN = "open"


@dataclass(frozen=True)
class TableSpec:
    """A table's game, stakes and seats, checked against the profile."""

    variant: str
    limit: str
    minimum_cents: int
    maximum_cents: int
    seats: int

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
    ) -> TableSpec:
        """The spec, or the first rule it breaks: variant, limit, stakes, seats."""
        try:
            game = VARIANTS[Variant(variant)]
        except ValueError:
            raise invalid(
                "unknown_variant", f"Unknown variant {variant!r}.", variant=variant
            ) from None
        try:
            betting = BettingLimit(limit)
        except ValueError:
            raise invalid(
                "unknown_limit", f"Unknown betting limit {limit!r}.", limit=limit
            ) from None
        for amount in (minimum_cents, maximum_cents, seats):
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise invalid("not_an_integer", "Amounts and seats are integers.")
        try:
            check_stakes(
                TableStakes(betting, minimum_cents, maximum_cents),
                profile.minimum_share_band,
            )
        except RuleViolation as broken:
            raise DomainError(
                broken.code, broken.message, kind=ErrorKind.INVALID, **broken.params
            ) from None
        if not profile.min_players <= seats <= game.max_seats:
            raise invalid(
                "seats_out_of_range",
                f"A {game.variant} table has between {profile.min_players} and "
                f"{game.max_seats} seats.",
                variant=str(game.variant),
                low=profile.min_players,
                high=game.max_seats,
            )
        return cls(str(game.variant), str(betting), minimum_cents, maximum_cents, seats)


class Table(AuditedAggregate):
    @classmethod
    def open(cls, *, table_id: UUID, sector_id: UUID, number: int, spec: TableSpec) -> Table:
        """Opens a checked table under the number its sector gave it."""
        return cls(
            id=table_id,
            sector_id=sector_id,
            number=number,
            variant=spec.variant,
            limit=spec.limit,
            minimum_cents=spec.minimum_cents,
            maximum_cents=spec.maximum_cents,
            seats=spec.seats,
        )

    @event("Opened")
    def __init__(
        self,
        id: UUID,  # noqa: A002 - chosen before the sector numbers the table
        sector_id: UUID,
        number: int,
        variant: str,
        limit: str,
        minimum_cents: int,
        maximum_cents: int,
        seats: int,
    ) -> None:
        self.sector_id = sector_id
        self.number = number
        self.variant = variant
        self.limit = limit
        self.minimum_cents = minimum_cents
        self.maximum_cents = maximum_cents
        self.seats = seats
        self.status = TableStatus.OPEN
