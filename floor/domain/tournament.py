"""The room's running tournament, as far as the cash tables care [CM-23]: its
players may not sit at a cash table except during its dinner break, which the
jefe declares."""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import event

from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.identity import name_based_id

TOURNAMENT_ID: UUID = name_based_id("tournament", "the-room")


class Tournament(AuditedAggregate):
    @classmethod
    def create(cls) -> Tournament:
        return cls(id=TOURNAMENT_ID)

    @event("Created")
    def __init__(self, id: UUID) -> None:  # noqa: A002 - one per room
        self.dinner_break = False

    def set_dinner_break(self, on: bool) -> bool:
        """Starts or ends the dinner break; returns whether it changed."""
        if self.dinner_break == on:
            return False
        self._dinner_break_set(on=on)
        return True

    @event("DinnerBreakSet")
    def _dinner_break_set(self, on: bool) -> None:
        self.dinner_break = on
