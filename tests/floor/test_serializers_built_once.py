"""The read models' serializers build their fields once per class (issue 23):
what they answer must be what DRF's own ModelSerializer answers, and no two
serializers may share a field (binding a field to its parent changes it)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from rest_framework import serializers

from floor.api.serializers.tables import SectorSerializer, TableSerializer
from floor.models import SectorView, TableView


def stock(built_once: type[serializers.ModelSerializer]) -> type[serializers.ModelSerializer]:
    """The same serializer on DRF's ModelSerializer, which builds its fields each time."""
    body = {
        name: value
        for name, value in vars(built_once).items()
        if name == "Meta" or name.startswith("get_")
    }
    body.update(
        {name: field.__deepcopy__({}) for name, field in built_once._declared_fields.items()}
    )
    return type(f"Stock{built_once.__name__}", (serializers.ModelSerializer,), body)


def sector_with_tables(count: int) -> SectorView:
    opened = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
    sector = SectorView(
        id=uuid.uuid4(), name="Norte", table_count=count, opened_at=opened, opened_by="dora"
    )
    sector.jefes = ["jaime"]
    tables = [
        TableView(
            id=uuid.uuid4(),
            sector=sector,
            number=number,
            variant="holdem",
            limit="no_limit",
            minimum_cents=200 * number,
            maximum_cents=2000 * number,
            seats=9,
            status="open",
            dealer=f"crupier{number}",
            opened_at=opened,
            opened_by="jaime",
        )
        for number in range(1, count + 1)
    ]
    sector._prefetched_objects_cache = {"tables": tables}
    return sector


def test_a_table_and_a_sector_answer_as_drfs_model_serializer_would():
    sector = sector_with_tables(3)
    table = sector._prefetched_objects_cache["tables"][1]
    for _ in range(2):  # the first builds the fields, the second copies them
        assert TableSerializer(table).data == stock(TableSerializer)(table).data
        assert SectorSerializer(sector).data == stock(SectorSerializer)(sector).data
    assert TableSerializer(table).data["small_blind_cents"] == 200
    assert [row["number"] for row in SectorSerializer(sector).data["tables"]] == [1, 2, 3]


def test_no_two_serializers_share_a_field():
    table = sector_with_tables(1)._prefetched_objects_cache["tables"][0]
    first, second = TableSerializer(table), TableSerializer(table)
    assert first.fields["number"] is not second.fields["number"]
    assert first.fields["number"].parent is first and second.fields["number"].parent is second
    assert first.data == second.data
