"""Players, the games' waiting lists, and the staff the floor names."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Max, Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from floor.domain.player import Player
from floor.models import EventJournalEntry, PlayerView, SeatView, WaitingEntryView, WaitingListView
from floor.selectors.journal import topics_of

# The API's player list answers at most this many.
PLAYERS_LISTED = 500


def players(card: str | None = None) -> QuerySet[PlayerView]:
    """The players by card number, or the one holding ``card`` (card numbers
    are stored upper case): the API's player list, at most ``PLAYERS_LISTED``."""
    found = PlayerView.objects.all()
    if card is not None:
        found = found.filter(card_number=card.strip().upper())
    return found[:PLAYERS_LISTED]


def player(player_id: Any) -> PlayerView:
    """One player, for the API; 404 when there is none."""
    return get_object_or_404(PlayerView, id=player_id)


def player_by_card(card: str) -> PlayerView | None:
    """The player holding ``card``, exact first, then ignoring case, with the
    table they sit at: the cage's console finds players so."""
    found = PlayerView.objects.select_related("table__sector")
    return found.filter(card_number=card).first() or found.filter(card_number__iexact=card).first()


def is_barred(card: str) -> bool:
    """Whether the player holding ``card`` (as cleaned: upper case) is barred
    now, as the read model says; the bar's command waits for it
    (floor.kernel.web.gateway)."""
    return PlayerView.objects.filter(card_number=card, barred=True).exists()


def last_barred_at(card: str) -> datetime | None:
    """When the player holding ``card`` was last barred (the journal's
    Player.Barred, by the floor's clock), None if never."""
    return EventJournalEntry.objects.filter(
        originator_id=Player.create_id(card), topic__in=topics_of([Player.Barred])
    ).aggregate(at=Max("occurred_at"))["at"]


def players_by_id(player_ids: Any) -> dict[Any, PlayerView]:
    """The players of ``player_ids`` (those that exist) by id, to name them."""
    return {p.id: p for p in PlayerView.objects.filter(id__in=player_ids)}


def seat_of(player_id: Any) -> SeatView | None:
    """Where a player sits (the seat, its table and sector), or None: the cage's console."""
    return SeatView.objects.filter(player_id=player_id).select_related("table__sector").first()


def waiting_lists() -> QuerySet[WaitingListView]:
    """Every game's list with its entries and their players: the API's lists."""
    entries = WaitingEntryView.objects.select_related("player")
    return WaitingListView.objects.prefetch_related(Prefetch("entries", queryset=entries))


def waiting_list(list_id: Any) -> WaitingListView:
    """One game's list with its entries and players (the API); 404 when there is none."""
    return get_object_or_404(waiting_lists(), id=list_id)


def unseated_lists() -> QuerySet[WaitingListView]:
    """Every game's list with the entries not yet seated and their players:
    the jefe's console shows those of his sector's games."""
    entries = WaitingEntryView.objects.select_related("player").exclude(status="seated")
    return WaitingListView.objects.prefetch_related(Prefetch("entries", queryset=entries))


def board_lists() -> QuerySet[WaitingListView]:
    """Every game's list with its entries (no players: the public board names no one)."""
    return WaitingListView.objects.prefetch_related("entries")


def is_staff_member(username: str, role: str) -> bool:
    """Whether an active user called ``username`` holds ``role`` (a floor
    group): a sector's jefes and a table's dealer are named so."""
    users = get_user_model().objects.filter(is_active=True, groups__name=role)
    return users.filter(username=username).exists()


def staff_members(role: str) -> list[str]:
    """The usernames of the active users holding ``role`` (a floor group),
    sorted: whom the director may name a sector's jefe, the jefe a dealer."""
    users = get_user_model().objects.filter(is_active=True, groups__name=role)
    return sorted(users.values_list("username", flat=True).distinct())


def find_player(player_id: Any) -> PlayerView | None:
    """One player, or None when there is none (a balancing proposal names one)."""
    return PlayerView.objects.filter(id=player_id).first()


def entries_of(player_id: Any) -> list[WaitingEntryView]:
    """One player's own list entries with their lists, seated ones left out:
    the player's page shows these and no one else's (issue 24)."""
    return list(
        WaitingEntryView.objects.filter(player_id=player_id)
        .exclude(status="seated")
        .select_related("waiting_list")
        .order_by("registered_at", "id")
    )


def listed_games() -> QuerySet[WaitingListView]:
    """The games someone in the room waits for (checked in): those a player
    may join from the page without a table running. Not every list ever
    opened: a game asked for from a phone alone is offered to nobody else
    (issue 24, cross review: any player could otherwise put any stakes on
    everyone's page)."""
    waiting = WaitingEntryView.objects.filter(status="waiting", checked_in=True)
    return WaitingListView.objects.filter(id__in=waiting.values("waiting_list_id")).distinct()
