"""Player commands: register a player, bar them, put them on a game's list."""

from __future__ import annotations

from uuid import UUID

from floor.domain.game import Game
from floor.domain.player import Player
from floor.domain.table import Table
from floor.domain.table_spec import check_game
from floor.domain.waiting_list import LIST_LEAVING_REASONS, WaitingList
from floor.kernel.errors import conflict, invalid, not_found
from floor.kernel.registry import command, current_command
from floor.kernel.roles import JEFE, JEFE_OR_DIRECTOR, Actor, Role
from floor.kernel.service import CommandService, Decision, Outcome


class PlayerCommands(CommandService):
    # --- lookups shared by the floor's commands ------------------------------------

    def player(self, ref: object) -> Player:
        """A player by id or by card number."""
        try:
            player_id = UUID(str(ref))
        except ValueError:
            player_id = Player.create_id(str(ref))
        player = self.find(Player, player_id)
        if player is None:
            raise not_found("player_not_found", player=str(ref)[:40])
        return player

    def game_for(self, *, table_id: object = None, **game: object) -> Game:
        """The game named by a table, or by its variant, limit and stakes."""
        if table_id is not None:
            return self.load(Table, table_id, "table").game
        return check_game(
            game.get("variant"),
            game.get("limit"),
            game.get("minimum_cents"),
            game.get("maximum_cents"),
            self.profile,
        )

    def waiting_list(self, game: Game) -> WaitingList | None:
        return self.find(WaitingList, game.waiting_list_id)

    # --- commands ------------------------------------------------------------------

    # The jefe or the cage registers players; barring is the jefe's or the director's.
    @command(roles=(Role.JEFE_SECTOR, Role.CAJERO))
    def register_player(
        self, actor: Actor, command_id: str, *, card_number: str, display_name: str
    ) -> Outcome:
        """A player record: card number and display name, nothing more."""

        def decide() -> Decision:
            player = Player.register(card_number, display_name)
            if self.find(Player, player.id) is not None:
                raise conflict("player_exists", card_number=player.card_number)
            return [player], {"player_id": str(player.id), "card_number": player.card_number}

        payload = {"card_number": card_number, "display_name": display_name}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE_OR_DIRECTOR)
    def bar_player(self, actor: Actor, command_id: str, *, player: str, reason: str) -> Outcome:
        """Barred players may not register for a game or sit."""

        def decide() -> Decision:
            found = self.player(player)
            found.bar(reason)
            changed: list = [found]
            for key in found.waiting_lists:
                waiting = self.waiting_list(Game.from_key(key))
                if waiting is not None and waiting.entry_of(found.id) is not None:
                    waiting.remove(found.id, "barred")
                    changed.append(waiting)
                found.left_list(key)
            return changed, {"player_id": str(found.id)}

        payload = {"player": player, "reason": reason}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE_OR_DIRECTOR)
    def lift_bar(self, actor: Actor, command_id: str, *, player: str) -> Outcome:
        def decide() -> Decision:
            found = self.player(player)
            found.lift_bar()
            return [found], {"player_id": str(found.id)}

        return self.execute(current_command(), actor, command_id, {"player": player}, decide)

    # The jefe keeps the list and assigns seats [GA art. 19.1].
    @command(roles=JEFE)
    def join_waiting_list(
        self, actor: Actor, command_id: str, *, player: str, **game: object
    ) -> Outcome:
        """Registers a player for a game: last on its list, with a reservation
        number; registering again puts the player last [CM-6]. Players already
        seated may register for a different variant only [CM-7]."""
        payload = {"player": player, **{k: v for k, v in game.items()}}

        def decide() -> Decision:
            found = self.player(player)
            found.check_may_play()
            wanted = self.game_for(**game)
            if found.seated_at is not None:
                table = self.load(Table, found.seated_at["table_id"], "table")
                if table.variant == wanted.variant:
                    raise conflict("seated_same_variant")
            waiting = self.waiting_list(wanted) or WaitingList.open_for(wanted)
            reservation = waiting.register(found.id, self.now())
            found.joined_list(wanted.key)
            return [waiting, found], {
                "player_id": str(found.id),
                "game": wanted.key,
                "waiting_list_id": str(waiting.id),
                "reservation": reservation,
                "position": waiting.position_of(found.id),
            }

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE)
    def leave_waiting_list(
        self, actor: Actor, command_id: str, *, player: str, **game: object
    ) -> Outcome:
        """Takes a player off a game's list (withdrawn, or absent when called [CM-6])."""
        reason = game.pop("reason", "withdrew")
        if reason not in LIST_LEAVING_REASONS:
            raise invalid("reason_invalid")
        payload = {"player": player, "reason": reason, **game}

        def decide() -> Decision:
            found = self.player(player)
            wanted = self.game_for(**game)
            waiting = self.waiting_list(wanted)
            if waiting is None or waiting.entry_of(found.id) is None:
                raise conflict("player_not_on_list")
            waiting.remove(found.id, reason)
            found.left_list(wanted.key)
            return [waiting, found], {"player_id": str(found.id), "game": wanted.key}

        return self.execute(current_command(), actor, command_id, payload, decide)
