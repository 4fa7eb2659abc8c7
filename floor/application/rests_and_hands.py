"""What the dealer reports of play at the table: a player's rest and return
[PT 90], a hand dealt and ended, and what an end would pay, asked before it is
confirmed (floor.domain.settlement).
"""

from __future__ import annotations

from floor.application.seat_support import SeatSupport
from floor.domain.table import Table, TableStatus
from floor.kernel.registry import command, current_command
from floor.kernel.roles import TABLE_REPORTERS, Actor
from floor.kernel.service import Decision, Outcome


class RestAndHandCommands(SeatSupport):
    # The dealer reports what happens at the table; in a small room the jefe does it.
    @command(roles=TABLE_REPORTERS, scope="table")
    def start_rest(self, actor: Actor, command_id: str, *, table_id: str, player: str) -> Outcome:
        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            table.start_rest(
                found.id, repeated_rests_leave=self.profile.rest.idle_hands_must_leave is not None
            )
            return [table], {"table_id": str(table.id), "player_id": str(found.id)}

        payload = {"table_id": str(table_id), "player": player}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=TABLE_REPORTERS, scope="table")
    def end_rest(self, actor: Actor, command_id: str, *, table_id: str, player: str) -> Outcome:
        """Back from a rest; blinds missed meanwhile are posted dead [PT 90]."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            seat, state = table.seated_state(found.id)
            owes = state["owes_cents"]
            table.end_rest(found.id)
            return [table], {"table_id": str(table.id), "seat": seat, "owes_cents": owes}

        payload = {"table_id": str(table_id), "player": player}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=TABLE_REPORTERS, scope="table")
    def start_hand(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        dealt_in: list,
        button: int | None = None,
        blinds: dict | None = None,
        variant: str | None = None,
    ) -> Outcome:
        """The dealer reports a hand dealt: the button, who is dealt in, the blinds."""
        payload = {
            "table_id": str(table_id),
            "dealt_in": dealt_in,
            "button": button,
            "blinds": blinds,
            "variant": variant,
        }

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            decided = table.start_hand(
                self.profile,
                self.now(),
                variant=variant,
                button=button,
                dealt_in=dealt_in,
                blinds=blinds or {},
            )
            return [table], {"table_id": str(table.id), **decided}

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=TABLE_REPORTERS, scope="table")
    def end_hand(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        contributions: dict,
        winnings: dict | None = None,
        rake_cents: int | None = None,
        pot_winners: list | None = None,
        shown: dict | None = None,
        board: str | None = None,
        folded: list | None = None,
    ) -> Outcome:
        """The dealer reports a hand's end: what each seat put in, and either
        what each won and the rake, or who won each pot (or the hands shown),
        from which the service settles the pots (floor.domain.settlement)."""
        report = {
            "contributions": contributions,
            "winnings": winnings,
            "rake_cents": rake_cents,
            "pot_winners": pot_winners,
            "shown": shown,
            "board": board,
            "folded": folded,
        }
        payload = {"table_id": str(table_id), **{k: v for k, v in report.items() if v is not None}}

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            decided = table.end_hand(self.profile, self.now(), **report)
            changed = [table]
            if table.last_hands_done:  # the last hand of the night [CM-24]
                changed = self.close_players_out(table, "closing_time")
            else:
                # Players gone during the hand (the absence clock) count now;
                # and the blinds moved, so does the seat a move should take.
                changed += self._suspend_or_resume(table)
                if table.status != TableStatus.CLOSED:
                    changed += self.rebalance(table.game)
            return changed, {"table_id": str(table.id), **decided, "status": table.status}

        return self.execute(current_command(), actor, command_id, payload, decide)

    # What a hand end would pay, recording nothing: asked before confirming it.
    @command(roles=TABLE_REPORTERS, scope="table", query=True)
    def preview_settlement(
        self,
        actor: Actor,
        *,
        table_id: str,
        contributions: dict,
        winnings: dict | None = None,
        rake_cents: int | None = None,
        pot_winners: list | None = None,
        shown: dict | None = None,
        board: str | None = None,
        folded: list | None = None,
    ) -> dict:
        """What ``end_hand`` with this report would pay, recording nothing: the
        pots (amount, eligible seats, rake, winners), the chips returned, what
        each seat takes back and the stacks after. The same roles and scope
        as ``end_hand``; the same refusals. Asked with the contributions
        alone, it answers the pots (and their rake limit) before anyone is
        named the winner: ``payments`` then holds only the chips returned
        and ``stacks`` is null."""
        report = {
            "contributions": contributions,
            "winnings": winnings,
            "rake_cents": rake_cents,
            "pot_winners": pot_winners,
            "shown": shown,
            "board": board,
            "folded": folded,
        }
        self.role_in_scope(actor, current_command(), {"table_id": str(table_id)})
        table = self.load(Table, table_id, "table")
        decided = table.settle_hand(self.profile, pots_only=True, **report)
        keys = ("number", "pot_cents", "rake_cents", "pots", "returned", "folded")
        stacks = decided["stacks"]
        if stacks is not None:
            stacks = {s: v for s, v in stacks.items() if int(s) in table.hand["dealt_in"]}
        return {
            "table_id": str(table.id),
            **{k: decided[k] for k in keys},
            "payments": decided["winnings"],
            "stacks": stacks,
        }
