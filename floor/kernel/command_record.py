"""The record of a command that succeeded, kept for idempotency.

It is saved in the same ``save()`` as the command's own events, so a command
either left its record and its events or neither. Its id derives from the actor
and the client's command id, so a concurrent repeat conflicts in the event
store, and one person's command id never answers for another's.

It moved into the kernel (issue 21) from ``floor.domain.command_record``; its
topics are declared with that old spelling (the library's explicit ``TOPIC``,
registered as the class is made), so the
records stored before and after the move read alike, in the library and in the
journal the reports and ``verify_log`` read.

It keeps the whole result (issue 23, item 6, decided with bench/store_size.py's
figures, bench/README.md): the records are 38 % of a hand's event bytes, and a
digest in place of the result would save 18 % of them, but a repeat must
return the first outcome, which the command's events do not always hold.
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import event

from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict
from floor.kernel.identity import name_based_id

MAX_COMMAND_ID_LENGTH = 100


LEGACY_MODULE = "floor.domain.command_record"


class CommandRecord(AuditedAggregate):
    TOPIC = f"{LEGACY_MODULE}:CommandRecord"

    class Created(AuditedAggregate.Created):
        TOPIC = f"{LEGACY_MODULE}:CommandRecord.Created"

    class Recorded(AuditedAggregate.Created):
        TOPIC = f"{LEGACY_MODULE}:CommandRecord.Recorded"

        command: str
        fingerprint: str
        result: dict

    @staticmethod
    def id_for(actor: str, command_id: str) -> UUID:
        """The record of ``actor``'s command ``command_id``."""
        return name_based_id("command", f"{actor}\n{command_id}")

    @event(Recorded)
    def __init__(self, id: UUID, command: str, fingerprint: str, result: dict) -> None:  # noqa: A002
        self.command = command
        self.fingerprint = fingerprint
        self.result = result

    def replay(self, command: str, fingerprint: str) -> dict:
        """The first outcome, if this is the same command sent again."""
        if command != self.command or fingerprint != self.fingerprint:
            raise conflict("command_id_reused")
        return self.result
