"""A game: a variant at a betting limit and stakes. Players register for a game,
tables of one game share its waiting list (RULES.md section 4)."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from floor.kernel.identity import name_based_id


@dataclass(frozen=True)
class Game:
    variant: str
    limit: str
    minimum_cents: int
    maximum_cents: int

    @property
    def key(self) -> str:
        """A stable text key, ``texas_holdem/no_limit/200/1000``."""
        return f"{self.variant}/{self.limit}/{self.minimum_cents}/{self.maximum_cents}"

    @property
    def waiting_list_id(self) -> UUID:
        """One waiting list per game, its id derived from the game."""
        return name_based_id("waiting_list", self.key)

    @classmethod
    def from_key(cls, key: str) -> Game:
        variant, limit, minimum, maximum = key.split("/")
        return cls(variant, limit, int(minimum), int(maximum))

    def as_dict(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "limit": self.limit,
            "minimum_cents": self.minimum_cents,
            "maximum_cents": self.maximum_cents,
        }
