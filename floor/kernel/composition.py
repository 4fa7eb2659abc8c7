"""What each context contributes to the one application, declared where it lives.

The floor and the ledger share one event store and one application, so a hand
and the money it moves are saved together; neither imports the other
(pyproject.toml, [tool.importlinter]). Each context declares its part here
when Django loads it (its AppConfig.ready): its commands (by importing its
handlers, floor.kernel.registry), the policies every command passes (the
floor's staff scope, the ledger's books), and how often its aggregates are
snapshotted. The command service reads what was declared when it is built.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from eventsourcing.domain import Aggregate

if TYPE_CHECKING:
    from floor.kernel.registry import CommandSpec
    from floor.kernel.unit_of_work import UnitOfWork


class CommandPolicy:
    """A rule every command passes besides its roles, contributed by a context.

    Each hook runs inside the command: raising a domain error refuses it and
    nothing is recorded. The defaults have no opinion."""

    def choose_role(
        self, work: UnitOfWork, actor: Any, spec: CommandSpec, payload: dict[str, Any]
    ) -> Any | None:
        """The role ``actor`` issues the command under, once what it names is
        checked against the actor's reach (None: no opinion)."""
        return None

    def check_changed(
        self,
        work: UnitOfWork,
        actor: Any,
        spec: CommandSpec,
        role: Any,
        changed: Sequence[Aggregate],
    ) -> None:
        """Refuses a decision that changed what the actor may not change."""

    def follow(self, work: UnitOfWork, changed: Sequence[Aggregate]) -> list[Aggregate]:
        """What else the decision changes, derived from what it changed."""
        return []

    def effects(
        self, work: UnitOfWork, result: dict[str, Any], changed: Sequence[Aggregate]
    ) -> dict[str, Any]:
        """The command's answer, with what ``follow`` added worth answering."""
        return result


class Composition:
    """The policies and snapshot intervals the contexts declared."""

    def __init__(self) -> None:
        self._policies: dict[str, CommandPolicy] = {}
        self._snapshot_intervals: dict[type[Aggregate], int] = {}

    def add_policy(self, name: str, policy: CommandPolicy) -> None:
        """Declares ``policy`` under ``name`` (declaring it again replaces it)."""
        self._policies[name] = policy

    def snapshot_every(self, cls: type[Aggregate], events: int) -> None:
        """Snapshots ``cls`` every ``events`` events (a long-lived aggregate)."""
        self._snapshot_intervals[cls] = events

    def policies(self) -> dict[str, CommandPolicy]:
        return dict(self._policies)

    def snapshot_intervals(self) -> dict[type[Aggregate], int]:
        return dict(self._snapshot_intervals)


# The one application's composition.
ROOM = Composition()
