"""Every read of the ledger's read models (ledger.models), one plain function each.

The cage's API and console, the receipts, the floor's console and the reports
ask these; the serializers only shape what they are given. Each selector says
what it returns and for whom, and loads what its callers show in a fixed number
of queries.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from django.db.models import Q, QuerySet, Sum
from django.shortcuts import get_object_or_404

from floor.kernel.composition import TableMoney
from ledger.domain.accounts import rake_box
from ledger.models import AccountView, GamingDayView, JackpotView, TransactionView, TrayRequestView

# How many of the latest transactions the cage's console lists.
LATEST = 15


# --- accounts ---------------------------------------------------------------------------


def _matching(found: QuerySet, **given: Any) -> QuerySet:
    """``found`` narrowed by each filter given (a filter left None is no bound)."""
    return found.filter(**{name: value for name, value in given.items() if value})


def accounts(
    kind: str | None = None, table_id: Any = None, player_id: Any = None
) -> QuerySet[AccountView]:
    """Every account by name, or those of a kind, table or player: the API's
    account list (the reader narrows it)."""
    return _matching(AccountView.objects.all(), kind=kind, table_id=table_id, player_id=player_id)


def account(name: str) -> AccountView | None:
    """The account called ``name``, or None."""
    return AccountView.objects.filter(name=name).first()


def account_named(name: str) -> AccountView:
    """The account called ``name``; DoesNotExist when there is none (the report
    checked it exists)."""
    return AccountView.objects.get(name=name)


def account_exists(name: str) -> bool:
    """Whether the books have an account called ``name`` (the history report)."""
    return AccountView.objects.filter(name=name).exists()


def totals_in(names: list[str]) -> dict[str, int]:
    """Everything ever paid into each account of ``names`` that exists: the
    console shows each table's rake box so."""
    return dict(AccountView.objects.filter(name__in=names).values_list("name", "total_in_cents"))


def rake_by_table(table_ids: list[Any]) -> dict[Any, int]:
    """Table id -> everything ever paid into its rake box, for the tables whose
    box exists: the jefe's console shows it on each table."""
    boxes = {rake_box(table_id).name: table_id for table_id in table_ids}
    return {boxes[name]: cents for name, cents in totals_in(list(boxes)).items()}


def balances() -> dict[str, int]:
    """Every account's balance by name (the cage's position)."""
    return dict(AccountView.objects.values_list("name", "balance_cents"))


def chips_out_by_kind(kinds: list[str], cage_kind: str) -> dict[str, int]:
    """The chips held outside the cage, summed by account kind (the cage's position)."""
    outside = AccountView.objects.filter(kind__in=kinds).exclude(kind=cage_kind)
    return dict(
        outside.values("kind").annotate(total=Sum("balance_cents")).values_list("kind", "total")
    )


# --- transactions ---------------------------------------------------------------------


def transactions(
    gaming_day: Any = None, kind: str | None = None, table_id: Any = None, player_id: Any = None
) -> QuerySet[TransactionView]:
    """Every transaction, oldest first, or those of a gaming day, kind, table or
    player: the API's list (the reader narrows it, the API pages it)."""
    return _matching(
        TransactionView.objects.all(),
        gaming_day=gaming_day,
        kind=kind,
        table_id=table_id,
        player_id=player_id,
    )


def transactions_in(ids: list[Any]) -> QuerySet[TransactionView]:
    """The transactions of ``ids``: a cage command's answer lists those it posted."""
    return TransactionView.objects.filter(id__in=ids)


def transaction(transaction_id: Any) -> TransactionView:
    """One transaction (the API, a receipt); 404 when there is none."""
    return get_object_or_404(TransactionView, id=transaction_id)


def latest_transactions(count: int = LATEST) -> list[TransactionView]:
    """The last ``count`` transactions posted, newest first (the cage's console)."""
    return list(TransactionView.objects.order_by("-position")[:count])


def cage_postings_after(position: int) -> list[dict]:
    """The postings of every transaction after ``position`` that moved the
    cage's cash or chips: a gaming day's flows since its opening."""
    found = TransactionView.objects.filter(position__gt=position).filter(
        Q(postings__has_key="cage_cash") | Q(postings__has_key="cage_chips")
    )
    return list(found.values_list("postings", flat=True))


def booked_days(transaction_ids: list[Any]) -> dict[Any, str]:
    """The gaming day each transaction of ``transaction_ids`` was booked in."""
    found = TransactionView.objects.filter(id__in=transaction_ids)
    return dict(found.values_list("id", "gaming_day"))


def adjustments_of(command_ids: list[str]) -> list[tuple[str, Any]]:
    """(command id, transaction id) of each count difference booked by ``command_ids``."""
    found = TransactionView.objects.filter(kind="adjustment", command_id__in=command_ids)
    return list(found.values_list("command_id", "id"))


def booked_between(
    first_day: str | None, last_day: str | None, table_ids: Any = None
) -> list[tuple]:
    """(gaming day, kind, postings, amount, position, reason params) of every
    transaction booked from ``first_day`` to ``last_day`` (either open), of
    ``table_ids`` when given, in log order: the cage report adds up its days
    (a void's params name the kind of the entry it reversed)."""
    booked = TransactionView.objects.order_by("position")
    if first_day is not None:
        booked = booked.filter(gaming_day__gte=first_day)
    if last_day is not None:
        booked = booked.filter(gaming_day__lte=last_day)
    if table_ids is not None:
        booked = booked.filter(table_id__in=table_ids)
    return list(
        booked.values_list(
            "gaming_day", "kind", "postings", "amount_cents", "position", "reason_params"
        )
    )


# --- fills and credits, jackpots, gaming days ---------------------------------------


def tray_requests(status: str | None = None) -> QuerySet[TrayRequestView]:
    """Every fill and credit asked for, or those in ``status``: the API's list
    (the reader narrows it)."""
    return _matching(TrayRequestView.objects.all(), status=status)


def tray_requests_asked(start: Any = None, end: Any = None) -> list[Any]:
    """The ids of the fills and credits asked for in [start, end) (either
    open), by their indexed request time: the cage report's moves."""
    found = TrayRequestView.objects.all()
    if start is not None:
        found = found.filter(requested_at__gte=start)
    if end is not None:
        found = found.filter(requested_at__lt=end)
    return list(found.values_list("id", flat=True))


def gaming_days_between(first_day: str | None, last_day: str | None) -> QuerySet[GamingDayView]:
    """The gaming days from ``first_day`` to ``last_day`` (either open), by
    their indexed date: the cage report's days."""
    return _days_between(GamingDayView.objects.all(), first_day, last_day)


def gaming_days_open_during(start: Any = None, end: Any = None) -> list[str]:
    """The gaming days open at some moment of [start, end) (either open): those
    whose counts may have found a difference in that range."""
    found = GamingDayView.objects.all()
    if end is not None:
        found = found.filter(opened_at__lt=end)
    if start is not None:
        found = found.filter(Q(closed_at__isnull=True) | Q(closed_at__gte=start))
    return list(found.values_list("day", flat=True))


def _days_between(found: QuerySet, first_day: str | None, last_day: str | None) -> QuerySet:
    if first_day is not None:
        found = found.filter(day__gte=first_day)
    if last_day is not None:
        found = found.filter(day__lte=last_day)
    return found


def tray_request_ids_of(table_id: Any) -> QuerySet:
    """The ids of the fills and credits ever asked for a table (its history)."""
    return TrayRequestView.objects.filter(table_id=table_id).values_list("id", flat=True)


def pending_tray_requests() -> list[TrayRequestView]:
    """The fills and credits waiting for the cage, oldest first (its console)."""
    return list(TrayRequestView.objects.filter(status="pending").order_by("requested_at"))


def jackpots() -> list[JackpotView]:
    """Every progressive jackpot, each given ``fund_cents`` (its fund account's
    balance, 0 before it has one): two queries for all (JackpotSerializer)."""
    found = list(JackpotView.objects.all())
    funds = totals_of_balances([f"jackpot:{j.id.hex}" for j in found])
    for jackpot in found:
        jackpot.fund_cents = funds.get(f"jackpot:{jackpot.id.hex}", 0)
    return found


def totals_of_balances(names: list[str]) -> dict[str, int]:
    """The balance of each account of ``names`` that exists, by name."""
    return dict(AccountView.objects.filter(name__in=names).values_list("name", "balance_cents"))


def jackpot_tables() -> list[tuple[Any, list[str]]]:
    """(jackpot id, the ids of the tables it is fed by) of every jackpot: the
    console names the progressive a banked table feeds [GA art. 8b]."""
    return list(JackpotView.objects.values_list("id", "table_ids"))


def gaming_days() -> QuerySet[GamingDayView]:
    """Every gaming day, newest first (the API)."""
    return GamingDayView.objects.all()


def gaming_days_in_order() -> list[GamingDayView]:
    """Every gaming day, oldest first (the cage moves report dates requests by them)."""
    return list(GamingDayView.objects.order_by("day"))


def gaming_day(day: str) -> GamingDayView:
    """One gaming day (the API); 404 when there is none."""
    return get_object_or_404(GamingDayView, day=day)


def closed_gaming_day(day: str) -> GamingDayView:
    """One closed gaming day (its printed close report); 404 when there is none."""
    return get_object_or_404(GamingDayView, day=day, status="closed")


def current_gaming_day() -> GamingDayView | None:
    """The gaming day open or counted, or None (the cage's position)."""
    return GamingDayView.objects.filter(status__in=["open", "counted"]).first()


def last_closed_gaming_day() -> GamingDayView | None:
    """The latest gaming day closed, or None (the cage's console links its report)."""
    return GamingDayView.objects.filter(status="closed").order_by("-day").first()


def counted_accounts(kinds: list[str]) -> list[AccountView]:
    """The accounts of ``kinds`` the books know: what the cage counts at the close."""
    return list(AccountView.objects.filter(kind__in=kinds).order_by("name"))


class BooksOnTheFloor(TableMoney):
    """The money the floor's consoles show on a table, read from the books
    (declared by ledger.apps, floor.kernel.composition)."""

    def rake_in(self, table_ids: list[Any]) -> dict[Any, int]:
        return rake_by_table(table_ids)

    def jackpots_fed(self) -> list[tuple[Any, list[str]]]:
        return jackpot_tables()


# --- entries voided (ledger.application.corrections) -----------------------------------


def voided_among(ids: list[Any]) -> set[str]:
    """Which of these transactions were voided (their ids as hex)."""
    wanted = [UUID(str(i)).hex for i in ids]
    return set(
        TransactionView.objects.filter(kind="void", reference__in=wanted).values_list(
            "reference", flat=True
        )
    )


def voids(first_day: str | None = None, last_day: str | None = None) -> list[tuple]:
    """Every void, newest first, with the entry it voided: (void, original)
    pairs, in two queries; the days by their gaming day, both ends included."""
    found = TransactionView.objects.filter(kind="void").order_by("-position")
    if first_day:
        found = found.filter(gaming_day__gte=first_day)
    if last_day:
        found = found.filter(gaming_day__lte=last_day)
    found = list(found)
    originals = TransactionView.objects.in_bulk([UUID(v.reference) for v in found if v.reference])
    return [(v, originals.get(UUID(v.reference)) if v.reference else None) for v in found]


# --- the cage's money-laundering threshold (ledger.reports.aml) -------------------------

# The entries that are a patron's cage operations (ledger.application.aml.direction_of).
PATRON_CAGE_KINDS = ("chips_sold", "cash_out", "buy_in")


def patron_cage_operations(start: Any = None, end: Any = None) -> list[TransactionView]:
    """Every patron's chip purchases and cash-outs at the cage, oldest first,
    of the gaming days that had one booked in [start, end) (whole days: the
    threshold sums a day), voided entries and buy-ins at a table left out.
    Three queries."""
    found = TransactionView.objects.filter(kind__in=PATRON_CAGE_KINDS, player_id__isnull=False)
    in_range = found
    if start is not None:
        in_range = in_range.filter(at__gte=start)
    if end is not None:
        in_range = in_range.filter(at__lt=end)
    days = list(in_range.values_list("gaming_day", flat=True).distinct())
    rows = [
        t
        for t in found.filter(gaming_day__in=days).order_by("position")
        if t.kind != "buy_in" or (t.reason_params or {}).get("paid_with") == "cage"
    ]
    voided = voided_among([t.id for t in rows])
    return [t for t in rows if t.id.hex not in voided]


def winnings_certificates(start: Any = None, end: Any = None) -> list[tuple[str, dict]]:
    """The certificates of winnings given in [start, end) (by when each was
    given), oldest first, each with its gaming day. One query."""
    given = []
    for day in GamingDayView.objects.only("day", "certificates").order_by("day"):
        for certificate in day.certificates:
            at = datetime.fromisoformat(certificate["at"])
            if (start is None or at >= start) and (end is None or at < end):
                given.append((day.day, certificate))
    return given


def table_cash_buy_ins(player_id: str, gaming_day: str) -> int:
    """What a patron paid in cash at the tables on a gaming day, in cents
    (their buy-ins into a table's drop box, voided ones left out): money
    they brought in that a certificate of winnings must not call winnings
    (ledger.application.aml). Two queries."""
    found = [
        (t.id, t.amount_cents)
        for t in TransactionView.objects.filter(
            kind="buy_in", player_id=UUID(str(player_id)), gaming_day=gaming_day
        )
        if (t.reason_params or {}).get("paid_with") == "cash"
    ]
    voided = voided_among([i for i, _ in found])
    return sum(amount for i, amount in found if i.hex not in voided)


def chips_held_at_open(player_id: str, gaming_day: str) -> int:
    """The chips a patron held off the tables when ``gaming_day`` opened, in
    cents: what every entry on their chips account up to the day's opening
    left there (each names the patron: ledger.domain.floor_money, the cage).
    Chips they brought from an earlier day, which a certificate of winnings
    must not call today's winnings (ledger.application.aml). Two queries."""
    day = GamingDayView.objects.filter(day=gaming_day).only("opened_position").first()
    if day is None or day.opened_position is None:
        return 0
    account = f"player:{UUID(str(player_id)).hex}"
    found = TransactionView.objects.filter(
        player_id=UUID(str(player_id)), position__lte=day.opened_position
    ).values_list("postings", flat=True)
    return sum(postings.get(account, 0) for postings in found)


def cash_outs_of(player_ids: list[UUID], days: list[str]) -> dict[tuple[str, str], int]:
    """What the cage paid these players for their chips on these gaming days,
    voided cash-outs left out: (player as hex, day) -> cents (the players'
    rating, issue 26). Two queries."""
    if not player_ids or not days:
        return {}
    found = list(
        TransactionView.objects.filter(
            kind="cash_out", player_id__in=player_ids, gaming_day__in=days
        ).values_list("id", "player_id", "gaming_day", "amount_cents")
    )
    voided = voided_among([row[0] for row in found])
    paid: dict[tuple[str, str], int] = {}
    for transaction_id, player_id, day, amount in found:
        if transaction_id.hex not in voided:
            key = (player_id.hex, day)
            paid[key] = paid.get(key, 0) + amount
    return paid
