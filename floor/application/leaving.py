"""Leaving: a player leaves a table with their stack [PT 12, 24; CM-5], and the
jefe closes a table, its players' stacks staying theirs.
"""

from __future__ import annotations

from uuid import UUID

from floor.application.players import player as find_player
from floor.application.seat_support import (
    close_players_out,
    left_group,
    offer_seat,
    suspend_or_resume,
)
from floor.domain.table import CLOSING_REASONS, LEAVING_REASONS, Table
from floor.kernel.errors import invalid
from floor.kernel.registry import command
from floor.kernel.roles import JEFE
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork


def _leaving_payload(*, table_id: object, player: str, reason: str = "left") -> dict:
    """A leaving is fingerprinted with its reason, the default one spelled out."""
    return {"table_id": str(table_id), "player": player, "reason": reason}


@command(roles=JEFE, scope="table", payload=_leaving_payload)
def leave_table(work: UnitOfWork, *, table_id: str, player: str, reason: str = "left") -> Decision:
    """The player leaves with their stack; the seat is offered [PT 12; CM-5];
    below four players the table is suspended [PT 24]."""
    if reason not in LEAVING_REASONS:
        raise invalid("reason_invalid")
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    seat, stack = table.remove_player(found.id, reason)
    found.leave_seat(table.id, table.game.key, reason, work.now())
    closed = suspend_or_resume(work, table)
    changed, offer = offer_seat(work, table, seat) if not closed else ([], None)
    changed += left_group(work, table, found)
    return [table, found, *closed, *changed], {
        "table_id": str(table.id),
        "seat": seat,
        "stack_cents": stack,
        "status": table.status,
        "offered": offer,
    }


def _closing_payload(*, table_id: object, reason: str = "closed_by_jefe") -> dict:
    """A closing is fingerprinted with its reason, the default one spelled out."""
    return {"table_id": str(table_id), "reason": reason}


@command(roles=JEFE, scope="table", payload=_closing_payload)
def close_table(work: UnitOfWork, *, table_id: str, reason: str = "closed_by_jefe") -> Decision:
    """Closes a table; its players' stacks stay theirs (the cage pays them)."""
    if reason not in CLOSING_REASONS:
        raise invalid("reason_invalid")
    table = work.load(Table, table_id, "table")
    stacks = {str(UUID(s["player_id"])): s["stack"] for s in table.occupants.values()}
    changed = close_players_out(work, table, reason)
    return changed, {"table_id": str(table.id), "stacks": stacks}
