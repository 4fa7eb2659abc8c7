"""Joining a table and moving at it: a player seated from the list [PT 12; CM-3,
CM-5, CM-13, CM-17], seat changes asked, offered and made, and chips bought at
the table [CM-2; PT 28].
"""

from __future__ import annotations

from datetime import datetime

from floor.application.seat_support import SeatSupport
from floor.domain.player import Player
from floor.domain.table import Table
from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command, current_command
from floor.kernel.roles import JEFE, TABLE_REPORTERS, Actor
from floor.kernel.service import Decision, Outcome

# How a buy-in the table takes is paid; one paid at the cage is the cage's.
TABLE_PAYMENTS = ("cash", "chips")


class JoiningCommands(SeatSupport):
    def _check_reseat_cooldown(self, player: Player, table: Table) -> None:
        """A player who left a table sits at another of the same game without
        the draw only once the cool-down has passed [CM-13]."""
        cooldown = self.profile.table_moves.reseat_cooldown
        left = player.last_left
        if cooldown is None or left is None or left["game"] != table.game.key:
            return
        if left["table_id"] == table.id.hex:
            return
        until = datetime.fromisoformat(left["at"]) + cooldown
        if self.now() < until:
            raise conflict("reseat_cooldown", until=until.isoformat())

    @command(roles=JEFE, scope="table")
    def seat_player(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        player: str,
        seat: int | None = None,
        post_big_blind: bool = False,
        leave_other_lists: bool = False,
    ) -> Outcome:
        """A player takes a vacant seat: a seated player who asked to change seat
        first, then the list in order [PT 12; CM-5]. While the draw is open the
        seat is drawn among the free ones [CM-3]. A newcomer posts the big blind
        or waits for it [CM-17]."""
        payload = {
            "table_id": str(table_id),
            "player": player,
            "seat": seat,
            "post_big_blind": post_big_blind,
            "leave_other_lists": leave_other_lists,
        }

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            found.check_may_play()
            found.check_not_seated()
            table.check_not_closed()
            waiting = self.waiting_list(table.game)
            drawn_from = None
            if seat is None:
                if not table.free_seats():
                    raise conflict("table_full")
                if not table.draw_open:
                    raise invalid("seat_required")
                # Seats offered to a called player are not in the draw [CM-6].
                held = waiting.seats_called(table.id, but_for=found.id) if waiting else {}
                drawn_from = [s for s in table.free_seats() if s not in held] or table.free_seats()
                chosen = self.random.choice(drawn_from)
            else:
                chosen = table.check_seat_number(seat)
                if table.draw_open:
                    raise conflict("seat_is_drawn")
            table.check_seat_free(chosen)
            table.check_seat_change_first(chosen)
            if drawn_from is None:
                self._check_reseat_cooldown(found, table)
            if waiting is not None:
                waiting.check_turn(found.id, table.id, chosen)
            self.check_may_sit(found, table)
            table.seat_player(
                found.id,
                chosen,
                posts_big_blind=bool(post_big_blind),
                drawn_from=drawn_from,
                time_due=table.owes_on_joining(self.profile, self.now()),
            )
            found.take_seat(table.id, chosen, table.game.key)
            keys = list(found.waiting_lists) if leave_other_lists else []
            if table.game.key not in keys:
                keys.append(table.game.key)
            changed = [table, found, *self._leave_lists(found, keys, "seated")]
            changed += self._suspend_or_resume(table)
            changed += self.rebalance(table.game)
            return changed, {
                "table_id": str(table.id),
                "seat": chosen,
                "player_id": str(found.id),
                "status": table.status,
            }

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE, scope="table")
    def request_seat_change(
        self, actor: Actor, command_id: str, *, table_id: str, player: str
    ) -> Outcome:
        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            table.request_seat_change(found.id)
            return [table], {"table_id": str(table.id), "player_id": str(found.id)}

        payload = {"table_id": str(table_id), "player": player}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE, scope="table")
    def withdraw_seat_change(
        self, actor: Actor, command_id: str, *, table_id: str, player: str
    ) -> Outcome:
        """The player keeps their seat after all: the list comes next again."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            table.withdraw_seat_change(found.id)
            return [table], {"table_id": str(table.id), "player_id": str(found.id)}

        payload = {"table_id": str(table_id), "player": player}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE, scope="table")
    def call_next(self, actor: Actor, command_id: str, *, table_id: str, seat: int) -> Outcome:
        """Offers a free seat: to a seated player who asked to change seat, or
        to the first on the list, who is called [PT 12; CM-5, CM-6]."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            table.check_not_closed()
            free = table.check_seat_number(seat)
            table.check_seat_free(free)
            waiting = self.waiting_list(table.game)
            if waiting is not None and free in waiting.seats_called(table.id):
                raise conflict("seat_already_offered")
            changed, offer = self._offer_seat(table, free)
            if offer is None:
                raise conflict("nobody_to_call")
            return changed, {"table_id": str(table.id), "seat": free, "offered": offer}

        payload = {"table_id": str(table_id), "seat": seat}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE, scope="table")
    def change_seat(
        self, actor: Actor, command_id: str, *, table_id: str, player: str, seat: int
    ) -> Outcome:
        """A seated player moves to a free seat of the same table, between hands."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            new_seat = table.check_seat_number(seat)
            waiting = self.waiting_list(table.game)
            held = waiting.seats_called(table.id) if waiting else {}
            if new_seat in held:
                raise conflict("waiting_list_first", reservation=held[new_seat])
            old = table.change_seat(found.id, new_seat)
            found.move_seat(table.id, new_seat)
            changed, offer = self._offer_seat(table, old)
            return [table, found, *changed], {
                "table_id": str(table.id),
                "seat": new_seat,
                "freed_seat": old,
                "offered": offer,
            }

        payload = {"table_id": str(table_id), "player": player, "seat": seat}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=TABLE_REPORTERS, scope="table")
    def buy_in(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        player: str,
        amount_cents: int,
        paid_with: str = "cash",
    ) -> Outcome:
        """Chips bought at the table between hands, within the limits [CM-2; PT
        28], paid in cash at the table (chips from its tray) or with the
        player's own chips; the ledger books it from the event. A buy-in paid
        at the cage is the cage's command (ledger.application.cage)."""

        def decide() -> Decision:
            if paid_with not in TABLE_PAYMENTS:
                raise invalid("paid_with_invalid", choices=list(TABLE_PAYMENTS))
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            stack = table.buy_in(
                found.id,
                amount_cents,
                table_average=self.profile.seating.newcomer_stack_is_table_average,
                rules=self.profile.buy_in,
                paid_with=paid_with,
            )
            return [table], {"table_id": str(table.id), "stack_cents": stack}

        payload = {"table_id": str(table_id), "player": player, "amount_cents": amount_cents}
        if paid_with != "cash":  # a cash buy-in keeps the fingerprint it always had
            payload["paid_with"] = paid_with
        return self.execute(current_command(), actor, command_id, payload, decide)
