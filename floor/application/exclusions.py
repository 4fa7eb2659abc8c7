"""Exclusion lists' commands (issue 25, items 2 and 4): a list's version
imported, a director's decision on a possible match, a patron's
self-exclusion and its lifting.

Each records what happened and who did it; the rows (names, numbers, birth
dates) are personal data the caller keeps outside the log
(floor.compliance.exclusions).
"""

from __future__ import annotations

from datetime import datetime

from floor.application.exclusion_gate import DECISIONS, decide
from floor.application.players import find_player
from floor.domain.exclusion_register import ExclusionRegister
from floor.domain.player import Player
from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command
from floor.kernel.roles import Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork
from games.profile_rules import months_after

SOURCES = ("rgiaj", "regional", "srij", "house")
MAX_NOTE_LENGTH = 500


# Importing a list is the director's: the casino's compliance decision.
@command(roles=(Role.DIRECTOR,))
def import_exclusion_list(
    work: UnitOfWork, *, source: str, region: str, version: str, rows: int, bad_rows: int
) -> Decision:
    """Records a version of a list imported: the list, its date, how many rows
    were read and refused. The rows are written by the caller
    (floor.compliance.exclusions.import_list), never in the event."""
    if source not in SOURCES:
        raise invalid("exclusion_source_invalid", allowed=list(SOURCES))
    register_id = ExclusionRegister.create_id(source, region)
    register = work.find(ExclusionRegister, register_id)
    if register is None:
        register = work.add(ExclusionRegister.open(source, region))
    register.import_version(version, int(rows), int(bad_rows))
    return [register], {
        "source": source,
        "region": region,
        "version": version,
        "rows": int(rows),
        "bad_rows": int(bad_rows),
    }


# A possible match is the director's to resolve (issue 25, item 2).
@command(roles=(Role.DIRECTOR,))
def resolve_possible_exclusion(
    work: UnitOfWork, *, player: str, decision: str, note: str = ""
) -> Decision:
    """The director's decision on a name and birth date match without a
    document match: ``clear`` lets the patron in while the list versions that
    matched stand (a newer version is checked again), ``excluded`` keeps them
    out. Only a patron with a possible match is resolved."""
    if decision not in DECISIONS:
        raise invalid("decision_invalid", allowed=list(DECISIONS))
    text = " ".join(note.split()) if isinstance(note, str) else ""
    if len(text) > MAX_NOTE_LENGTH:
        raise invalid("note_too_long", max_length=MAX_NOTE_LENGTH)
    found = find_player(work, player)
    checked, _ = decide(
        found.id.hex, work.profile.exclusion_region, self_excluded=False, resolution=None
    )
    if checked.result != "possible":
        raise conflict("no_possible_exclusion")
    found.resolve_possible_exclusion(decision, text, checked.matched)
    return [found], {"player_id": str(found.id), "decision": decision}


# Self-exclusion asked at the room goes on the house list at once (issue 25):
# whoever the patron asks, the jefe at the door, the cage or the director.
@command(roles=(Role.JEFE_SECTOR, Role.CAJERO, Role.DIRECTOR))
def exclude_self(work: UnitOfWork, *, player: str) -> Decision:
    """Records the patron's self-exclusion: every door refuses them from now
    (floor.application.exclusion_gate). Their document, if recorded, is put
    on the house list by the caller (floor.compliance.exclusions)."""
    found = find_player(work, player)
    found.exclude_self(work.now())
    return [found], {"player_id": str(found.id)}


# Lifting a self-exclusion is the director's (issue 25, item 4): the
# casino's compliance decision, as a possible match is.
@command(roles=(Role.DIRECTOR,))
def lift_self_exclusion(work: UnitOfWork, *, player: str, reason: str) -> Decision:
    """Lifts the patron's self-exclusion, with the director's reason, once
    the house's minimum period has passed since it was taken (the profile's
    ``self_exclusion``: six months by default, as the Spanish register of
    gaming bans keeps one, RGIAJ, Real Decreto 1614/2011, to be confirmed).
    A self-exclusion recorded before its event carried the date counts from
    the event's own timestamp (``_self_excluded_on``): the minimum period is
    the patron's protection and is never waived for want of a field.
    Refused before (``self_exclusion_too_recent``, with the day it may be),
    and for a patron not self-excluded (``not_self_excluded``). The event
    holds the reason and no personal data: the reason is the director's
    words on the decision (the docs ask for no name or document in it).
    The caller takes the patron's document off the house list
    (floor.compliance.exclusions.lift_self_exclusion)."""
    text = " ".join(reason.split()) if isinstance(reason, str) else ""
    if not text:
        raise invalid("lift_reason_required")
    if len(text) > MAX_NOTE_LENGTH:
        raise invalid("note_too_long", max_length=MAX_NOTE_LENGTH)
    found = find_player(work, player)
    taken = found.self_excluded_at
    if taken is None and found.self_excluded:
        taken = _self_excluded_on(work, found)
    rule = work.profile.self_exclusion
    until = None if taken is None else months_after(taken, rule.minimum_months)
    found.lift_self_exclusion(text, work.now(), until)
    return [found], {"player_id": str(found.id)}


def _self_excluded_on(work: UnitOfWork, found: Player) -> datetime | None:
    """When the self-exclusion in force was recorded, read from its event's
    timestamp (the injected clock's): the last ``SelfExcluded`` of the
    patron's log. For a self-exclusion recorded before the event carried its
    date (``at``); read newest first, it stops at the first one."""
    for recorded in work.service.events.get(found.id, desc=True):
        if isinstance(recorded, Player.SelfExcluded):
            return recorded.timestamp
    return None
