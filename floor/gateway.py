"""Runs a floor command for a logged-in user and waits for its read models.

The one door the console and the API share: it turns a Django user into an
actor, runs the command, and catches the read models up to the command's last
event, so the response shows the command's own effect (read-your-writes).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import DatabaseError
from eventsourcing.persistence import PersistenceError

from floor.application.service import Outcome
from floor.domain.roles import Actor, Role
from floor.runtime import floor_app, floor_projector

logger = logging.getLogger(__name__)

ROLE_NAMES = {role.value for role in Role}

# How long a request waits for the read models to show its command.
READ_YOUR_WRITES_SECONDS = 5.0


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
    """The actor a Django user acts as: their username and floor roles."""
    if not user.is_authenticated:
        return Actor(username="", roles=frozenset())
    names = set(user.groups.values_list("name", flat=True)) & ROLE_NAMES
    return Actor(username=user.get_username(), roles=frozenset(Role(n) for n in names))


def perform(command: str, user: Any, command_id: str, **arguments: Any) -> Outcome:
    """Runs ``command`` of the floor application as ``user``, then shows it."""
    return perform_as(actor_for(user), command, command_id, **arguments)


def perform_as(actor: Actor, command: str, command_id: str, **arguments: Any) -> Outcome:
    """Runs ``command`` as ``actor`` (a person's, or the clock's), then shows it."""
    try:
        app = floor_app()
        outcome: Outcome = getattr(app, command)(actor, command_id, **arguments)
    except (DatabaseError, PersistenceError) as error:
        logger.exception("%s of %s: the event store did not answer", command, actor.username)
        raise ServiceUnavailable(str(error)) from error
    try:
        floor_projector().catch_up(until=outcome.position, timeout=READ_YOUR_WRITES_SECONDS)
    except Exception as error:
        # Recorded is recorded: report the lag, never a failure of the command.
        logger.exception("%s recorded, but the read models did not follow", command)
        raise ReadModelsBehind(outcome) from error
    return outcome


def ask(query: str, user: Any, **arguments: Any) -> Any:
    """Runs ``query`` of the floor application as ``user``: a question that
    records nothing (the settlement's preview), so no read model to wait for."""
    try:
        return getattr(floor_app(), query)(actor_for(user), **arguments)
    except (DatabaseError, PersistenceError) as error:
        logger.exception("%s of %s: the event store did not answer", query, user)
        raise ServiceUnavailable(str(error)) from error
