"""A player acting for themselves: their own entries, nothing else (issue 24).

A player signs in from their phone as a Django user named after their card
(``player_username``; the "player" group makes them Role.PLAYER, and a player
user holds no other group). A command they issue passes the policy
``PlayerSelf`` (declared to the room as "player_self",
floor.kernel.composition): it may name only the actor's own player (the
payload's ``player``, by card or id), and its decision may change only that
player and the waiting lists; anything else is ``forbidden("not_your_player")``.
Which commands a player may issue at all is said with each command's roles
(floor.kernel.registry). Staff roles are unaffected.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from floor.domain.player import Player
from floor.domain.waiting_list import WaitingList
from floor.kernel.composition import ROOM, CommandPolicy
from floor.kernel.errors import DomainError, forbidden
from floor.kernel.registry import CommandSpec
from floor.kernel.roles import Actor, Role
from floor.kernel.unit_of_work import UnitOfWork

USERNAME_PREFIX = "player-"


def player_username(card_number: str) -> str:
    """The Django username of a player's sign-in: their card, cleaned."""
    return USERNAME_PREFIX + Player.clean_card_number(card_number)


def card_of(username: str) -> str | None:
    """The card number a player's username names, or None for any other name."""
    if not isinstance(username, str) or not username.startswith(USERNAME_PREFIX):
        return None
    try:
        return Player.clean_card_number(username[len(USERNAME_PREFIX) :])
    except DomainError:
        return None


def own_player_id(username: str) -> UUID:
    """The id of the player ``username`` signs in as, or the refusal."""
    card = card_of(username)
    if card is None:
        raise forbidden("not_your_player")
    return Player.create_id(card)


def names_player(ref: object, player_id: UUID) -> bool:
    """Whether ``ref`` (a player's id or card, as a payload gives it) names
    the player ``player_id``."""
    if ref is None:
        return False
    try:
        return UUID(str(ref)) == player_id
    except ValueError:
        pass
    try:
        return Player.create_id(str(ref)) == player_id
    except DomainError:
        return False


class PlayerSelf(CommandPolicy):
    """A command issued under Role.PLAYER names and changes only the actor's
    own player (and the waiting lists): checked on the payload before the
    decision, then on what the decision changed."""

    def choose_role(
        self, work: UnitOfWork, actor: Actor, spec: CommandSpec, payload: dict[str, Any]
    ) -> Role | None:
        if spec.role_for(actor) != Role.PLAYER:
            return None  # staff: no opinion
        if not names_player(payload.get("player"), own_player_id(actor.username)):
            raise forbidden("not_your_player")
        return Role.PLAYER

    def check_changed(
        self,
        work: UnitOfWork,
        actor: Actor,
        spec: CommandSpec,
        role: Any,
        changed: Sequence[Aggregate],
    ) -> None:
        if role != Role.PLAYER:
            return
        own = own_player_id(actor.username)
        for aggregate in changed:
            if isinstance(aggregate, WaitingList):
                continue
            if isinstance(aggregate, Player) and aggregate.id == own:
                continue
            raise forbidden("not_your_player")


ROOM.add_policy("player_self", PlayerSelf())
