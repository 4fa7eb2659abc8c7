"""The cage's commands for players and tables: chips sold and cashed out,
buy-ins paid at the cage, tips and hospitality, fills and credits. The day is
in ledger.application.gaming_days, the jackpots in ledger.application.jackpots.

Each runs through the one command pipeline (idempotent command ids, the
actor's role, all events or none, floor.kernel.service) and books its money in
ledger.application.books; the floor's tables and players come through
floor.ports.tables.
"""

from __future__ import annotations

from floor.kernel.context import current_context
from floor.kernel.errors import conflict
from floor.kernel.registry import command
from floor.kernel.roles import CAGE, JEFE, TABLE_REPORTERS, Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork
from floor.ports import exclusions, tables
from ledger.application import aml
from ledger.application.books import balance_of, book, open_day
from ledger.application.common import cents, fingerprinted, result_of
from ledger.domain import accounts
from ledger.domain.transaction import TransactionKind
from ledger.domain.tray_request import TrayMove, TrayRequest

# --- players' chips ------------------------------------------------------------------


@command(roles=CAGE, payload=aml.instrument_payload("paid_by"))
def sell_chips(
    work: UnitOfWork, *, player: str, amount_cents: int, paid_by: str = aml.CASH
) -> Decision:
    """The cage sells a player chips for cash, or by card or cheque (a buy-in
    at the cage); the player takes them to a table or buys in there with
    them. At the profile's threshold the patron must be identified first
    (ledger.application.aml) [Ley 10/2010 art. 7.5; Lei 83/2017]. Paid by
    card or cheque, the money goes to the casino's bank, not the cage's
    drawer, and counts toward the casino cheque a Portuguese patron may
    be paid [Lei 83/2017]."""
    _, gaming_day = open_day(work)
    amount = cents(amount_cents)
    aml.check_instrument(paid_by, aml.PURCHASE_INSTRUMENTS, "paid_by")
    found = tables.player(work, player)
    # An excluded patron buys no chips (issue 25, item 2); a pass is recorded.
    checked = [found] if exclusions.admit(work, found, exclusions.CAGE) else []
    aml.check_and_note(work, gaming_day, found.id, aml.BOUGHT, amount, paid_by)
    money_in = accounts.CAGE_CASH if paid_by == aml.CASH else accounts.BANK
    changed = book(
        work,
        TransactionKind.CHIPS_SOLD,
        [
            (accounts.EXTERNAL, -amount),
            (money_in, amount),
            (accounts.CAGE_CHIPS, -amount),
            (accounts.player_chips(found.id), amount),
        ],
        reason="chips sold at the cage" + ("" if paid_by == aml.CASH else f", paid by {paid_by}"),
        reason_code="chips_sold" if paid_by == aml.CASH else "chips_sold_by",
        reason_params={} if paid_by == aml.CASH else {"paid_by": paid_by},
        player_id=found.id,
    )
    return [*changed, gaming_day, *checked], result_of(changed, player_id=str(found.id))


@command(roles=CAGE, scope="table", payload=fingerprinted("table_id"))
def buy_in_at_cage(work: UnitOfWork, *, table_id: str, player: str, amount_cents: int) -> Decision:
    """A seated player pays at the cage and the chips go to their seat:
    the cage takes the cash and gives the chips, within the table's
    limits and between hands like any buy-in [CM-2; GA art. 21; PT 14].
    A purchase of chips at the cage, so summed for the identification
    threshold (ledger.application.aml)."""
    _, gaming_day = open_day(work)
    table = tables.table(work, table_id)
    found = tables.player(work, player)
    checked = [found] if exclusions.admit(work, found, exclusions.CAGE) else []
    stack = table.buy_in(
        found.id,
        amount_cents,
        table_average=work.profile.seating.newcomer_stack_is_table_average,
        rules=work.profile.buy_in,
        paid_with="cage",
    )
    aml.check_and_note(work, gaming_day, found.id, aml.BOUGHT, amount_cents)
    return [table, gaming_day, *checked], {"table_id": str(table.id), "stack_cents": stack}


@command(roles=CAGE, payload=aml.instrument_payload("paid_as", amount_cents=None))
def cash_out(
    work: UnitOfWork, *, player: str, amount_cents: int | None = None, paid_as: str = aml.CASH
) -> Decision:
    """The cage pays a player for their chips (all of them unless an amount
    is given), in cash, by casino cheque or by transfer. Only chips off the
    tables: a stack is cashed once its player leaves the table. At the
    profile's threshold the patron must be identified first, and a cheque or
    a transfer goes only to an identified patron (PT: a cheque only up to
    what they bought by card or cheque) (ledger.application.aml)."""
    _, gaming_day = open_day(work)
    aml.check_instrument(paid_as, aml.PAYOUT_INSTRUMENTS, "paid_as")
    found = tables.player(work, player)
    held = accounts.player_chips(found.id)
    balance = balance_of(work, held)
    amount = balance if amount_cents is None else cents(amount_cents)
    if amount == 0:
        raise conflict("no_chips_to_cash")
    if amount > balance:  # said with what he has, not as the books' general rule
        raise conflict("cash_out_above_chips", held_cents=balance, amount_cents=amount)
    aml.check_payout(work, gaming_day, found.id, paid_as, amount)
    aml.check_and_note(work, gaming_day, found.id, aml.CASHED, amount, paid_as)
    money_out = accounts.CAGE_CASH if paid_as == aml.CASH else accounts.BANK
    changed = book(
        work,
        TransactionKind.CASH_OUT,
        [
            (held, -amount),
            (accounts.CAGE_CHIPS, amount),
            (money_out, -amount),
            (accounts.EXTERNAL, amount),
        ],
        reason="cash-out" + ("" if paid_as == aml.CASH else f", paid by {paid_as}"),
        reason_code="cash_out" if paid_as == aml.CASH else "cash_out_as",
        reason_params={} if paid_as == aml.CASH else {"paid_as": paid_as},
        player_id=found.id,
    )
    return [*changed, gaming_day], result_of(
        changed, player_id=str(found.id), amount_cents=amount, paid_as=paid_as
    )


@command(roles=CAGE)
def certify_winnings(work: UnitOfWork, *, player: str, amount_cents: int) -> Decision:
    """The cage gives a patron a certificate of winnings: only to an
    identified patron [ES: Ley 10/2010 art. 7.5 names the certificate of
    winnings; to be confirmed], and for no more than the patron's result at
    the cage this gaming day (chips cashed less chips bought there, less
    what was already certified): a certificate must not turn money brought
    in into winnings (ledger.application.aml)."""
    _, gaming_day = open_day(work)
    amount = cents(amount_cents)
    found = tables.player(work, player)
    # No certificate to a patron the lists bar (a version imported since
    # they bought their chips): it would say they won where they may not
    # play (issue 25, item 2). The cash-out itself is their money: paid.
    checked = [found] if exclusions.admit(work, found, exclusions.CAGE) else []
    number, figures = aml.certify(work, gaming_day, found.id, amount)
    return [gaming_day, *checked], {
        "player_id": str(found.id),
        "certificate": number,
        "gaming_day": gaming_day.day,
        "amount_cents": amount,
        **figures,
    }


@command(roles=TABLE_REPORTERS, scope="table", payload=fingerprinted("table_id"))
def take_chips_off(
    work: UnitOfWork, *, table_id: str, player: str, amount_cents: int, purpose: str
) -> Decision:
    """Chips off a stack for a tip (to the tip box) or hospitality, at most
    15 EUR at a time [CM-15]; any other chips stay on the table."""
    table = tables.table(work, table_id)
    found = tables.player(work, player)
    stack = table.take_off(found.id, amount_cents, purpose, work.profile.chips_off_table_most_cents)
    return [table], {"table_id": str(table.id), "stack_cents": stack}


# --- fills and credits ---------------------------------------------------------------


# The jefe asks for fills and credits and the cage confirms them.
@command(roles=JEFE, scope="table", payload=fingerprinted("table_id"))
def request_tray_move(work: UnitOfWork, *, table_id: str, move: str, amount_cents: int) -> Decision:
    """The jefe asks the cage for a fill or a credit of a table's tray."""
    table = tables.table(work, table_id)
    table.check_not_closed()
    asked_by = current_context().actor
    request = TrayRequest.ask(move, table.id.hex, amount_cents, asked_by)
    return [request], {
        "request_id": str(request.id),
        "move": request.move,
        "table_id": str(table.id),
        "amount_cents": request.amount,
    }


@command(roles=CAGE, scope="tray_request", payload=fingerprinted("request_id"))
def confirm_tray_move(work: UnitOfWork, *, request_id: str) -> Decision:
    """The cage confirms a fill or credit: the chips move now, and the day
    notes them for the table's result."""
    _, gaming_day = open_day(work)
    request = work.load(TrayRequest, request_id, "tray_request")
    request.check_pending()
    amount, tray = request.amount, accounts.tray(request.table_id)
    fill = request.move == TrayMove.FILL
    postings = [(accounts.CAGE_CHIPS, -amount), (tray, amount)]
    if not fill:
        postings = [(accounts.CAGE_CHIPS, amount), (tray, -amount)]
    changed = book(
        work,
        TransactionKind.FILL if fill else TransactionKind.CREDIT,
        postings,
        reason=f"{request.move} asked by {request.requested_by}",
        reason_code="tray_move_requested",
        reason_params={"move": str(request.move), "by": request.requested_by},
        table_id=request.table_id,
        reference=str(request.id),
    )
    request.confirm(current_context().actor, changed[0].id.hex)
    gaming_day.note_tray_move(request.table_id, request.move, amount)
    return [request, gaming_day, *changed], result_of(
        changed, request_id=str(request.id), move=request.move
    )


@command(
    roles=(Role.JEFE_SECTOR, Role.CAJERO),
    scope="tray_request",
    payload=fingerprinted("request_id", reason=""),
)
def cancel_tray_move(work: UnitOfWork, *, request_id: str, reason: str = "") -> Decision:
    """The jefe or the cage cancels a fill or credit not yet confirmed."""
    request = work.load(TrayRequest, request_id, "tray_request")
    request.cancel(str(reason)[:200])
    return [request], {"request_id": str(request.id), "status": str(request.status)}
