"""The list's player side (issue 24): remote entries checked in, calls answered.

A player may put themselves on a game's list from outside the room
(``join_waiting_list`` under Role.PLAYER, floor.application.players): such a
"called in" entry is not callable until the jefe checks the player in on
arrival (``check_in_player``); one not checked in within the house's time
expires (``expire_remote_entry``, the clock's, floor.application.clocks).

A called player has 5 minutes to appear [CM-6] and may answer the call:
"coming" (recorded, nothing else changes), "five_more" (once a call; the
deadline moves by the house's extension, never past the window the rule
fixes as a maximum) or "not_coming": the seat goes to the next on the list,
and the player is off it [CM-6: "se le borrará de la lista"], unless they
told the jefe at the desk, which is appearing: then re-listed last where the
house says so [CM-6: "bien para anotarse de nuevo en la lista, en este caso
se le anotará el último"]. A called player who leaves the list from their
phone frees the seat for the next as well (``leave_waiting_list``, here
since it offers the seat again).
"""

from __future__ import annotations

from datetime import datetime

from floor.application.players import acting_as_player, find_player, game_for, waiting_list
from floor.application.seat_support import offer_again
from floor.domain.game import Game
from floor.domain.waiting_list import (
    DECLINED_CALL,
    FIVE_MORE,
    LIST_LEAVING_REASONS,
    NOT_COMING,
    check_in_lapsed,
    is_checked_in,
    is_remote,
)
from floor.kernel.errors import conflict, forbidden, invalid
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
    number, as the house says (WaitingListRules.remote_keeps_order). The
    player is in the room for every list: their other remote entries not yet
    checked in are checked in too (``also``), each an event of its list."""
    found, wanted, waiting = _listed(work, player, game)
    keeps_order = work.profile.waiting_list.remote_keeps_order
    renumbered = waiting.check_in(found.id, work.now(), keeps_order=keeps_order)
    entry = waiting.entry_of(found.id)
    changed, also = [waiting], []
    for key in found.waiting_lists:
        other = waiting_list(work, Game.from_key(key)) if key != wanted.key else None
        held = other.entry_of(found.id) if other is not None else None
        lapsed = held is not None and check_in_lapsed(held, work.now())
        if held is not None and is_remote(held) and not is_checked_in(held) and not lapsed:
            other.check_in(found.id, work.now(), keeps_order=keeps_order)
            changed.append(other)
            also.append(key)
    return changed, {
        "player_id": str(found.id),
        "game": wanted.key,
        "reservation": entry["reservation"],
        "position": waiting.position_of(found.id),
        "kept_order": renumbered is None,
        "also": also,
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
    previous = datetime.fromisoformat(call["ends_at"]) if call and call["ends_at"] else None
    # Whether the deadline moved: under CM it cannot ([CM-6] "un máximo de
    # 5 minutos"), and the player is told so.
    result["more_time_granted"] = answer == FIVE_MORE and ends_at != previous
    changed: list = [waiting]
    if answer != NOT_COMING:
        return changed, result
    # The seat goes to the next first, the player off the list [CM-6] ...
    waiting.remove(found.id, DECLINED_CALL)
    more, offered = offer_again(work, waiting, call)
    if rules.declined_call_relists and not acting_as_player():
        # ... and back on it, last, when they said so at the desk: appearing
        # to re-register [CM-6]. From the phone they have not appeared.
        result["reservation"] = waiting.register(found.id, work.now())
        result["position"] = waiting.position_of(found.id)
    else:
        found.left_list(wanted.key)
        changed.append(found)
    if not acting_as_player():  # a player is told nothing of the next one
        result["offered"] = offered
    return [*changed, *more], result


def _leaving_payload(*, player: str, reason: str = "withdrew", **game: object) -> dict:
    """A list left is fingerprinted with its reason, the default one spelled out."""
    return {"player": player, "reason": reason, **game}


@command(roles=(Role.JEFE_SECTOR, Role.PLAYER), payload=_leaving_payload)
def leave_waiting_list(
    work: UnitOfWork, *, player: str, reason: str = "withdrew", **game: object
) -> Decision:
    """Takes a player off a game's list (withdrawn, or absent when called
    [CM-6]); a player may take themselves off, as withdrawn (issue 24). A
    called player's seat goes to the next on the list [CM-6], as when the
    call runs out."""
    if reason not in LIST_LEAVING_REASONS:
        raise invalid("reason_invalid")
    if acting_as_player() and reason != "withdrew":
        raise forbidden("reason_not_allowed")
    found, wanted, waiting = _listed(work, player, game)
    entry = waiting.entry_of(found.id)
    call = dict(entry["call"]) if entry["call"] else None
    waiting.remove(found.id, reason)
    found.left_list(wanted.key)
    more, _offered = offer_again(work, waiting, call) if call else ([], None)
    return [waiting, found, *more], {"player_id": str(found.id), "game": wanted.key}
