"""The house's clocks: the absence clock [CM-18, CM-19], the time rake's session
clock [GA art. 18.3b; PT 7b] and the last hands of the night [CM-24].

The people's commands (start an absence, see the player back, announce the
closing time) and the clock's (the deadlines their events record, fired when
they come: see floor.application.clocks for how firing stays idempotent).
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from floor.application.clocks import as_text, moment
from floor.application.players import player as find_player
from floor.application.players import waiting_list
from floor.application.seat_support import (
    close_players_out,
    left_group,
    offer_seat,
    suspend_or_resume,
)
from floor.domain import absence
from floor.domain.player import Player
from floor.domain.sector import Sector
from floor.domain.table import ABSENCE_EXPIRED, Table, TableStatus
from floor.kernel.registry import command
from floor.kernel.roles import CLOCK_ONLY, JEFE_OR_DIRECTOR, TABLE_REPORTERS
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork
from games.profile_rules import AbsenceExpiry

# --- the absence clock [CM-18, CM-19] ----------------------------------------------------


# The absence clock [CM-18]: the dealer or the jefe starts it and sees the player back.
@command(roles=TABLE_REPORTERS, scope="table")
def start_absence(work: UnitOfWork, *, table_id: str, player: str) -> Decision:
    """The player steps away on the clock: twenty minutes without blinds,
    once a gaming day, two players a table at most [CM-18, CM-19]."""
    rules = absence.check_in_profile(work.profile.absence)
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    now = work.now()
    day = work.profile.gaming_day.of(now)
    away = table.start_absence(found.id, now, rules)
    answer = {"table_id": str(table.id), "player_id": str(found.id), **away}
    if away["after_hand"]:
        # In the hand: the request is recorded, the clock (and the day's use)
        # starts when the hand ends (start_asked_absences).
        found.check_absence_left(day, rules.uses_per_day)
        return [table], answer
    found.use_absence_clock(day, table.id, rules.uses_per_day)
    return [table, found], answer


def start_asked_absences(work: UnitOfWork, table: Table) -> list:
    """The hand has ended: the players who asked for the absence clock
    during it step away now, the clock starting at the hand's end [CM-18,
    CM-19]; a request the rules no longer allow lapses (recorded, with its
    reason). Returns the players whose day's use was counted."""
    rules = work.profile.absence
    started = table.start_absences_asked(work.now(), rules)
    day = work.profile.gaming_day.of(work.now())
    changed = []
    for player_hex in started:
        found = work.find(Player, UUID(player_hex))
        found.use_absence_clock(day, table.id, rules.uses_per_day)
        changed.append(found)
    return changed


@command(roles=TABLE_REPORTERS, scope="table")
def end_absence(work: UnitOfWork, *, table_id: str, player: str) -> Decision:
    """The player is back: the clock stops, or their blinds stop being posted."""
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    _seat, state = table.seated_state(found.id)
    away = state["away"]
    if away and not away["posting_blinds"]:
        # Back after the courtesy, its timer late: the rule applies as
        # of the deadline [CM-18].
        expires_at = datetime.fromisoformat(away["expires_at"])
        if work.now() >= expires_at:
            changed, result = _expire(work, table, found, expires_at)
            if result.get("outcome") == str(AbsenceExpiry.REMOVE_CHIPS):
                return changed, {**result, "player_id": str(found.id), "late": True}
    away = table.end_absence(found.id)
    return [table], {"table_id": str(table.id), "player_id": str(found.id), **away}


@command(roles=CLOCK_ONLY, scope="table", payload=as_text("table_id", "player_id", "warn_at"))
def warn_absence(work: UnitOfWork, *, table_id: str, player_id: str, warn_at: str) -> Decision:
    """Twenty minutes are up: the player is told to return within five [CM-18]."""
    table = work.load(Table, table_id, "table")
    fired = table.warn_absence(UUID(str(player_id)), moment(warn_at, "warn_at"), work.now())
    return ([table] if fired else []), {"fired": fired, "table_id": str(table.id)}


@command(roles=CLOCK_ONLY, scope="table", payload=as_text("table_id", "player_id", "expires_at"))
def expire_absence(work: UnitOfWork, *, table_id: str, player_id: str, expires_at: str) -> Decision:
    """The courtesy minutes are up [CM-18]: with someone waiting for the
    game the seat is freed and the chips go back to the player at the cage;
    with nobody, the player's blinds are posted from the next hand."""
    table = work.load(Table, table_id, "table")
    found = find_player(work, str(player_id))
    return _expire(work, table, found, moment(expires_at, "expires_at"))


def _expire(work: UnitOfWork, table: Table, found: Player, expires_at: datetime) -> Decision:
    """The absence clock's expiry, whoever finds it due first [CM-18]."""
    rules = absence.check_in_profile(work.profile.absence)
    outcome = table.expire_absence(
        found.id,
        expires_at,
        work.now(),
        rules,
        someone_waits=_someone_waits(work, table),
    )
    result = {"fired": outcome is not None, "table_id": str(table.id)}
    if outcome is None:
        return [], result
    result["outcome"] = str(outcome)
    if outcome is not AbsenceExpiry.REMOVE_CHIPS:
        return [table], result
    seat, stack = table.remove_player(found.id, ABSENCE_EXPIRED)
    found.leave_seat(table.id, table.game.key, ABSENCE_EXPIRED, work.now())
    closed = suspend_or_resume(work, table)
    changed, offered = offer_seat(work, table, seat) if not closed else ([], None)
    changed += left_group(work, table, found)
    # The chips are the player's, held at the cage (the ledger posts them).
    result.update(seat=seat, stack_to_cage_cents=stack, offered=offered)
    return [table, found, *closed, *changed], result


def _someone_waits(work: UnitOfWork, table: Table) -> bool:
    """Whether a player waits on the list of the table's game [CM-18]."""
    waiting = waiting_list(work, table.game)
    return waiting is not None and waiting.first_waiting() is not None


# --- the session clock [GA art. 18.3b; PT 7b] ---------------------------------------------


@command(roles=CLOCK_ONLY, scope="table", payload=as_text("table_id", "hour_at"))
def strike_session_hour(work: UnitOfWork, *, table_id: str, hour_at: str) -> Decision:
    """The session's hour of play is up; it ends with the hand in progress
    (PT 7b) or after two more hands (GA art. 18.3b)."""
    table = work.load(Table, table_id, "table")
    fired = table.strike_session_hour(moment(hour_at, "hour_at"), work.now(), work.profile)
    return ([table] if fired else []), {
        "fired": fired,
        "table_id": str(table.id),
        "session": table.session,
    }


# --- closing time [CM-24] ------------------------------------------------------------------


# The casino's closing time [CM-24]: the jefe or the director announces it.
@command(roles=JEFE_OR_DIRECTOR, scope="sector", payload=as_text("sector_id", "closes_at"))
def announce_closing(work: UnitOfWork, *, sector_id: str, closes_at: str) -> Decision:
    """The casino closes at ``closes_at``: the sector's tables play their
    last hands from ``closing.lead`` before (15 minutes, CM-24)."""
    sector = work.load(Sector, sector_id, "sector")
    closes = moment(closes_at, "closes_at")
    starts = sector.announce_closing(closes, work.profile.closing.lead, work.now())
    return [sector], {
        "sector_id": str(sector.id),
        "closes_at": closes.isoformat(),
        "last_hands_at": starts.isoformat(),
    }


@command(roles=CLOCK_ONLY, scope="sector", payload=as_text("sector_id", "last_hands_at"))
def start_last_hands(work: UnitOfWork, *, sector_id: str, last_hands_at: str) -> Decision:
    """The last hands of the night begin [CM-24]: each running table deals
    three more (five in sen descarte, GA art. 7) and closes; a table not
    dealing closes now, its players keeping their stacks."""
    sector = work.load(Sector, sector_id, "sector")
    if not sector.last_hands_due(moment(last_hands_at, "last_hands_at"), work.now()):
        return [], {"fired": False, "sector_id": str(sector.id)}
    sector.begin_last_hands()
    changed: list = [sector]
    tables: dict[str, str] = {}
    for table_hex in sector.tables:
        table = work.find(Table, UUID(table_hex))
        if table is None or table.status == TableStatus.CLOSED:
            continue
        if table.status == TableStatus.RUNNING or table.hand is not None:
            table.start_last_hands(work.profile.closing.hands_for(table.variant))
            changed.append(table)
        else:
            changed += close_players_out(work, table, "closing_time")
        tables[str(table.id)] = table.status
    return changed, {"fired": True, "sector_id": str(sector.id), "tables": tables}
