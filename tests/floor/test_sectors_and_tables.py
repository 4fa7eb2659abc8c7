"""Opening sectors and tables: the four-table sector, stakes, seats, roles."""

import uuid
from dataclasses import replace

import pytest

from floor.domain.sector import Sector
from floor.kernel.errors import DomainError, ErrorKind
from games.limits import MAX_AMOUNT_CENTS
from games.profiles import CM
from tests.support.floor import CRUPIER, DIRECTOR, HOLDEM, JEFE, new_id, open_sector, open_tables

pytestmark = pytest.mark.django_db


def log_length(app) -> int:
    return app.last_position()


def test_a_sector_takes_four_tables_numbered_one_to_four(floor_app):
    sector_id = open_sector(floor_app)
    opened = open_tables(floor_app, sector_id, 4)
    assert [t["number"] for t in opened] == [1, 2, 3, 4]
    sector = floor_app.repository.get(uuid.UUID(sector_id))
    assert sorted(sector.tables.values()) == [1, 2, 3, 4]


def test_a_fifth_table_is_refused_as_sector_full_and_records_nothing(floor_app):
    sector_id = open_sector(floor_app)
    open_tables(floor_app, sector_id, 4)
    before = log_length(floor_app)
    with pytest.raises(DomainError) as refused:
        floor_app.open_table(JEFE, new_id(), sector_id=sector_id, **HOLDEM)
    assert refused.value.code == "sector_full"
    assert refused.value.kind is ErrorKind.CONFLICT
    assert refused.value.params == {"sector": "Sector A", "max_tables": 4}
    assert log_length(floor_app) == before


def test_sector_names_are_unique_whatever_their_case_and_spacing(floor_app):
    open_sector(floor_app, "Sector Norte")
    with pytest.raises(DomainError) as refused:
        floor_app.open_sector(DIRECTOR, new_id(), name="  sector   NORTE ")
    assert refused.value.code == "sector_exists"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"variant": "canasta"}, "unknown_variant"),
        ({"limit": "table_stakes"}, "unknown_limit"),
        ({"minimum_cents": 100}, "stakes_out_of_band"),
        ({"minimum_cents": 0}, "stakes_minimum_not_positive"),
        ({"seats": 3}, "seats_out_of_range"),  # fewer than four can never play
        ({"seats": 11}, "seats_out_of_range"),  # Hold'em has ten seats
        ({"seats": "ten"}, "not_an_integer"),
    ],
)
def test_bad_tables_are_refused_before_anything_is_recorded(floor_app, change, code):
    sector_id = open_sector(floor_app)
    before = log_length(floor_app)
    with pytest.raises(DomainError) as refused:
        floor_app.open_table(JEFE, new_id(), sector_id=sector_id, **{**HOLDEM, **change})
    assert refused.value.code == code
    assert refused.value.kind is ErrorKind.INVALID
    assert log_length(floor_app) == before
    assert floor_app.repository.get(uuid.UUID(sector_id)).tables == {}


def test_sintetico_tables_have_eleven_seats(floor_app):
    sector_id = open_sector(floor_app)
    table = floor_app.open_table(
        JEFE, new_id(), sector_id=sector_id, **{**HOLDEM, "variant": "sintetico", "seats": 11}
    ).result
    assert floor_app.repository.get(uuid.UUID(table["table_id"])).seats == 11


def test_only_the_jefe_opens_tables_and_only_the_director_opens_sectors(floor_app):
    sector_id = open_sector(floor_app)
    with pytest.raises(DomainError) as refused:
        floor_app.open_table(CRUPIER, new_id(), sector_id=sector_id, **HOLDEM)
    assert (refused.value.code, refused.value.kind) == ("role_not_allowed", ErrorKind.FORBIDDEN)
    with pytest.raises(DomainError) as refused:
        floor_app.open_sector(JEFE, new_id(), name="Sector B")
    assert refused.value.code == "role_not_allowed"


def test_a_full_sector_is_said_before_the_stakes_are_checked(floor_app):
    """The blocking reason first: fixing the stakes of a fifth table would not
    open it (GA art. 19)."""
    sector_id = open_sector(floor_app)
    open_tables(floor_app, sector_id, 4)
    bad_stakes = {**HOLDEM, "minimum_cents": 100, "maximum_cents": 10_000}  # out of the band
    before = log_length(floor_app)
    with pytest.raises(DomainError) as refused:
        floor_app.open_table(JEFE, new_id(), sector_id=sector_id, **bad_stakes)
    assert (refused.value.code, refused.value.kind) == ("sector_full", ErrorKind.CONFLICT)
    assert log_length(floor_app) == before
    # With room in the sector, the same stakes are refused as stakes.
    other = open_sector(floor_app, "Sector B")
    with pytest.raises(DomainError) as refused:
        floor_app.open_table(JEFE, new_id(), sector_id=other, **bad_stakes)
    assert refused.value.code == "stakes_out_of_band"


@pytest.mark.parametrize("sector_id", [str(uuid.uuid4()), "not-a-uuid"])
def test_a_table_in_an_unknown_sector_is_not_found(floor_app, sector_id):
    with pytest.raises(DomainError) as refused:
        floor_app.open_table(JEFE, new_id(), sector_id=sector_id, **HOLDEM)
    assert (refused.value.code, refused.value.kind) == ("sector_not_found", ErrorKind.NOT_FOUND)


def test_the_profile_in_force_sets_the_sector_size(make_app):
    app = make_app(replace(CM, code="SMALL", max_tables_per_sector=2))
    sector_id = open_sector(app)
    assert [t["number"] for t in open_tables(app, sector_id, 2)] == [1, 2]
    with pytest.raises(DomainError) as refused:
        open_tables(app, sector_id, 1)
    assert (refused.value.code, refused.value.params["max_tables"]) == ("sector_full", 2)


def test_sector_names_are_trimmed_and_control_characters_refused():
    assert Sector.clean_name("  Sala   privada ") == "Sala privada"
    with pytest.raises(DomainError) as refused:
        Sector.clean_name("Sala\x07")
    assert refused.value.code == "sector_name_invalid"


@pytest.mark.parametrize("maximum", [MAX_AMOUNT_CENTS + 2, 5 * 10**19])
def test_absurd_amounts_are_refused_before_they_reach_a_store(floor_app, maximum):
    sector_id = open_sector(floor_app)
    before = floor_app.last_position()
    with pytest.raises(DomainError) as refused:
        floor_app.open_table(
            JEFE,
            new_id(),
            sector_id=sector_id,
            **{**HOLDEM, "minimum_cents": maximum // 4, "maximum_cents": maximum},
        )
    assert refused.value.code == "stakes_too_large"
    assert floor_app.last_position() == before


def test_a_closed_table_frees_its_place_and_number_in_the_sector(floor_app):
    """A sector holds four tables [GA art. 19]: open ones. A table closed
    (by the jefe, at closing time [CM-24], broken) frees its place, and the
    next table opened there takes its number, the physical table's; the
    read models agree, live and rebuilt."""
    from floor import runtime
    from floor.models import SectorView, TableView
    from tests.support.read_models import differences, read_models

    sector_id = open_sector(floor_app, "Sector R")
    opened = [t["table_id"] for t in open_tables(floor_app, sector_id, 4)]
    floor_app.close_table(JEFE, new_id(), table_id=opened[2])
    again = floor_app.open_table(JEFE, new_id(), sector_id=sector_id, **HOLDEM).result
    assert again["number"] == 3
    with pytest.raises(DomainError) as refused:
        floor_app.open_table(JEFE, new_id(), sector_id=sector_id, **HOLDEM)
    assert refused.value.code == "sector_full"
    projector = runtime.floor_projector()
    projector.catch_up()
    assert SectorView.objects.get(id=sector_id).table_count == 4
    numbers = TableView.objects.filter(sector_id=sector_id).values_list("number", "status")
    assert sorted(numbers) == [(1, "registering"), (2, "registering"), (3, "closed"),
                               (3, "registering"), (4, "registering")]  # fmt: skip
    live = read_models()
    projector.reset()
    while projector.run_once():
        pass
    assert not differences(live, read_models())
