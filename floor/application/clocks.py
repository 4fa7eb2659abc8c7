"""The deadlines the floor's events record, fired when they come (RULES.md
sections 3 and 4; DESIGN.md, Time and timers).

Firing is an ordinary command of the clock actor, named after the deadline it
expects: if the state moved on (the fourth player came back, the called player
sat down), it does nothing. Its command id is the timer's own, so a timer fired
twice, by its ETA task and by the sweeper, has its effect once.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from floor.application.players import player as find_player
from floor.application.seat_support import close_players_out, offer_again
from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList
from floor.kernel.errors import invalid
from floor.kernel.registry import command
from floor.kernel.roles import CLOCK_ONLY, TABLE_REPORTERS, Actor, Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork

CLOCK_ACTOR = Actor("floor-clock", frozenset({Role.CLOCK}))


def moment(value: object, name: str) -> datetime:
    """A deadline a timer carries, as an aware datetime (or the refusal)."""
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        raise invalid("deadline_invalid") from None
    if moment.tzinfo is None:
        raise invalid("deadline_invalid")
    return moment


def as_text(*names: str) -> Callable[..., dict]:
    """A payload that fingerprints the arguments ``names`` (ids, deadlines) as
    their text, the others as they are: how the clock's commands always were."""

    def payload(**arguments: object) -> dict:
        return {k: str(v) if k in names else v for k, v in arguments.items()}

    return payload


@command(roles=CLOCK_ONLY, scope="table", payload=as_text("table_id", "closes_at"))
def expire_suspension(work: UnitOfWork, *, table_id: str, closes_at: str) -> Decision:
    """A suspended table without four players back by ``closes_at`` closes;
    its players keep their stacks [PT 24]."""
    deadline = moment(closes_at, "closes_at")
    table = work.load(Table, table_id, "table")
    if not table.suspension_deadline_passed(deadline, work.now()):
        return [], {"fired": False, "table_id": str(table.id), "status": table.status}
    closed = close_players_out(work, table, "suspension_expired")
    return closed, {"fired": True, "table_id": str(table.id), "status": table.status}


@command(roles=CLOCK_ONLY, payload=as_text("waiting_list_id", "player_id", "ends_at"))
def expire_call(
    work: UnitOfWork, *, waiting_list_id: str, player_id: str, ends_at: str
) -> Decision:
    """A called player who has not taken the seat by ``ends_at`` is removed
    from the list, and the next is called for the same seat [CM-6]."""
    deadline = moment(ends_at, "ends_at")
    waiting = work.load(WaitingList, waiting_list_id, "waiting_list")
    player = find_player(work, player_id)
    call = waiting.call_lapsed(player.id, deadline, work.now())
    if call is None:
        return [], {"fired": False}
    player.left_list(waiting.game_key)
    more, offered = offer_again(work, waiting, call)
    return [waiting, player, *more], {"fired": True, "removed": str(player.id), "offered": offered}


@command(roles=CLOCK_ONLY, payload=as_text("waiting_list_id", "player_id", "check_in_by"))
def expire_remote_entry(
    work: UnitOfWork, *, waiting_list_id: str, player_id: str, check_in_by: str
) -> Decision:
    """A remote ("called in") entry whose player was not checked in by
    ``check_in_by``, the house's check-in time after registering, is removed
    from the list, "remote_expired" (issue 24)."""
    deadline = moment(check_in_by, "check_in_by")
    waiting = work.load(WaitingList, waiting_list_id, "waiting_list")
    player = find_player(work, player_id)
    if not waiting.remote_lapsed(player.id, deadline, work.now()):
        return [], {"fired": False}
    player.left_list(waiting.game_key)
    return [waiting, player], {"fired": True, "removed": str(player.id)}


# --- the action clock [CM-20 to CM-22] -------------------------------------------------


# Any player may ask; the dealer or the jefe starts the clock [CM-20].
@command(roles=TABLE_REPORTERS, scope="table", payload=as_text("table_id"))
def start_action_clock(work: UnitOfWork, *, table_id: str, seat: int, pot_cents: int) -> Decision:
    """Puts the player in ``seat`` on the clock: two minutes with at most
    200 EUR in the pot, four with more, then one more minute [CM-21, CM-22]."""
    table = work.load(Table, table_id, "table")
    clock = table.start_action_clock(seat, pot_cents, work.now(), work.profile.action_clock)
    return [table], {"table_id": str(table.id), **clock}


@command(roles=TABLE_REPORTERS, scope="table", payload=as_text("table_id"))
def stop_action_clock(work: UnitOfWork, *, table_id: str, seat: int) -> Decision:
    """The player acted: the clock stops [CM-22]."""
    table = work.load(Table, table_id, "table")
    table.stop_action_clock(seat)
    return [table], {"table_id": str(table.id), "seat": seat}


@command(roles=CLOCK_ONLY, scope="table", payload=as_text("table_id", "extra_at"))
def warn_action_clock(work: UnitOfWork, *, table_id: str, extra_at: str) -> Decision:
    """The first period is over: the last minute runs [CM-22]."""
    table = work.load(Table, table_id, "table")
    fired = table.warn_action_clock(moment(extra_at, "extra_at"), work.now())
    return ([table] if fired else []), {"fired": fired, "table_id": str(table.id)}


@command(roles=CLOCK_ONLY, scope="table", payload=as_text("table_id", "dead_at"))
def expire_action_clock(work: UnitOfWork, *, table_id: str, dead_at: str) -> Decision:
    """The last minute is over without the player acting: their hand is dead [CM-22]."""
    table = work.load(Table, table_id, "table")
    fired = table.expire_action_clock(moment(dead_at, "dead_at"), work.now())
    return ([table] if fired else []), {"fired": fired, "table_id": str(table.id)}
