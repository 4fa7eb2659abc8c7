"""Must-move tables (issue 24, item 5; floor.domain.must_move decides): the
jefe makes a table of a busy game the must-move table of its main table, ends
it, and moves its next player to a seat freed at the main table.

A seat freed at the main table is offered to the must-move table's next player
before the list (floor.application.seat_support.offer_seat says who); the jefe
moves them when they stand up, between the must-move table's hands, and the
seat they leave is offered to the list at once [PT 12; CM-5].
"""

from __future__ import annotations

from uuid import UUID

from floor.application.balancing import move_to_table, seat_for_move
from floor.application.clocks import as_text
from floor.application.groups import balance_group, check_may_sit, join_group, must_move_first
from floor.application.seat_support import offer_seat
from floor.domain.must_move import must_move_refusal
from floor.domain.player import Player
from floor.domain.table import Table, TableStatus
from floor.kernel.errors import conflict
from floor.kernel.registry import command
from floor.kernel.roles import JEFE
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork


def _start_payload(*, table_id: object, main_table_id: object) -> dict:
    return {"table_id": str(table_id), "main_table_id": str(main_table_id)}


@command(roles=JEFE, scope="table", payload=_start_payload)
def start_must_move(work: UnitOfWork, *, table_id: str, main_table_id: str) -> Decision:
    """``table_id`` becomes the must-move table of ``main_table_id``, a table
    of the same game and stakes in the same sector: its players move there
    in arrival order as seats open, within the balance rule [CM-10]. Refused
    where players change table only once their stack is lost [PT 26]."""
    refusal = must_move_refusal(work.profile)
    if refusal is not None:
        raise refusal
    feeder = work.load(Table, table_id, "table")
    main = work.load(Table, main_table_id, "table")
    feeder.check_not_closed()
    main.check_not_closed()
    if feeder.game != main.game:
        raise conflict("move_not_same_game")
    if feeder.sector_id != main.sector_id:
        # One jefe runs both: the move changes both tables, and the main
        # table's list may not be seated while a must-move player comes first.
        raise conflict("must_move_other_sector")
    group = join_group(work, main)
    group.add_table(feeder.id)
    group.start_must_move(feeder.id, main.id)
    return [group], {"table_id": str(feeder.id), "main_table_id": str(main.id)}


@command(roles=JEFE, scope="table", payload=as_text("table_id"))
def end_must_move(work: UnitOfWork, *, table_id: str) -> Decision:
    """The must-move table becomes a table like the others of its game."""
    table = work.load(Table, table_id, "table")
    group = balance_group(work, table.game)
    if group is None:
        raise conflict("not_must_move")
    main = group.main_of(table.id)
    group.end_must_move(table.id, "ended_by_jefe")
    return [group], {"table_id": str(table.id), "main_table_id": str(UUID(main))}


def _move_payload(*, table_id: object, seat: int | None = None, post_big_blind: bool = False):
    """A move from the must-move table is fingerprinted with its seat (None
    when the policy picks it) and whether the player posts the big blind."""
    return {"table_id": str(table_id), "seat": seat, "post_big_blind": post_big_blind}


@command(roles=JEFE, scope="table", payload=_move_payload)
def move_from_must_move(
    work: UnitOfWork, *, table_id: str, seat: int | None = None, post_big_blind: bool = False
) -> Decision:
    """The must-move table's next player, in arrival order, moves with their
    stack [CM-12] to a free seat of the main table ``table_id``, as a
    newcomer to its game: posting the big blind now or waiting for it
    [CM-17], not on the button [PT 80]. Refused while a player of the main
    table asked for the seat first [PT 12], when nobody may move (the balance
    [CM-10], the absence clock [CM-18], players kept apart [CM-14]), or
    during the must-move table's hand. The seat left is offered to the list."""
    main = work.load(Table, table_id, "table")
    main.check_not_closed()
    group = balance_group(work, main.game)
    feeder_id = group.feeder_of(main.id) if group is not None else None
    if feeder_id is None:
        raise conflict("no_must_move_table")
    chosen, why_seat = seat_for_move(work, main, seat)
    main.check_seat_change_first(chosen)  # a player of the table asked first [PT 12]
    offer = must_move_first(work, main)
    if offer is None:
        raise conflict("nobody_to_move")
    feeder = work.load(Table, UUID(feeder_id), "table")
    player = work.find(Player, UUID(offer["must_move"]))
    check_may_sit(work, player, main, moving_from=feeder)
    why = {
        "player": "first to have sat at the must-move table of those who may move",
        "seat": why_seat,
    }
    changed, moved = move_to_table(
        work,
        group,
        feeder,
        main,
        player,
        chosen,
        "must_move",
        why,
        newcomer=True,
        posts_big_blind=bool(post_big_blind),
    )
    offered = None
    if feeder.status != TableStatus.CLOSED:  # its last hands may have closed it [CM-24]
        more, offered = offer_seat(work, feeder, moved["from_seat"])
        changed += more
    return changed, {**moved, "offered": offered}
