"""The list's player side (issue 24): remote entries checked in, calls answered.

A player may put themselves on a game's list from outside the room
(``join_waiting_list`` under Role.PLAYER, floor.application.players): such a
"called in" entry is not callable until the jefe checks the player in on
arrival (``check_in_player``); one not checked in within the house's time
expires (``expire_remote_entry``, the clock's, floor.application.clocks).

A called player has 5 minutes to appear [CM-6] and may answer the call:
"coming" (recorded, nothing else changes), "five_more" (once a call; the
deadline moves by the house's extension, never past the window the rule
fixes as a maximum) or "not_coming" (re-listed last or taken off the list,
as the house says [CM-6]; the seat goes to the next on the list).
"""

from __future__ import annotations

from floor.application.players import find_player, game_for, waiting_list
from floor.application.seat_support import offer_again
from floor.domain.waiting_list import DECLINED_CALL, NOT_COMING
from floor.kernel.errors import conflict
from floor.kernel.registry import command
from floor.kernel.roles import JEFE, Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork


def _listed(work: UnitOfWork, player: str, game: dict):
    """The player named and the list of the game named, the player on it."""
    found = find_player(work, player)
    wanted = game_for(work, **game)
    waiting = waiting_list(work, wanted)
    if waiting is None or waiting.entry_of(found.id) is None:
        raise conflict("player_not_on_list")
    return found, wanted, waiting


# The jefe checks the player in on arrival (a kiosk later) [GA art. 19.1].
@command(roles=JEFE)
def check_in_player(work: UnitOfWork, *, player: str, **game: object) -> Decision:
    """The player of a remote entry has arrived: the entry becomes callable,
    keeping its reservation order or queued last from now under a new
    number, as the house says (WaitingListRules.remote_keeps_order)."""
    found, wanted, waiting = _listed(work, player, game)
    keeps_order = work.profile.waiting_list.remote_keeps_order
    renumbered = waiting.check_in(found.id, work.now(), keeps_order=keeps_order)
    entry = waiting.entry_of(found.id)
    return [waiting], {
        "player_id": str(found.id),
        "game": wanted.key,
        "reservation": entry["reservation"],
        "position": waiting.position_of(found.id),
        "kept_order": renumbered is None,
    }


# The called player answers from their phone, or tells the jefe who records it.
@command(roles=(Role.PLAYER, Role.JEFE_SECTOR))
def answer_call(work: UnitOfWork, *, player: str, answer: str, **game: object) -> Decision:
    """Records the called player's answer [CM-6: 5 minutes to appear].
    "five_more" moves the call's deadline by the house's extension, once a
    call, never past the call plus the maximum the rule fixes ("en un máximo
    de 5 minutos" [CM-6]): under CM the answer is recorded and the deadline
    stays. "not_coming": re-listed last [CM-6] or off the list
    ("declined_call"), as the house says; the seat goes to the next."""
    found, wanted, waiting = _listed(work, player, game)
    rules = work.profile.waiting_list
    entry = waiting.entry_of(found.id)
    call = dict(entry["call"]) if entry["call"] else None
    ends_at = waiting.answer_call(
        found.id,
        str(answer) if isinstance(answer, str) else "",
        work.now(),
        extension=rules.call_extension,
        maximum=rules.call_window_max,
    )
    result = {
        "player_id": str(found.id),
        "game": wanted.key,
        "answer": answer,
        "ends_at": ends_at.isoformat() if ends_at else None,
    }
    changed: list = [waiting]
    if answer != NOT_COMING:
        return changed, result
    if rules.declined_call_relists:
        result["reservation"] = waiting.register(found.id, work.now())
        result["position"] = waiting.position_of(found.id)
    else:
        waiting.remove(found.id, DECLINED_CALL)
        found.left_list(wanted.key)
        changed.append(found)
    more, offered = offer_again(work, waiting, call)
    result["offered"] = offered
    return [*changed, *more], result
