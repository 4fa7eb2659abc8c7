"""The cage's console (Caja): a player found by card, the cage's money
commands, the fills and credits waiting for it, the gaming day's position and
the latest transactions with their receipts.

The page is rendered once; htmx then asks ``/cage/live/`` for the live part
every ``FLOOR_CONSOLE_POLL_MS`` and morphs it in, as the jefe's console does
(floor.kernel.web.live): 204 while nothing the cage shows has changed (the
``cage`` marks: the books, the players, the tables). Every form posts to the consoles' one command
door (floor.console.commands); the domain checks the roles, the page only hides
the forms a role cannot use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode

from floor.kernel.registry import COMMANDS
from floor.kernel.web.access import console_read
from floor.kernel.web.gateway import actor_for
from floor.kernel.web.live import CAGE, log_position, server_now, stamp
from floor.ports import compliance as floor_compliance
from floor.ports import reads as floor_reads
from floor.ports.tables import buy_in_void_refusal
from ledger import selectors as books
from ledger.api.views import cage_position
from ledger.console_actions import ACCOUNT_LABELS, account_label, reason_label
from ledger.domain.accounts import Kind, player_chips
from ledger.domain.gaming_day import COUNTED_KINDS, REASON_CODES
from ledger.domain.voids import VOID_REASONS, at_the_cage, void_refusal
from ledger.reasons import transaction_reason
from ledger.views import KIND_LABELS

if TYPE_CHECKING:  # the floor's read models as types; the floor's port reads them
    from floor.ports.reads import PlayerView, TableView

# The commands whose forms the page shows to whoever may run them.
CAGE_COMMANDS = tuple(
    COMMANDS.name_of(handler)
    for handler in (
        COMMANDS.fund_cage,
        COMMANDS.sell_chips,
        COMMANDS.buy_in_at_cage,
        COMMANDS.cash_out,
        COMMANDS.certify_winnings,
        COMMANDS.confirm_tray_move,
        COMMANDS.cancel_tray_move,
        COMMANDS.open_gaming_day,
        COMMANDS.count_gaming_day,
        COMMANDS.explain_difference,
        COMMANDS.close_gaming_day,
        COMMANDS.create_jackpot,
        COMMANDS.void_entry,
    )
)
# The floor's commands the cage's page offers to whoever may run them
# (issue 25): the identity document, a self-exclusion and its lifting.
FLOOR_FORMS = ("record_identity", "exclude_self", "lift_self_exclusion")
# How many voided entries the console lists (the report has them all).
LISTED_VOIDS = 20
# What the cage counts at the close, by table, in the order the sheet has them.
TABLE_KINDS = (Kind.TRAY, Kind.DROP, Kind.RAKE, Kind.TIPS)


def find_player(card: str) -> PlayerView | None:
    """The player holding ``card`` (exact, case-insensitive), or None."""
    card = card.strip()
    if not card or len(card) > 40 or not card.isprintable():
        return None  # no card number is that long or holds a control character (a NUL: a 500)
    return floor_reads.player_by_card(card)


def player_facts(player: PlayerView) -> dict[str, Any]:
    """What the cage needs to know of a player: where they sit, their chips."""
    account = books.account(player_chips(player.id).name)
    return {
        "view": player,
        "seat": floor_reads.seat_of(player.id),
        "chips_cents": account.balance_cents if account else 0,
        # A self-exclusion in force, and from when it may be lifted (issue 25).
        "self_exclusion": floor_compliance.self_exclusion_of(player.id),
    }


def table_labels(ids: set[UUID]) -> dict[UUID, TableView]:
    return floor_reads.tables_by_id(ids)


def pending_requests() -> list[dict[str, Any]]:
    """The fills and credits the jefes asked for, oldest first."""
    pending = books.pending_tray_requests()
    labels = table_labels({r.table_id for r in pending})
    return [{"view": r, "table": labels.get(r.table_id)} for r in pending]


def latest_transactions() -> list[dict[str, Any]]:
    """The last transactions posted, newest first, each with its receipt,
    whether it was voided, and whether a void would be taken now (the
    command's own check, ledger.domain.voids: the button and the command
    cannot disagree)."""
    latest = books.latest_transactions()
    labels = table_labels({t.table_id for t in latest if t.table_id})
    names = floor_reads.players_by_id({t.player_id for t in latest})
    may_void = voidable(latest)
    voided = books.voided_among([t.id for t in latest])
    return [
        {
            "view": t,
            "kind": KIND_LABELS.get(t.kind, t.kind),
            "reason": transaction_reason(t),
            "table": labels.get(t.table_id),
            "player": names.get(t.player_id),
            "receipt": reverse("receipt", args=[t.id]),
            "voided": t.id.hex in voided,
            "voidable": t.id in may_void,
        }
        for t in latest
    ]


def voidable(found: list[Any]) -> set[UUID]:
    """Which of these transactions ``void_entry`` would void now."""
    day = books.current_gaming_day()
    voided = books.voided_among([t.id for t in found])
    balances = books.totals_of_balances(sorted({n for t in found for n in t.postings}))
    return {
        t.id
        for t in found
        if void_refusal(
            kind=t.kind,
            gaming_day=t.gaming_day,
            voided=t.id.hex in voided,
            open_day=day.day if day is not None else None,
            day_counted=day is not None and day.status != "open",
            postings=t.postings,
            balances=balances,
            reason_params=t.reason_params,
            at_table=seat_refusal(t) if at_the_cage(t.kind, t.reason_params) else None,
        )
        is None
    }


def seat_refusal(buy_in: Any) -> Any:
    """Why a buy-in paid at the cage cannot come off its seat now, from the
    floor's read models (the floor's own check, floor.ports.tables)."""
    seat = floor_reads.seat_of(buy_in.player_id)
    here = seat is not None and seat.table_id == buy_in.table_id
    table = seat.table if here else floor_reads.tables_by_id([buy_in.table_id]).get(buy_in.table_id)
    return buy_in_void_refusal(
        seated_here=here,
        stack=seat.stack_cents if here else 0,
        amount=buy_in.amount_cents,
        hand_in_play=table is not None and table.hand_in_progress is not None,
        table_number=table.number if table is not None else 0,
        closed=table is None or table.status == "closed",
    )


def voided_entries() -> list[dict[str, Any]]:
    """The entries voided, newest first: who voided which entry, when and
    why (ANCHORS.md item 8); the cage, the director and the inspector read it."""
    pairs = books.voids()
    return [
        {
            "void": void,
            "original": original,
            "kind": KIND_LABELS.get(original.kind, original.kind) if original else "",
            "reason": transaction_reason(void),
            "receipt": reverse("receipt", args=[void.id]),
            "original_receipt": reverse("receipt", args=[original.id]) if original else "",
        }
        for void, original in pairs[:LISTED_VOIDS]
    ]


def jackpots() -> list[dict[str, Any]]:
    """Every progressive jackpot with its fund, its starting amount, its stake
    and the tables that feed it [GA art. 8b; PT-SD 10]."""
    found = books.jackpots()
    ids = {UUID(str(t)) for j in found for t in j.table_ids}
    labels = table_labels(ids)
    return [
        {
            "view": j,
            "ids": {UUID(str(t)) for t in j.table_ids},
            "table_labels": [
                labels[UUID(str(t))].label if UUID(str(t)) in labels else str(t)[:8]
                for t in j.table_ids
            ],
        }
        for j in found
    ]


def count_sheet() -> dict[str, Any]:
    """The close's count sheet: a row per table the books know with its tray,
    drop, rake and tip boxes, and the cage's own cash and chips (docs/ledger.md, "The gaming
    day"). The books' figures are not shown: the cage counts blind."""
    found = books.counted_accounts([k.value for k in COUNTED_KINDS])
    tables = {account.table_id for account in found if account.table_id is not None}
    labels = table_labels(tables)
    rows = [
        {
            "label": labels[t].label if t in labels else str(t)[:8],
            "accounts": [(ACCOUNT_LABELS[kind], f"{kind}:{t.hex}") for kind in TABLE_KINDS],
        }
        for t in sorted(tables, key=lambda t: labels[t].label if t in labels else str(t))
    ]
    return {"tables": rows}


def gaming_day_context() -> dict[str, Any]:
    """The gaming day as the cage works it [GA art. 19.1]: open it; count it;
    explain each difference with its reason code; close it; then its report."""
    day = books.current_gaming_day()
    exceptions = [
        {
            **e,
            "label": account_label(e["account"]),
            "reason": reason_label(e["reason_code"]) if e["reason_code"] else "",
        }
        for e in (day.exceptions if day else [])
    ]
    waiting = [e for e in exceptions if not e["reason_code"]]
    return {
        "day": day,
        "counted": day is not None and day.status == "counted",
        "exceptions": exceptions,
        "waiting": waiting,
        "may_close": day is not None and day.status == "counted" and not waiting,
        "sheet": count_sheet() if day is not None else None,
        "reasons": [(code, reason_label(code)) for code in REASON_CODES],
        "last_closed": books.last_closed_gaming_day(),
    }


def with_card(url_name: str, card: str) -> str:
    """The console's own address (or its live part's) for the player of ``card``."""
    url = reverse(url_name)
    return f"{url}?{urlencode({'card': card})}" if card else url


def live_context(user: Any, card: str, position: str | None = None) -> dict[str, Any]:
    """Everything the live part of the cage's console shows. The position is
    read before anything shown (or passed in, read so): a confirmation answered
    while the page is read is never claimed as shown, so the next poll brings it."""
    position = position or log_position(CAGE)
    player = find_player(card)
    actor = actor_for(user)
    return {
        "card": card,
        # Not "player": the command forms' include would take it for their hidden field.
        "found": player_facts(player) if player else None,
        "requests": pending_requests(),
        "cage": cage_position(),
        "transactions": latest_transactions(),
        "open_tables": floor_reads.open_tables(),
        "jackpots": jackpots(),
        "voids": voided_entries(),
        "void_reasons": [(code, reason_label(code)) for code in VOID_REASONS],
        "gaming_day": gaming_day_context(),
        # What the actor may run here; the patron's identity form is the
        # floor's command (issue 25), offered to whoever may record it.
        # So are the self-exclusion (the desk's or the cage's) and its lifting
        # (the director's).
        "may": {name: COMMANDS.may(actor, name) for name in (*CAGE_COMMANDS, *FLOOR_FORMS)},
        "position": position,
        "server_now": server_now(),
        "back": with_card("cage-console", player.card_number if player else ""),
    }


@console_read("cage")
def console(request: HttpRequest) -> HttpResponse:
    """GET /cage/ (?card=): the cage's console; a card not found is said inline (200)."""
    card = request.GET.get("card", "").strip()
    context = live_context(request.user, card)
    found = context["found"]
    context.update(
        {
            "not_found": bool(card) and found is None,
            "poll_ms": settings.FLOOR_CONSOLE_POLL_MS,
            "live_url": with_card("cage-live", found["view"].card_number if found else ""),
        }
    )
    return stamp(render(request, "cage/console.html", context), context["position"])


@console_read("cage")
def live(request: HttpRequest) -> HttpResponse:
    """GET /cage/live/ (?card=&since=): the live part, or 204 when nothing changed."""
    position = log_position(CAGE)
    if request.GET.get("since") == position:
        return stamp(HttpResponse(status=204), position)
    context = live_context(request.user, request.GET.get("card", "").strip(), position)
    return stamp(render(request, "cage/_live.html", context), context["position"])
