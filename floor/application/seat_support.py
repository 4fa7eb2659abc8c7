"""What the seating commands share, and the commands of other concerns call
(balancing, the clocks, banked hands): the draws' random source, a table
suspended or resumed by its count of players [GA art. 23; PT 24], a freed seat
offered [PT 12; CM-5], players taken off lists and groups, a table closed with
its players out [CM-24].
"""

from __future__ import annotations

import secrets
from random import Random
from uuid import UUID

from floor.application.groups import (
    balance_group,
    must_move_first,
    rebalance,
    table_change_first,
)
from floor.application.players import waiting_list
from floor.domain.game import Game
from floor.domain.player import Player
from floor.domain.sector import Sector
from floor.domain.table import Table, TableStatus
from floor.domain.waiting_list import WaitingList, is_callable
from floor.kernel.unit_of_work import UnitOfWork

# The draws' random source [issue 4: `secrets`]. An application may hold its own
# as ``random`` (a test sets a seeded one there).
SYSTEM_RANDOM: Random = secrets.SystemRandom()


def random_source(work: UnitOfWork) -> Random:
    """What the command's draws draw with: the application's own source."""
    return getattr(work.service, "random", SYSTEM_RANDOM)


def suspend_or_resume(work: UnitOfWork, table: Table) -> list:
    """Below four players a running table is suspended; at four it resumes
    [GA art. 23; PT 24]. The closing deadline is recorded (None under GA).
    Playing its last hands of the night, it closes instead [CM-24]. Returns
    what else changed."""
    needed = work.profile.min_players
    if table.hand is not None:
        return []  # a hand is played out first; its end decides [PT 24]
    if table.status == TableStatus.RUNNING and table.below_minimum(needed):
        if table.last_hands is not None:
            return close_players_out(work, table, "closing_time")
        delay = work.profile.suspension_closes_after
        now = work.now()
        table.suspend(now, now + delay if delay else None, needed)
    elif table.status == TableStatus.SUSPENDED and not table.below_minimum(needed):
        table.resume()
    return []


def close_players_out(work: UnitOfWork, table: Table, reason: str) -> list:
    """Closes ``table``: its players leave with their stacks, which stay
    theirs; the calls for its seats lapse. Returns what changed."""
    players = table.close(reason)
    changed: list = [table]
    sector = work.find(Sector, table.sector_id)
    if sector is not None:  # its place in the sector is free again [GA art. 19]
        sector.release_table(table.id)
        changed.append(sector)
    group = balance_group(work, table.game)
    if group is not None:
        for feeder in group.must_moves_of(table.id):  # it fed, or was fed
            group.end_must_move(UUID(feeder), "table_closed")
        group.remove_table(table.id)
        changed += [group, *rebalance(work, table.game)]
    waiting = waiting_list(work, table.game)
    if waiting is not None and waiting.seats_called(table.id):
        waiting.cancel_calls(table.id)  # the seats offered are gone
        changed.append(waiting)
    for state in players.values():
        found = work.find(Player, UUID(state["player_id"]))
        found.leave_seat(table.id, table.game.key, "table_closed", work.now())
        changed.append(found)
    return changed


def offer_seat(work: UnitOfWork, table: Table, seat: int) -> tuple[list, dict | None]:
    """A freed seat goes first to a seated player who asked to change seat,
    then to the player of the table's must-move table who moves next
    (floor.domain.must_move), then to one of another table of the game who
    asked to change table [CM-11], then to the list in order [PT 12; CM-5]:
    the first waiting player is called, with the call window's end where the
    profile has one [CM-6]."""
    if table.seat_change_requests:
        return [], {"seat_change_request": str(UUID(table.seat_change_requests[0]))}
    moving = must_move_first(work, table)
    if moving is not None:  # the must-move table's players before the list
        return [], moving
    changing = table_change_first(work, table)
    if changing is not None:  # seated players before the list [CM-11]
        return [], changing
    waiting = waiting_list(work, table.game)
    first = None
    for entry in waiting.entries if waiting else []:
        if not is_callable(entry):  # called already, or remote and not here yet
            continue
        # A player seated elsewhere (on a list of another game, CM-7) must
        # leave that table first: the seat goes to the next one free to take it.
        candidate = work.find(Player, UUID(entry["player_id"]))
        if candidate is not None and candidate.seated_at is None:
            first = entry
            break
    if first is None:
        return [], None
    window = work.profile.waiting_list.call_window
    now = work.now()
    player_id = UUID(first["player_id"])
    waiting.call(player_id, table.id, seat, now, now + window if window else None)
    return [waiting], {"called": str(player_id), "reservation": first["reservation"]}


def offer_again(work: UnitOfWork, waiting: WaitingList, call: dict) -> tuple[list, dict | None]:
    """The seat of a call that ended without the player (the window lapsed,
    or they answered they will not come) goes to the next on the list
    [CM-6], if the table is open and the seat still free and not offered."""
    table = work.find(Table, UUID(call["table_id"]))
    seat = call["seat"]
    if (
        table is None
        or table.status == TableStatus.CLOSED
        or table.occupant(seat) is not None
        or seat in waiting.seats_called(table.id)
    ):
        return [], None
    return offer_seat(work, table, seat)


def leave_lists(work: UnitOfWork, player: Player, keys: list[str], reason: str) -> list:
    """Takes ``player`` off the lists of the games ``keys``. Returns what changed."""
    changed = []
    for key in keys:
        waiting = waiting_list(work, Game.from_key(key))
        if waiting is not None and waiting.entry_of(player.id) is not None:
            waiting.remove(player.id, reason)
            changed.append(waiting)
        player.left_list(key)
    return changed


def left_group(work: UnitOfWork, table: Table, player: Player) -> list:
    """A player gone from a table: their table-change request lapses and
    the group may need a move."""
    group = balance_group(work, table.game)
    if group is None:
        return []
    group.withdraw_change(player.id, reason="left")
    return [group, *rebalance(work, table.game)]
