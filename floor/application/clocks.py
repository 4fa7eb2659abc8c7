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
from floor.domain.table import Table, TableStatus
from floor.domain.waiting_list import WaitingList
from floor.kernel.errors import invalid
from floor.kernel.registry import command, current_command
from floor.kernel.roles import CLOCK_ONLY, TABLE_REPORTERS, Actor, Role
from floor.kernel.service import Decision, Outcome

CLOCK_ACTOR = Actor("floor-clock", frozenset({Role.CLOCK}))


def moment(value: object, name: str) -> datetime:
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        raise invalid("deadline_invalid") from None
    if moment.tzinfo is None:
        raise invalid("deadline_invalid")
    return moment


class ClockCommands(SeatingCommands):
    @command(roles=CLOCK_ONLY, scope="table")
    def expire_suspension(
        self, actor: Actor, command_id: str, *, table_id: str, closes_at: str
    ) -> Outcome:
        """A suspended table without four players back by ``closes_at`` closes;
        its players keep their stacks [PT 24]."""
        payload = {"table_id": str(table_id), "closes_at": str(closes_at)}

        def decide() -> Decision:
            deadline = moment(closes_at, "closes_at")
            table = self.load(Table, table_id, "table")
            if not table.suspension_deadline_passed(deadline, self.now()):
                return [], {"fired": False, "table_id": str(table.id), "status": table.status}
            closed = self.close_players_out(table, "suspension_expired")
            return closed, {"fired": True, "table_id": str(table.id), "status": table.status}

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=CLOCK_ONLY)
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
            deadline = moment(ends_at, "ends_at")
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

        return self.execute(current_command(), actor, command_id, payload, decide)

    # --- the action clock [CM-20 to CM-22] ---------------------------------------

    # Any player may ask; the dealer or the jefe starts the clock [CM-20].
    @command(roles=TABLE_REPORTERS, scope="table")
    def start_action_clock(
        self, actor: Actor, command_id: str, *, table_id: str, seat: int, pot_cents: int
    ) -> Outcome:
        """Puts the player in ``seat`` on the clock: two minutes with at most
        200 EUR in the pot, four with more, then one more minute [CM-21, CM-22]."""
        payload = {"table_id": str(table_id), "seat": seat, "pot_cents": pot_cents}

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            clock = table.start_action_clock(seat, pot_cents, self.now(), self.profile.action_clock)
            return [table], {"table_id": str(table.id), **clock}

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=TABLE_REPORTERS, scope="table")
    def stop_action_clock(
        self, actor: Actor, command_id: str, *, table_id: str, seat: int
    ) -> Outcome:
        """The player acted: the clock stops [CM-22]."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            table.stop_action_clock(seat)
            return [table], {"table_id": str(table.id), "seat": seat}

        payload = {"table_id": str(table_id), "seat": seat}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=CLOCK_ONLY, scope="table")
    def warn_action_clock(
        self, actor: Actor, command_id: str, *, table_id: str, extra_at: str
    ) -> Outcome:
        """The first period is over: the last minute runs [CM-22]."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            fired = table.warn_action_clock(moment(extra_at, "extra_at"), self.now())
            return ([table] if fired else []), {"fired": fired, "table_id": str(table.id)}

        payload = {"table_id": str(table_id), "extra_at": str(extra_at)}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=CLOCK_ONLY, scope="table")
    def expire_action_clock(
        self, actor: Actor, command_id: str, *, table_id: str, dead_at: str
    ) -> Outcome:
        """The last minute is over without the player acting: their hand is dead [CM-22]."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            fired = table.expire_action_clock(moment(dead_at, "dead_at"), self.now())
            return ([table] if fired else []), {"fired": fired, "table_id": str(table.id)}

        payload = {"table_id": str(table_id), "dead_at": str(dead_at)}
        return self.execute(current_command(), actor, command_id, payload, decide)
