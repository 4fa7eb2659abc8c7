"""Where a patron stands with the exclusion lists, as the consoles show it
(issue 25, item 2): the lists held, the possible matches waiting for a
director, a self-exclusion in force and from when it may be lifted.

Nothing here decides: the doors' check is floor.application.exclusion_gate,
the commands floor.application.exclusions (through floor.compliance.
exclusions). These reads put on a page what the director would otherwise
ask the API for, one patron at a time, so the console offers only what the
command would accept (a "lift" before the house's minimum period is shown
as the day it may be lifted, RGIAJ, Real Decreto 1614/2011, to confirm).

Where the state lives: the director's decision and the self-exclusion are
the Player aggregate's (``exclusion_resolution``, ``self_excluded_at``); the
attempts a possible match was refused at are the register of refused
attempts (floor_exclusionrefusal). A possible match is pending while the
gate would still refuse it as ``possible_exclusion``: the register names
who was refused, the aggregate and the lists say whether it still stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db.models import Count, Max
from eventsourcing.application import AggregateNotFoundError

from floor import runtime
from floor.application.exclusion_gate import POSSIBLE, decide
from floor.compliance.exclusions import NATIONAL, label
from floor.domain.player import Player
from floor.models import ExclusionList, ExclusionRefusal
from games.profile_rules import months_after

# At most this many patrons are listed as pending (the newest attempts first):
# a page, not a report; the register (CSV) has every attempt.
MOST_PENDING = 200
# At most this many refused attempts of the last days are listed.
MOST_RECENT = 200


def _player(player_id: UUID | str) -> Any:
    try:
        return runtime.floor_app().repository.get(UUID(str(player_id)))
    except (AggregateNotFoundError, ValueError):
        return None


# --- the lists held -----------------------------------------------------------------


@dataclass
class HeldVersion:
    row: ExclusionList
    label: str
    current: bool


@dataclass
class HeldList:
    """One list (a source, and its region for a regional list) with its versions,
    newest first."""

    source: str
    region: str
    versions: list[HeldVersion] = field(default_factory=list)


def lists_held() -> list[HeldList]:
    """Every version held, grouped by list. The current version of a national
    or regional list is its latest, the one a check reads; every version of
    the house list is read (a self-exclusion stays until lifted)."""
    grouped: dict[tuple[str, str], HeldList] = {}
    rows = ExclusionList.objects.order_by("source", "region", "-version")
    for row in rows:
        held = grouped.setdefault((row.source, row.region), HeldList(row.source, row.region))
        current = row.source == ExclusionList.HOUSE or not held.versions
        held.versions.append(HeldVersion(row, label(row), current and row.purged_at is None))
    order = {source: n for n, source in enumerate((*NATIONAL, "regional", "house"))}
    return sorted(grouped.values(), key=lambda h: (order.get(h.source, 9), h.region))


# --- possible matches waiting for a director ----------------------------------------


@dataclass
class Pending:
    player_id: UUID
    matched: tuple[str, ...]
    last: ExclusionRefusal
    attempts: int


def pending_possible_matches(region: str) -> list[Pending]:
    """The patrons a door refused as a possible match whom the gate would
    still refuse so: no director's decision covers the versions that match
    now (a newer version matching again is pending again), not self-excluded,
    not decided excluded. Newest attempt first."""
    by_patron = (
        ExclusionRefusal.objects.filter(result=POSSIBLE)
        .values("player_id")
        .annotate(last_at=Max("at"), attempts=Count("id"))
        .order_by("-last_at")
    )
    pending = []
    for seen in by_patron.iterator():
        player = _player(seen["player_id"])
        if player is None:
            continue
        found, refusal = decide(
            player.id.hex,
            region,
            self_excluded=player.self_excluded,
            resolution=player.exclusion_resolution,
        )
        if refusal is None or refusal.code != "possible_exclusion":
            continue
        last = (
            ExclusionRefusal.objects.filter(player_id=seen["player_id"], result=POSSIBLE)
            .order_by("-at", "-id")
            .first()
        )
        pending.append(Pending(seen["player_id"], found.matched, last, seen["attempts"]))
        if len(pending) >= MOST_PENDING:
            break
    return pending


def recent_refusals(start: datetime, most: int = MOST_RECENT) -> list[ExclusionRefusal]:
    """The refused attempts since ``start``, newest first, at most ``most``
    (the register, as CSV, has them all)."""
    rows = ExclusionRefusal.objects.filter(at__gte=start).order_by("-at", "-id")
    return list(rows[:most])


# --- a self-exclusion in force --------------------------------------------------------


@dataclass(frozen=True)
class SelfExclusion:
    """A self-exclusion in force: when it was taken and from when a director
    may lift it (None for both only if the log cannot say when: lifted now)."""

    since: datetime | None
    liftable_from: datetime | None
    liftable: bool


def self_exclusion_of(player_id: UUID | str) -> SelfExclusion | None:
    """The patron's self-exclusion in force, or None."""
    player = _player(player_id)
    if player is None or not getattr(player, "self_excluded", False):
        return None
    app = runtime.floor_app()
    since = player.self_excluded_at or _self_excluded_on(app, player)
    until = (
        None if since is None else months_after(since, app.profile.self_exclusion.minimum_months)
    )
    return SelfExclusion(since, until, until is None or app.clock.now() >= until)


def _self_excluded_on(app: Any, player: Any) -> datetime | None:
    """A self-exclusion recorded before its event carried its date counts
    from the event's own timestamp, as the lift's command counts it
    (floor.application.exclusions): the newest ``SelfExcluded`` of the log."""
    for recorded in app.events.get(player.id, desc=True):
        if isinstance(recorded, Player.SelfExcluded):
            return recorded.timestamp
    return None
