"""What every seating command asks of a game's balance group (RULES.md section
7): may this player sit at this table (balance, separation, tournament), and,
once the tables changed, which move the service now proposes.

The decisions are floor.domain.balance's; here the tables are loaded and the
group updated in the same command as the change that moved it.
"""

from __future__ import annotations

from uuid import UUID

from floor.domain import balance, must_move
from floor.domain.balance_group import BalanceGroup
from floor.domain.game import Game
from floor.domain.player import Player
from floor.domain.positions import step
from floor.domain.sector import Sector
from floor.domain.table import Table, TableStatus
from floor.domain.tournament import TOURNAMENT_ID, Tournament
from floor.kernel.errors import DomainError, conflict
from floor.kernel.unit_of_work import UnitOfWork

# Tables whose players count for balance: seats drawn and not closed.
PLAYING = (TableStatus.RUNNING, TableStatus.SUSPENDED)


def balance_group(work: UnitOfWork, game: Game) -> BalanceGroup | None:
    """The balance group of ``game``, if its first table opened."""
    return work.find(BalanceGroup, BalanceGroup.id_for(game))


def join_group(work: UnitOfWork, table: Table) -> BalanceGroup:
    """The group of the table's game, the table in it (opened on first use)."""
    group = balance_group(work, table.game) or BalanceGroup.open_for(table.game)
    group.add_table(table.id)
    return group


def playing_tables(work: UnitOfWork, group: BalanceGroup) -> list[Table]:
    """The group's tables whose players count, in the order they opened."""
    tables = [work.find(Table, UUID(t)) for t in group.tables]
    return [t for t in tables if t is not None and t.status in PLAYING]


def table_label(work: UnitOfWork, table: Table) -> str:
    """The table as the floor names it: its sector's name and its own label."""
    sector = work.find(Sector, table.sector_id)
    return f"{sector.name}, {table.label}" if sector else table.label


def dinner_break(work: UnitOfWork) -> bool:
    """Whether the tournament is on its dinner break [CM-23]."""
    tournament = work.find(Tournament, TOURNAMENT_ID)
    return tournament is not None and tournament.dinner_break


# --- may this player sit here -------------------------------------------------------


def check_may_sit(
    work: UnitOfWork,
    player: Player,
    table: Table,
    *,
    moving_from: Table | None = None,
    called_here: bool = False,
) -> None:
    """Refuses a seat that would put a player with one kept apart from them
    [CM-14], a tournament player [CM-23], or that would unbalance the game's
    tables [CM-10; PT 26]; and one from the list while a seated player comes
    first (the must-move table's, one asking to change table [CM-11]),
    unless the player was called for this seat (``called_here``): the seat
    is theirs while the call lasts [CM-6]."""
    player.check_not_in_tournament(dinner_break(work))
    if moving_from is None and not called_here:
        if must_move_first(work, table) is not None:
            raise conflict("must_move_first")
        if table_change_first(work, table) is not None:
            raise conflict("table_change_requested_first")
    player.check_apart([s["player_id"] for s in table.occupants.values()])
    limit = balance.tolerance(work.profile)
    group = balance_group(work, table.game)
    if limit is None or group is None:
        return
    tables = playing_tables(work, group)
    counts = {t.id.hex: t.player_count for t in tables}
    if table.id.hex not in counts:
        return
    source = moving_from.id.hex if moving_from is not None else None
    after = balance.moved(counts, source, table.id.hex)
    labels = {t.id.hex: table_label(work, t) for t in tables}
    balance.check_balance(counts, after, limit, labels)


def table_change_first(work: UnitOfWork, table: Table) -> dict | None:
    """A player of another table of the game who asked to change table, and
    may move here, comes before the waiting list [CM-11]."""
    group = balance_group(work, table.game)
    if group is None or not group.change_requests or table.status not in PLAYING:
        return None
    tables = playing_tables(work, group)
    counts = {t.id.hex: t.player_count for t in tables}
    request = balance.table_change_to(group.change_requests, table.id.hex, counts, work.profile)
    if request is not None:
        return {
            "table_change_request": str(UUID(request["player_id"])),
            "from_table": str(UUID(request["table_id"])),
        }
    return None


def must_move_first(work: UnitOfWork, table: Table) -> dict | None:
    """The player of the must-move table feeding ``table`` who moves to its
    free seat before the list, or None (floor.domain.must_move): the first in
    arrival order who may move, where the move keeps the game's tables
    within tolerance [CM-10]. The one check ``offer_seat``, ``seat_player``
    and ``move_from_must_move`` ask."""
    group = balance_group(work, table.game)
    if group is None or not group.must_move or table.status not in PLAYING:
        return None
    feeder_id = group.feeder_of(table.id)
    feeder = work.find(Table, UUID(feeder_id)) if feeder_id else None
    if feeder is None or feeder.status not in PLAYING:
        return None
    kept_apart: set[str] = set()
    for state in table.occupants.values():
        other = work.find(Player, UUID(state["player_id"]))
        kept_apart |= set(other.kept_apart) if other else set()
    mover = must_move.next_to_move(must_move.feeder_seats(feeder.occupants), kept_apart)
    if mover is None:
        return None
    tables = playing_tables(work, group)
    counts = {t.id.hex: t.player_count for t in tables}
    try:
        balance.check_balance(
            counts,
            balance.moved(counts, feeder.id.hex, table.id.hex),
            balance.tolerance(work.profile),
            {k: k for k in counts},
        )
    except DomainError:
        return None  # the seat goes to the list [CM-10]
    return {
        "must_move": str(UUID(mover.player_id)),
        "from_table": str(feeder.id),
        "from_seat": mover.seat,
    }


# --- the move the service proposes --------------------------------------------------


def rebalance(work: UnitOfWork, game: Game) -> list:
    """Records the move the tables of ``game`` now need, or withdraws the one
    they no longer need. Returns what changed."""
    group = balance_group(work, game)
    if group is None:
        return []
    return [group] if group.propose(proposal_for(work, group)) else []


def proposal_for(work: UnitOfWork, group: BalanceGroup) -> dict | None:
    """The move the group's tables need now, with why, or None [CM-10]."""
    profile = work.profile
    limit = balance.tolerance(profile)
    tables = playing_tables(work, group)
    counts = {t.id.hex: t.player_count for t in tables}
    if limit is None or len(counts) < 2 or balance.spread(counts) <= limit:
        return None
    by_id = {t.id.hex: t for t in tables}
    source = by_id[max(counts, key=counts.get)]
    target = by_id[min(counts, key=counts.get)]
    direction = step(profile)
    day = profile.gaming_day.of(work.now()).isoformat()
    # Nobody away on the absence clock, nor kept apart from someone there.
    pinned = {s["player_id"] for s in source.occupants.values() if s["away"]}
    for state in target.occupants.values():
        other = work.find(Player, UUID(state["player_id"]))
        pinned |= set(other.kept_apart) if other else set()
    chosen = balance.mover(seating_view(source), direction, group.moved_today(day), pinned)
    seat = balance.target_seat(seating_view(target), direction, target.free_seats())
    if chosen is None or seat is None:
        return None
    player_id, from_seat, why_player = chosen
    to_seat, why_seat = seat
    source_label, target_label = table_label(work, source), table_label(work, target)
    return {
        "player_id": player_id,
        "from_table": source.id.hex,
        "from_seat": from_seat,
        "to_table": target.id.hex,
        "to_seat": to_seat,
        "why": {
            "tables": f"{source_label} has {counts[source.id.hex]} players and "
            f"{target_label} {counts[target.id.hex]}: more than {limit} apart (CM-10).",
            "player": f"Seat {from_seat} at {source_label}: {why_player}.",
            "seat": f"Seat {to_seat} at {target_label}: {why_seat}.",
        },
        # The same reasons as data, for consoles that say them in the reader's language.
        "reasons": {
            "limit": limit,
            "from_count": counts[source.id.hex],
            "to_count": counts[target.id.hex],
            "player": why_player,
            "seat": why_seat,
        },
    }


def seating_view(table: Table) -> balance.SeatingView:
    """The table's seats as the balancing rules read them."""
    return balance.SeatingView(
        table_id=table.id.hex,
        seats=table.seats,
        occupied={int(s): st["player_id"] for s, st in table.occupants.items()},
        last_button=table.last_button,
        button=table.button,
    )
