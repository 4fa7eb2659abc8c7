"""The deadlines the floor's events record, fired when they come (RULES.md
sections 3 and 4; DESIGN.md, Time and timers).

Firing is an ordinary command of the clock actor, named after the deadline it
expects: if the state moved on (the fourth player came back, the called player
sat down), it does nothing. Its command id is the timer's own, so a timer fired
twice, by its ETA task and by the sweeper, has its effect once.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from floor.application.seating import SeatingCommands
from floor.application.service import Decision, Outcome
from floor.domain.errors import invalid
from floor.domain.roles import Actor, Role
from floor.domain.table import Table, TableStatus
from floor.domain.waiting_list import WaitingList

CLOCK_ACTOR = Actor("floor-clock", frozenset({Role.CLOCK}))


def _moment(value: object, name: str) -> datetime:
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        raise invalid("deadline_invalid", f"{name} is an ISO date and time.") from None
    if moment.tzinfo is None:
        raise invalid("deadline_invalid", f"{name} needs its time zone.")
    return moment


class ClockCommands(SeatingCommands):
    def expire_suspension(
        self, actor: Actor, command_id: str, *, table_id: str, closes_at: str
    ) -> Outcome:
        """A suspended table without four players back by ``closes_at`` closes;
        its players keep their stacks [PT 24]."""
        payload = {"table_id": str(table_id), "closes_at": str(closes_at)}

        def decide() -> Decision:
            deadline = _moment(closes_at, "closes_at")
            table = self.load(Table, table_id, "table")
            if not table.suspension_deadline_passed(deadline, self.now()):
                return [], {"fired": False, "table_id": str(table.id), "status": table.status}
            closed = self.close_players_out(table, "suspension_expired")
            return closed, {"fired": True, "table_id": str(table.id), "status": table.status}

        return self.execute("expire_suspension", actor, command_id, payload, decide)

    def expire_call(
        self,
        actor: Actor,
        command_id: str,
        *,
        waiting_list_id: str,
        player_id: str,
        ends_at: str,
    ) -> Outcome:
        """A called player who has not taken the seat by ``ends_at`` is removed
        from the list, and the next is called for the same seat [CM-6]."""
        payload = {
            "waiting_list_id": str(waiting_list_id),
            "player_id": str(player_id),
            "ends_at": str(ends_at),
        }

        def decide() -> Decision:
            deadline = _moment(ends_at, "ends_at")
            waiting = self.load(WaitingList, waiting_list_id, "waiting_list")
            player = self.player(player_id)
            call = waiting.call_lapsed(player.id, deadline, self.now())
            if call is None:
                return [], {"fired": False}
            player.left_list(waiting.game_key)
            changed: list = [waiting, player]
            offered = None
            table = self.find(Table, UUID(call["table_id"]))
            seat = call["seat"]
            if (
                table is not None
                and table.status != TableStatus.CLOSED
                and table.occupant(seat) is None
                and seat not in waiting.seats_called(table.id)
            ):
                more, offered = self._offer_seat(table, seat)
                changed += more
            return changed, {"fired": True, "removed": str(player.id), "offered": offered}

        return self.execute("expire_call", actor, command_id, payload, decide)
