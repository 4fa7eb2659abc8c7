"""The jefe's corrections at the table, each with its reason (issue 22;
ANCHORS.md item 8): a move or seat change made by mistake undone, a seat's
stack fixed. The rules are floor.domain.corrections; the cage's correction
(an entry voided) is the ledger's (ledger.application.corrections).

Both are the jefe de sector's: he supervises the play at his tables and
answers for what is recorded there [GA art. 19.1]. The dealer reports what
the table plays (hands, buy-ins) but does not correct the record of it: a
correction is a second pair of eyes, not the same hands again.
"""

from __future__ import annotations

from uuid import UUID

from floor.application.clocks import as_text
from floor.application.groups import join_group, rebalance
from floor.application.players import player as find_player
from floor.application.players import waiting_list
from floor.application.seat_support import offer_seat, suspend_or_resume
from floor.domain.corrections import (
    STACK_FIX_REASONS,
    UNDO_REASONS,
    checked_reason,
    undo_refusal,
)
from floor.domain.table import Table
from floor.domain.table_status import TableStatus
from floor.kernel.registry import command
from floor.kernel.roles import JEFE
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork


def _seats_held(work: UnitOfWork, table: Table) -> set[int]:
    """Seats offered to a called player: not free for anyone else [CM-6]."""
    waiting = waiting_list(work, table.game)
    return set(waiting.seats_called(table.id)) if waiting else set()


@command(roles=JEFE, scope="table", payload=as_text("table_id"))
def undo_move(
    work: UnitOfWork, *, table_id: str, player: str, reason_code: str, note: str = ""
) -> Decision:
    """The jefe undoes the move or seat change that brought the player to his
    seat at ``table_id``, made by mistake: the player goes back to the seat he
    left, with his stack [CM-12], as a new event naming the move undone and
    why. Only while nothing has made it unfair or wrong since: he has not
    been dealt a hand at the new seat nor rests there, the former table has
    dealt no hand since and is open, and the former seat is free
    (floor.domain.corrections.undo_refusal); he gets back the rests he had
    taken there [PT 13]."""
    code, text = checked_reason(reason_code, note, UNDO_REASONS)
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    seat, state = table.seated(found.id)
    moved = dict(state.moved_from or {})
    same_table = moved.get("table") == table.id.hex  # a seat change at this table
    former = table if same_table else None
    if moved and not same_table:
        former = work.find(Table, UUID(moved["table"]))
    back = int(moved["seat"]) if moved else 0
    refusal = undo_refusal(
        seat,
        state,
        hand_in_play=table.hand is not None,
        table_number=table.number,
        former_number=former.number if former else None,
        former_open=former is not None and former.status != TableStatus.CLOSED,
        former_taken=former is not None
        and (former.seat_at(back) is not None or back in _seats_held(work, former)),
        # A hand in play there is one dealt since the move, as one ended is.
        former_hands=former.hands_played + (former.hand is not None) if former else None,
    )
    if refusal is not None:
        raise refusal
    if same_table:
        left, back = table.undo_seat_change(found.id, code, text)
        found.move_seat(table.id, back)
        changed, offer = offer_seat(work, table, left)
        return [table, found, *changed], {
            "table_id": str(table.id),
            "player_id": str(found.id),
            "seat": back,
            "freed_seat": left,
            "undone": {**moved, "to_seat": left},
            "offered": offer,
        }
    found.check_apart([s["player_id"] for s in former.occupants.values()])
    left, stack = table.send_player(found.id, former.id, "undo")
    # Back as if never moved: with the rests he had taken there [PT 13], and
    # his place in a must-move table's line (floor.domain.must_move).
    former.receive_player(
        found.id,
        back,
        stack,
        table.id,
        "undo",
        rests=int(moved.get("rests") or 0),
        arrival=moved.get("arrival"),
    )
    found.move_table(former.id, back)
    undone = {
        "player_id": found.id.hex,
        "from_table": moved["table"],
        "from_seat": back,
        "to_table": table.id.hex,
        "to_seat": left,
        "kind": moved.get("kind"),
    }
    group = join_group(work, table)
    group.record_undo(undone, code, text)
    changed = [table, former, found, group]
    changed += suspend_or_resume(work, table)
    changed += suspend_or_resume(work, former)
    changed += rebalance(work, table.game)
    return changed, {
        "table_id": str(former.id),
        "player_id": str(found.id),
        "seat": back,
        "undone": undone,
    }


def _fix_payload(
    *, table_id: object, player: str, stack_cents: int, reason_code: str, note: str = ""
) -> dict:
    return {
        "table_id": str(table_id),
        "player": player,
        "stack_cents": stack_cents,
        "reason_code": reason_code,
        "note": note,
    }


@command(roles=JEFE, scope="table", payload=_fix_payload)
def fix_stack(
    work: UnitOfWork,
    *,
    table_id: str,
    player: str,
    stack_cents: int,
    reason_code: str,
    note: str = "",
) -> Decision:
    """The jefe sets a seat's recorded stack to the chips really there (a
    miscount, a buy-in counted wrong, a pot pushed to the wrong stack), with
    the reason, between hands only [GA art. 21; PT 14]. The ledger books the
    difference against the table's difference account (ledger.domain.
    floor_money), so the books stay exact and the fix is found there."""
    code, text = checked_reason(reason_code, note, STACK_FIX_REASONS)
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    fixed = table.fix_stack(found.id, stack_cents, code, text)
    return [table], {"table_id": str(table.id), "player_id": str(found.id), **fixed}
