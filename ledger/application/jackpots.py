"""Progressive jackpots: created and seeded from the cage, fed by the stakes
of a hand, paid to its winners by the settlement rules (docs/ledger.md,
"Jackpots")."""

from __future__ import annotations

from collections.abc import Mapping

from floor.domain.table import Table
from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command, current_command
from floor.kernel.roles import TABLE_REPORTERS, Actor, Role
from floor.kernel.service import Decision, Outcome
from games.banked import settle_jackpot
from games.hands import Category
from ledger.application.common import result_of
from ledger.application.gaming_days import GamingDayCommands
from ledger.domain import accounts
from ledger.domain.jackpot import Jackpot
from ledger.domain.transaction import TransactionKind


class JackpotCommands(GamingDayCommands):
    """The jackpots' commands."""

    # --- jackpots ------------------------------------------------------------------------

    @command(roles=(Role.DIRECTOR,), scope="table")
    def create_jackpot(
        self,
        actor: Actor,
        command_id: str,
        *,
        name: str,
        stake_cents: int,
        seed_cents: int,
        table_ids: list,
        scheme: str | None = None,
    ) -> Outcome:
        """A progressive jackpot for one or several tables [GA art. 8b], its
        fund brought to its starting amount from the cage's chips [PT-SD 10]."""
        scheme = scheme or ("PT-SD" if self.profile.code == "PT" else "GA")
        payload = {
            "name": name,
            "stake_cents": stake_cents,
            "seed_cents": seed_cents,
            "table_ids": [str(t) for t in table_ids or []],
            "scheme": scheme,
        }

        def decide() -> Decision:
            self._open_day()
            if not isinstance(table_ids, list):
                raise invalid("jackpot_tables_required")
            tables = [self.load(Table, t, "table").id.hex for t in table_ids]
            jackpot = Jackpot.create(name, scheme, stake_cents, seed_cents, tables)
            changed = self.book(
                TransactionKind.JACKPOT_SEED,
                [
                    (accounts.CAGE_CHIPS, -seed_cents),
                    (accounts.jackpot_fund(jackpot.id), seed_cents),
                ],
                reason="starting amount",
                reason_code="jackpot_seed",
                reference=jackpot.id.hex,
            )
            return [jackpot, *changed], result_of(changed, jackpot_id=str(jackpot.id))

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=TABLE_REPORTERS, scope="table")
    def stake_jackpot(
        self, actor: Actor, command_id: str, *, jackpot_id: str, table_id: str, stakes: dict
    ) -> Outcome:
        """The jackpot stakes of one hand, seat by seat, into the fund."""
        payload = {"jackpot_id": str(jackpot_id), "table_id": str(table_id), "stakes": stakes}

        def decide() -> Decision:
            jackpot = self.load(Jackpot, jackpot_id, "jackpot")
            table = self.load(Table, table_id, "table")
            jackpot.check_table(table.id)
            by_seat = _by_seat(stakes)
            for cents in by_seat.values():
                jackpot.check_stake(cents, table.minimum_cents)
            staked = table.stake_jackpot(jackpot.id, by_seat)
            return [table], {"table_id": str(table.id), "stakes": staked}

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=TABLE_REPORTERS, scope="table")
    def pay_jackpot(
        self, actor: Actor, command_id: str, *, jackpot_id: str, table_id: str, winners: dict
    ) -> Outcome:
        """Pays the jackpot winners of the hand just played, among the seats
        that staked on it, once, by the settlement rules (smallest prize first,
        the top prize takes the rest, equal prizes split [PT-SD 12; GA art.
        8b]); the fund is brought back to its starting amount."""
        payload = {"jackpot_id": str(jackpot_id), "table_id": str(table_id), "winners": winners}

        def decide() -> Decision:
            self._open_day()
            jackpot = self.load(Jackpot, jackpot_id, "jackpot")
            table = self.load(Table, table_id, "table")
            jackpot.check_table(table.id)
            categories = _by_seat(winners, Category)
            staked = table.check_jackpot_winners(jackpot.id, list(categories))
            fund = accounts.jackpot_fund(jackpot.id)
            settled = settle_jackpot(
                jackpot.rules,
                self.balance_of(fund),
                [(seat, category, staked[str(seat)]) for seat, category in categories.items()],
            )
            prizes = {seat: cents for seat, cents in settled.won_cents.items() if cents}
            if not prizes:
                raise conflict("no_jackpot_prize")
            table.pay_jackpot(jackpot.id, prizes)
            changed = [table]
            short = jackpot.seed_cents - settled.fund_after_cents
            if short > 0:
                changed += self.book(
                    TransactionKind.JACKPOT_SEED,
                    [(accounts.CAGE_CHIPS, -short), (fund, short)],
                    reason="back to the starting amount",
                    reason_code="jackpot_reseed",
                    reference=jackpot.id.hex,
                )
            return changed, {
                "table_id": str(table.id),
                "prizes": {str(s): c for s, c in prizes.items()},
                "fund_after_cents": max(settled.fund_after_cents, jackpot.seed_cents),
            }

        return self.execute(current_command(), actor, command_id, payload, decide)


def _by_seat(values: object, convert=None) -> dict[int, object]:
    """``{"3": x}`` from a client as ``{3: x}``, or a clear refusal."""
    if not isinstance(values, Mapping) or not values:
        raise invalid("seats_required")
    result = {}
    for seat, value in values.items():
        try:
            number = int(seat)
        except (TypeError, ValueError):
            raise invalid("seat_invalid", seat=str(seat)[:10]) from None
        if convert is not None:
            try:
                value = convert(value)
            except ValueError:
                raise invalid("hand_category_invalid") from None
        result[number] = value
    return result
