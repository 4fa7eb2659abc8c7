"""The balance groups (RULES.md section 7): each game's tables across the
sectors, loaded with what the API shows of them in a fixed number of queries."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import Count
from django.shortcuts import get_object_or_404

from floor.domain import must_move
from floor.models import BalanceGroupView, SeatView, TableView, WaitingEntryView


def _with_tables(groups: list[BalanceGroupView]) -> list[BalanceGroupView]:
    """Each group given ``group_tables`` (its tables that exist, in the group's
    order, with their sectors) and ``waiting_players`` (the players waiting on
    its game's list and seated nowhere): two queries for all the groups, so the
    API's list does not query once per group (BalanceGroupSerializer)."""
    ids = {table_id for group in groups for table_id in group.table_ids}
    found = {str(t.id): t for t in TableView.objects.filter(id__in=ids).select_related("sector")}
    waiting = dict(
        WaitingEntryView.objects.filter(
            waiting_list__game__in={g.game for g in groups},
            status="waiting",
            checked_in=True,  # a remote entry not checked in is not here (issue 24)
            player__table__isnull=True,
        )
        .values_list("waiting_list__game")
        .annotate(n=Count("id"))
        .order_by()
    )
    for group in groups:
        group.group_tables = [found[t] for t in group.table_ids if t in found]
        group.waiting_players = waiting.get(group.game, 0)
    return groups


def balance_groups(table_ids: frozenset | None = None) -> list[BalanceGroupView]:
    """Every balance group, or those with a table among ``table_ids`` (a jefe's:
    his sectors' tables), each with its tables and waiting players loaded."""
    groups = list(BalanceGroupView.objects.all())
    if table_ids is not None:
        ours = {str(t) for t in table_ids}
        groups = [g for g in groups if ours & set(g.table_ids)]
    return _with_tables(groups)


def balance_group(group_id: Any) -> BalanceGroupView:
    """One balance group with its tables and waiting players (a command's
    answer); 404 when there is none."""
    return _with_tables([get_object_or_404(BalanceGroupView, id=group_id)])[0]


def all_balance_groups() -> list[BalanceGroupView]:
    """Every balance group as stored, nothing loaded with it: the console reads
    their table ids and change requests."""
    return list(BalanceGroupView.objects.all())


def proposing_groups() -> list[BalanceGroupView]:
    """The balance groups with a move proposed (the console's proposals)."""
    return list(BalanceGroupView.objects.exclude(proposal=None))


def must_move_place(table_id: Any, player_id: Any) -> dict[str, Any] | None:
    """Where a player seated at a must-move table stands in the line to its
    main table (floor.domain.must_move), for the player's page: the main
    table's number and their place in arrival order; None at another table."""
    key = str(table_id)
    group = BalanceGroupView.objects.filter(must_move__has_key=key).first()
    if group is None:
        return None
    main = TableView.objects.filter(id=group.must_move[key]).values_list("number", flat=True)
    seats = [
        must_move.FeederSeat(s.seat, s.player_id.hex, s.arrival, bool(s.away))
        for s in SeatView.objects.filter(table_id=table_id)
    ]
    order = [s.player_id for s in must_move.arrival_order(seats)]
    hex_id = UUID(str(player_id)).hex
    if hex_id not in order or not main:
        return None
    return {"main": main[0], "place": order.index(hex_id) + 1}
