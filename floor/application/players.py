"""Player commands: register a player, bar them, put them on a game's list.

The lookups every floor command shares live here too: a player by id or card
(``player``), the game a table or its terms name (``game_for``), a game's list
(``waiting_list``).
"""

from __future__ import annotations

from uuid import UUID

from floor.application import exclusion_gate
from floor.domain.game import Game
from floor.domain.player import ERASED_RETENTION_ENDED, Player
from floor.domain.table import Table
from floor.domain.table_spec import check_game
from floor.domain.waiting_list import WaitingList
from floor.kernel.context import current_context
from floor.kernel.errors import conflict, not_found
from floor.kernel.registry import command
from floor.kernel.roles import JEFE_OR_DIRECTOR, Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork

# --- lookups shared by the floor's commands ------------------------------------------


def player(work: UnitOfWork, ref: object) -> Player:
    """A player by id or by card number."""
    try:
        player_id = UUID(str(ref))
    except ValueError:
        player_id = Player.create_id(str(ref))
    found = work.find(Player, player_id)
    if found is None:
        raise not_found("player_not_found", player=str(ref)[:40])
    return found


# The name the commands call it by: their argument ``player`` (the reference
# the client gave) hides the function.
find_player = player


def game_for(work: UnitOfWork, *, table_id: object = None, **game: object) -> Game:
    """The game named by a table, or by its variant, limit and stakes."""
    if table_id is not None:
        return work.load(Table, table_id, "table").game
    return check_game(
        game.get("variant"),
        game.get("limit"),
        game.get("minimum_cents"),
        game.get("maximum_cents"),
        work.profile,
    )


def waiting_list(work: UnitOfWork, game: Game) -> WaitingList | None:
    """The list of ``game``, if anyone ever registered for it."""
    return work.find(WaitingList, game.waiting_list_id)


# The most lists a player may be on when joining one from outside (issue 24):
# several games at once, not every stake of the room.
MAX_LISTS_FROM_OUTSIDE = 4

# --- commands ------------------------------------------------------------------------


# The jefe or the cage registers players; barring is the jefe's or the director's.
@command(roles=(Role.JEFE_SECTOR, Role.CAJERO))
def register_player(work: UnitOfWork, *, card_number: str, display_name: str) -> Decision:
    """A player record: card number and display name, nothing more."""
    registered = Player.register(card_number, display_name)
    if work.find(Player, registered.id) is not None:
        raise conflict("player_exists", card_number=registered.card_number)
    # The exclusion lists (issue 25, item 2): a card whose patron's document
    # was kept (erased identities aside, a new card has none yet) is checked.
    exclusion_gate.admit(work, registered, exclusion_gate.REGISTRATION)
    return [registered], {
        "player_id": str(registered.id),
        "card_number": registered.card_number,
    }


@command(roles=JEFE_OR_DIRECTOR)
def bar_player(work: UnitOfWork, *, player: str, reason: str) -> Decision:
    """Barred players may not register for a game or sit."""
    found = find_player(work, player)
    found.bar(reason)
    changed: list = [found]
    for key in found.waiting_lists:
        waiting = waiting_list(work, Game.from_key(key))
        if waiting is not None and waiting.entry_of(found.id) is not None:
            waiting.remove(found.id, "barred")
            changed.append(waiting)
        found.left_list(key)
    return changed, {"player_id": str(found.id)}


@command(roles=JEFE_OR_DIRECTOR)
def lift_bar(work: UnitOfWork, *, player: str) -> Decision:
    found = find_player(work, player)
    found.lift_bar()
    return [found], {"player_id": str(found.id)}


def acting_as_player() -> bool:
    """Whether the command runs under Role.PLAYER: the player, from their
    phone, rather than the staff at the desk (issue 24)."""
    return current_context().actor_role == Role.PLAYER


# Who may change how a player is told of a call (issue 24, item 3): the jefe
# or the cage, who register players, and the player themself (only their own:
# floor.application.player_self).
@command(roles=(Role.JEFE_SECTOR, Role.CAJERO, Role.PLAYER))
def change_contact_preference(work: UnitOfWork, *, player: str, channel: str) -> Decision:
    """Records that the player's contact preference changed and the channel
    they chose (none, email, sms), with its actor. The address or number is
    personal data, kept outside the log by the caller
    (floor.notifications.contacts.change_contact), never in the event nor
    in the command's fingerprint."""
    found = find_player(work, player)
    found.change_contact_preference(channel)
    return [found], {"player_id": str(found.id), "channel": channel}


# Who identifies a patron (issue 25, item 1; Ley 10/2010 art. 7.5): the cage,
# where the thresholds fall, the jefe at the room's door, and the director.
@command(roles=(Role.CAJERO, Role.JEFE_SECTOR, Role.DIRECTOR))
def record_identity(work: UnitOfWork, *, player: str, document_type: str, country: str) -> Decision:
    """Records that the patron was identified with a document of this kind and
    country, with its actor. The document's number, the name and the birth
    date are personal data, checked and kept outside the log by the caller
    (floor.compliance.identity.record_identity), never in the event nor in the
    command's fingerprint."""
    found = find_player(work, player)
    found.record_identity(document_type, country)
    return [found], {
        "player_id": str(found.id),
        "document_type": document_type,
        "country": country,
    }


# Erasure is the director's (issue 25, item 4): the data controller's decision.
@command(roles=(Role.DIRECTOR,))
def erase_identity(work: UnitOfWork, *, player: str, reason: str) -> Decision:
    """Records that the patron's identity data was erased and why
    (``retention_ended``, ``recorded_in_error``); the caller checks that the
    law no longer requires the document before it calls with
    ``retention_ended`` [Ley 10/2010 art. 25; Lei 83/2017 art. 51], and
    deletes the row (floor.compliance.identity.erase_identity). The event
    holds the reason's code and no data."""
    found = find_player(work, player)
    found.erase_identity(reason)
    return [found], {"player_id": str(found.id), "reason": reason}


# The retention purge is the service's own (issue 25, item 4): the clock,
# once a patron's retention period ended (floor.compliance.retention).
@command(roles=(Role.CLOCK,))
def purge_identity(work: UnitOfWork, *, player: str) -> Decision:
    """Records that the patron's identity data was erased because its
    retention period ended [ES: Ley 10/2010 art. 25; PT: Lei 83/2017 art.
    51; the profile's ``retention``]: the same event as the director's
    erasure (``IdentityErased``, no data), under the clock's name. The
    caller decides the period ended and deletes the row; a self-excluded
    patron is refused (``patron_self_excluded``: the house list needs the
    document while the exclusion is in force)."""
    found = find_player(work, player)
    found.erase_identity(ERASED_RETENTION_ENDED)
    return [found], {"player_id": str(found.id)}


# The jefe keeps the list and assigns seats [GA art. 19.1]; a player may put
# themselves on it from outside the room (issue 24), only themselves
# (floor.application.player_self).
@command(roles=(Role.JEFE_SECTOR, Role.PLAYER))
def join_waiting_list(work: UnitOfWork, *, player: str, **game: object) -> Decision:
    """Registers a player for a game: last on its list, with a reservation
    number; registering again puts the player last [CM-6]. Players already
    seated may register for a different variant only [CM-7]; barred players
    never. Made by the player (Role.PLAYER) it is a remote ("called in")
    entry: not callable until the jefe checks the player in, expiring after
    the house's check-in time (issue 24), for a game with a table open only;
    a player already on the list may not register again from outside:
    re-registering is done in the room [CM-6]."""
    found = find_player(work, player)
    found.check_may_play()
    # The exclusion lists (issue 25, item 2), as at seating.
    exclusion_gate.admit(work, found, exclusion_gate.WAITING_LIST)
    wanted = game_for(work, **game)
    if found.seated_at is not None:
        table = work.load(Table, found.seated_at["table_id"], "table")
        if table.variant == wanted.variant:
            raise conflict("seated_same_variant")
    waiting = waiting_list(work, wanted) or WaitingList.open_for(wanted)
    remote = acting_as_player()
    check_in_by = None
    if remote:
        # From outside, any game the profile allows (checked above): a game
        # no table plays is an interest list, which prompts the jefe once
        # enough players are in the room (issue 24, item 4). A player keeps
        # a few lists at a time from outside, so that nobody can fill the
        # room's consoles with games asked for.
        if len(found.waiting_lists) >= MAX_LISTS_FROM_OUTSIDE:
            raise conflict("too_many_lists", most=MAX_LISTS_FROM_OUTSIDE)
        if waiting.entry_of(found.id) is not None:
            raise conflict("already_on_list")
        check_in_time = work.profile.waiting_list.remote_check_in_time
        check_in_by = work.now() + check_in_time if check_in_time else None
    reservation = waiting.register(found.id, work.now(), remote=remote, check_in_by=check_in_by)
    found.joined_list(wanted.key)
    return [waiting, found], {
        "player_id": str(found.id),
        "game": wanted.key,
        "waiting_list_id": str(waiting.id),
        "reservation": reservation,
        "position": waiting.position_of(found.id),
        "remote": remote,
    }
