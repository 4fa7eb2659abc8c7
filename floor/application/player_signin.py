"""The player's own sign-in, as the floor records it (issue 24, item 1).

A registered player signs in on their phone (floor.player) with their card and
a PIN, or with a one-time code the desk gave them. The secrets themselves are
the sign-in's, kept hashed with Django's password hashers outside the events:
an event is kept for good and read by every report, so it must hold no secret.
What the floor records is who did what and when, as every other act on the
floor: the desk (a jefe or the cage, who register players) gave a player a
code valid until a time; the player chose a PIN. Both are commands on the
Player aggregate, so the event names the actor, role, command and profile
like any other, and a barred player [GA art. 19.1; CM "Admisión"] gets no code.
"""

from __future__ import annotations

from datetime import timedelta

from floor.application.players import find_player
from floor.kernel.errors import invalid
from floor.kernel.registry import command
from floor.kernel.roles import PLAYER, Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork

# How long a code may be made to last, in minutes: long enough to walk to a
# table and sign in, short enough that a code seen over a shoulder goes stale.
MAX_CODE_MINUTES = 120


# The desk that registers players (jefe or cage: players.register_player) gives codes.
@command(roles=(Role.JEFE_SECTOR, Role.CAJERO))
def issue_sign_in_code(work: UnitOfWork, *, player: str, valid_minutes: int) -> Decision:
    """Records that the desk gave ``player`` a one-time sign-in code valid for
    ``valid_minutes``; the code itself is made and kept hashed by the caller."""
    if isinstance(valid_minutes, bool) or not isinstance(valid_minutes, int):
        raise invalid("code_minutes_invalid", max_minutes=MAX_CODE_MINUTES)
    if not 1 <= valid_minutes <= MAX_CODE_MINUTES:
        raise invalid("code_minutes_invalid", max_minutes=MAX_CODE_MINUTES)
    found = find_player(work, player)
    expires_at = work.now() + timedelta(minutes=valid_minutes)
    found.sign_in_code_issued(expires_at)
    return [found], {
        "player_id": str(found.id),
        "card_number": found.card_number,
        "expires_at": expires_at.isoformat(),
    }


# The player chooses their own PIN, signed in with the desk's code (PlayerSelf:
# only their own player).
@command(roles=PLAYER)
def choose_pin(work: UnitOfWork, *, player: str) -> Decision:
    """Records that the player chose a sign-in PIN (the first one, or a new
    one after a new code: a reset is a code and a PIN chosen). The PIN itself
    is kept hashed by the sign-in, never in the payload or the event."""
    found = find_player(work, player)
    found.pin_chosen()
    return [found], {"player_id": str(found.id)}


# The player says what becomes of their other lists once seated (issue 24).
@command(roles=PLAYER)
def choose_other_lists(work: UnitOfWork, *, player: str, drop: bool) -> Decision:
    """Once seated at one game, the player's other lists are kept (they may
    wait for several games, [CM-7]) or dropped: the player's own choice,
    which seating follows (Player.lists_left_on_seating) besides the jefe's."""
    if not isinstance(drop, bool):
        raise invalid("drop_invalid")
    found = find_player(work, player)
    found.choose_other_lists(drop)
    return [found], {"player_id": str(found.id), "drop": drop}
