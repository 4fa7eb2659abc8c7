"""The jefe's corrections on the table card (issue 22): the seat line's
"Correct" panel (templates/floor/console/_correct.html) offers "Undo the move"
and "Fix the stack" only when the command would take them now. Each is asked
of the command's own check in the domain (floor.domain.corrections:
``undo_refusal``, ``fix_stack_refusal``), so the card and the command cannot
disagree; and each is confirmed first, in words, since both move a stack
(floor.console.commands, ``ConsoleCommand.confirm``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from floor.amounts import format_euros
from floor.domain.corrections import (
    STACK_FIX_REASONS,
    UNDO_REASONS,
    fix_stack_refusal,
    undo_refusal,
)
from floor.kernel.roles import runs_sector
from floor.selectors import corrections as reads

if TYPE_CHECKING:
    from floor.models import SeatView, TableView

# Why a move is undone, in words (floor.domain.corrections.UNDO_REASONS).
UNDO_LABELS = {
    "wrong_player": gettext_lazy("the wrong player was moved"),
    "wrong_table": gettext_lazy("moved to the wrong table"),
    "wrong_seat": gettext_lazy("moved to the wrong seat"),
    "player_refused": gettext_lazy("the player had not agreed"),
    "other": gettext_lazy("other (say why)"),
}
# Why a stack is fixed, in words (floor.domain.corrections.STACK_FIX_REASONS).
STACK_FIX_LABELS = {
    "miscount": gettext_lazy("chips miscounted"),
    "buy_in_miscounted": gettext_lazy("buy-in counted wrong"),
    "pot_paid_wrong": gettext_lazy("pot paid to the wrong stack"),
    "chips_found": gettext_lazy("chips found"),
    "chips_missing": gettext_lazy("chips missing"),
    "other": gettext_lazy("other (say why)"),
}


def reasons() -> dict[str, list[tuple[str, Any]]]:
    """The reasons' choices for the panel's selects."""
    return {
        "undo": [(code, UNDO_LABELS[code]) for code in UNDO_REASONS],
        "fix": [(code, STACK_FIX_LABELS[code]) for code in STACK_FIX_REASONS],
    }


def former_tables() -> dict[UUID, reads.FormerTable]:
    """The tables seated players' undoable moves came from (SeatRules has them)."""
    return reads.former_tables()


def runs_both(here: list[str] | tuple[str, ...], there: list[str] | tuple[str, ...]) -> bool:
    """Whether every jefe who runs a sector with the jefes ``here`` runs one
    with the jefes ``there`` too (empty: any jefe) [GA art. 19.1]. The undo of
    a move across sectors changes both tables, so the command asks the jefe
    to run both (floor.application.staffing, ``check_changed``); the card,
    the same for whoever runs its sector, offers it only when that holds for
    each of them."""
    if not here:  # any jefe runs this sector: only a sector any jefe runs is theirs too
        return not there
    return all(runs_sector(jefe, there) for jefe in here)


def seat_corrections(
    table: TableView,
    number: int,
    seat: SeatView,
    *,
    taken_here: set[int],
    offered: dict[UUID, dict[int, Any]],
    former: dict[UUID, reads.FormerTable],
) -> tuple[dict[str, bool], dict[str, Any] | None]:
    """The corrections the seat's line offers (``undo_move``, ``fix_stack``),
    each only when its command would take it now, and where an undo sends the
    player back ({"table": number, "seat": n}), or None. The card is the same
    for every jefe who runs the sector, so an undo to another sector's table
    is offered only when each of them runs that sector too (``runs_both``)."""
    hand_in_play = table.hand_in_progress is not None
    offers = {
        "fix_stack": fix_stack_refusal(
            hand_in_play=hand_in_play, table_number=table.number, closed=table.status == "closed"
        )
        is None
    }
    moved = seat.moved_from or {}
    back: dict[str, Any] | None = None
    number_there, open_there, taken, hands_there = None, False, False, None
    reached = True  # the former table in reach of whoever runs this sector
    if moved:
        former_id = UUID(str(moved["table"]))
        back_seat = int(moved["seat"])
        if former_id == table.id:
            number_there, open_there = table.number, True
            taken = back_seat in taken_here
            hands_there = table.hands_played
        elif former_id in former:
            found = former[former_id]
            number_there, open_there = found.number, found.status != "closed"
            taken = back_seat in found.taken
            hands_there = found.hands_played
            # Another sector's table: only for a jefe who runs that one too.
            if found.sector_id != table.sector_id:
                reached = runs_both(table.sector.jefes or (), found.jefes)
        taken = taken or back_seat in offered.get(former_id, {})
        back = {"table": number_there, "seat": back_seat, "same_table": former_id == table.id}
    offers["undo_move"] = reached and (
        undo_refusal(
            number,
            seat,
            hand_in_play=hand_in_play,
            table_number=table.number,
            former_number=number_there,
            former_open=open_there,
            former_taken=taken,
            former_hands=hands_there,
        )
        is None
    )
    return offers, back if offers["undo_move"] else None


# --- what the jefe confirms -------------------------------------------------------------


def confirm_fix_stack(arguments: dict) -> str | None:
    """A stack fixed moves chips in the books (the table's differences take
    the difference): the seat, its stack before and after, asked first; None
    when no such seat (the command says why)."""
    seat = reads.seat_of(arguments.get("table_id"), arguments.get("player"))
    stack = arguments.get("stack_cents")
    if seat is None or not isinstance(stack, int) or stack == seat.stack_cents:
        return None
    return _(
        "Set the stack of seat %(seat)s (%(name)s) from %(before)s to %(after)s, as "
        "%(reason)s: the books take %(difference)s on the table's differences."
    ) % {
        "seat": seat.seat,
        "name": seat.player.display_name,
        "before": format_euros(seat.stack_cents),
        "after": format_euros(stack),
        "difference": ("+" if stack > seat.stack_cents else "")
        + format_euros(stack - seat.stack_cents),
        "reason": STACK_FIX_LABELS.get(arguments.get("reason_code"), ""),
    }


def confirm_undo_move(arguments: dict) -> str | None:
    """A move undone sends the player back with his stack: where, asked first;
    None when he has no move to undo (the command says why)."""
    seat = reads.seat_of(arguments.get("table_id"), arguments.get("player"))
    moved = (seat.moved_from or {}) if seat is not None else {}
    if not moved:
        return None
    if UUID(str(moved["table"])) == seat.table_id:
        return _("Send %(name)s back to seat %(seat)s of this table, as %(reason)s.") % {
            "name": seat.player.display_name,
            "seat": moved["seat"],
            "reason": UNDO_LABELS.get(arguments.get("reason_code"), ""),
        }
    former = reads.former_tables().get(UUID(str(moved["table"])))
    return _(
        "Send %(name)s back to table %(table)s, seat %(seat)s, with the stack (%(stack)s), "
        "as %(reason)s."
    ) % {
        "name": seat.player.display_name,
        "table": former.number if former else "?",
        "seat": moved["seat"],
        "stack": format_euros(seat.stack_cents),
        "reason": UNDO_LABELS.get(arguments.get("reason_code"), ""),
    }


def said_fixed(result: dict) -> str:
    return _("The stack is now %(stack)s (it was %(before)s).") % {
        "stack": format_euros(result.get("stack_cents", 0)),
        "before": format_euros(result.get("stack_before_cents", 0)),
    }


def said_undone(result: dict) -> str:
    return _("Back in seat %(seat)s.") % {"seat": result.get("seat")}
