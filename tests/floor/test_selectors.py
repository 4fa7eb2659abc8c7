"""The read side's selectors (floor.selectors, ledger.selectors): what a page
lists costs a fixed number of queries, however many rows it lists."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from floor.models import (
    BalanceGroupView,
    PlayerView,
    SectorView,
    TableView,
    WaitingEntryView,
    WaitingListView,
)
from ledger.models import AccountView, JackpotView

pytestmark = pytest.mark.django_db

AT = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


def _game(n: int) -> dict:
    """The n-th game: Hold'em no limit, its stakes n euros apart."""
    minimum = 200 * n
    return {
        "variant": "texas_holdem",
        "limit": "no_limit",
        "minimum_cents": minimum,
        "maximum_cents": minimum * 5,
    }


def _groups(count: int, first: int = 1) -> list[BalanceGroupView]:
    """``count`` balance groups, each of two running tables in its own sector
    (the second listed first), and two players waiting on its game's list."""
    groups = []
    for n in range(first, first + count):
        game = _game(n)
        key = f"texas_holdem/no_limit/{game['minimum_cents']}/{game['maximum_cents']}"
        sector = SectorView.objects.create(
            id=uuid4(), name=f"Sector {n}", opened_at=AT, opened_by="dora"
        )
        tables = [
            TableView.objects.create(
                id=uuid4(),
                sector=sector,
                number=number,
                seats=9,
                status="running",
                players=players,
                opened_at=AT,
                opened_by="jaime",
                **game,
            )
            for number, players in ((1, 8), (2, 5))
        ]
        waiting = WaitingListView.objects.create(id=uuid4(), game=key, **game)
        for position in (1, 2):
            player = PlayerView.objects.create(
                id=uuid4(),
                card_number=f"G{n}-{position}",
                display_name=f"Player {n}.{position}",
                registered_at=AT,
            )
            WaitingEntryView.objects.create(
                waiting_list=waiting,
                player=player,
                position=position,
                reservation=position,
                registered_at=AT,
                status="waiting",
            )
        groups.append(
            BalanceGroupView.objects.create(
                id=uuid4(), game=key, table_ids=[str(tables[1].id), str(tables[0].id)]
            )
        )
    return groups


def _listed(client) -> tuple[list[dict], int]:
    """The API's balance groups and the queries the answer cost."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/balance-groups/")
    assert response.status_code == 200, response.content
    return response.json(), len(queries)


def test_balance_groups_cost_the_same_queries_for_one_group_or_many(api_as, floor_app):
    """The balance groups' list loads every group's tables and list in the
    selector (floor.selectors.balancing): its queries do not grow with the
    groups, and each group still shows its tables in its order, its spread and
    the new table its list could start."""
    director = api_as("dora", "director")
    first = _groups(1)
    one, for_one = _listed(director)
    _groups(6, first=2)
    many, for_many = _listed(director)
    assert len(one) == 1 and len(many) == 7
    assert for_many == for_one
    shown = next(g for g in many if g["id"] == str(first[0].id))
    assert [t["id"] for t in shown["tables"]] == first[0].table_ids
    assert [t["sector_name"] for t in shown["tables"]] == ["Sector 1", "Sector 1"]
    assert shown["spread"] == 3


def test_one_balance_group_is_loaded_alike(floor_app):
    """A command's answer serializes one group loaded by the same selector."""
    from floor.api.serializers import BalanceGroupSerializer
    from floor.selectors.balancing import balance_group

    group = _groups(2)[1]
    with CaptureQueriesContext(connection) as queries:
        loaded = balance_group(group.id)
    with CaptureQueriesContext(connection) as serializing:
        data = BalanceGroupSerializer(loaded).data
    assert len(serializing) == 0, "the serializer queries nothing"
    assert len(queries) == 3
    assert [t["id"] for t in data["tables"]] == group.table_ids


def test_jackpots_cost_the_same_queries_for_one_or_many(api_as, floor_app):
    """The jackpots' list loads every fund's balance with the jackpots
    (ledger.selectors.jackpots), not one query per jackpot."""
    cage = api_as("carla", "director")

    def jackpot(n: int) -> None:
        found = JackpotView.objects.create(
            id=uuid4(), name=f"Jackpot {n}", scheme="fixed", stake_cents=100, seed_cents=0
        )
        AccountView.objects.create(
            name=f"jackpot:{found.id.hex}", kind="jackpot", balance_cents=1000 * n
        )

    def listed() -> tuple[list[dict], int]:
        with CaptureQueriesContext(connection) as queries:
            response = cage.get("/api/jackpots/")
        assert response.status_code == 200, response.content
        return response.json(), len(queries)

    jackpot(1)
    one, for_one = listed()
    for n in range(2, 6):
        jackpot(n)
    many, for_many = listed()
    assert for_many == for_one
    assert sorted(j["fund_cents"] for j in many) == [1000, 2000, 3000, 4000, 5000]
    assert one[0]["fund_cents"] == 1000


def test_serializers_and_templatetags_query_nothing():
    """No read query in a serializer or a template tag: they shape what the
    selectors loaded. (The serializers still import the read models, as the
    ModelSerializers' ``Meta.model``: a shape, not a query.)"""
    import ast
    import importlib
    import pkgutil

    import floor.api.serializers

    floor_serializers = [
        f"floor.api.serializers.{m.name}"
        for m in pkgutil.iter_modules(floor.api.serializers.__path__)
    ]
    assert floor_serializers, "the floor's serializers are a package of modules"
    for name in (
        "floor.api.serializers",
        *floor_serializers,
        "ledger.api.serializers",
        "floor.templatetags.floor_format",
    ):
        module = importlib.import_module(name)
        with open(module.__file__, encoding="utf-8") as text:
            tree = ast.parse(text.read())
        queries = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in ("objects", "get_user_model")
        ]
        assert queries == [], f"{name} queries at lines {queries}"
