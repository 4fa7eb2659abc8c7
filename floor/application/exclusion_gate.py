"""The exclusion lists' check at the floor's doors (issue 25, item 2).

Spain's casinos check the national register of gaming bans (RGIAJ) and the
region's own register (a listing in a regional register counts in that
region); Portugal's, the SRIJ's access bans (Decreto-Lei 422/89 arts. 36-38).
The room checks at registration, on joining a list, at seating, in the draw
and at the cage (ledger.application.aml). The lists are personal data kept
outside the log (floor.compliance.exclusions answers from them); this module
reads no Django: floor.apps plugs the check in, as ledger.apps plugs the
cage's (commands do not read the read models, pyproject.toml).

An excluded patron is refused (``patron_excluded``: which list and version,
for the staff who see the refusal, never on a public screen); a name and
birth date match without a document match is ``possible_exclusion`` until a
director resolves it (``resolve_possible_exclusion``). A refusal records
nothing, as every refused command; the player acting from their phone is
told only to ask at the desk (``ask_at_the_desk``), never the list. A check
that lets an identified patron through is recorded on the patron
(``Player.ExclusionChecked``: the door, the result, the list versions read).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from floor.domain.player import Player
from floor.kernel.context import current_context
from floor.kernel.errors import DomainError, conflict
from floor.kernel.roles import Role
from floor.kernel.unit_of_work import UnitOfWork

EXCLUDED, POSSIBLE, CLEAR, NOT_IDENTIFIED = "excluded", "possible", "clear", "not_identified"
# A possible match a director cleared (the result a pass records).
CLEARED = "cleared"
# A director's decision on a possible match.
DECISIONS = (CLEAR, EXCLUDED)

# The doors (the event's ``door``).
REGISTRATION, WAITING_LIST, SEATING, DRAW, CAGE = (
    "registration",
    "waiting_list",
    "seating",
    "draw",
    "cage",
)


@dataclass(frozen=True)
class CheckResult:
    """What the lists say of one patron: the result, the versions read
    (labels: "rgiaj 2026-11-01", "regional GA 2026-10-15"), and the versions
    that matched (by document for ``excluded``, by name and birth date for
    ``possible``)."""

    result: str
    lists: tuple[str, ...] = ()
    matched: tuple[str, ...] = field(default=())


def no_lists(player_id: str, region: str) -> CheckResult:
    """Until the floor's lists are plugged in, none is known (and a floor
    kept in memory, with no database, reads none)."""
    return CheckResult(NOT_IDENTIFIED)


_checker: list[Callable[[str, str], CheckResult]] = [no_lists]


def checked_by(check: Callable[[str, str], CheckResult]) -> Callable[[str, str], CheckResult]:
    """Plugs in the lists' check (floor.apps): (player id hex, region) ->
    result. Returns the check it replaces, to be put back."""
    replaced, _checker[0] = _checker[0], check
    return replaced


def _named(matched: str) -> dict:
    """A refusal's params: the list and its version ("rgiaj", "2026-11-01")."""
    name, _, version = matched.rpartition(" ")
    return {"list": name or matched, "version": version}


def decide(player_id: str, region: str, *, self_excluded: bool, resolution: dict | None):
    """The check and, when it refuses, the refusal to raise (else None)."""
    if self_excluded:
        return CheckResult(EXCLUDED, matched=("house",)), conflict(
            "patron_excluded", list="house", version="self-exclusion"
        )
    found = _checker[0](player_id, region)
    if resolution is not None and resolution.get("decision") == EXCLUDED:
        return found, conflict("patron_excluded", list="director", version="resolution")
    if found.result == EXCLUDED:
        return found, conflict("patron_excluded", **_named(found.matched[0]))
    if found.result == POSSIBLE:
        cleared = resolution is not None and set(found.matched) <= set(resolution.get("lists", []))
        if not cleared:
            return found, conflict("possible_exclusion", **_named(found.matched[0]))
        # A director cleared this match: recorded as such.
        return replace(found, result=CLEARED), None
    return found, None


@dataclass(frozen=True)
class Attempt:
    """A refused attempt at a door, as the register of refused attempts keeps
    it outside the event log (floor.compliance.refusals, ExclusionRefusal):
    who tried where, what the lists said, which versions matched, who was at
    the desk under which role and command id, and when (the command's clock).
    No name, no document: the player's id only."""

    player_id: str
    door: str
    result: str  # excluded or possible
    matched: tuple[str, ...]
    command_id: str
    actor: str
    actor_role: str
    at: datetime


def _matched(found: CheckResult, refusal: DomainError) -> tuple[str, ...]:
    """The list versions the refusal names: those that matched, or the house's
    self-exclusion, or the director's resolution."""
    params = refusal.params
    if params.get("list") in ("house", "director"):
        return (f"{params['list']} {params['version']}",)
    return found.matched


def check(work: UnitOfWork, player: Player, door: str = "") -> CheckResult:
    """The patron checked against the lists that apply here, refused if
    excluded or possibly so (unresolved). The refusal carries the attempt,
    which the gateway keeps outside the log once the command recorded nothing
    (Ley 10/2010 art. 7.5 and the registers' rules ask the casino to show it
    checked; an inspector asks who tried to get in)."""
    found, refusal = decide(
        player.id.hex,
        work.profile.exclusion_region,
        self_excluded=player.self_excluded,
        resolution=player.exclusion_resolution,
    )
    if refusal is not None:
        context = current_context()
        attempt = Attempt(
            player_id=player.id.hex,
            door=door,
            result=EXCLUDED if refusal.code == "patron_excluded" else POSSIBLE,
            matched=_matched(found, refusal),
            command_id=context.command_id,
            actor=context.actor,
            actor_role=context.actor_role,
            at=context.now,
        )
        # The player, from their phone (issue 24), is not told which list or
        # why: the desk is, when the patron asks there.
        if context.actor_role == Role.PLAYER:
            refusal = conflict("ask_at_the_desk")
        refusal.attempt = attempt
        raise refusal
    return found


def admit(work: UnitOfWork, player: Player, door: str) -> bool:
    """Checks the patron at ``door``; a check that lets an identified patron
    through against at least one list is recorded on them (the caller saves
    the player with its command). Returns whether it was recorded."""
    found = check(work, player, door)
    if found.result != NOT_IDENTIFIED and found.lists:
        player.exclusion_checked(door, found.result, found.lists)
        return True
    return False


def may_enter(work: UnitOfWork, player: Player) -> bool:
    """Whether the patron passes (the draw leaves out who does not, as it
    leaves out a barred player), recording nothing."""
    _, refusal = decide(
        player.id.hex,
        work.profile.exclusion_region,
        self_excluded=player.self_excluded,
        resolution=player.exclusion_resolution,
    )
    return refusal is None
