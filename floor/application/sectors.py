"""Opening the room's sectors and their tables [GA arts. 4, 11, 19]."""

from __future__ import annotations

from uuid import UUID, uuid4

from floor.application.groups import join_group
from floor.domain.sector import Sector
from floor.domain.table import Table, TableStatus
from floor.domain.table_spec import TableSpec
from floor.kernel.errors import conflict
from floor.kernel.registry import command
from floor.kernel.roles import JEFE, Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork


@command(roles=(Role.DIRECTOR,))
def open_sector(work: UnitOfWork, *, name: str) -> Decision:
    """The director opens a sector of the room (GA art. 4, 11)."""
    sector = Sector.open(name)
    if work.find(Sector, sector.id) is not None:
        raise conflict("sector_exists", sector=sector.name)
    return [sector], {"sector_id": str(sector.id), "name": sector.name}


def _table_payload(**arguments: object) -> dict[str, object]:
    """What a table's opening is fingerprinted by: the announced rake as text,
    its unset terms left out."""
    known = ("sector_id", "variant", "limit", "minimum_cents", "maximum_cents", "seats")
    rake = {
        k: str(v)
        for k, v in arguments.items()
        if k not in (*known, "second_variant", "ante_cents") and v is not None
    }
    return {
        "second_variant": arguments.get("second_variant"),
        "ante_cents": arguments.get("ante_cents", 0),
        **rake,
        **{k: arguments[k] for k in known if k in arguments},
        "sector_id": str(arguments.get("sector_id")),
    }


def release_closed_tables(work: UnitOfWork, sector: Sector) -> None:
    """Releases the sector's tables closed before tables were released when
    they closed (floor.application.seat_support.close_players_out): a store
    from before that keeps them, and would refuse every table once four had
    closed [GA art. 19]."""
    for table_hex in list(sector.tables):
        table = work.find(Table, UUID(table_hex))
        if table is None or table.status == TableStatus.CLOSED:
            sector.release_table(UUID(table_hex))


@command(roles=JEFE, scope="sector", payload=_table_payload)
def open_table(
    work: UnitOfWork,
    *,
    sector_id: UUID | str,
    variant: str,
    limit: str,
    minimum_cents: int,
    maximum_cents: int,
    seats: int,
    second_variant: str | None = None,
    ante_cents: int = 0,
    **rake: object,
) -> Decision:
    """The jefe de sector opens a table; a sector holds four (GA art. 19). A
    mixed table names a second variant where the profile allows it [PT 23];
    ``rake`` takes the announced house benefit (rake_model, rake_percent,
    rake_cap_cents, rake_step_cents, session_percent, session_base), within
    the profile [GA art. 18.3; PT 7; CM "Beneficio"].

    The blocking reason comes first: a sector with no room for another table
    (full [GA art. 19], or its last hands begun [CM-24]) is said before the
    stakes are checked, so a jefe does not fix stakes for a table that cannot
    open."""
    sector = work.load(Sector, sector_id, "sector")
    release_closed_tables(work, sector)
    sector.check_room(work.profile.max_tables_per_sector, work.now())
    spec = TableSpec.check(
        variant=variant,
        limit=limit,
        minimum_cents=minimum_cents,
        maximum_cents=maximum_cents,
        seats=seats,
        profile=work.profile,
        second_variant=second_variant,
        ante_cents=ante_cents,
        rake=rake,
    )
    table_id = uuid4()
    number = sector.add_table(table_id, work.profile.max_tables_per_sector, work.now())
    table = Table.open(table_id=table_id, sector_id=sector.id, number=number, spec=spec)
    group = join_group(work, table)
    return [sector, table, group], {
        "table_id": str(table.id),
        "sector_id": str(sector.id),
        "number": number,
    }
