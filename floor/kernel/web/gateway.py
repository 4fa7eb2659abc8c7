"""Runs a command for a logged-in user and waits for its read models.

The one door the consoles and the APIs of both contexts share: it turns a Django
user into an actor, runs the command, and waits until the read models pass
the command's last event (the projector process applies it; issue 23), so the
response shows the command's own effect (read-your-writes). The application
and its projector, the logs and the metrics are the running floor's, reached
through the host it installed (floor.kernel.web.host).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import DatabaseError
from eventsourcing.persistence import PersistenceError

from floor.kernel.registry import COMMANDS
from floor.kernel.roles import Actor, Role
from floor.kernel.service import Outcome
from floor.kernel.web.host import Host, host
from games.errors import RuleViolation

# Named as it always was: operators filter the log by it (docs/operations.md).
logger = logging.getLogger("floor.gateway")

ROLE_NAMES = {role.value for role in Role}

# A command, by its name or its handler (floor.kernel.registry).
Command = str | Callable[..., Any]


def read_your_writes_seconds() -> float:
    """How long a request waits for the read models to show its command
    (FLOOR_READ_YOUR_WRITES_SECONDS, 5 s by default)."""
    return float(getattr(settings, "FLOOR_READ_YOUR_WRITES_SECONDS", 5.0))


class ServiceUnavailable(Exception):
    """The stores did not answer; the command id makes a retry safe."""

    code = "store_unavailable"


class ReadModelsBehind(ServiceUnavailable):
    """The command was recorded, but the read models could not show it yet."""

    code = "read_models_lagging"

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(self.code)
        self.outcome = outcome


def actor_for(user: Any) -> Actor:
    """The actor a Django user acts as: their username and floor roles.

    Kept on the user object once read, as Django keeps its permissions
    (``_perm_cache``): a command's request asks twice, for the permission
    check and for the command, and the user object lives for that one request
    (a token or a session loads it anew for the next), so the roles are read
    with one query per request, not two."""
    if not user.is_authenticated:
        return Actor(username="", roles=frozenset())
    known = getattr(user, "_floor_actor", None)
    if known is not None:
        return known
    names = set(user.groups.values_list("name", flat=True)) & ROLE_NAMES
    actor = Actor(username=user.get_username(), roles=frozenset(Role(n) for n in names))
    user._floor_actor = actor
    return actor


def perform(command: Command, user: Any, command_id: str, **arguments: Any) -> Outcome:
    """Runs ``command`` of the floor application as ``user``, then shows it."""
    return perform_as(actor_for(user), command, command_id, **arguments)


def perform_as(actor: Actor, command: Command, command_id: str, **arguments: Any) -> Outcome:
    """Runs ``command`` as ``actor`` (a person's, or the clock's), then shows it.

    Every line logged meanwhile names the command, its id, actor, role and
    profile (floor.logs), and the command is counted by outcome and timed
    (floor.metrics): the one place every command passes (docs/operations.md)."""
    return _run(actor, command, command_id, arguments, wait=True)


def record_as(actor: Actor, command: Command, command_id: str, **arguments: Any) -> Outcome:
    """Runs ``command`` as ``actor`` like perform_as, for a caller who reads no
    answer (the clock firing a timer): it does not wait for the projector to
    show it (issue 23), so a lagging projector delays no timer. (Not a keyword
    of perform_as: a command's own arguments, the hands ``shown``, would take it.)"""
    return _run(actor, command, command_id, arguments, wait=False)


def _run(
    actor: Actor, command: Command, command_id: str, arguments: dict[str, Any], *, wait: bool
) -> Outcome:
    running = host()
    command = COMMANDS.name_of(command)
    started = time.perf_counter()
    result = "error"
    fields = {"command": command, "command_id": command_id, "actor": actor.username or None}
    with running.command_logging(**fields, role=role_of(actor, command)) as context:
        try:
            outcome = _perform_as(actor, command, command_id, context, arguments, wait)
        except RuleViolation as refused:
            result = f"refused_{getattr(refused, 'kind', None) or 'invalid'}"
            keep_attempt(running, refused, command)
            raise
        except ReadModelsBehind:
            result = "lagging"
            raise
        except ServiceUnavailable:
            result = "unavailable"
            raise
        else:
            result = "repeat" if outcome.replayed else "done"
            return outcome
        finally:
            running.command_done(command, result, time.perf_counter() - started)


def keep_attempt(running: Host, refused: RuleViolation, command: str) -> None:
    """Keeps what the refusal carries (an excluded patron's attempt at a door,
    floor.compliance.refusals) in its own transaction, outside the event log:
    the command recorded nothing, and still records nothing. A repeat of the
    command id is kept once (the keeper's constraint). Failing to keep it
    never hides the refusal: it is logged, and the refusal answered."""
    attempt = getattr(refused, "attempt", None)
    if attempt is None:
        return
    try:
        running.keep_attempt(attempt, command)
    except Exception:
        logger.exception("a refused attempt could not be kept: %s", refused)


def role_of(actor: Actor, command: str) -> str | None:
    """The role ``actor`` would issue ``command`` under, for the log (None:
    none of theirs may; the command's refusal says so)."""
    try:
        return str(COMMANDS.role_for(actor, command))
    except (LookupError, RuleViolation):
        return None


def _perform_as(
    actor: Actor,
    command: str,
    command_id: str,
    context: dict[str, str],
    arguments: dict[str, Any],
    wait: bool,
) -> Outcome:
    try:
        app = host().application()
        context["profile"] = app.profile.code
        outcome: Outcome = COMMANDS.bound(app, command)(actor, command_id, **arguments)
    except (DatabaseError, PersistenceError) as error:
        logger.exception("%s of %s: the event store did not answer", command, actor.username)
        raise ServiceUnavailable(str(error)) from error
    try:
        host().catch_up(until=outcome.position, timeout=read_your_writes_seconds(), wait=wait)
    except Exception as error:
        # Recorded is recorded: report the lag, never a failure of the command.
        logger.exception("%s recorded, but the read models did not follow", command)
        raise ReadModelsBehind(outcome) from error
    return outcome


def ask(query: Command, user: Any, **arguments: Any) -> Any:
    """Runs ``query`` of the floor application as ``user``: a question that
    records nothing (the settlement's preview), so no read model to wait for."""
    query = COMMANDS.name_of(query)
    try:
        return COMMANDS.bound(host().application(), query)(actor_for(user), **arguments)
    except (DatabaseError, PersistenceError) as error:
        logger.exception("%s of %s: the event store did not answer", query, user)
        raise ServiceUnavailable(str(error)) from error
