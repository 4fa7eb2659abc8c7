"""The cage's console actions: the money commands the consoles run, with the
form each is checked by (the cage API's serializers) and what the person reads
when it worked.

The consoles' door and their declaration of an action are the floor's
(floor.console.actions, ConsoleCommand); the ledger imports neither. It
declares a function that makes its actions with the class it is given
(floor.kernel.composition, ``add_console_actions``, in ledger.apps), and
names each command by its handler (floor.kernel.registry).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from floor.kernel.composition import TableJackpot
from floor.kernel.errors import DomainError
from floor.kernel.registry import COMMANDS
from floor.ports import reads as floor_reads
from floor.ports.money import money
from games.banked.common import SettlementError
from games.banked.jackpot import check_stake
from ledger import selectors as books
from ledger.api import serializers as ls
from ledger.domain.accounts import AccountRef, Kind
from ledger.domain.jackpot import prize_rules
from ledger.reasons import PARAM_LABELS
from ledger.views import KIND_LABELS


def euros(cents: int) -> str:
    """1250 -> "12,50 €", grouped, in the active language (as the pages write
    it: the floor's one format, floor.ports.money)."""
    return money(cents)


ACCOUNT_LABELS = {
    Kind.CAGE_CASH: gettext_lazy("Cage cash"),
    Kind.CAGE_CHIPS: gettext_lazy("Cage chips"),
    Kind.TRAY: gettext_lazy("Tray"),
    Kind.DROP: gettext_lazy("Drop box"),
    Kind.RAKE: gettext_lazy("Rake box"),
    Kind.TIPS: gettext_lazy("Tip box"),
}


def account_label(name: str) -> str:
    """A counted account in words: "Tray · Table 2 · Sector A", "Cage cash"."""
    ref = AccountRef.parse(name)
    words = [str(ACCOUNT_LABELS.get(ref.kind, ref.kind))]
    if ref.table_id:
        table = floor_reads.tables_by_id([UUID(str(ref.table_id))]).get(UUID(str(ref.table_id)))
        words.append(table.label if table is not None else str(ref.table_id)[:8])
    return " · ".join(words)


def counted_label(name: str) -> str:
    """A counted account named in the count's answer; its name when it names no
    account the books know (the command refused it already)."""
    try:
        return account_label(name)
    except DomainError:
        return name


def reason_label(code: str) -> str:
    """A count difference's reason code in words (ledger.reasons)."""
    return str(PARAM_LABELS["code"].get(code, code))


# --- what the cage confirms before the day's money moves ------------------------------


def confirm_explained(arguments: dict) -> str | None:
    """A count difference booked [GA art. 19.1]: the account, the count, the
    books and the difference the books take, with its reason; None when the
    day has no such difference waiting (the command says so)."""
    day = books.current_gaming_day()
    waiting = next(
        (
            e
            for e in (day.exceptions if day is not None else [])
            if e["account"] == arguments.get("account") and not e["reason_code"]
        ),
        None,
    )
    if waiting is None:
        return None
    return _(
        "Book the difference on %(account)s: counted %(counted)s, the books %(expected)s; "
        "the books take %(difference)s, as %(reason)s."
    ) % {
        "account": account_label(waiting["account"]),
        "counted": euros(waiting["counted_cents"]),
        "expected": euros(waiting["expected_cents"]),
        "difference": euros(waiting["difference_cents"]),
        "reason": reason_label(arguments.get("reason_code", "")),
    }


def confirm_close(arguments: dict) -> str | None:
    """The gaming day's close: the boxes' cash and chips into the cage, the
    tips paid out to the staff; None when no day is counted (the command says
    what is missing)."""
    day = books.current_gaming_day()
    if day is None or day.status != "counted":
        return None
    balances = books.balances()

    def total(*kinds: Kind) -> int:
        return sum(cents for name, cents in balances.items() if AccountRef(name).kind in kinds)

    return _(
        "Close the gaming day %(day)s: the drop boxes' cash (%(cash)s) and the rake, tip "
        "and hospitality chips (%(chips)s) go to the cage, and %(tips)s of tips are paid "
        "out to the staff. A closed day is never opened again."
    ) % {
        "day": day.day,
        "cash": euros(total(Kind.DROP)),
        "chips": euros(total(Kind.RAKE, Kind.TIPS, Kind.HOSPITALITY)),
        "tips": euros(total(Kind.TIPS)),
    }


def confirm_float(arguments: dict) -> str | None:
    """The house's float put into the cage [GA art. 19.1; CM "Personal"]: the
    cash and the chips, asked before the books take them."""
    return _("Put %(cash)s of cash and %(chips)s of chips into the cage, from the house.") % {
        "cash": euros(arguments.get("cash_cents", 0)),
        "chips": euros(arguments.get("chips_cents", 0)),
    }


def jackpot_named(jackpot_id: object) -> Any:
    """The jackpot of ``jackpot_id`` with its fund, or None (the command says so)."""
    return next((j for j in books.jackpots() if str(j.id) == str(jackpot_id)), None)


def confirm_create_jackpot(arguments: dict) -> str | None:
    """A jackpot's fund is brought to its starting amount from the cage's
    chips [GA art. 8b; PT-SD 10]: the name, the seed and the stake asked first."""
    return _(
        "Create the jackpot %(name)s: %(seed)s of the cage's chips go to its fund; "
        "each hand stakes %(stake)s."
    ) % {
        "name": arguments.get("name", ""),
        "seed": euros(arguments.get("seed_cents", 0)),
        "stake": euros(arguments.get("stake_cents", 0)),
    }


def confirm_stake_jackpot(arguments: dict) -> str | None:
    """A hand's jackpot stakes go from the seats' stacks into the fund [GA art.
    8b; PT-SD 8]: each seat's stake and their total asked first."""
    stakes = arguments.get("stakes") or {}
    return _("Stake %(total)s on the jackpot: %(stakes)s.") % {
        "total": euros(sum(stakes.values())),
        "stakes": said_by_seat(stakes),
    }


def said_by_seat(cents_by_seat: dict) -> str:
    """``{"3": 100}`` in words: "seat 3 1,00 €", seat by seat."""
    return ", ".join(
        _("seat %(seat)s %(amount)s") % {"seat": seat, "amount": euros(cents)}
        for seat, cents in sorted(cents_by_seat.items(), key=lambda s: (len(str(s[0])), str(s[0])))
    )


def said_staked(result: dict) -> str:
    return _("Staked: %(stakes)s.") % {"stakes": said_by_seat(result.get("stakes") or {})}


def confirm_pay_jackpot(arguments: dict) -> str | None:
    """A jackpot paid to the seats named, by the settlement rules [PT-SD 12;
    GA art. 8b]: the winners, and the fund as the books have it, asked first
    (always: it moves money; a jackpot the books do not know yet is asked
    without its fund, and the command then says whether it exists)."""
    winners = ", ".join(
        _("seat %(seat)s, %(hand)s") % {"seat": seat, "hand": hand_label(hand)}
        for seat, hand in sorted(
            (arguments.get("winners") or {}).items(), key=lambda w: (len(str(w[0])), str(w[0]))
        )
    )
    jackpot = jackpot_named(arguments.get("jackpot_id"))
    if jackpot is None:
        return _("Pay the jackpot to %(winners)s.") % {"winners": winners}
    return _(
        "Pay the jackpot %(name)s (its fund: %(fund)s) to %(winners)s; the fund is "
        "brought back to %(seed)s from the cage's chips if it falls below."
    ) % {
        "name": jackpot.name,
        "fund": euros(jackpot.fund_cents),
        "winners": winners,
        "seed": euros(jackpot.seed_cents),
    }


def said_jackpot_paid(result: dict) -> str:
    return _("Prizes: %(prizes)s; the fund now %(fund)s.") % {
        "prizes": said_by_seat(result.get("prizes") or {}),
        "fund": euros(result.get("fund_after_cents", 0)),
    }


# The hands a jackpot pays, in words (games.hands.Category).
HAND_LABELS = {
    "royal_flush": gettext_lazy("royal flush"),
    "straight_flush": gettext_lazy("straight flush"),
    "four_of_a_kind": gettext_lazy("four of a kind"),
    "full_house": gettext_lazy("full house"),
    "flush": gettext_lazy("flush"),
}


def hand_label(code: object) -> str:
    return str(HAND_LABELS.get(str(code), code))


def jackpots_at_tables(tables: Sequence[Any]) -> dict[Any, list[TableJackpot]]:
    """Table id -> the progressive jackpots it plays for, as the table card
    offers their stake and prize forms [GA art. 8b; PT-SD 8, 12]: whether the
    jackpot's own rule takes its stake at the table's minimum (the check
    ``stake_jackpot`` makes, ledger.domain.jackpot), the hands it pays, and
    whether a gaming day is open to book a prize (``pay_jackpot`` needs one).
    Declared in ledger.apps (floor.kernel.composition, ``show_table_jackpots``)."""
    if not tables:
        return {}
    found = books.jackpots()
    if not found:
        return {}
    day_open = books.current_gaming_day() is not None
    by_table: dict[Any, list[TableJackpot]] = {}
    for jackpot in found:
        rules = prize_rules(jackpot.scheme, jackpot.stake_cents)
        prizes = tuple((p.category.value, hand_label(p.category.value)) for p in rules.prizes)
        for table in tables:
            if str(table.id) not in jackpot.table_ids:
                continue
            try:
                check_stake(rules, jackpot.stake_cents, table.minimum_cents)
                allowed = True
            except SettlementError:
                allowed = False
            by_table.setdefault(table.id, []).append(
                TableJackpot(
                    id=jackpot.id,
                    name=jackpot.name,
                    stake_cents=jackpot.stake_cents,
                    stake_allowed=allowed,
                    prizes=prizes,
                    pays_now=day_open,
                )
            )
    return by_table


def said_count(result: dict) -> str:
    """The count's differences, or none."""
    waiting = [e for e in result.get("exceptions", []) if not e["reason_code"]]
    if not waiting:
        return _("No difference: the gaming day may close.")
    return _("Differences to explain: %(accounts)s.") % {
        "accounts": "; ".join(
            f"{account_label(e['account'])} {euros(e['difference_cents'])}" for e in waiting
        )
    }


def said_explained(result: dict) -> str:
    return _("Booked: %(amount)s.") % {"amount": euros(result.get("difference_cents", 0))}


def said_certificate(result: dict) -> str:
    """The certificate's number and amount, to write on the printed form."""
    return _("Certificate %(number)s: %(amount)s of winnings on gaming day %(day)s.") % {
        "number": result.get("certificate", ""),
        "amount": euros(result.get("amount_cents", 0)),
        "day": result.get("gaming_day", ""),
    }


def said_closed(result: dict) -> str:
    report = result.get("report") or {}
    return _("The day's result: %(amount)s. Its report is ready to print.") % {
        "amount": euros(report.get("total_result_cents", 0))
    }


def confirm_void(arguments: dict) -> str | None:
    """A void reverses an entry's money (ANCHORS.md item 8): the entry, its
    amount, who booked it and when, asked first; None when there is no such
    entry (the command says so)."""
    try:
        found = books.transactions_in([UUID(str(arguments.get("transaction_id")))]).first()
    except ValueError:
        return None
    if found is None:
        return None
    return _(
        "Void the %(kind)s of %(amount)s booked by %(actor)s at %(time)s, as %(reason)s: "
        "a new entry reverses it; the original stays on record, marked voided."
    ) % {
        "kind": str(KIND_LABELS.get(found.kind, found.kind)).lower(),
        "amount": euros(found.amount_cents),
        "actor": found.actor,
        "time": localtime(found.at).strftime("%H:%M"),
        "reason": reason_label(arguments.get("reason_code", "")),
    }


def said_voided(result: dict) -> str:
    return _("Reversed: %(amount)s.") % {"amount": euros(result.get("amount_cents", 0))}


def cage_actions(action: Callable[..., Any]) -> list[Any]:
    """The cage's console actions, each made by ``action`` (the consoles'
    ConsoleCommand): a tray move asked and answered at the table, chips sold,
    bought in and cashed out at the cage; the gaming day opened, counted,
    its differences explained and closed [GA art. 19.1]; a progressive
    jackpot created and seeded by the director, staked and paid at its table
    [GA art. 8b; PT-SD 10, 12] (what books money without an amount typed is
    confirmed first)."""
    return [
        action(
            COMMANDS.request_tray_move,
            ls.TrayMoveSerializer,
            gettext_lazy("The cage is asked."),
            ("table_id",),
        ),
        action(
            COMMANDS.confirm_tray_move,
            ls.CommandSerializer,
            gettext_lazy("The tray move is confirmed."),
            ("request_id",),
        ),
        action(
            COMMANDS.cancel_tray_move,
            ls.CancelTrayMoveSerializer,
            gettext_lazy("The request is cancelled."),
            ("request_id",),
        ),
        action(
            COMMANDS.fund_cage,
            ls.FundCageSerializer,
            gettext_lazy("The float is in the cage."),
            confirm=confirm_float,
        ),
        action(COMMANDS.sell_chips, ls.SellChipsSerializer, gettext_lazy("The chips are sold.")),
        action(
            COMMANDS.buy_in_at_cage, ls.CageBuyInSerializer, gettext_lazy("The buy-in is paid.")
        ),
        action(COMMANDS.cash_out, ls.CashOutSerializer, gettext_lazy("The chips are cashed out.")),
        action(
            COMMANDS.certify_winnings,
            ls.WinningsCertificateSerializer,
            gettext_lazy("The certificate of winnings is recorded."),
            summary=said_certificate,
        ),
        # the gaming day
        action(
            COMMANDS.open_gaming_day,
            ls.OpenGamingDaySerializer,
            gettext_lazy("The gaming day is open."),
        ),
        action(
            COMMANDS.count_gaming_day,
            ls.CountSerializer,
            gettext_lazy("The count is recorded."),
            summary=said_count,
            read_label=counted_label,
        ),
        action(
            COMMANDS.explain_difference,
            ls.ExplainSerializer,
            gettext_lazy("The difference is explained."),
            summary=said_explained,
            confirm=confirm_explained,
        ),
        action(
            COMMANDS.close_gaming_day,
            ls.CommandSerializer,
            gettext_lazy("The gaming day is closed."),
            summary=said_closed,
            confirm=confirm_close,
        ),
        # an entry booked by mistake, voided with its reason (issue 22), confirmed first
        action(
            COMMANDS.void_entry,
            ls.VoidEntrySerializer,
            gettext_lazy("The entry is voided."),
            ("transaction_id",),
            summary=said_voided,
            confirm=confirm_void,
        ),
        # progressive jackpots [GA art. 8b; PT-SD 10, 12]
        action(
            COMMANDS.create_jackpot,
            ls.CreateJackpotSerializer,
            gettext_lazy("The jackpot is created and its fund seeded."),
            lists=("table_ids",),
            confirm=confirm_create_jackpot,
        ),
        action(
            COMMANDS.stake_jackpot,
            ls.JackpotStakesSerializer,
            gettext_lazy("The jackpot stakes are in."),
            ("jackpot_id",),
            summary=said_staked,
            confirm=confirm_stake_jackpot,
        ),
        action(
            COMMANDS.pay_jackpot,
            ls.JackpotWinnersSerializer,
            gettext_lazy("The jackpot is paid."),
            ("jackpot_id",),
            summary=said_jackpot_paid,
            confirm=confirm_pay_jackpot,
        ),
    ]
