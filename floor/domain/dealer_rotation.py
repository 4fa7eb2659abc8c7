"""The dealer rotation of a sector: who pushes into which table next, and when.

GA art. 19 requires a dealer at every table at all times; the jefe names them
[GA art. 19.1]. Rooms rotate dealers in "downs" across the tables of a string
(a sector here) with relief dealers, and send them on breaks (RULES.md, house
practice); the lengths are the house's (games.profile_rules.DealerRotationRules).

The plan is a pure function of what the floor is now (the open tables with
their games and dealers, the clocked-in dealers with their games, where each is
and since when) and of the house rules, so it is re-planned on every read: a
table opening or closing, a dealer clocking in or out, a push or a break
changes its input and so its answer. It keeps three promises, each tested
(tests/floor/test_dealer_rotation.py):

- every table keeps a dealer who may deal its game: a push only ever replaces
  a table's dealer by a qualified one (the outgoing dealer leaves when the
  incoming one taps in), and a table without one gets a qualified idle dealer
  at once (a maximum matching), whenever enough of them are clocked in;
- breaks are fair: a dealer pushed out goes on break once another down would
  take them past the house's most dealing without a break, and among pushes
  due at the same time the dealer longest without a break is relieved first;
  an idle dealer who has gone longest without a break goes in last;
- a table opening or closing re-plans the sector (an input like any other).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from games.profile_rules import DealerRotationRules

DEALING = "dealing"
IDLE = "idle"
ON_BREAK = "break"
# Where a pushed-out dealer goes.
TO_BREAK = "break"
TO_BOX = "box"  # back to the dealer box, idle, ready to push in


@dataclass(frozen=True)
class TableSlot:
    """An open table of the sector: the games dealt there (a mixed table's two
    [PT 23]), who deals it and since when (None: unknown, the push is due)."""

    table_id: str
    number: int
    games: frozenset[str]
    dealer: str | None = None
    since: datetime | None = None


@dataclass(frozen=True)
class DealerSlot:
    """A clocked-in dealer: the games they may deal, what they do now
    (``DEALING``, ``IDLE`` or ``ON_BREAK``) since when, and how long they
    dealt since their last break (or their clock-in) before ``since``: the
    down under way counts on top of it (``dealt_by``)."""

    username: str
    games: frozenset[str]
    state: str
    since: datetime
    dealt: timedelta = timedelta(0)
    table_id: str | None = None

    def may_deal(self, table: TableSlot) -> bool:
        return bool(table.games) and table.games <= self.games

    def dealt_by(self, moment: datetime) -> timedelta:
        """How long they will have dealt without a break at ``moment``."""
        if self.state == DEALING:
            return self.dealt + max(timedelta(0), moment - self.since)
        return self.dealt


@dataclass(frozen=True)
class Push:
    """A planned push: ``dealer_in`` taps ``dealer_out`` out of the table at
    ``at``; the outgoing dealer goes ``out_to`` the box or on break."""

    table_id: str
    number: int
    dealer_in: str
    at: datetime
    dealer_out: str | None = None
    out_to: str | None = None

    def as_dict(self) -> dict:
        return {
            "table_id": self.table_id,
            "table": self.number,
            "dealer_in": self.dealer_in,
            "dealer_out": self.dealer_out,
            "out_to": self.out_to,
            "at": self.at.isoformat(),
        }


@dataclass(frozen=True)
class Plan:
    """The next push of each table (in time order), the tables nobody
    qualified can take (``uncovered``), the idle dealers due a break now, and
    when each dealer on break is back."""

    pushes: tuple[Push, ...] = ()
    uncovered: tuple[str, ...] = ()
    breaks_due: tuple[str, ...] = ()
    back_at: dict[str, datetime] = field(default_factory=dict)

    def push_for(self, table_id: str) -> Push | None:
        return next((p for p in self.pushes if p.table_id == table_id), None)

    def as_dict(self) -> dict:
        return {
            "pushes": [p.as_dict() for p in self.pushes],
            "uncovered": list(self.uncovered),
            "breaks_due": list(self.breaks_due),
            "back_at": {name: at.isoformat() for name, at in sorted(self.back_at.items())},
        }


@dataclass
class _Ready:
    """A dealer the plan may push in: from when, and how long they have
    dealt without a break by then."""

    dealer: DealerSlot
    at: datetime
    dealt: timedelta
    # Since when they wait in the box: the box is a queue (round-robin).
    waiting_since: datetime
    # Whether another down would pass the limit: they go in only to a table
    # nobody else can take.
    tired: bool = False


def due_a_break(dealt: timedelta, rules: DealerRotationRules) -> bool:
    """Whether another down would take a dealer who has dealt ``dealt``
    without a break past the house's most dealing without a break."""
    return dealt + rules.down > rules.break_after


def plan(
    tables: Sequence[TableSlot],
    dealers: Sequence[DealerSlot],
    rules: DealerRotationRules,
    now: datetime,
) -> Plan:
    """The sector's next pushes (see the module's docstring for its promises)."""
    by_name = {d.username: d for d in dealers}
    covered: list[TableSlot] = []
    needing: list[TableSlot] = []
    for table in sorted(tables, key=lambda t: t.number):
        current = by_name.get(table.dealer or "")
        if (
            current is not None
            and current.may_deal(table)
            and current.state == DEALING
            and current.table_id == table.table_id
        ):
            covered.append(table)
        else:
            needing.append(table)
    dealing_at = {t.dealer for t in covered}
    # An idle dealer of the box named at a table outside it stands at that
    # table: not free to go elsewhere. Since assign_dealer records the naming
    # in the roster too, only a store from before that (or a table whose
    # dealer the jefe moved to another table) has such a dealer.
    standing = {
        t.dealer
        for t in needing
        if t.dealer in by_name and by_name[t.dealer].state == IDLE and by_name[t.dealer].may_deal(t)
    }
    ready: list[_Ready] = []
    back_at: dict[str, datetime] = {}
    for dealer in sorted(dealers, key=lambda d: d.username):
        if dealer.username in dealing_at or dealer.username in standing:
            continue
        if dealer.state == ON_BREAK:
            back = max(now, dealer.since + rules.break_length)
            back_at[dealer.username] = back
            ready.append(_Ready(dealer, back, timedelta(0), back))
        else:
            since = min(now, dealer.since)
            ready.append(_Ready(dealer, now, dealer.dealt, since, due_a_break(dealer.dealt, rules)))
    pushes: list[Push] = []
    uncovered: list[str] = []
    # A table without a qualified dealer first: the idle dealers at once, as
    # many tables as a matching can cover, then whoever comes back first.
    idle_now = [r for r in ready if r.at <= now]
    matched = _match(needing, idle_now)
    for entry in matched.values():
        ready.remove(entry)
    for table in needing:
        chosen = matched.get(table.table_id)
        if chosen is None:
            chosen = _first_ready(table, ready, None)
            if chosen is None:
                # A dealer named outside the box (an older store's
                # Table.assign_dealer, or one the jefe moved to another
                # table) still deals it; a table with none, or one who may
                # not deal its game, is without a dealer [GA art. 19].
                named = by_name.get(table.dealer or "")
                if not table.dealer or (named is not None and not named.may_deal(table)):
                    uncovered.append(table.table_id)
                continue
            ready.remove(chosen)
        # Its dealer, if any, is not dealing it for the box (unqualified, or
        # named outside it): already counted among the ready dealers.
        push = Push(table.table_id, table.number, chosen.dealer.username, max(now, chosen.at))
        if table.dealer:
            push = Push(push.table_id, push.number, push.dealer_in, push.at, table.dealer, TO_BOX)
        pushes.append(push)

    # Then each table's next down, in the order they fall due; at the same
    # time, the dealer longest without a break is relieved first.
    def due(table: TableSlot) -> tuple:
        dealer = by_name[table.dealer or ""]
        since = table.since or now
        # The down's end, or sooner the moment the dealer reaches the limit
        # (one who took a table nobody else could).
        left = max(timedelta(0), rules.break_after - dealer.dealt)
        at = max(now, since + min(rules.down, left))
        return (at, -dealer.dealt_by(at), table.number)

    for table in sorted(covered, key=due):
        at = due(table)[0]
        chosen = _first_ready(table, ready, at, rules)
        if chosen is None:
            continue  # nobody to relieve them: the dealer stays on
        ready.remove(chosen)
        pushes.append(
            _push(table, chosen, max(at, chosen.at), table.dealer or "", by_name, ready, rules)
        )
    # Idle dealers who could not take another down go on break, the longest
    # without one first; the last one idle stays in the box while a table is
    # open, to take a table left without a dealer at once [GA art. 19].
    idle = [r for r in ready if r.at <= now and r.dealer.state == IDLE]
    due_now = sorted((r for r in idle if due_a_break(r.dealt, rules)), key=lambda r: -r.dealt)
    room_for = len(idle) - 1 if tables else len(idle)
    breaks_due = [r.dealer.username for r in due_now[: max(0, room_for)]]
    return Plan(
        pushes=tuple(sorted(pushes, key=lambda p: (p.at, p.number))),
        uncovered=tuple(uncovered),
        breaks_due=tuple(breaks_due),
        back_at=back_at,
    )


def _push(
    table: TableSlot,
    chosen: _Ready,
    at: datetime,
    outgoing: str,
    by_name: dict[str, DealerSlot],
    ready: list[_Ready],
    rules: DealerRotationRules,
) -> Push:
    """The push of ``chosen`` into ``table`` at ``at``: the outgoing dealer
    goes on break if due one, else back to the box, ready for a later push."""
    leaving = by_name[outgoing]
    dealt = leaving.dealt_by(at)
    if due_a_break(dealt, rules):
        out_to = TO_BREAK
        back = at + rules.break_length
        ready.append(_Ready(leaving, back, timedelta(0), back))
    else:
        out_to = TO_BOX
        ready.append(_Ready(leaving, at, dealt, at, tired=False))
    return Push(table.table_id, table.number, chosen.dealer.username, at, outgoing, out_to)


def _order(entry: _Ready) -> tuple:
    """Who goes in first: whoever is ready soonest; among them whoever has
    waited longest in the box (a queue: every dealer deals their share), then
    the one who dealt least since a break (the longest without one goes in
    last, nearer their break), then the fewest games (keeping the
    all-rounders for the tables only they may deal)."""
    return (
        entry.at,
        entry.tired,
        entry.waiting_since,
        entry.dealt,
        len(entry.dealer.games),
        entry.dealer.username,
    )


def _first_ready(
    table: TableSlot,
    ready: Iterable[_Ready],
    by: datetime | None,
    rules: DealerRotationRules | None = None,
) -> _Ready | None:
    """The qualified dealer to push in: one ready by ``by`` if any (None:
    whenever, for a table without a dealer), else the first one ready after
    it. A relief (``rules`` given) is never one a down would take past the
    most dealing without a break: they go on break first."""
    able = sorted((r for r in ready if r.dealer.may_deal(table)), key=_order)
    if rules is not None:
        able = [r for r in able if not due_a_break(r.dealt, rules)]
    if not able:
        return None
    if by is None:
        return able[0]
    in_time = [r for r in able if r.at <= by]
    return in_time[0] if in_time else able[0]


def _match(tables: Sequence[TableSlot], idle: Sequence[_Ready]) -> dict[str, _Ready]:
    """A maximum matching of the tables without a qualified dealer to idle
    dealers who may deal them (augmenting paths, Kuhn's algorithm), trying
    the dealers in ``_order``: no table is left without a dealer while a
    qualified idle one could be freed for it by a different choice."""
    candidates = {
        t.table_id: sorted((r for r in idle if r.dealer.may_deal(t)), key=_order) for t in tables
    }
    owner: dict[str, str] = {}  # dealer -> table
    chosen: dict[str, _Ready] = {}

    def augment(table_id: str, seen: set[str]) -> bool:
        # A dealer nobody holds yet first, in order; only then one moved off
        # another table that can take someone else.
        free = [e for e in candidates[table_id] if e.dealer.username not in owner]
        held = [e for e in candidates[table_id] if e.dealer.username in owner]
        for entry in free + held:
            name = entry.dealer.username
            if name in seen:
                continue
            seen.add(name)
            if name not in owner or augment(owner[name], seen):
                owner[name] = table_id
                chosen[table_id] = entry
                return True
        return False

    for table in tables:
        augment(table.table_id, set())
    return {t: e for t, e in chosen.items() if owner.get(e.dealer.username) == t}
