"""Exclusion lists' commands (issue 25, item 2): a list's version imported,
a director's decision on a possible match, a patron's self-exclusion.

Each records what happened and who did it; the rows (names, numbers, birth
dates) are personal data the caller keeps outside the log
(floor.compliance.exclusions).
"""

from __future__ import annotations

from floor.application.exclusion_gate import DECISIONS, decide
from floor.application.players import find_player
from floor.domain.exclusion_register import ExclusionRegister
from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command
from floor.kernel.roles import Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork

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
    found.exclude_self()
    return [found], {"player_id": str(found.id)}
