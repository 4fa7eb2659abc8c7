"""The cage's printable papers: a transaction's receipt, a gaming day's close
report with the audit anchor the inspector keeps."""

from __future__ import annotations

from uuid import UUID

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from floor.kernel.web.access import console_read
from floor.ports import reads as floor_reads
from ledger import selectors as books
from ledger.reasons import transaction_reason

KIND_LABELS = {
    "float": _("Cage float"),
    "chips_sold": _("Chips sold"),
    "cash_out": _("Cash-out"),
    "buy_in": _("Buy-in"),
    "hand": _("Hand"),
    "time_charge": _("Time charge"),
    "stack_left": _("Stack off the table"),
    "stack_moved": _("Stack moved to another table"),
    "tip": _("Tip"),
    "hospitality": _("Hospitality"),
    "fill": _("Fill"),
    "credit": _("Credit"),
    "jackpot_seed": _("Jackpot starting amount"),
    "jackpot_bet": _("Jackpot stakes"),
    "jackpot_paid": _("Jackpot paid"),
    "drop": _("Day's drop"),
    "tips_paid": _("Tips paid out"),
    "adjustment": _("Count difference booked"),
    "stack_fix": _("Stack corrected"),
    "void": _("Entry voided"),
}


def _account_label(name: str, tables: dict, players: dict) -> str:
    kind, *parts = name.split(":")
    labels = {
        "cage_cash": _("Cage cash"),
        "cage_chips": _("Cage chips"),
        "tray": _("Tray"),
        "drop": _("Drop box"),
        "rake": _("Rake box"),
        "tips": _("Tip box"),
        "stack": _("Stack"),
        "player": _("Player's chips"),
        "jackpot": _("Jackpot fund"),
        "hospitality": _("Hospitality"),
        "external": _("Cash outside the room"),
        "equity": _("House"),
        "staff_tips": _("Staff tips"),
        "bank": _("Bank: cards, cheques and transfers"),
        "difference": _("Table differences"),
    }
    words = [str(labels.get(kind, kind))]
    for part in parts:
        ident = UUID(part)
        words.append(tables.get(ident) or players.get(ident) or part[:8])
    return " · ".join(words)


@console_read("transactions")
def receipt(request: HttpRequest, transaction_id: UUID) -> HttpResponse:
    """One transaction as a printable receipt: what moved, why, who, when; read
    as the transaction is (the cage's books; a jefe's tables' fills and credits)."""
    transaction = books.transaction(transaction_id)
    request.reader.check_transaction(transaction)
    ids = {UUID(p) for name in transaction.postings for p in name.split(":")[1:]}
    tables = {i: t.label for i, t in floor_reads.tables_by_id(ids).items()}
    players = {
        i: f"{p.display_name} ({p.card_number})" for i, p in floor_reads.players_by_id(ids).items()
    }
    lines = [
        {
            "account": _account_label(name, tables, players),
            "amount": amount,
        }
        for name, amount in transaction.postings.items()
    ]
    context = {
        "transaction": transaction,
        "total": sum(a for a in transaction.postings.values() if a > 0),
        "kind": KIND_LABELS.get(transaction.kind, transaction.kind),
        "lines": lines,
        "table": tables.get(transaction.table_id),
        "reason": transaction_reason(transaction),
        "player": players.get(transaction.player_id),
    }
    return render(request, "cage/receipt.html", context)


@console_read("cage")
def close_report(request: HttpRequest, day: str) -> HttpResponse:
    """A closed gaming day's report, to print and keep: each table's result,
    the cage's count, the differences and their reasons, and the audit anchor
    (the journal chain's head at the close, as the anchor file has it), so the
    inspector holds, on paper, what ``verify_log --anchor`` checks the log
    against (docs/reporting.md, "Audit: verify_log"). Read by the cage report's
    readers: management, the inspector and the cage."""
    gaming_day = books.closed_gaming_day(day)
    report = gaming_day.report or {}
    ids = {UUID(t) for t in report.get("tables", {})}
    names = {i: str(t) for i, t in floor_reads.tables_by_id(ids).items()}
    tables = [
        {"name": names.get(UUID(t), t[:8]), **figures}
        for t, figures in sorted(report.get("tables", {}).items())
    ]
    exceptions = [
        {**e, "label": _account_label(e["account"], names, {})}
        for e in report.get("exceptions", [])
    ]
    context = {
        "day": gaming_day,
        "tables": tables,
        "total": report.get("total_result_cents", 0),
        "cage": report.get("cage", {}),
        "exceptions": exceptions,
        "anchor": gaming_day.anchor,
    }
    return render(request, "cage/close_report.html", context)
