"""What each context contributes to the one application, declared where it lives.

The floor and the ledger share one event store and one application, so a hand
and the money it moves are saved together; neither imports the other
(pyproject.toml, [tool.importlinter]). Each context declares its part here
when Django loads it (its AppConfig.ready): its commands (by importing its
handlers, floor.kernel.registry), the policies every command passes (the
floor's staff scope, the ledger's books), and how often its aggregates are
snapshotted. The command service reads what was declared when it is built.

The read side has its hooks here too, so that the floor's projector and
consoles show the ledger's part without importing the ledger: the read models
a context keeps from the one log (applied by the one projector, in the same
transaction and at the same position as the floor's), the command whose
record closes a gaming day (the audit journal anchors its chain there), the
money the consoles show on a table, and the consoles' actions a context adds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
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


@dataclass(frozen=True)
class ReadModelPart:
    """Read models a context keeps from the one log: the floor's projection
    applies them with its own, in the same transaction, at the same position.

    ``apply(event, position, state)`` changes them for one event of ``events``
    (``state(event)`` is the aggregate as it stood right after it);
    ``read_models`` are its models, children first: what a rebuild empties
    (before the floor's own). ``batch()``, if given, is entered around each
    batch of events, inside its transaction: a part may gather there what no
    event of the batch reads back and write it once as the batch ends (issue
    23, item 2); it writes nothing when the batch fails.
    ``mentions(event)``, when given, names the
    subjects besides ids that an event of ``events`` concerns (the books: the
    accounts a transaction posts to), so the history report finds it by an
    index (floor.projections.report_views)."""

    name: str
    events: tuple[type, ...]
    apply: Callable[[Any, int, Callable[[Any], Any]], None]
    read_models: tuple[Any, ...]
    batch: Callable[[], AbstractContextManager[Any]] | None = None
    mentions: Callable[[Any], Iterable[str]] | None = None


@dataclass(frozen=True)
class DayCloseAnchor:
    """The command whose record closes a gaming day: the audit journal
    anchors its chain's head there (floor.projections.journal) and ``keep``s
    the anchor on the day's read model; ``gaming_day`` reads the closed day
    from the command's result (None: nothing to anchor)."""

    command: str
    gaming_day: Callable[[dict[str, Any]], str | None]
    keep: Callable[[str, dict[str, Any]], None]


class TableMoney:
    """The money the consoles show on a table, read by the context that keeps
    the books. The defaults: none (no books, nothing to show)."""

    def rake_in(self, table_ids: Sequence[Any]) -> dict[Any, int]:
        """Table id -> everything ever paid into its rake box, for those that have one."""
        return {}

    def jackpots_fed(self) -> list[tuple[Any, list[str]]]:
        """(jackpot id, the ids of the tables that feed it) of every jackpot."""
        return []


@dataclass(frozen=True)
class TableJackpot:
    """A progressive jackpot a table plays for, as its card offers the stake
    and the prize forms [GA art. 8b; PT-SD 8, 12], read by the context that
    keeps the books: its name, the stake each seat puts in for a hand, whether
    the jackpot's own rule takes that stake at this table (at most half the
    minimum [GA art. 8b], or exactly the fixed stake [PT-SD 8]), the hands it
    pays (code, words) and whether it may be paid now (a gaming day open)."""

    id: Any
    name: str
    stake_cents: int
    stake_allowed: bool
    prizes: tuple[tuple[str, str], ...]
    pays_now: bool


# Table id -> the jackpots it plays for, of the tables given (their read models).
TableJackpots = Callable[[Sequence[Any]], dict[Any, list[TableJackpot]]]


# A context's console actions, made with the consoles' own declaration (the
# class is given, floor.console.actions, so the context need not import it).
ConsoleActions = Callable[[Callable[..., Any]], Iterable[Any]]


class Composition:
    """The policies, snapshot intervals and read-side hooks the contexts declared."""

    def __init__(self) -> None:
        self._policies: dict[str, CommandPolicy] = {}
        self._snapshot_intervals: dict[type[Aggregate], int] = {}
        self._read_model_parts: dict[str, ReadModelPart] = {}
        # Per event class, the parts that take it (read_model_parts_for).
        self._parts_by_kind: dict[type, tuple[ReadModelPart, ...]] = {}
        self._day_close_anchor: DayCloseAnchor | None = None
        self._table_money = TableMoney()
        self._console_actions: dict[str, ConsoleActions] = {}
        self._table_jackpots: TableJackpots = lambda tables: {}

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

    # --- the read side's hooks ---------------------------------------------------------

    def add_read_models(self, part: ReadModelPart) -> None:
        """Declares ``part`` (declaring its name again replaces it)."""
        self._read_model_parts[part.name] = part
        self._parts_by_kind.clear()

    def read_model_parts(self) -> tuple[ReadModelPart, ...]:
        return tuple(self._read_model_parts.values())

    def read_model_parts_for(self, kind: type) -> tuple[ReadModelPart, ...]:
        """The parts whose ``events`` take events of class ``kind``, in the
        order declared: worked out once a class (a projection asks for every
        event of the log; an ``isinstance`` per part and event was a visible
        share of a rebuild), forgotten when a part is declared."""
        parts = self._parts_by_kind.get(kind)
        if parts is None:
            parts = tuple(p for p in self._read_model_parts.values() if issubclass(kind, p.events))
            self._parts_by_kind[kind] = parts
        return parts

    def anchor_day_close(self, anchor: DayCloseAnchor) -> None:
        """Declares the command whose record closes a gaming day."""
        self._day_close_anchor = anchor

    def day_close_anchor(self) -> DayCloseAnchor | None:
        return self._day_close_anchor

    def show_table_money(self, money: TableMoney) -> None:
        """Declares who reads the money the consoles show on a table."""
        self._table_money = money

    def table_money(self) -> TableMoney:
        return self._table_money

    def add_console_actions(self, name: str, actions: ConsoleActions) -> None:
        """Declares ``actions`` under ``name`` (declaring it again replaces them)."""
        self._console_actions[name] = actions

    def console_actions(self) -> tuple[ConsoleActions, ...]:
        return tuple(self._console_actions.values())

    def show_table_jackpots(self, jackpots: TableJackpots) -> None:
        """Declares who says which jackpots a table plays for (the books)."""
        self._table_jackpots = jackpots

    def table_jackpots(self, tables: Sequence[Any]) -> dict[Any, list[TableJackpot]]:
        """Table id -> the jackpots it plays for; none without books."""
        return self._table_jackpots(tables)


# The one application's composition.
ROOM = Composition()
