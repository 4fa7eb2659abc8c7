"""Who may not sit where: two players the jefe keeps apart [CM-14], and
tournament players, kept off the cash tables but on the tournament's dinner
break [CM-23]. The seating and balancing commands respect both
(floor.application.groups ``check_may_sit``, floor.application.balancing).
"""

from __future__ import annotations

from floor.application.balancing import checked_reason
from floor.application.players import PlayerCommands
from floor.domain.tournament import TOURNAMENT_ID, Tournament
from floor.kernel.errors import invalid
from floor.kernel.registry import command, current_command
from floor.kernel.roles import JEFE, JEFE_OR_DIRECTOR, Actor
from floor.kernel.service import Decision, Outcome


class SeparationCommands(PlayerCommands):
    # Who may not sit where [CM-14, CM-23]: the jefe's or the director's.
    @command(roles=JEFE_OR_DIRECTOR)
    def keep_apart(
        self, actor: Actor, command_id: str, *, player: str, other: str, reason: str
    ) -> Outcome:
        """The jefe keeps two players from the same table [CM-14]."""

        def decide() -> Decision:
            why = checked_reason(reason)
            first, second = self.player(player), self.player(other)
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

        payload = {"player": player, "other": other, "reason": reason}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE_OR_DIRECTOR)
    def allow_together(self, actor: Actor, command_id: str, *, player: str, other: str) -> Outcome:
        def decide() -> Decision:
            first, second = self.player(player), self.player(other)
            first.allow_together(second.id)
            second.allow_together(first.id)
            return [first, second], {"player_id": str(first.id), "other_id": str(second.id)}

        payload = {"player": player, "other": other}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE)
    def enter_tournament(self, actor: Actor, command_id: str, *, player: str) -> Outcome:
        """The player plays the tournament: no cash table but on its dinner break [CM-23]."""

        def decide() -> Decision:
            found = self.player(player)
            found.enter_tournament()
            return [found], {"player_id": str(found.id), "seated": found.seated_at is not None}

        return self.execute(current_command(), actor, command_id, {"player": player}, decide)

    @command(roles=JEFE)
    def leave_tournament(self, actor: Actor, command_id: str, *, player: str) -> Outcome:
        def decide() -> Decision:
            found = self.player(player)
            found.leave_tournament()
            return [found], {"player_id": str(found.id)}

        return self.execute(current_command(), actor, command_id, {"player": player}, decide)

    @command(roles=JEFE_OR_DIRECTOR)
    def set_dinner_break(self, actor: Actor, command_id: str, *, on: bool) -> Outcome:
        """The tournament's dinner break starts or ends [CM-23]."""

        def decide() -> Decision:
            if not isinstance(on, bool):
                raise invalid("invalid_input")
            tournament = self.find(Tournament, TOURNAMENT_ID) or Tournament.create()
            tournament.set_dinner_break(on)
            return [tournament], {"dinner_break": tournament.dinner_break}

        return self.execute(current_command(), actor, command_id, {"on": on}, decide)
