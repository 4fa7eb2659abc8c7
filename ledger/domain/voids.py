"""Voiding a cage entry booked by mistake: which entries may be voided, and
why (ANCHORS.md item 8; issue 22).

Nothing booked is ever edited (DESIGN.md): a void is a new transaction that
reverses the original leg by leg and names it, and the original records that
it was voided (``Transaction.void``), once. The cage voids only what the cage
booked (a buy-in paid at the cage too: its chips come back off the seat):
money the floor booked from a table's events (a hand, a buy-in at a
seat, a stack leaving) is corrected on the floor, where the table's stacks
are (floor ``fix_stack``), or the stacks and the books would drift apart.
Only while the entry's gaming day is open and not yet counted: a count is
taken against the books, and a closed day is anchored in the audit journal
[GA art. 19.1].

``void_refusal`` is the one check, asked by the command (which raises it) and
by the cage's console (which offers the button only when it is None), so the
button and the command cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping

from floor.kernel.errors import DomainError, conflict, invalid
from ledger.domain.accounts import AccountRef
from ledger.domain.transaction import TransactionKind

# Why an entry is voided; "other" needs a note.
VOID_REASONS = (
    "wrong_amount",
    "wrong_player",
    "wrong_table",
    "booked_twice",
    "not_paid",
    "other",
)
# The cage's own entries: chips sold and cashed out, fills and credits. (The
# float is the house's, not an entry of the day's play.)
VOIDABLE_KINDS = frozenset(
    {
        TransactionKind.CHIPS_SOLD,
        TransactionKind.CASH_OUT,
        TransactionKind.FILL,
        TransactionKind.CREDIT,
    }
)
# What the floor books from a table's events: corrected on the floor.
FLOOR_KINDS = frozenset(
    {
        TransactionKind.BUY_IN,
        TransactionKind.HAND,
        TransactionKind.TIME_CHARGE,
        TransactionKind.STACK_LEFT,
        TransactionKind.STACK_MOVED,
        TransactionKind.TIP,
        TransactionKind.HOSPITALITY,
        TransactionKind.JACKPOT_BET,
        TransactionKind.JACKPOT_PAID,
        TransactionKind.STACK_FIX,
    }
)
MAX_NOTE_LENGTH = 300


def reversal(postings: Mapping[str, int]) -> list[tuple[AccountRef, int]]:
    """The original's postings, each leg reversed."""
    return [(AccountRef(name), -amount) for name, amount in postings.items()]


def at_the_cage(kind: str, reason_params: Mapping | None) -> bool:
    """A buy-in paid at the cage: the cage booked it, the cage voids it."""
    return kind == TransactionKind.BUY_IN and (reason_params or {}).get("paid_with") == "cage"


def void_refusal(
    *,
    kind: str,
    gaming_day: str,
    voided: bool,
    open_day: str | None,
    day_counted: bool,
    postings: Mapping[str, int],
    balances: Mapping[str, int],
    reason_params: Mapping | None = None,
    at_table: DomainError | None = None,
) -> DomainError | None:
    """Why the entry cannot be voided now (the refusal to raise), or None.
    ``balances`` are the guarded accounts' balances now: a reversal that
    would leave a tray, a stack, a box or the cage below nothing (the
    chips sold already played, a fill already paid out) is refused, as every
    posting is (ledger.domain.account)."""
    cage_buy_in = at_the_cage(kind, reason_params)
    if voided:
        return conflict("entry_already_voided")
    if kind in FLOOR_KINDS and not cage_buy_in:
        return conflict("entry_booked_by_the_floor")
    if kind not in VOIDABLE_KINDS and not cage_buy_in:
        return conflict("entry_not_voidable")
    if open_day is None or gaming_day != open_day:
        return conflict("entry_day_not_open", gaming_day=gaming_day)
    if day_counted:
        return conflict("entry_day_counted", gaming_day=gaming_day)
    if cage_buy_in and at_table is not None:  # the seat it went to (floor buy_in_void_refusal)
        return at_table
    for ref, amount in reversal(postings):
        if ref.may_go_negative:
            continue
        balance = balances.get(ref.name, 0)
        if balance + amount < 0:
            return conflict(
                "void_leaves_account_negative",
                account=ref.name,
                balance_cents=balance,
                amount_cents=-amount,
            )
    return None


def check_reason(reason_code: object, note: object) -> tuple[str, str]:
    """The void's reason from the closed list, and its note ("other" needs one)."""
    code = str(reason_code or "")
    if code not in VOID_REASONS:
        raise invalid("correction_reason_invalid", choices=list(VOID_REASONS))
    text = " ".join(str(note or "").split())
    if len(text) > MAX_NOTE_LENGTH or not text.isprintable():
        raise invalid("note_invalid")
    if code == "other" and not text:
        raise invalid("correction_note_required")
    return code, text
