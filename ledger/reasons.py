"""Why a transaction was made, in the reader's language.

The ledger records a transaction's reason as a code and its params
(``reason_code``, ``reason_params``: "tray_move_requested", {"move": "fill",
"by": "jefe"}) beside the English text it always carried. The receipt, the
cage console, the API and the reports render the code here, in the active
language (es, gl, pt, en). A transaction posted before the codes has only its
text: its stored event is never edited, so the text is shown as it was stored.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# One template per code; each param is first read through its own labels below.
TEMPLATES = {
    "chips_sold": _("Chips sold at the cage"),
    "cash_out": _("Chips cashed at the cage"),
    # Paid otherwise than in cash, through the casino's bank (issue 25).
    "chips_sold_by": _("Chips sold at the cage, paid %(paid_by)s"),
    "cash_out_as": _("Chips cashed at the cage, paid %(paid_as)s"),
    "buy_in": _("Paid %(paid_with)s"),
    "time_charge": _("Time of session %(session)s"),
    "hand": _("Hand %(number)s"),
    "stack_left": _("Off the table: %(why)s"),
    "stack_moved": _("Moved to another table: %(why)s"),
    "chips_off": _("Chips off the stack for %(purpose)s"),
    "jackpot_stakes": _("Jackpot stakes, hand %(hand)s"),
    "jackpot_prizes": _("Jackpot prizes"),
    "jackpot_seed": _("The jackpot's starting amount"),
    "jackpot_reseed": _("The jackpot back to its starting amount"),
    "tray_move_requested": _("%(move)s, asked by %(by)s"),
    "cage_float": _("The house funds the cage"),
    "count_difference": _("Count difference: %(code)s"),
    "days_drop": _("The day's drop"),
    "tips_paid": _("Tips paid out to the staff"),
    # Corrections (issue 22): an entry voided, a seat's stack fixed by the jefe.
    "voided": _("Voids a %(kind)s booked by mistake: %(code)s"),
    "stack_fixed": _("Stack of seat %(seat)s corrected: %(fix)s"),
}

# The words a param may hold (events record codes: "cash", "closed_by_jefe" ...).
PARAM_LABELS = {
    "paid_with": {
        "cash": _("in cash at the table"),
        "cage": _("at the cage"),
        "chips": _("with the player's own chips"),
    },
    "why": {
        # Leaving a table and closing one (floor.domain.table).
        "left": _("left"),
        "must_leave": _("must leave"),
        "removed": _("removed"),
        "absence_expired": _("the absence clock ran out"),
        "closed_by_jefe": _("table closed by the jefe"),
        "suspension_expired": _("table closed after its suspension"),
        "closing_time": _("table closed at closing time"),
        "table_broken": _("table broken"),
        # Moving to another table (floor.domain.balance_group).
        "balance": _("balancing"),
        "override": _("moved by the jefe"),
        "table_change": _("change of table"),
        "break": _("table broken"),
        # A move made by mistake undone (floor.application.corrections).
        "undo": _("a move undone"),
    },
    "paid_by": {"card": _("by card"), "cheque": _("by cheque")},
    "paid_as": {"cheque": _("by casino cheque"), "transfer": _("by bank transfer")},
    "purpose": {"tip": _("a tip"), "hospitality": _("hospitality")},
    "move": {"fill": _("Fill"), "credit": _("Credit")},
    # What a void reverses (ledger.domain.transaction).
    "kind": {
        "chips_sold": _("chip sale"),
        "cash_out": _("cash-out"),
        "fill": _("fill"),
        "credit": _("credit"),
        "buy_in": _("buy-in paid at the cage"),
    },
    # Why a stack was fixed (floor.domain.corrections, STACK_FIX_REASONS).
    "fix": {
        "miscount": _("chips miscounted"),
        "buy_in_miscounted": _("buy-in counted wrong"),
        "pot_paid_wrong": _("pot paid to the wrong stack"),
        "chips_found": _("chips found"),
        "chips_missing": _("chips missing"),
        "other": _("other"),
    },
    "code": {
        "count_error": _("count error"),
        "dealer_error": _("dealer error"),
        "unrecorded_fill": _("unrecorded fill"),
        "unrecorded_credit": _("unrecorded credit"),
        "chips_missing": _("chips missing"),
        "chips_found": _("chips found"),
        "cash_short": _("cash short"),
        "cash_over": _("cash over"),
        "other": _("other"),
        # Why an entry is voided (ledger.domain.voids, VOID_REASONS).
        "wrong_amount": _("wrong amount"),
        "wrong_player": _("wrong player"),
        "wrong_table": _("wrong table"),
        "booked_twice": _("booked twice"),
        "not_paid": _("never paid"),
    },
}


def reason_text(code: str, params: dict | None, stored: str = "") -> str:
    """The reason in the active language; ``stored`` (the recorded English
    text) when the transaction has no code, or one this version does not know."""
    template = TEMPLATES.get(code or "")
    if template is None:
        return stored
    values = {
        name: str(PARAM_LABELS.get(name, {}).get(value, value))
        for name, value in (params or {}).items()
    }
    try:
        text = str(template) % values
    except (KeyError, TypeError, ValueError):
        return stored
    noted = ("count_difference", "voided", "stack_fixed")
    note = (params or {}).get("note") if code in noted else None
    return f"{text} ({note})" if note else text


def transaction_reason(transaction: object) -> str:
    """A TransactionView's reason, in the active language."""
    return reason_text(
        getattr(transaction, "reason_code", ""),
        getattr(transaction, "reason_params", None),
        getattr(transaction, "reason", ""),
    )
