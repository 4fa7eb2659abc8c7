"""Leaving: a player leaves a table with their stack [PT 12, 24; CM-5], and the
jefe closes a table, its players' stacks staying theirs.
"""

from __future__ import annotations

from uuid import UUID

from floor.application.seat_support import SeatSupport
from floor.domain.table import CLOSING_REASONS, LEAVING_REASONS, Table
from floor.kernel.errors import invalid
from floor.kernel.registry import command, current_command
from floor.kernel.roles import JEFE, Actor
from floor.kernel.service import Decision, Outcome


class LeavingCommands(SeatSupport):
    @command(roles=JEFE, scope="table")
    def leave_table(
        self, actor: Actor, command_id: str, *, table_id: str, player: str, reason: str = "left"
    ) -> Outcome:
        """The player leaves with their stack; the seat is offered [PT 12; CM-5];
        below four players the table is suspended [PT 24]."""
        payload = {"table_id": str(table_id), "player": player, "reason": reason}

        def decide() -> Decision:
            if reason not in LEAVING_REASONS:
                raise invalid("reason_invalid")
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            seat, stack = table.remove_player(found.id, reason)
            found.leave_seat(table.id, table.game.key, reason, self.now())
            closed = self._suspend_or_resume(table)
            changed, offer = self._offer_seat(table, seat) if not closed else ([], None)
            changed += self._left_group(table, found)
            return [table, found, *closed, *changed], {
                "table_id": str(table.id),
                "seat": seat,
                "stack_cents": stack,
                "status": table.status,
                "offered": offer,
            }

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE, scope="table")
    def close_table(
        self, actor: Actor, command_id: str, *, table_id: str, reason: str = "closed_by_jefe"
    ) -> Outcome:
        """Closes a table; its players' stacks stay theirs (the cage pays them)."""
        payload = {"table_id": str(table_id), "reason": reason}

        def decide() -> Decision:
            if reason not in CLOSING_REASONS:
                raise invalid("reason_invalid")
            table = self.load(Table, table_id, "table")
            stacks = {str(UUID(s["player_id"])): s["stack"] for s in table.occupants.values()}
            changed = self.close_players_out(table, reason)
            return changed, {"table_id": str(table.id), "stacks": stacks}

        return self.execute(current_command(), actor, command_id, payload, decide)
