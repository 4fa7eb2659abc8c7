"""Balancing the tables of a game, table changes, breaking a table (RULES.md
section 7; floor.domain.balance decides); who may not sit where is
floor.application.separation.

The service proposes each balancing move with why; the jefe accepts it or moves
another player with a reason. A seated player may ask to change table; when
several at one table ask, a high card decides [CM-11]. A table broken sends its
players to the free seats of the game's other tables, the rest to the top of
the list.
"""

from __future__ import annotations

from uuid import UUID

from floor.application.clocks import as_text
from floor.application.groups import (
    check_may_sit,
    join_group,
    playing_tables,
    rebalance,
    seating_view,
)
from floor.application.players import player as find_player
from floor.application.players import waiting_list
from floor.application.seat_support import close_players_out, random_source, suspend_or_resume
from floor.domain import balance, draws
from floor.domain.balance_group import BalanceGroup
from floor.domain.player import Player
from floor.domain.positions import step
from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList
from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command
from floor.kernel.roles import JEFE
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork

MAX_REASON_LENGTH = 200


def checked_reason(reason: object) -> str:
    """The reason the jefe gave for a choice the floor records (a move, a
    separation), as one line of printable text."""
    text = " ".join(str(reason or "").split())
    if not text:
        raise invalid("reason_required")
    if len(text) > MAX_REASON_LENGTH or not text.isprintable():
        raise invalid("reason_invalid")
    return text


# --- moving one player -------------------------------------------------------------------


def _free_for_move(work: UnitOfWork, table: Table) -> list[int]:
    """Free seats not held for a called player [CM-6]."""
    waiting = waiting_list(work, table.game)
    held = waiting.seats_called(table.id) if waiting else {}
    return [s for s in table.free_seats() if s not in held]


def seat_for_move(work: UnitOfWork, table: Table, seat: object | None) -> tuple[int, str]:
    """The seat asked for, or the policy's: nearest the big blind, never the
    small blind's (floor.domain.balance)."""
    free = _free_for_move(work, table)
    if seat is not None:
        chosen = table.check_seat_number(seat)
        table.check_seat_free(chosen)
        if chosen not in free:
            raise conflict("waiting_list_first")
        return chosen, "the seat the jefe chose"
    if not free:
        raise conflict("table_full")
    picked = balance.target_seat(seating_view(table), step(work.profile), free)
    # Only the small blind's seat is free: a player who asked, or whose
    # table broke, takes it rather than wait.
    return picked or (free[0], "the only free seat")


def move_to_table(
    work: UnitOfWork,
    group: BalanceGroup,
    source: Table,
    target: Table,
    player: Player,
    seat: int,
    kind: str,
    why: dict,
    *,
    newcomer: bool = False,
    posts_big_blind: bool = False,
) -> tuple[list, dict]:
    """Moves the player with their stack [CM-12], records why, and lets the
    tables suspend, resume and propose again. ``newcomer``: they join the
    target's game as a newcomer [PT 80; CM-17] (a must-move table's player,
    floor.application.must_move)."""
    if source.game != target.game:
        raise conflict("move_not_same_game")
    here = source.seat_of(player.id)  # the rests taken there go with the move's record [PT 13]
    rests = source.seat_at(here).rests if here is not None else 0
    arrival = source.seat_at(here).arrival if here is not None else None  # an undo's place
    from_seat, stack = source.send_player(player.id, target.id, kind)
    target.receive_player(
        player.id,
        seat,
        stack,
        source.id,
        kind,
        from_seat=from_seat,
        from_hands=source.hands_played,
        from_rests=rests,
        newcomer=newcomer,
        posts_big_blind=posts_big_blind,
        from_arrival=arrival,
    )
    player.move_table(target.id, seat)
    day = work.profile.gaming_day.of(work.now()).isoformat()
    moved = {
        "player_id": player.id.hex,
        "from_table": source.id.hex,
        "from_seat": from_seat,
        "to_table": target.id.hex,
        "to_seat": seat,
        "stack": stack,
        "kind": kind,
        "why": why,
    }
    group.record_move(moved, day)
    changed = [source, target, player, group]
    changed += suspend_or_resume(work, source)
    changed += suspend_or_resume(work, target)
    changed += rebalance(work, source.game)
    return changed, {**moved, "player_id": str(player.id)}


def _group(work: UnitOfWork, group_id: object) -> BalanceGroup:
    return work.load(BalanceGroup, group_id, "balance_group")


# Balancing and table changes [CM-10, CM-11; PT 26]: the jefe's.
@command(roles=JEFE, scope="group", payload=as_text("group_id"))
def accept_move(work: UnitOfWork, *, group_id: str, proposal_id: int) -> Decision:
    """The jefe accepts the move the service proposed [CM-10]."""
    group = _group(work, group_id)
    proposal = group.check_proposal(proposal_id)
    source = work.load(Table, proposal["from_table"], "table")
    target = work.load(Table, proposal["to_table"], "table")
    player = work.find(Player, UUID(proposal["player_id"]))
    check_may_sit(work, player, target, moving_from=source)
    why = {**proposal["why"], "proposal": proposal["id"]}
    return move_to_table(work, group, source, target, player, proposal["to_seat"], "balance", why)


def _override_payload(
    *, group_id: object, player: str, to_table_id: object, reason: str, seat: int | None = None
) -> dict:
    """An override is fingerprinted with its seat, None when the policy picks it."""
    return {
        "group_id": str(group_id),
        "player": player,
        "to_table_id": str(to_table_id),
        "reason": reason,
        "seat": seat,
    }


@command(roles=JEFE, scope="group", payload=_override_payload)
def override_move(
    work: UnitOfWork,
    *,
    group_id: str,
    player: str,
    to_table_id: str,
    reason: str,
    seat: int | None = None,
) -> Decision:
    """The jefe moves a player of their choice, saying why; the balance
    rule does not stop it (the reason is on record)."""
    why_jefe = checked_reason(reason)
    group = _group(work, group_id)
    found = find_player(work, player)
    if found.seated_at is None:
        raise conflict("player_not_seated")
    source = work.load(Table, UUID(found.seated_at["table_id"]), "table")
    target = work.load(Table, to_table_id, "table")
    if source.id == target.id:
        raise conflict("same_table")
    if source.id.hex not in group.tables or target.id.hex not in group.tables:
        raise conflict("move_not_same_game")
    found.check_apart([s["player_id"] for s in target.occupants.values()])
    chosen, _ = seat_for_move(work, target, seat)
    why = {"override": why_jefe, "proposal": (group.proposal or {}).get("id")}
    return move_to_table(work, group, source, target, found, chosen, "override", why)


# --- table changes [CM-11, CM-12; PT 26] -----------------------------------------------


@command(roles=JEFE, scope="table", payload=as_text("table_id"))
def request_table_change(work: UnitOfWork, *, table_id: str, player: str) -> Decision:
    """A seated player asks to move to another table of the game; under PT
    only once their stack is lost [PT 26]."""
    table = work.load(Table, table_id, "table")
    table.check_not_closed()
    found = find_player(work, player)
    _seat, state = table.seated_state(found.id)
    refusal = balance.table_change_request_refusal(state["stack"], work.profile)
    if refusal is not None:
        raise refusal
    group = join_group(work, table)
    group.request_change(found.id, table.id)
    return [group], {"table_id": str(table.id), "player_id": str(found.id)}


@command(roles=JEFE, scope="table", payload=as_text("table_id"))
def withdraw_table_change(work: UnitOfWork, *, table_id: str, player: str) -> Decision:
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    group = join_group(work, table)
    group.withdraw_change(found.id)
    return [group], {"table_id": str(table.id), "player_id": str(found.id)}


def _grant_payload(*, table_id: object, to_table_id: object, seat: int | None = None) -> dict:
    """A table change granted is fingerprinted with its seat, None when the
    policy picks it."""
    return {"table_id": str(table_id), "to_table_id": str(to_table_id), "seat": seat}


@command(roles=JEFE, scope="table", payload=_grant_payload)
def grant_table_change(
    work: UnitOfWork, *, table_id: str, to_table_id: str, seat: int | None = None
) -> Decision:
    """Moves a player of ``table_id`` who asked to ``to_table_id``, where
    balance allows [CM-10]; several asking draw, highest card wins [CM-11].
    Under PT the table left keeps four players [PT 26]."""
    source = work.load(Table, table_id, "table")
    target = work.load(Table, to_table_id, "table")
    group = join_group(work, source)
    requesters = group.requesters(source.id)
    if not requesters:
        raise conflict("no_table_change_request")
    if target.id == source.id:
        raise conflict("same_table")
    if target.id.hex not in group.tables:
        raise conflict("move_not_same_game")
    cards, winner = (
        draws.draw_high_card(requesters, random_source(work))
        if len(requesters) > 1
        else ({}, requesters[0])
    )
    profile = work.profile
    if (
        profile.table_moves.change_only_after_losing_stack
        and source.player_count - 1 < profile.min_players
    ):
        raise conflict("table_would_fall_below_minimum")
    found = work.find(Player, UUID(winner))
    check_may_sit(work, found, target, moving_from=source)
    chosen, why_seat = seat_for_move(work, target, seat)
    why = {
        "player": "asked to change table" + (", and won the draw for it (CM-11)" if cards else ""),
        "seat": why_seat,
        "draw": {str(UUID(p)): c for p, c in cards.items()},
    }
    return move_to_table(work, group, source, target, found, chosen, "table_change", why)


# --- breaking a table ----------------------------------------------------------------------


@command(roles=JEFE, scope="table", payload=as_text("table_id"))
def break_table(work: UnitOfWork, *, table_id: str) -> Decision:
    """Closes a table of a game: its players draw for the free seats of the
    game's other tables, the emptiest first; the rest go to the top of the
    list in their draw order, keeping their stacks."""
    table = work.load(Table, table_id, "table")
    table.check_not_closed()
    table.check_no_hand()
    group = join_group(work, table)
    others = [t for t in playing_tables(work, group) if t.id != table.id]
    order = [s["player_id"] for s in table.occupants.values()]
    random_source(work).shuffle(order)
    changed: list = [table, group]
    placed: dict[str, dict] = {}
    for position, player_hex in enumerate(order, start=1):
        player = work.find(Player, UUID(player_hex))
        target = _break_target(work, player, others)
        if target is None:
            continue
        seat, why_seat = seat_for_move(work, target, None)
        why = {
            "break": f"{table.label} was broken; drew place {position}.",
            "seat": why_seat,
        }
        more, _ = move_to_table(work, group, table, target, player, seat, "break", why)
        changed += more
        placed[str(player.id)] = {"table_id": str(target.id), "seat": seat}
    left = [UUID(p) for p in order if str(UUID(p)) not in placed]
    changed += close_players_out(work, table, "table_broken")
    if left:
        waiting = waiting_list(work, table.game) or WaitingList.open_for(table.game)
        waiting.register_at_top(left, work.now())
        changed.append(waiting)
        for player_id in left:
            player = work.find(Player, player_id)
            player.joined_list(table.game.key)
            changed.append(player)
    return changed, {
        "table_id": str(table.id),
        "draw": [str(UUID(p)) for p in order],
        "placed": placed,
        "listed": [str(p) for p in left],
    }


def _break_target(work: UnitOfWork, player: Player, others: list[Table]) -> Table | None:
    """The emptiest table with a free seat where the player may sit."""
    fitting = [
        t
        for t in others
        if _free_for_move(work, t)
        and not any(s["player_id"] in player.kept_apart for s in t.occupants.values())
    ]
    return min(fitting, key=lambda t: t.player_count, default=None)
