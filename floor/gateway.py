"""Runs a floor command for a logged-in user and waits for its read models.

The one door the console and the API share: it turns a Django user into an
actor, runs the command, and catches the read models up to the command's last
event, so the response shows the command's own effect (read-your-writes).
"""

from __future__ import annotations

from typing import Any

from floor.application.service import Outcome
from floor.domain.roles import Actor, Role
from floor.runtime import floor_app, floor_projector

ROLE_NAMES = {role.value for role in Role}


def actor_for(user: Any) -> Actor:
    """The actor a Django user acts as: their username and floor roles."""
    names = set(user.groups.values_list("name", flat=True)) & ROLE_NAMES
    return Actor(username=user.get_username(), roles=frozenset(Role(n) for n in names))


def roles_of(user: Any) -> frozenset[Role]:
    return actor_for(user).roles if user.is_authenticated else frozenset()


def perform(command: str, user: Any, command_id: str, **arguments: Any) -> Outcome:
    """Runs ``command`` of the floor application as ``user``."""
    app = floor_app()
    outcome: Outcome = getattr(app, command)(actor_for(user), command_id, **arguments)
    floor_projector().catch_up(until=outcome.position)
    return outcome
