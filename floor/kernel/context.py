"""The command context: who acts, under which command id, profile and time.

Every event an aggregate triggers carries the actor, the actor's role, the
command id and the rule profile in force (DESIGN.md, Audit). The application
sets the context around a command's decision; the aggregate base class copies it
onto each event, so no command can record an anonymous event.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime

from games.profiles import RuleProfile


@dataclass(frozen=True)
class CommandContext:
    actor: str
    actor_role: str
    command_id: str
    profile: RuleProfile
    now: datetime

    def event_metadata(self) -> dict[str, object]:
        """What every event of the command carries, timestamp included."""
        return {
            "actor": self.actor,
            "actor_role": self.actor_role,
            "command_id": self.command_id,
            "rule_profile": self.profile.code,
            "timestamp": self.now,
        }


_current: ContextVar[CommandContext | None] = ContextVar("floor_command_context", default=None)


@contextmanager
def command_context(context: CommandContext) -> Iterator[CommandContext]:
    """Makes ``context`` the one in force while the block runs."""
    token = _current.set(context)
    try:
        yield context
    finally:
        _current.reset(token)


def current_context() -> CommandContext:
    """The context in force; triggering an event outside one is a bug."""
    context = _current.get()
    if context is None:
        raise RuntimeError(
            "An event was triggered outside a command context: every event must "
            "name its actor and command id."
        )
    return context
