"""The command pipeline shared by every event-sourced application of ours.

A command is authorised by the actor's role, decided by the aggregates inside a
command context (so every event names actor, command id and profile), and saved
with its CommandRecord in one ``save()``: all its events or none. A repeated
command id returns the first outcome and records nothing. A version conflict is
retried on fresh state, then reported.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from floor.kernel.clock import Clock, SystemClock
from floor.kernel.command_record import MAX_COMMAND_ID_LENGTH, CommandRecord
from floor.kernel.context import CommandContext, command_context, current_context
from floor.kernel.errors import DomainError, ErrorKind, invalid, not_found
from floor.kernel.registry import COMMANDS
from floor.kernel.roles import Actor, Role
from games.profiles import CM, RuleProfile

A = TypeVar("A", bound=Aggregate)

# What a command's decision returns: the aggregates it changed and its result.
Decision = tuple[Sequence[Aggregate], dict[str, Any]]

# The aggregates a command has loaded, by id: its identity map.
_loaded: ContextVar[dict | None] = ContextVar("floor_loaded_aggregates", default=None)


class ConcurrentUpdateError(DomainError):
    """Others kept changing the same aggregates; nothing was recorded."""

    def __init__(self, attempts: int) -> None:
        super().__init__("concurrent_update", kind=ErrorKind.CONFLICT)
        self.attempts = attempts


@dataclass(frozen=True)
class Outcome:
    """What a command did: its result, whether it was a repeat, and the log
    position of its last event (what read models must reach to show it)."""

    result: dict[str, Any]
    replayed: bool
    position: int | None


def fingerprint(command: str, payload: dict[str, Any]) -> str:
    """A digest of what was asked, to tell a repeat from a reused command id."""
    body = json.dumps({"command": command, "payload": payload}, sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()


class CommandService(Application):
    """An eventsourcing Application that runs commands through the pipeline."""

    # Enough for a hot table; a conflict storm past this is reported as 409.
    max_attempts = 5
    snapshotting_intervals = {}

    def __init__(
        self,
        env: dict[str, str] | None = None,
        *,
        profile: RuleProfile = CM,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(env)
        self.profile = profile
        self.clock = clock or SystemClock()

    def execute(
        self,
        command: str,
        actor: Actor,
        command_id: str,
        payload: dict[str, Any],
        decide: Callable[[], Decision],
    ) -> Outcome:
        """Runs ``decide`` as the command ``command`` of ``actor``, exactly once."""
        command_id = check_command_id(command_id)
        role = self.role_in_scope(actor, command, payload)
        digest = fingerprint(command, payload)
        record_id = CommandRecord.id_for(actor.username, command_id)
        for _attempt in range(self.max_attempts):
            replay = self.replay(record_id, command, digest)
            if replay is not None:
                return replay
            context = CommandContext(
                actor=actor.username,
                actor_role=str(role),
                command_id=command_id,
                profile=self.profile,
                now=self.clock.now(),
            )
            token = _loaded.set({})
            with command_context(context):
                try:
                    changed, result = decide()
                    # Whatever else the decision changed is saved with it (the
                    # cage's list of tables, noted as an account opens) ...
                    changed = self.touched(changed)
                    # ... and so is what follows from it (the books).
                    changed = self.touched([*changed, *self.after_decide(changed)])
                    # Whatever the command named, what it changed must lie in
                    # the actor's scope (floor.application.staffing).
                    self.check_changed_in_scope(actor, command, role, changed)
                    result = self.with_effects(result, changed)
                except DomainError:
                    # A twin of this command may have committed since we looked:
                    # its effect is what refused us, and its outcome is ours.
                    replay = self.replay(record_id, command, digest)
                    if replay is not None:
                        return replay
                    raise
                finally:
                    _loaded.reset(token)
                record = CommandRecord(
                    id=record_id, command=command, fingerprint=digest, result=result
                )
            try:
                recordings = self.save(*changed, record)
            except IntegrityError:
                continue  # someone saved first: decide again on fresh state
            position = max(r.notification.id for r in recordings)
            return Outcome(result, False, position)
        raise ConcurrentUpdateError(self.max_attempts)

    def dry_run(
        self,
        command: str,
        actor: Actor,
        payload: dict[str, Any],
        decide: Callable[[], Decision],
    ) -> dict[str, Any]:
        """Decides as ``execute`` would (the role and its scope, the books that
        follow) and records nothing: a preview of the command's answer."""
        role = self.role_in_scope(actor, command, payload)
        context = CommandContext(
            actor=actor.username,
            actor_role=str(role),
            command_id="preview",
            profile=self.profile,
            now=self.clock.now(),
        )
        token = _loaded.set({})
        with command_context(context):
            try:
                changed, result = decide()
                changed = self.touched(changed)
                changed = self.touched([*changed, *self.after_decide(changed)])
                self.check_changed_in_scope(actor, command, role, changed)
            finally:
                _loaded.reset(token)
        return result

    def role_in_scope(self, actor: Actor, command: str, payload: dict[str, Any]) -> Role:
        """The role the actor issues ``command`` under, or the refusal; the
        floor also checks the table or sector it names (floor.application.staffing)."""
        return COMMANDS.role_for(actor, command)

    def check_changed_in_scope(
        self, actor: Actor, command: str, role: Role, changed: Sequence[Aggregate]
    ) -> None:
        """Refuses a decision that changed something outside the actor's scope
        (raising refuses the command: nothing is saved)."""

    def after_decide(self, changed: Sequence[Aggregate]) -> list[Aggregate]:
        """What else a decision changes, derived from what it changed (the
        books, in ledger.application.books). Raising refuses the command."""
        return []

    def with_effects(self, result: dict[str, Any], changed: list[Aggregate]) -> dict[str, Any]:
        """The command's result, with what ``after_decide`` added worth
        answering (the transactions booked, for their receipts)."""
        return result

    def touched(self, changed: Sequence[Aggregate]) -> list[Aggregate]:
        """``changed`` and every other aggregate the command loaded or created
        that has events to save, each once."""
        loaded = _loaded.get() or {}
        pending = [a for a in loaded.values() if a.pending_events]
        return list({id(a): a for a in [*changed, *pending]}.values())

    def remember(self, aggregate: Aggregate) -> None:
        """Makes an aggregate created within the command findable by it."""
        loaded = _loaded.get()
        if loaded is not None:
            loaded[aggregate.id] = aggregate

    def now(self) -> datetime:
        """The time of the command being decided: the time its events carry."""
        return current_context().now

    def replay(self, record_id: UUID, command: str, digest: str) -> Outcome | None:
        """The first outcome of an already recorded command, or None."""
        previous = self.find(CommandRecord, record_id)
        if previous is None:
            return None
        return Outcome(previous.replay(command, digest), True, None)

    def find(self, cls: type[A], aggregate_id: UUID) -> A | None:
        """The aggregate, or None when it was never created. Within a command
        each aggregate is loaded once, so every change lands on one copy."""
        loaded = _loaded.get()
        aggregate = loaded.get(aggregate_id) if loaded is not None else None
        if aggregate is None:
            try:
                aggregate = self.repository.get(aggregate_id)
            except AggregateNotFoundError:
                return None
            if loaded is not None:
                loaded[aggregate_id] = aggregate
        if not isinstance(aggregate, cls):
            return None
        return aggregate

    def load(self, cls: type[A], aggregate_id: UUID | str, what: str) -> A:
        """The aggregate, or a not-found error naming ``what`` it should be."""
        try:
            aggregate_id = UUID(str(aggregate_id))
        except ValueError:
            raise not_found(f"{what}_not_found") from None
        aggregate = self.find(cls, aggregate_id)
        if aggregate is None:
            raise not_found(f"{what}_not_found")
        return aggregate

    def last_position(self) -> int:
        """The id of the last event in the log (0 when empty)."""
        return self.recorder.max_notification_id() or 0


def check_command_id(command_id: object) -> str:
    """A command id is a non-empty string the client chose (a UUID, say)."""
    if not isinstance(command_id, str) or not command_id.strip():
        raise invalid("command_id_required")
    command_id = command_id.strip()
    if not command_id.isprintable():
        raise invalid("command_id_invalid")
    if len(command_id) > MAX_COMMAND_ID_LENGTH:
        raise invalid("command_id_too_long", max_length=MAX_COMMAND_ID_LENGTH)
    return command_id
