"""The record of a command that succeeded, kept for idempotency.

It is saved in the same ``save()`` as the command's own events, so a command
either left its record and its events or neither. Its id derives from the
client's command id, so a concurrent repeat conflicts in the event store.
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import event

from floor.domain.aggregate import AuditedAggregate
from floor.domain.context import current_context
from floor.domain.errors import conflict
from floor.domain.identity import name_based_id

MAX_COMMAND_ID_LENGTH = 100


class CommandRecord(AuditedAggregate):
    @staticmethod
    def id_for(command_id: str) -> UUID:
        return name_based_id("command", command_id)

    @staticmethod
    def create_id() -> UUID:
        """A record's id is that of the command id in force."""
        return CommandRecord.id_for(current_context().command_id)

    @event("Recorded")
    def __init__(self, command: str, fingerprint: str, result: dict) -> None:
        self.command = command
        self.fingerprint = fingerprint
        self.result = result

    def replay(self, command: str, fingerprint: str) -> dict:
        """The first outcome, if this is the same command sent again."""
        if command != self.command or fingerprint != self.fingerprint:
            raise conflict(
                "command_id_reused",
                "This command id was already used for a different command.",
            )
        return self.result
