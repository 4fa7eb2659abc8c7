"""The balance groups (RULES.md section 7): each game's tables across the
sectors, loaded with what the API shows of them in a fixed number of queries."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.shortcuts import get_object_or_404

from floor.models import BalanceGroupView, TableView, WaitingEntryView


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
