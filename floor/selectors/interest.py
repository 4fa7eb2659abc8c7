"""The games players asked for that no table plays (issue 24, item 4).

A player may register for any game the profile allows, running or not
(``join_waiting_list`` checks the game, not that a table plays it): the list of
a game no open table plays is its *interest list*. Every jefe's console shows
those lists with how many players wait, and prompts the jefe to open a table
once enough of them do: at least the players a game needs to start [GA art.
23; PT 24], or more where the house says so (``WaitingListRules.
interest_prompt_players``). Opening the table then draws its seats from that
list in order, as any new table of a listed game does [CM-7, CM-8].

Only players the new table's draw would seat count (issue 24: "when enough
checked-in players want it"): the draw's own choice
(floor.domain.draws.draw_candidates, as ``draw_seats`` and the console's
table card make it) among the entries in the room. So not an entry made from
outside that the jefe has not checked in yet (issue 24, item 2): it cannot be
called to a seat. Nor a player seated at another game's table: CM-7 lets them
register for this game, but the draw passes over anyone seated anywhere, as
a call does (floor.application.seat_support.offer_seat), so until they leave
their table they would not fill the new one. They are told apart
(``elsewhere``) for the jefe to see who might come over. As on the table
card, a tournament player counts only on the dinner break, which the read
models do not keep: here never, so the prompt may come late, never early
[CM-23].
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from floor.domain.draws import ListedPlayer, draw_candidates
from floor.models import TableView, WaitingEntryView, WaitingListView
from floor.selectors.tables import OPEN
from games.profiles import RuleProfile

# The fields that name a game on a table's row and a list's.
GAME = ("variant", "limit", "minimum_cents", "maximum_cents")


@dataclass(frozen=True)
class WantedGame:
    """A game no open table plays, the players in the room waiting for it
    whom a table opened now would draw (``waiting``), those who asked from
    outside and are not here yet (``coming``: their entries, for the jefe to
    check them in as they arrive), and those in the room but seated at
    another game's table (``elsewhere``) [CM-7]."""

    waiting_list: WaitingListView
    waiting: int
    needed: int
    coming: tuple[WaitingEntryView, ...] = ()
    elsewhere: int = 0

    @property
    def ready(self) -> bool:
        """Whether enough players wait to prompt the jefe to open a table."""
        return self.waiting >= self.needed


def players_to_prompt(profile: RuleProfile) -> int:
    """How many waiting players prompt the jefe: the house's figure, never
    fewer than a game needs to start [GA art. 23; PT 24]."""
    house = profile.waiting_list.interest_prompt_players or 0
    return max(profile.min_players, house)


def free_to_draw(entries: list[WaitingEntryView]) -> int:
    """How many of a list's entries in the room (in list order) the draw of a
    new table would seat: the draw's own choice [CM-8, CM-14, CM-23]."""
    return len(
        draw_candidates(
            [
                ListedPlayer(
                    player_id=e.player.id.hex,
                    barred=e.player.barred,
                    seated=e.player.table_id is not None,
                    in_tournament=e.player.in_tournament,
                    kept_apart=frozenset(e.player.kept_apart),
                )
                for e in entries
            ],
            on_break=False,
        )
    )


def wanted_games(profile: RuleProfile) -> list[WantedGame]:
    """The interest lists with someone waiting, in the room or coming, those
    that may open a table first, then by how many wait (three queries,
    whatever the log's length)."""
    playing = set(TableView.objects.filter(status__in=OPEN).order_by().values_list(*GAME))
    listed = Count("entries", filter=Q(entries__status="waiting"))
    lists = WaitingListView.objects.annotate(listed=listed).filter(listed__gt=0).order_by()
    asked = [f for f in lists if tuple(getattr(f, field) for field in GAME) not in playing]
    here: dict = {}
    coming: dict = {}
    waiting = WaitingEntryView.objects.filter(
        waiting_list__in=[f.id for f in asked], status="waiting"
    )
    for entry in waiting.select_related("player").order_by("position"):
        (here if entry.checked_in else coming).setdefault(entry.waiting_list_id, []).append(entry)
    needed = players_to_prompt(profile)
    wanted = []
    for listed in asked:
        in_room = here.get(listed.id, [])
        wanted.append(
            WantedGame(
                listed,
                free_to_draw(in_room),
                needed,
                tuple(coming.get(listed.id, ())),
                elsewhere=sum(e.player.table_id is not None for e in in_room),
            )
        )
    return sorted(wanted, key=lambda w: (not w.ready, -w.waiting, w.waiting_list.game))


def wanted_game(profile: RuleProfile, list_id: object) -> WantedGame | None:
    """One interest list by its id, or None (not one, or its game is played)."""
    return next((w for w in wanted_games(profile) if str(w.waiting_list.id) == str(list_id)), None)
