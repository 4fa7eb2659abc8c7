"""Progressive jackpots: created and seeded from the cage, fed by the stakes
of a hand, paid to its winners by the settlement rules (docs/ledger.md,
"Jackpots")."""

from __future__ import annotations

from collections.abc import Mapping

from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command
from floor.kernel.roles import TABLE_REPORTERS, Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork, current_work
from floor.ports import tables
from games.banked import settle_jackpot
from games.hands import Category
from ledger.application.books import balance_of, book, open_day
from ledger.application.common import fingerprinted, result_of
from ledger.domain import accounts
from ledger.domain.jackpot import Jackpot
from ledger.domain.transaction import TransactionKind


def default_scheme(work: UnitOfWork) -> str:
    """The settlement scheme of a jackpot created without one: the profile's."""
    return "PT-SD" if work.profile.code == "PT" else "GA"


def _jackpot_payload(
    *,
    name: str,
    stake_cents: int,
    seed_cents: int,
    table_ids: list,
    scheme: str | None = None,
) -> dict:
    """A jackpot's creation is fingerprinted with its scheme as decided (the
    profile's when none is named) and its tables' ids as text."""
    work = current_work()
    return {
        "name": name,
        "stake_cents": stake_cents,
        "seed_cents": seed_cents,
        "table_ids": [str(t) for t in table_ids or []],
        "scheme": scheme or (default_scheme(work) if work is not None else None),
    }


@command(roles=(Role.DIRECTOR,), scope="table", payload=_jackpot_payload)
def create_jackpot(
    work: UnitOfWork,
    *,
    name: str,
    stake_cents: int,
    seed_cents: int,
    table_ids: list,
    scheme: str | None = None,
) -> Decision:
    """A progressive jackpot for one or several tables [GA art. 8b], its
    fund brought to its starting amount from the cage's chips [PT-SD 10]."""
    scheme = scheme or default_scheme(work)
    open_day(work)
    if not isinstance(table_ids, list):
        raise invalid("jackpot_tables_required")
    linked = [tables.table(work, t).id.hex for t in table_ids]
    jackpot = Jackpot.create(name, scheme, stake_cents, seed_cents, linked)
    changed = book(
        work,
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


@command(roles=TABLE_REPORTERS, scope="table", payload=fingerprinted("jackpot_id", "table_id"))
def stake_jackpot(work: UnitOfWork, *, jackpot_id: str, table_id: str, stakes: dict) -> Decision:
    """The jackpot stakes of one hand, seat by seat, into the fund."""
    jackpot = work.load(Jackpot, jackpot_id, "jackpot")
    table = tables.table(work, table_id)
    jackpot.check_table(table.id)
    by_seat = _by_seat(stakes)
    for cents in by_seat.values():
        jackpot.check_stake(cents, table.minimum_cents)
    staked = table.stake_jackpot(jackpot.id, by_seat)
    return [table], {"table_id": str(table.id), "stakes": staked}


@command(roles=TABLE_REPORTERS, scope="table", payload=fingerprinted("jackpot_id", "table_id"))
def pay_jackpot(work: UnitOfWork, *, jackpot_id: str, table_id: str, winners: dict) -> Decision:
    """Pays the jackpot winners of the hand just played, among the seats
    that staked on it, once, by the settlement rules (smallest prize first,
    the top prize takes the rest, equal prizes split [PT-SD 12; GA art.
    8b]); the fund is brought back to its starting amount."""
    open_day(work)
    jackpot = work.load(Jackpot, jackpot_id, "jackpot")
    table = tables.table(work, table_id)
    jackpot.check_table(table.id)
    categories = _by_seat(winners, Category)
    staked = table.check_jackpot_winners(jackpot.id, list(categories))
    fund = accounts.jackpot_fund(jackpot.id)
    settled = settle_jackpot(
        jackpot.rules,
        balance_of(work, fund),
        [(seat, category, staked[str(seat)]) for seat, category in categories.items()],
    )
    prizes = {seat: cents for seat, cents in settled.won_cents.items() if cents}
    if not prizes:
        raise conflict("no_jackpot_prize")
    table.pay_jackpot(jackpot.id, prizes)
    changed: list = [table]
    short = jackpot.seed_cents - settled.fund_after_cents
    if short > 0:
        changed += book(
            work,
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
