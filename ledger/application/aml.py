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
from typing import Any
from uuid import UUID

from floor.kernel.errors import conflict, invalid
from floor.kernel.unit_of_work import UnitOfWork
from ledger.domain.gaming_day import GamingDay

BOUGHT = "bought"
CASHED = "cashed"

# How the money moved (the instrument): a purchase in cash, by card or by
# cheque; a cash-out in cash, by casino cheque or by transfer. Anything but
# cash goes through the casino's bank (ledger.domain.accounts, BANK).
CASH, CARD, CHEQUE, TRANSFER = "cash", "card", "cheque", "transfer"
PURCHASE_INSTRUMENTS = (CASH, CARD, CHEQUE)
PAYOUT_INSTRUMENTS = (CASH, CHEQUE, TRANSFER)


def _nobody_identified(player_id: str) -> bool:
    """Until the floor's record is plugged in, nobody is: the threshold refuses."""
    return False


_identified: list[Callable[[str], bool]] = [_nobody_identified]


def _nothing_brought_in(player_id: str, gaming_day: str) -> tuple[int, int]:
    """Until the books' read side is plugged in, nothing is known."""
    return 0, 0


_brought_in: list[Callable[[str, str], tuple[int, int]]] = [_nothing_brought_in]


def brought_in_by(read: Callable[[str, str], tuple[int, int]]) -> None:
    """Plugs in what a patron brought into a gaming day besides their chips
    bought at the cage: (cash paid at the tables that day, chips held off
    the tables at the day's open), from the books (ledger.apps)."""
    _brought_in[0] = read


def identified_by(check: Callable[[str], bool]) -> None:
    """Plugs in whether a patron is identified (ledger.apps)."""
    _identified[0] = check


def is_identified(player_id: object) -> bool:
    return _identified[0](UUID(str(player_id)).hex)


def check_instrument(value: object, allowed: tuple[str, ...], field: str) -> None:
    if value not in allowed:
        raise invalid("instrument_invalid", field=field, choices=list(allowed))


def instrument_payload(field: str, **defaults: object) -> Callable[..., dict[str, Any]]:
    """A cage command's fingerprint: its arguments with their defaults, the
    instrument left out when it is cash, so a command id given before the
    instruments existed repeats as it always did."""

    def payload(**arguments: object) -> dict[str, Any]:
        given = {**defaults, **arguments}
        if given.get(field, CASH) == CASH:
            given.pop(field, None)
        return given

    return payload


def instrument_of(reason_params: dict | None) -> str:
    """The instrument a booked cage entry recorded (cash when none)."""
    params = reason_params or {}
    return str(params.get("paid_by") or params.get("paid_as") or CASH)


def check_payout(
    work: UnitOfWork, gaming_day: GamingDay, player_id: object, paid_as: str, amount: int
) -> None:
    """A casino cheque or a transfer goes only to an identified patron, and
    (PT) a cheque only up to the chips the patron bought today by card or
    cheque, less the cheques already paid [ES: Ley 10/2010 art. 7.5; PT:
    Lei 83/2017]. Cash is the threshold's (``check_and_note``)."""
    if paid_as == CASH:
        return
    rule = work.profile.cage_identification
    player = UUID(str(player_id)).hex
    if rule.traceable_payouts_identified and not is_identified(player):
        code = "cheque_to_identified_only" if paid_as == CHEQUE else "transfer_to_identified_only"
        raise conflict(code, source=rule.source)
    if paid_as == CHEQUE and rule.cheque_up_to_card_or_cheque:
        by_card, cheques = gaming_day.patron_traceable(player)
        most = max(by_card - cheques, 0)
        if amount > most:
            raise conflict(
                "cheque_above_card_purchases",
                amount_cents=amount,
                most_cents=most,
                bought_by_card_cents=by_card,
                source=rule.source,
            )


def certify(
    work: UnitOfWork, gaming_day: GamingDay, player_id: object, amount: int
) -> tuple[str, dict]:
    """A certificate of winnings: to an identified patron only, and for no
    more than the day's result at the cage (cashed less bought, less the
    winnings already certified). Answers its number and the day's figures."""
    rule = work.profile.cage_identification
    player = UUID(str(player_id)).hex
    if rule.traceable_payouts_identified and not is_identified(player):
        raise conflict("certificate_to_identified_only", source=rule.source)
    at_cage, cashed = gaming_day.patron_totals(player)
    # Money brought in is not winnings: the cash paid in at the tables today,
    # and the chips held since an earlier day (read from the books once they
    # show every event recorded: ledger.patron_money).
    table_cash, carried = _brought_in[0](player, gaming_day.day)
    bought = at_cage + table_cash
    certified = gaming_day.certified(player)
    most = max(cashed - bought - carried - certified, 0)
    if amount > most:
        raise conflict(
            "winnings_above_day_result",
            amount_cents=amount,
            most_cents=most,
            bought_cents=bought,
            cashed_cents=cashed,
            carried_cents=carried,
            certified_cents=certified,
        )
    number = gaming_day.certify_winnings(player, amount)
    figures = {
        "bought_cents": bought,
        "cashed_cents": cashed,
        "carried_cents": carried,
        "certified_before_cents": certified,
    }
    return number, figures


def check_void(
    work: UnitOfWork, gaming_day: GamingDay, player_id: object, direction: str, amount: int,
    instrument: str,
) -> None:  # fmt: skip
    """A voided cage operation may not pull the ground from under what the
    cage gave on it: a cash-out behind a certificate of winnings (the day's
    result would fall below what was certified), a card or cheque purchase
    behind a Portuguese casino cheque (the cheques would pass what was
    bought by card or cheque [Lei 83/2017])."""
    player = UUID(str(player_id)).hex
    bought, cashed = gaming_day.patron_totals(player)
    certified = gaming_day.certified(player)
    if direction == CASHED and certified and cashed - amount - bought < certified:
        raise conflict("void_behind_a_certificate", certified_cents=certified)
    rule = work.profile.cage_identification
    if direction == BOUGHT and instrument in (CARD, CHEQUE) and rule.cheque_up_to_card_or_cheque:
        by_card, cheques = gaming_day.patron_traceable(player)
        if by_card - amount < cheques:
            raise conflict("void_behind_a_cheque", cheques_cents=cheques)


def check_and_note(
    work: UnitOfWork,
    gaming_day: GamingDay,
    player_id: object,
    direction: str,
    amount: int,
    instrument: str = CASH,
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
    gaming_day.note_patron_cage(player, direction, amount, instrument)


def direction_of(kind: str, reason_params: dict | None) -> str | None:
    """Which total a cage entry counts in, or None (not a patron's cage operation)."""
    if kind == "chips_sold":
        return BOUGHT
    if kind == "cash_out":
        return CASHED
    if kind == "buy_in" and (reason_params or {}).get("paid_with") == "cage":
        return BOUGHT
    return None
