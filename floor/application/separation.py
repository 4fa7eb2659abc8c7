"""Who may not sit where: two players the jefe keeps apart [CM-14], and
tournament players, kept off the cash tables but on the tournament's dinner
break [CM-23]. The seating and balancing commands respect both
(floor.application.groups ``check_may_sit``, floor.application.balancing).
"""

from __future__ import annotations

from floor.application.balancing import checked_reason
from floor.application.players import player as find_player
from floor.domain.tournament import TOURNAMENT_ID, Tournament
from floor.kernel.errors import invalid
from floor.kernel.registry import command
from floor.kernel.roles import JEFE, JEFE_OR_DIRECTOR
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork


# Who may not sit where [CM-14, CM-23]: the jefe's or the director's.
@command(roles=JEFE_OR_DIRECTOR)
def keep_apart(work: UnitOfWork, *, player: str, other: str, reason: str) -> Decision:
    """The jefe keeps two players from the same table [CM-14]."""
    why = checked_reason(reason)
    first, second = find_player(work, player), find_player(work, other)
    first.keep_apart_from(second.id, why)
    second.keep_apart_from(first.id, why)
    together = (
        first.seated_at is not None
        and second.seated_at is not None
        and first.seated_at["table_id"] == second.seated_at["table_id"]
    )
    return [first, second], {
        "player_id": str(first.id),
        "other_id": str(second.id),
        # Already at one table: the jefe moves one of them.
        "same_table_now": together,
    }


@command(roles=JEFE_OR_DIRECTOR)
def allow_together(work: UnitOfWork, *, player: str, other: str) -> Decision:
    first, second = find_player(work, player), find_player(work, other)
    first.allow_together(second.id)
    second.allow_together(first.id)
    return [first, second], {"player_id": str(first.id), "other_id": str(second.id)}


@command(roles=JEFE)
def enter_tournament(work: UnitOfWork, *, player: str) -> Decision:
    """The player plays the tournament: no cash table but on its dinner break [CM-23]."""
    found = find_player(work, player)
    found.enter_tournament()
    return [found], {"player_id": str(found.id), "seated": found.seated_at is not None}


@command(roles=JEFE)
def leave_tournament(work: UnitOfWork, *, player: str) -> Decision:
    found = find_player(work, player)
    found.leave_tournament()
    return [found], {"player_id": str(found.id)}


@command(roles=JEFE_OR_DIRECTOR)
def set_dinner_break(work: UnitOfWork, *, on: bool) -> Decision:
    """The tournament's dinner break starts or ends [CM-23]."""
    if not isinstance(on, bool):
        raise invalid("invalid_input")
    tournament = work.find(Tournament, TOURNAMENT_ID) or Tournament.create()
    tournament.set_dinner_break(on)
    return [tournament], {"dinner_break": tournament.dinner_break}
