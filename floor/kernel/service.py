"""The command pipeline shared by every event-sourced application of ours.

A command is authorised by the actor's role, decided by its handler on a unit of
work inside a command context (so every event names actor, command id and
profile), passed through the policies the contexts declared (the staff's scope,
the books: floor.kernel.composition), and saved with its CommandRecord in one
``save()``: all its events or none. A repeated command id returns the first
outcome and records nothing. A version conflict is retried on fresh state, then
reported.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import Application, Repository
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import strtobool

from floor.kernel.clock import Clock, SystemClock
from floor.kernel.command_record import MAX_COMMAND_ID_LENGTH, CommandRecord
from floor.kernel.composition import ROOM, CommandPolicy
from floor.kernel.compression import DEFAULT_TOPIC
from floor.kernel.context import CommandContext, command_context
from floor.kernel.errors import DomainError, ErrorKind, invalid
from floor.kernel.registry import COMMANDS, CommandSpec
from floor.kernel.replay import OwnRepository, project_events
from floor.kernel.roles import Actor, Role
from floor.kernel.unit_of_work import UnitOfWork, current_work, working
from games.profiles import CM, RuleProfile

A = TypeVar("A", bound=Aggregate)

# What a command's decision returns: the aggregates it changed and its result.
Decision = tuple[Sequence[Aggregate], dict[str, Any]]


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
    """An eventsourcing Application that runs commands through the pipeline.

    ``app.run("end_rest", actor, command_id, **arguments)`` runs a declared
    command; ``app.end_rest(actor, command_id, **arguments)`` says the same."""

    # The library's lowest layer of settings (the process's environment, then
    # the constructor's, override it): every store compresses its states by
    # default, a bench's or a tool's as well as the service's (issue 23, item 6).
    env = {"COMPRESSOR_TOPIC": DEFAULT_TOPIC}
    # Enough for a hot table; a conflict storm past this is reported as 409.
    max_attempts = 5
    # The intervals come from what the contexts declared (floor.kernel.composition).
    is_snapshotting_enabled = True
    snapshotting_intervals = {}

    def __init__(
        self,
        env: dict[str, str] | None = None,
        *,
        profile: RuleProfile = CM,
        clock: Clock | None = None,
        policies: Mapping[str, CommandPolicy] | None = None,
    ) -> None:
        self.snapshotting_intervals = {
            **ROOM.snapshot_intervals(),
            **type(self).snapshotting_intervals,
        }
        # Snapshots are taken with the same replay as the loads (floor.kernel.replay).
        self.snapshotting_projectors = dict.fromkeys(self.snapshotting_intervals, project_events)
        super().__init__(env)
        self.profile = profile
        self.clock = clock or SystemClock()
        self.policies = tuple((ROOM.policies() if policies is None else policies).values())

    def construct_repository(self) -> Repository:
        """The library's repository, built from the same settings, replaying
        without its per-event assert (floor.kernel.replay, issue 23 item 5)."""
        cache_maxsize = self.env.get(self.AGGREGATE_CACHE_MAXSIZE)
        return OwnRepository(
            event_store=self.events,
            snapshot_store=self.snapshots,
            cache_maxsize=int(cache_maxsize) if cache_maxsize else None,
            fastforward=strtobool(self.env.get(self.AGGREGATE_CACHE_FASTFORWARD, "y")),
            fastforward_skipping=strtobool(
                self.env.get(self.AGGREGATE_CACHE_FASTFORWARD_SKIPPING, "n")
            ),
            deepcopy_from_cache=strtobool(self.env.get(self.DEEPCOPY_FROM_AGGREGATE_CACHE, "y")),
        )

    # --- running a declared command ----------------------------------------------

    def run(self, name: str, actor: Actor, command_id: str, /, **arguments: Any) -> Outcome:
        """Runs the declared command ``name`` as ``actor``, exactly once."""
        spec = COMMANDS[name]
        if spec.query and not spec.preview:
            raise LookupError(f"{name} is a question: ask it")
        with working(UnitOfWork(self, self.profile)):  # a payload may read the profile
            payload = spec.payload_of(arguments)

        def decide() -> Decision:
            return spec.handler(current_work(), **arguments)

        if spec.preview:  # decided as the command would be, and nothing recorded
            result = self.dry_run(name, actor, payload, decide)
            return Outcome({**result, "preview": True}, False, None)
        return self.execute(name, actor, command_id, payload, decide)

    def ask(self, name: str, actor: Actor, /, **arguments: Any) -> Any:
        """Asks the declared question ``name`` as ``actor``: the same roles and
        scope as a command, and nothing recorded."""
        spec = COMMANDS[name]
        if not spec.query or spec.preview:
            raise LookupError(f"{name} is a command or its preview: run it")
        work = UnitOfWork(self, self.profile)
        with working(work):
            self.role_in_scope(actor, name, spec.payload_of(arguments))
            return spec.handler(work, **arguments)

    def __getattr__(self, name: str) -> Any:
        spec = COMMANDS.get(name)
        if spec is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        asked = spec.query and not spec.preview
        bound: Any = functools.partial(self.ask if asked else self.run, name)
        bound.__name__ = name  # named as the method it stands for would be
        return bound

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
        digest = fingerprint(command, payload)
        record_id = CommandRecord.id_for(actor.username, command_id)
        for _attempt in range(self.max_attempts):
            # One unit of work per attempt (issue 23, item 5): the scope check
            # loads the table or sector the command names into it, and the
            # decision and the books find them there instead of reloading them;
            # a retry starts a fresh one, so it decides on fresh state.
            work = UnitOfWork(self, self.profile)
            with working(work):
                role = self.role_in_scope(actor, command, payload)
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
            with command_context(context), working(work):
                try:
                    changed, result = decide()
                    # Whatever else the decision changed is saved with it (the
                    # cage's list of tables, noted as an account opens) ...
                    changed = work.touched(changed)
                    # ... and so is what follows from it (the books).
                    changed = work.touched([*changed, *self.after_decide(changed)])
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
        work = UnitOfWork(self, self.profile)  # shared with the scope check, as in execute
        with working(work):
            role = self.role_in_scope(actor, command, payload)
        context = CommandContext(
            actor=actor.username,
            actor_role=str(role),
            command_id="preview",
            profile=self.profile,
            now=self.clock.now(),
        )
        with command_context(context), working(work):
            changed, result = decide()
            changed = work.touched(changed)
            changed = work.touched([*changed, *self.after_decide(changed)])
            self.check_changed_in_scope(actor, command, role, changed)
        return result

    # --- the policies every command passes (floor.kernel.composition) -------------

    def _work(self) -> UnitOfWork:
        return current_work() or UnitOfWork(self, self.profile)

    def role_in_scope(self, actor: Actor, command: str, payload: dict[str, Any]) -> Role:
        """The role the actor issues ``command`` under, or the refusal; the
        floor's policies also check what it names: the table or sector
        (floor.application.staffing), the player (floor.application.player_self).
        Every policy is asked (any may refuse); the first that chooses a role
        names it."""
        spec = COMMANDS[command]
        role = COMMANDS.role_for(actor, command)  # refuses a role that may never
        work = self._work()
        chosen = None
        for policy in self.policies:
            choice = policy.choose_role(work, actor, spec, payload)
            if chosen is None:
                chosen = choice
        return role if chosen is None else chosen

    def check_changed_in_scope(
        self, actor: Actor, command: str, role: Role, changed: Sequence[Aggregate]
    ) -> None:
        """Refuses a decision that changed something outside the actor's scope
        (raising refuses the command: nothing is saved)."""
        spec: CommandSpec = COMMANDS[command]
        for policy in self.policies:
            policy.check_changed(self._work(), actor, spec, role, changed)

    def after_decide(self, changed: Sequence[Aggregate]) -> list[Aggregate]:
        """What else a decision changes, derived from what it changed (the
        books, in ledger.application.books). Raising refuses the command."""
        followed: list[Aggregate] = []
        for policy in self.policies:
            followed += policy.follow(self._work(), changed)
        return followed

    def with_effects(self, result: dict[str, Any], changed: list[Aggregate]) -> dict[str, Any]:
        """The command's result, with what ``after_decide`` added worth
        answering (the transactions booked, for their receipts)."""
        for policy in self.policies:
            result = policy.effects(self._work(), result, changed)
        return result

    def replay(self, record_id: UUID, command: str, digest: str) -> Outcome | None:
        """The first outcome of an already recorded command, or None. Read from
        the store, never from the unit of work: after a refusal it looks again
        for a twin that may have committed meanwhile."""
        with working(UnitOfWork(self, self.profile)):
            previous = self.find(CommandRecord, record_id)
        if previous is None:
            return None
        return Outcome(previous.replay(command, digest), True, None)

    def find(self, cls: type[A], aggregate_id: UUID) -> A | None:
        """The aggregate, or None when it was never created. Within a command
        each aggregate is loaded once, so every change lands on one copy."""
        return self._work().find(cls, aggregate_id)

    def load(self, cls: type[A], aggregate_id: UUID | str, what: str) -> A:
        """The aggregate, or a not-found error naming ``what`` it should be."""
        return self._work().load(cls, aggregate_id, what)

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
