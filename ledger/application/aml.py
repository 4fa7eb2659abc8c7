"""Money-laundering thresholds at the cage (issue 25, item 3).

A casino fully identifies whoever buys or cashes chips for 2,000 EUR or more,
in one operation or in linked ones [ES: Ley 10/2010 art. 7.5, as amended by
Real Decreto-ley 11/2018; PT: Lei 83/2017] (the profile's
``cage_identification``; the figures are to be confirmed against the texts).

Linked operations: a patron's cage operations of one gaming day, the cage's
open day every transaction is dated with (ledger.application.books). The
threshold is checked before an operation completes, with this operation
counted: at or above it, a patron not identified is refused
(``identification_required``) and nothing is recorded; the cage records the
patron's document (floor.compliance) and enters the operation again.

Purchases and cash-outs are summed each on their own, not together. The law
names both ("compren o vendan fichas por importe igual o superior a 2.000
euros"): each direction is an operation of its own kind, and that is the
common reading. Adding them would make a patron who buys 1,000 EUR and cashes
the same 1,000 EUR back an operation of 2,000 EUR that moved nothing, and
netting them would hide 5,000 bought and 5,000 cashed. Purchases are the
chips sold at the cage and the buy-ins paid at the cage (chips onto a seat for
cash given at the cage); cash-outs are the chips bought back. A voided entry
comes off its patron's total (it was booked by mistake: ledger.application.
corrections).

The totals are the day's own state (ledger.domain.gaming_day, event-sourced,
per patron), saved with the operation: two operations of one patron at once
cannot both pass on the same total, the second is decided again on the
first's (the command pipeline retries a collision). Whether a patron is
identified is read from the floor's record of documents (personal data,
outside the event log), plugged in by ledger.apps: this module imports no
Django (pyproject.toml, [tool.importlinter]).
"""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from floor.kernel.errors import conflict
from floor.kernel.unit_of_work import UnitOfWork
from ledger.domain.gaming_day import GamingDay

BOUGHT = "bought"
CASHED = "cashed"


def _nobody_identified(player_id: str) -> bool:
    """Until the floor's record is plugged in, nobody is: the threshold refuses."""
    return False


_identified: list[Callable[[str], bool]] = [_nobody_identified]


def identified_by(check: Callable[[str], bool]) -> None:
    """Plugs in whether a patron is identified (ledger.apps)."""
    _identified[0] = check


def is_identified(player_id: object) -> bool:
    return _identified[0](UUID(str(player_id)).hex)


def check_and_note(
    work: UnitOfWork, gaming_day: GamingDay, player_id: object, direction: str, amount: int
) -> None:
    """Refuses the operation when, with it, the patron's day total in its
    direction reaches the threshold and the patron is not identified;
    otherwise notes it on the day, to be saved with the operation."""
    rule = work.profile.cage_identification
    player = UUID(str(player_id)).hex
    bought, cashed = gaming_day.patron_totals(player)
    total = (bought if direction == BOUGHT else cashed) + amount
    threshold = rule.threshold_cents
    if threshold is not None and total >= threshold and not is_identified(player):
        raise conflict(
            "identification_required",
            direction=direction,
            total_cents=total,
            threshold_cents=threshold,
            source=rule.source,
        )
    gaming_day.note_patron_cage(player, direction, amount)


def direction_of(kind: str, reason_params: dict | None) -> str | None:
    """Which total a cage entry counts in, or None (not a patron's cage operation)."""
    if kind == "chips_sold":
        return BOUGHT
    if kind == "cash_out":
        return CASHED
    if kind == "buy_in" and (reason_params or {}).get("paid_with") == "cage":
        return BOUGHT
    return None
