"""The cage's commands for players and tables: chips sold and cashed out,
buy-ins paid at the cage, tips and hospitality, fills and credits. The day is
in ledger.application.gaming_days, the jackpots in ledger.application.jackpots.

Each runs through the floor's command pipeline (idempotent command ids, the
actor's role, all events or none) and books its money in ledger.application.books.
"""

from __future__ import annotations

from floor.domain.table import Table
from floor.kernel.errors import conflict
from floor.kernel.registry import command, current_command
from floor.kernel.roles import CAGE, JEFE, TABLE_REPORTERS, Actor, Role
from floor.kernel.service import Decision, Outcome
from ledger.application.common import cents, result_of
from ledger.application.jackpots import JackpotCommands
from ledger.domain import accounts
from ledger.domain.transaction import TransactionKind
from ledger.domain.tray_request import TrayMove, TrayRequest


class CageCommands(JackpotCommands):
    """The cage and the money commands of the floor."""

    # --- players' chips ------------------------------------------------------------------

    @command(roles=CAGE)
    def sell_chips(
        self, actor: Actor, command_id: str, *, player: str, amount_cents: int
    ) -> Outcome:
        """The cage sells a player chips for cash (a buy-in at the cage); the
        player takes them to a table or buys in there with them."""
        payload = {"player": player, "amount_cents": amount_cents}

        def decide() -> Decision:
            self._open_day()
            amount = cents(amount_cents)
            found = self.player(player)
            changed = self.book(
                TransactionKind.CHIPS_SOLD,
                [
                    (accounts.EXTERNAL, -amount),
                    (accounts.CAGE_CASH, amount),
                    (accounts.CAGE_CHIPS, -amount),
                    (accounts.player_chips(found.id), amount),
                ],
                reason="chips sold at the cage",
                reason_code="chips_sold",
                player_id=found.id,
            )
            return changed, result_of(changed, player_id=str(found.id))

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=CAGE, scope="table")
    def buy_in_at_cage(
        self, actor: Actor, command_id: str, *, table_id: str, player: str, amount_cents: int
    ) -> Outcome:
        """A seated player pays at the cage and the chips go to their seat:
        the cage takes the cash and gives the chips, within the table's
        limits and between hands like any buy-in [CM-2; GA art. 21; PT 14]."""
        payload = {"table_id": str(table_id), "player": player, "amount_cents": amount_cents}

        def decide() -> Decision:
            self._open_day()
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            stack = table.buy_in(
                found.id,
                amount_cents,
                table_average=self.profile.seating.newcomer_stack_is_table_average,
                rules=self.profile.buy_in,
                paid_with="cage",
            )
            return [table], {"table_id": str(table.id), "stack_cents": stack}

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=CAGE)
    def cash_out(
        self, actor: Actor, command_id: str, *, player: str, amount_cents: int | None = None
    ) -> Outcome:
        """The cage pays a player cash for their chips (all of them unless an
        amount is given). Only chips off the tables: a stack is cashed once its
        player leaves the table."""
        payload = {"player": player, "amount_cents": amount_cents}

        def decide() -> Decision:
            self._open_day()
            found = self.player(player)
            held = accounts.player_chips(found.id)
            amount = self.balance_of(held) if amount_cents is None else cents(amount_cents)
            if amount == 0:
                raise conflict("no_chips_to_cash")
            changed = self.book(
                TransactionKind.CASH_OUT,
                [
                    (held, -amount),
                    (accounts.CAGE_CHIPS, amount),
                    (accounts.CAGE_CASH, -amount),
                    (accounts.EXTERNAL, amount),
                ],
                reason="cash-out",
                reason_code="cash_out",
                player_id=found.id,
            )
            return changed, result_of(changed, player_id=str(found.id), amount_cents=amount)

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=TABLE_REPORTERS, scope="table")
    def take_chips_off(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        player: str,
        amount_cents: int,
        purpose: str,
    ) -> Outcome:
        """Chips off a stack for a tip (to the tip box) or hospitality, at most
        15 EUR at a time [CM-15]; any other chips stay on the table."""
        payload = {
            "table_id": str(table_id),
            "player": player,
            "amount_cents": amount_cents,
            "purpose": purpose,
        }

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            stack = table.take_off(
                found.id, amount_cents, purpose, self.profile.chips_off_table_most_cents
            )
            return [table], {"table_id": str(table.id), "stack_cents": stack}

        return self.execute(current_command(), actor, command_id, payload, decide)

    # --- fills and credits ---------------------------------------------------------------

    # The jefe asks for fills and credits and the cage confirms them.
    @command(roles=JEFE, scope="table")
    def request_tray_move(
        self, actor: Actor, command_id: str, *, table_id: str, move: str, amount_cents: int
    ) -> Outcome:
        """The jefe asks the cage for a fill or a credit of a table's tray."""
        payload = {"table_id": str(table_id), "move": move, "amount_cents": amount_cents}

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            table.check_not_closed()
            request = TrayRequest.ask(move, table.id.hex, amount_cents, actor.username)
            return [request], {
                "request_id": str(request.id),
                "move": request.move,
                "table_id": str(table.id),
                "amount_cents": request.amount,
            }

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=CAGE, scope="tray_request")
    def confirm_tray_move(self, actor: Actor, command_id: str, *, request_id: str) -> Outcome:
        """The cage confirms a fill or credit: the chips move now, and the day
        notes them for the table's result."""
        payload = {"request_id": str(request_id)}

        def decide() -> Decision:
            _, gaming_day = self._open_day()
            request = self.load(TrayRequest, request_id, "tray_request")
            request.check_pending()
            amount, tray = request.amount, accounts.tray(request.table_id)
            fill = request.move == TrayMove.FILL
            postings = [(accounts.CAGE_CHIPS, -amount), (tray, amount)]
            if not fill:
                postings = [(accounts.CAGE_CHIPS, amount), (tray, -amount)]
            changed = self.book(
                TransactionKind.FILL if fill else TransactionKind.CREDIT,
                postings,
                reason=f"{request.move} asked by {request.requested_by}",
                reason_code="tray_move_requested",
                reason_params={"move": str(request.move), "by": request.requested_by},
                table_id=request.table_id,
                reference=str(request.id),
            )
            request.confirm(actor.username, changed[0].id.hex)
            gaming_day.note_tray_move(request.table_id, request.move, amount)
            return [request, gaming_day, *changed], result_of(
                changed, request_id=str(request.id), move=request.move
            )

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=(Role.JEFE_SECTOR, Role.CAJERO), scope="tray_request")
    def cancel_tray_move(
        self, actor: Actor, command_id: str, *, request_id: str, reason: str = ""
    ) -> Outcome:
        payload = {"request_id": str(request_id), "reason": reason}

        def decide() -> Decision:
            request = self.load(TrayRequest, request_id, "tray_request")
            request.cancel(str(reason)[:200])
            return [request], {"request_id": str(request.id), "status": str(request.status)}

        return self.execute(current_command(), actor, command_id, payload, decide)
