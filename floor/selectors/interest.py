"""The games players asked for that no table plays (issue 24, item 4).

A player may register for any game the profile allows, running or not
(``join_waiting_list`` checks the game, not that a table plays it): the list of
a game no open table plays is its *interest list*. Every jefe's console shows
those lists with how many players wait, and prompts the jefe to open a table
once enough of them do: at least the players a game needs to start [GA art.
23; PT 24], or more where the house says so (``WaitingListRules.
interest_prompt_players``). Opening the table then draws its seats from that
list in order, as any new table of a listed game does [CM-7, CM-8].

Only players who are in the room count: an entry made from outside that the
jefe has not checked in yet (issue 24, item 2) cannot be called to a seat, so
it cannot fill a table either.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from floor.models import TableView, WaitingEntryView, WaitingListView
from floor.selectors.tables import OPEN
from games.profiles import RuleProfile

# The fields that name a game on a table's row and a list's.
GAME = ("variant", "limit", "minimum_cents", "maximum_cents")


@dataclass(frozen=True)
class WantedGame:
    """A game no open table plays, the players in the room waiting for it,
    and those who asked from outside and are not here yet (``coming``: their
    entries, for the jefe to check them in as they arrive)."""

    waiting_list: WaitingListView
    waiting: int
    needed: int
    coming: tuple[WaitingEntryView, ...] = ()

    @property
    def ready(self) -> bool:
        """Whether enough players wait to prompt the jefe to open a table."""
        return self.waiting >= self.needed


def players_to_prompt(profile: RuleProfile) -> int:
    """How many waiting players prompt the jefe: the house's figure, never
    fewer than a game needs to start [GA art. 23; PT 24]."""
    house = profile.waiting_list.interest_prompt_players or 0
    return max(profile.min_players, house)


def wanted_games(profile: RuleProfile) -> list[WantedGame]:
    """The interest lists with someone waiting, in the room or coming, those
    that may open a table first, then by how many wait (three queries,
    whatever the log's length)."""
    playing = set(TableView.objects.filter(status__in=OPEN).order_by().values_list(*GAME))
    waiting = Q(entries__status="waiting")
    lists = (
        WaitingListView.objects.annotate(
            waiting=Count("entries", filter=waiting & Q(entries__checked_in=True)),
            listed=Count("entries", filter=waiting),
        )
        .filter(listed__gt=0)
        .order_by()
    )
    asked = [f for f in lists if tuple(getattr(f, field) for field in GAME) not in playing]
    coming: dict = {}
    outside = WaitingEntryView.objects.filter(
        waiting_list__in=[f.id for f in asked], status="waiting", checked_in=False
    )
    for entry in outside.select_related("player").order_by("position"):
        coming.setdefault(entry.waiting_list_id, []).append(entry)
    needed = players_to_prompt(profile)
    wanted = [WantedGame(f, f.waiting, needed, tuple(coming.get(f.id, ()))) for f in asked]
    return sorted(wanted, key=lambda w: (not w.ready, -w.waiting, w.waiting_list.game))


def wanted_game(profile: RuleProfile, list_id: object) -> WantedGame | None:
    """One interest list by its id, or None (not one, or its game is played)."""
    return next((w for w in wanted_games(profile) if str(w.waiting_list.id) == str(list_id)), None)
