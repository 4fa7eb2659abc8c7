"""Joining a table and moving at it: a player seated from the list [PT 12; CM-3,
CM-5, CM-13, CM-17], seat changes asked, offered and made, and chips bought at
the table [CM-2; PT 28].
"""

from __future__ import annotations

from datetime import datetime

from floor.application import exclusion_gate
from floor.application.groups import check_may_sit, rebalance
from floor.application.players import player as find_player
from floor.application.players import waiting_list
from floor.application.seat_support import (
    leave_lists,
    offer_seat,
    random_source,
    suspend_or_resume,
)
from floor.domain.player import Player
from floor.domain.table import Table
from floor.domain.waiting_list import call_refusal
from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command
from floor.kernel.roles import JEFE, TABLE_REPORTERS
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork

# How a buy-in the table takes is paid; one paid at the cage is the cage's.
TABLE_PAYMENTS = ("cash", "chips")


def _check_reseat_cooldown(work: UnitOfWork, player: Player, table: Table) -> None:
    """A player who left a table sits at another of the same game without
    the draw only once the cool-down has passed [CM-13]."""
    cooldown = work.profile.table_moves.reseat_cooldown
    left = player.last_left
    if cooldown is None or left is None or left["game"] != table.game.key:
        return
    if left["table_id"] == table.id.hex:
        return
    until = datetime.fromisoformat(left["at"]) + cooldown
    if work.now() < until:
        raise conflict("reseat_cooldown", until=until.isoformat())


def _seating_payload(
    *,
    table_id: object,
    player: str,
    seat: int | None = None,
    post_big_blind: bool = False,
    leave_other_lists: bool = False,
) -> dict:
    """A seating is fingerprinted with its options, the defaults spelled out."""
    return {
        "table_id": str(table_id),
        "player": player,
        "seat": seat,
        "post_big_blind": post_big_blind,
        "leave_other_lists": leave_other_lists,
    }


@command(roles=JEFE, scope="table", payload=_seating_payload)
def seat_player(
    work: UnitOfWork,
    *,
    table_id: str,
    player: str,
    seat: int | None = None,
    post_big_blind: bool = False,
    leave_other_lists: bool = False,
) -> Decision:
    """A player takes a vacant seat: a seated player who asked to change seat
    first, then the list in order [PT 12; CM-5]. While the draw is open the
    seat is drawn among the free ones [CM-3]. A newcomer posts the big blind
    or waits for it [CM-17]."""
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    found.check_may_play()
    # The exclusion lists (issue 25, item 2): refused if excluded, or until a
    # director resolves a possible match; a pass is recorded on the player.
    exclusion_gate.admit(work, found, exclusion_gate.SEATING)
    found.check_not_seated()
    table.check_not_closed()
    waiting = waiting_list(work, table.game)
    drawn_from = None
    if seat is None:
        if not table.free_seats():
            raise conflict("table_full")
        if not table.draw_open:
            raise invalid("seat_required")
        # Seats offered to a called player are not in the draw [CM-6].
        held = waiting.seats_called(table.id, but_for=found.id) if waiting else {}
        drawn_from = [s for s in table.free_seats() if s not in held] or table.free_seats()
        chosen = random_source(work).choice(drawn_from)
    else:
        chosen = table.check_seat_number(seat)
        if table.draw_open:
            raise conflict("seat_is_drawn")
    table.check_seat_free(chosen)
    table.check_seat_change_first(chosen)
    if drawn_from is None:
        _check_reseat_cooldown(work, found, table)
    called_here = False
    if waiting is not None:
        waiting.check_turn(found.id, table.id, chosen)
        entry = waiting.entry_of(found.id)
        held = waiting.seats_called(table.id)
        called_here = entry is not None and held.get(chosen) == entry["reservation"]
    check_may_sit(work, found, table, called_here=called_here)
    table.seat_player(
        found.id,
        chosen,
        posts_big_blind=bool(post_big_blind),
        drawn_from=drawn_from,
        time_due=table.owes_on_joining(work.profile, work.now()),
    )
    found.take_seat(table.id, chosen, table.game.key)
    keys = found.lists_left_on_seating(table.game.key, bool(leave_other_lists))
    changed = [table, found, *leave_lists(work, found, keys, "seated")]
    changed += suspend_or_resume(work, table)
    changed += rebalance(work, table.game)
    return changed, {
        "table_id": str(table.id),
        "seat": chosen,
        "player_id": str(found.id),
        "status": table.status,
    }


@command(roles=JEFE, scope="table")
def request_seat_change(work: UnitOfWork, *, table_id: str, player: str) -> Decision:
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    table.request_seat_change(found.id)
    return [table], {"table_id": str(table.id), "player_id": str(found.id)}


@command(roles=JEFE, scope="table")
def withdraw_seat_change(work: UnitOfWork, *, table_id: str, player: str) -> Decision:
    """The player keeps their seat after all: the list comes next again."""
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    table.withdraw_seat_change(found.id)
    return [table], {"table_id": str(table.id), "player_id": str(found.id)}


@command(roles=JEFE, scope="table")
def call_next(work: UnitOfWork, *, table_id: str, seat: int) -> Decision:
    """Offers a free seat: to a seated player who asked to change seat, or
    to the first on the list, who is called [PT 12; CM-5, CM-6]."""
    table = work.load(Table, table_id, "table")
    table.check_not_closed()
    free = table.check_seat_number(seat)
    table.check_seat_free(free)
    waiting = waiting_list(work, table.game)
    offered = waiting.seats_called(table.id) if waiting is not None else {}
    refusal = call_refusal(free, offered)
    if refusal is not None:
        raise refusal
    changed, offer = offer_seat(work, table, free)
    refusal = call_refusal(free, offered, someone_to_call=offer is not None)
    if refusal is not None:
        raise refusal
    return changed, {"table_id": str(table.id), "seat": free, "offered": offer}


@command(roles=JEFE, scope="table")
def change_seat(work: UnitOfWork, *, table_id: str, player: str, seat: int) -> Decision:
    """A seated player moves to a free seat of the same table, between hands."""
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    new_seat = table.check_seat_number(seat)
    waiting = waiting_list(work, table.game)
    held = waiting.seats_called(table.id) if waiting else {}
    if new_seat in held:
        raise conflict("waiting_list_first", reservation=held[new_seat])
    old = table.change_seat(found.id, new_seat)
    found.move_seat(table.id, new_seat)
    changed, offer = offer_seat(work, table, old)
    return [table, found, *changed], {
        "table_id": str(table.id),
        "seat": new_seat,
        "freed_seat": old,
        "offered": offer,
    }


def _buy_in_payload(
    *, table_id: object, player: str, amount_cents: int, paid_with: str = "cash"
) -> dict:
    """A cash buy-in keeps the fingerprint it always had (no ``paid_with``)."""
    payload = {"table_id": str(table_id), "player": player, "amount_cents": amount_cents}
    if paid_with != "cash":
        payload["paid_with"] = paid_with
    return payload


@command(roles=TABLE_REPORTERS, scope="table", payload=_buy_in_payload)
def buy_in(
    work: UnitOfWork, *, table_id: str, player: str, amount_cents: int, paid_with: str = "cash"
) -> Decision:
    """Chips bought at the table between hands, within the limits [CM-2; PT
    28], paid in cash at the table (chips from its tray) or with the
    player's own chips; the ledger books it from the event. A buy-in paid
    at the cage is the cage's command (ledger.application.cage)."""
    if paid_with not in TABLE_PAYMENTS:
        raise invalid("paid_with_invalid", choices=list(TABLE_PAYMENTS))
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    stack = table.buy_in(
        found.id,
        amount_cents,
        table_average=work.profile.seating.newcomer_stack_is_table_average,
        rules=work.profile.buy_in,
        paid_with=paid_with,
    )
    return [table], {"table_id": str(table.id), "stack_cents": stack}
