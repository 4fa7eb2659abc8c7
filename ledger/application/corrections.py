"""The cage's correction: a cage entry booked by mistake, voided with its
reason (ANCHORS.md item 8; issue 22). What may be voided and why is
ledger.domain.voids; the floor's corrections (a move undone, a stack fixed)
are the floor's (floor.application.corrections), and the ledger books a fixed
stack from the floor's event (ledger.domain.floor_money).
"""

from __future__ import annotations

from uuid import UUID

from floor.kernel.errors import conflict
from floor.kernel.registry import command
from floor.kernel.roles import Role
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork
from floor.ports import tables
from ledger.application import aml
from ledger.application.books import balance_of, book, cage
from ledger.application.common import fingerprinted, result_of
from ledger.domain.accounts import AccountRef
from ledger.domain.gaming_day import DayStatus, GamingDay
from ledger.domain.transaction import Transaction, TransactionKind
from ledger.domain.voids import at_the_cage, check_reason, reversal, void_refusal


# The cage books its own entries and voids them; the director, who answers
# for the cage [GA art. 19.1], may too. Never the floor's roles.
@command(
    roles=(Role.CAJERO, Role.DIRECTOR),
    payload=fingerprinted("transaction_id", note=""),
)
def void_entry(
    work: UnitOfWork, *, transaction_id: str, reason_code: str, note: str = ""
) -> Decision:
    """Voids a cage entry booked by mistake (a chip sale, a cash-out, a fill
    or a credit, a buy-in paid at the cage: its chips back off the seat): a
    new transaction reverses it leg by leg and names it, the original
    records that it was voided, once, with the reason; only in the entry's
    own gaming day, open and not yet counted [GA art. 19.1]. A fill or
    credit voided is taken off the day's tray moves, so the table's result
    is as if it had never been confirmed. Every void is recorded on its day
    (``GamingDay.note_void``) and saved with it, so it cannot commit on a day
    counted or closed meanwhile: the save collides and the void is refused."""
    code, text = check_reason(reason_code, note)
    original = work.load(Transaction, transaction_id, "transaction")
    found = cage(work)
    gaming_day = work.find(GamingDay, GamingDay.id_for(found.open_day)) if found.open_day else None
    balances = {
        name: balance_of(work, AccountRef(name))
        for name in original.postings
        if not AccountRef(name).may_go_negative
    }
    table, at_table, amount = None, None, original.amount_cents
    if at_the_cage(original.kind, original.reason_params) and original.table_id:
        table = tables.table(work, original.table_id)
        at_table = table.void_buy_in_refusal(UUID(original.player_id), amount)
    refusal = void_refusal(
        kind=original.kind,
        gaming_day=original.gaming_day,
        voided=original.voided_by is not None,
        open_day=found.open_day,
        day_counted=gaming_day is not None and gaming_day.status != DayStatus.OPEN,
        postings=original.postings,
        balances=balances,
        reason_params=original.reason_params,
        at_table=at_table,
    )
    if refusal is not None:
        raise refusal
    if gaming_day is None:  # no day open to record the void in
        raise conflict("entry_day_not_open", gaming_day=original.gaming_day)
    changed = book(
        work,
        TransactionKind.VOID,
        reversal(original.postings),
        reason=f"void of {original.kind}: {code}" + (f": {text}" if text else ""),
        reason_code="voided",
        reason_params={"kind": original.kind, "code": code, "note": text},
        table_id=original.table_id,
        player_id=original.player_id,
        reference=original.id.hex,
    )
    void = changed[0]
    original.void(void.id, code, text)
    # Every void is an event of its day, saved with it: a count or close
    # committing meanwhile makes this save collide, and the void is decided
    # again on the counted day, and refused (GamingDay.note_void).
    gaming_day.note_void(
        original.id.hex, str(original.kind), original.table_id, original.amount_cents
    )
    # A voided cage operation comes off its patron's day total (ledger.application.aml).
    direction = aml.direction_of(str(original.kind), original.reason_params)
    if direction is not None and original.player_id:
        instrument = aml.instrument_of(original.reason_params)
        aml.check_void(
            work, gaming_day, original.player_id, direction, original.amount_cents, instrument
        )
        gaming_day.note_patron_cage(
            original.player_id,
            direction,
            -original.amount_cents,
            instrument,
        )
    more = [original, gaming_day]
    if table is not None:  # the chips come back off the seat; the void booked the money
        table.void_buy_in(UUID(original.player_id), amount, void.id.hex)
        more.append(table)
    return [*changed, *more], result_of(
        changed, voided=str(original.id), amount_cents=original.amount_cents
    )
