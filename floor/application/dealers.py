"""The dealer rotation's commands (issue 26): dealers clock in and out with the
games they may deal, and the jefe carries out the sector's plan one push at a
time, sends someone else with a reason, or sends a dealer on break.

GA art. 19 requires a dealer at every table at all times and the jefe (or the
director) names them [GA art. 19.1]; the rotation's lengths are the house's
(games.profile_rules.DealerRotationRules). The plan is computed afresh from
the roster and the sector's open tables (floor.domain.dealer_rotation), so a
table opening or closing re-plans it; a push names the new dealer on the table
too (``Table.assign_dealer``), which is what the dealer's scope reads
(floor.application.staffing); the other way round, a dealer the jefe names on
the card (``assign_dealer``) is recorded in the roster by the same command.
Every step is an event of the roster naming its actor, role and command
(floor.kernel.aggregate).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from floor.domain.dealer_roster import DealerRoster, clean_dealer, clean_games
from floor.domain.dealer_rotation import DEALING, TO_BOX, TO_BREAK, Plan, TableSlot, plan
from floor.domain.sector import Sector
from floor.domain.table import Table, TableStatus
from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command
from floor.kernel.roles import JEFE_OR_DIRECTOR
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork

MAX_REASON_LENGTH = 200


def roster(work: UnitOfWork) -> DealerRoster:
    """The room's roster, opened with its first event."""
    return work.find(DealerRoster, DealerRoster.create_id()) or DealerRoster()


def open_tables(work: UnitOfWork, sector: Sector) -> list[Table]:
    """The sector's open tables, in number order."""
    found = (work.find(Table, UUID(hex_id)) for hex_id in sector.tables)
    tables = [t for t in found if t is not None and t.status != TableStatus.CLOSED]
    return sorted(tables, key=lambda t: t.number)


def table_games(table: Any) -> frozenset[str]:
    """The games dealt at a table: a mixed table's two [PT 23]."""
    return frozenset(g for g in (table.variant, table.second_variant) if g)


def sector_floor(
    sector_id: UUID, tables: list[Any], box: DealerRoster | None, now: datetime
) -> tuple[list[TableSlot], list]:
    """The plan's input: the open tables (the aggregates, or their read
    models: id, number, variant, second_variant, dealer), a dealer's
    since-when from the roster (unknown when the table's dealer was named
    outside it), and the sector's clocked-in dealers (none before the
    roster's first event)."""
    slots = []
    for table in tables:
        dealer = table.dealer or None
        entry = box.entry(dealer or "") if box is not None else None
        since = None
        if entry is not None and entry["state"] == DEALING and entry["table_id"] == table.id.hex:
            since = datetime.fromisoformat(entry["since"])
        slots.append(TableSlot(table.id.hex, table.number, table_games(table), dealer, since))
    dealers = box.slots(sector_id, {t.id.hex for t in tables}, now) if box is not None else []
    return slots, dealers


def read_plan(
    work: UnitOfWork, sector_id: UUID, tables: list[Any], now: datetime
) -> tuple[Plan, DealerRoster | None]:
    """The plan of a sector whose open tables the caller read (the console
    reads them from its read models), and the roster it read."""
    box = work.find(DealerRoster, DealerRoster.create_id())
    slots, dealers = sector_floor(sector_id, tables, box, now)
    return plan(slots, dealers, work.profile.dealer_rotation, now), box


def dealing_elsewhere(
    box: DealerRoster | None, tables: list[Any], dealer: str, table_id: str
) -> int | None:
    """The number of another open table (of ``tables``: aggregates or read
    models) that ``dealer`` deals now, the roster's or named on its card, or
    None. Pushing them in elsewhere first would take them off it, leaving it
    without a dealer and their scope over two tables [GA art. 19, 19.1]: the
    push of a chained dealer waits for their own relief, carried out first."""
    entry = box.entry(dealer) if box is not None else None
    for table in tables:
        if table.id.hex == table_id:
            continue
        named = (table.dealer or None) == dealer
        tracked = entry is not None and entry["state"] == DEALING
        if named or (tracked and entry["table_id"] == table.id.hex):
            return table.number
    return None


def sector_plan(
    work: UnitOfWork, sector: Sector, now: datetime | None = None
) -> tuple[Plan, DealerRoster | None, list[Table]]:
    """The sector's plan as of ``now`` (a command's: its time), with the
    roster it read (None: no dealer ever clocked in) and the open tables."""
    now = now or work.now()
    tables = open_tables(work, sector)
    current, box = read_plan(work, sector.id, tables, now)
    return current, box, tables


# --- the games each may deal, and the clock --------------------------------------------


@command(roles=JEFE_OR_DIRECTOR)
def set_dealer_games(work: UnitOfWork, *, dealer: str, games: list[str]) -> Decision:
    """The games (variants) a dealer may deal: the plan sends them only to
    tables of those games [GA art. 19]. Not without the game of the open
    table they deal now (``dealer_deals_game``): it would run on with a
    dealer who may not deal it [GA art. 19]; push a relief in first. A jefe
    sets the games of the dealers clocked in at his sectors only
    (``not_your_sector``: floor.application.staffing.dealer_sector)."""
    box = roster(work)
    name, chosen = clean_dealer(dealer), clean_games(games)
    entry = box.entry(name)
    dealing = entry is not None and entry["state"] == DEALING and entry["table_id"]
    table = work.find(Table, UUID(entry["table_id"])) if dealing else None
    if (
        table is not None
        and table.status != TableStatus.CLOSED
        and not table_games(table) <= set(chosen)
    ):
        raise conflict("dealer_deals_game", dealer=name, table=table.number)
    chosen = box.set_games(name, chosen)
    return [box], {"dealer": clean_dealer(dealer), "games": chosen}


@command(roles=JEFE_OR_DIRECTOR, scope="sector")
def clock_in_dealer(
    work: UnitOfWork, *, sector_id: UUID | str, dealer: str, games: list[str] | None = None
) -> Decision:
    """A dealer starts their shift at a sector, in the dealer box (their
    games set on the way when named)."""
    sector = work.load(Sector, sector_id, "sector")
    box = roster(work)
    if games is not None:
        box.set_games(dealer, games)
    entry = box.clock_in(dealer, sector.id, work.now())
    name = clean_dealer(dealer)
    return [box], {"sector_id": str(sector.id), "dealer": name, "games": entry["games"]}


@command(roles=JEFE_OR_DIRECTOR, scope="sector")
def clock_out_dealer(work: UnitOfWork, *, sector_id: UUID | str, dealer: str) -> Decision:
    """A dealer's shift ends; one still dealing an open table is relieved
    first, so no table is left without a dealer [GA art. 19]."""
    sector = work.load(Sector, sector_id, "sector")
    box = roster(work)
    name = clean_dealer(dealer)
    tables = {t.id.hex for t in open_tables(work, sector)}
    box.clock_out(name, sector.id, tables, work.now())
    return [box], {"sector_id": str(sector.id), "dealer": name}


# --- pushes -------------------------------------------------------------------------


@command(roles=JEFE_OR_DIRECTOR, scope="table")
def push_dealer(work: UnitOfWork, *, table_id: UUID | str, dealer: str | None = None) -> Decision:
    """The planned push at a table happens (the dealer tapped in): the plan's
    dealer takes the table, the one they relieve goes to the box or on break
    as planned. ``dealer``: the name the jefe saw, refused if the plan has
    changed since (someone else pushed first). A push whose dealer still
    deals another open table (a chain: they relieve this table once their
    own relief has tapped them out there) is refused until then
    (``dealer_at_another_table``): a push never leaves a table without its
    dealer [GA art. 19]."""
    table = work.load(Table, table_id, "table")
    table.check_not_closed()
    sector = work.load(Sector, table.sector_id, "sector")
    current, box, tables = sector_plan(work, sector)
    push = current.push_for(table.id.hex)
    if push is None or box is None:
        raise conflict("no_push_planned", table=table.number)
    if dealer is not None and clean_dealer(dealer) != push.dealer_in:
        raise conflict("push_changed", table=table.number, dealer=push.dealer_in)
    # A chained push (the dealer still deals the table whose push comes
    # first) waits: never a table left without its dealer [GA art. 19].
    other = dealing_elsewhere(box, tables, push.dealer_in, table.id.hex)
    if other is not None:
        raise conflict("dealer_at_another_table", dealer=push.dealer_in, table=other)
    table.assign_dealer(push.dealer_in)
    box.push(
        table_id=table.id,
        dealer_in=push.dealer_in,
        dealer_out=push.dealer_out,
        out_to=push.out_to,
        now=work.now(),
        break_length=work.profile.dealer_rotation.break_length,
    )
    return [table, box], _pushed(table, push.dealer_in, push.dealer_out, push.out_to)


@command(roles=JEFE_OR_DIRECTOR, scope="table")
def override_dealer_push(
    work: UnitOfWork,
    *,
    table_id: UUID | str,
    dealer: str,
    reason: str,
    to_break: bool = False,
) -> Decision:
    """The jefe sends someone else than the plan's to a table [GA art. 19.1],
    saying why; the dealer relieved goes to the box, or on break."""
    why = " ".join(str(reason or "").split())
    if not why:
        raise invalid("override_reason_required")
    if len(why) > MAX_REASON_LENGTH:
        raise invalid("override_reason_too_long", max_length=MAX_REASON_LENGTH)
    table = work.load(Table, table_id, "table")
    table.check_not_closed()
    sector = work.load(Sector, table.sector_id, "sector")
    box = roster(work)
    name = clean_dealer(dealer)
    entry = box.clocked_in(name, sector.id)
    if table.dealer == name:
        raise conflict("dealer_already_at_table", dealer=name, table=table.number)
    if not table_games(table) <= set(entry["games"]):
        raise conflict("dealer_may_not_deal_game", dealer=name, table=table.number)
    other = dealing_elsewhere(box, open_tables(work, sector), name, table.id.hex)
    if other is not None:
        raise conflict("dealer_at_another_table", dealer=name, table=other)
    relieved = table.dealer
    leaving = box.entry(relieved or "")
    tracked = leaving is not None and leaving["table_id"] == table.id.hex
    # Where the relieved dealer goes, when the roster tracks them.
    out_to = (TO_BREAK if to_break else TO_BOX) if tracked else None
    table.assign_dealer(name)
    box.push(
        table_id=table.id,
        dealer_in=name,
        dealer_out=relieved,
        out_to=out_to,
        now=work.now(),
        reason=why,
        break_length=work.profile.dealer_rotation.break_length,
    )
    return [table, box], {**_pushed(table, name, relieved, out_to), "reason": why}


def _pushed(table: Table, dealer_in: str, dealer_out: str | None, out_to: str | None) -> dict:
    return {
        "table_id": str(table.id),
        "table": table.number,
        "dealer": dealer_in,
        "relieved": dealer_out,
        "relieved_to": out_to,
    }


# --- breaks -------------------------------------------------------------------------


@command(roles=JEFE_OR_DIRECTOR, scope="sector")
def send_dealer_on_break(work: UnitOfWork, *, sector_id: UUID | str, dealer: str) -> Decision:
    """An idle dealer goes on break (one dealing is relieved by a push first,
    so their table keeps a dealer [GA art. 19])."""
    sector = work.load(Sector, sector_id, "sector")
    box = roster(work)
    name = clean_dealer(dealer)
    tables = {t.id.hex for t in open_tables(work, sector)}
    box.start_break(name, sector.id, tables, work.now())
    back = work.now() + work.profile.dealer_rotation.break_length
    return [box], {"sector_id": str(sector.id), "dealer": name, "back_at": back.isoformat()}


@command(roles=JEFE_OR_DIRECTOR, scope="sector")
def end_dealer_break(work: UnitOfWork, *, sector_id: UUID | str, dealer: str) -> Decision:
    """The dealer is back from break, in the box, ready for the next push. A
    break cut short of the house's length is not their break: the time they
    dealt since their last full one stands (DealerRoster, ``rested``), so
    the plan sends them on a full break before another long down [GA art. 19]."""
    sector = work.load(Sector, sector_id, "sector")
    box = roster(work)
    name = clean_dealer(dealer)
    box.end_break(name, sector.id, work.now(), work.profile.dealer_rotation.break_length)
    return [box], {"sector_id": str(sector.id), "dealer": name}
