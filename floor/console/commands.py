"""One door for every button and short form of the consoles.

A console form posts to ``/console/commands/<name>/``. Its fields are checked
by the same serializer the API uses for that command (so the console cannot
accept what the API refuses), after ``form_data`` has turned what a person
types into the API's shapes: euros typed the way the person's language
writes them into cents (floor.amounts), ``winnings_eur.3`` into
``{"winnings": {"3": cents}}``, ticked boxes into lists. Every answer to a form
with euros says what they were read as ("Read: 1.000,00 EUR.").

An amount above the usual for its form (``settings.FLOOR_CONFIRM_ABOVE_CENTS``)
is first answered 428 ``amount_needs_confirmation`` with the amount read, and
nothing is recorded; the console shows it with a confirm button and posts the
form again with ``confirm_cents``, and the command runs only if those cents
equal what the form reads as now.

The console's script posts with ``Accept: application/json`` and shows the
answer inline beside the form; without the script the page reloads and the
answer is a message at its top. A refusal records nothing either way.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from rest_framework import serializers

from floor.amounts import Amount, AmountError, format_euros, parse_euros
from floor.api import serializers as s
from floor.application.catalogue import COMMANDS as REGISTRY
from floor.application.catalogue import FloorApplication as App
from floor.gateway import ReadModelsBehind, ServiceUnavailable, ask, perform
from floor.kernel.errors import DomainError
from floor.messages import STATUS_BY_KIND, describe, message_for
from ledger.api import serializers as ls


@dataclass(frozen=True)
class ConsoleCommand:
    """A floor command as the consoles run it: its handler (whose declaration
    names the command and says who may run it, floor.kernel.registry)
    and the console's own parts, the form and what the person reads."""

    handler: Callable[..., Any]
    body: type[serializers.Serializer]
    done: Any  # what the person reads when it worked (lazy, translated)
    scope: tuple[str, ...] = ()  # ids the form carries as hidden fields
    lists: tuple[str, ...] = ()  # fields whose several values form a list
    prepare: Callable[[dict], dict] = field(default=lambda data: data)
    # A command whose answer is computed before it is confirmed: this command
    # previews it (recording nothing), and ``summary`` says it in words.
    preview: Callable[..., Any] | None = None
    summary: Callable[[dict], str] | None = None
    # A question that records nothing (the settlement's preview): answered with
    # what it computed, said in words; no command id, nothing to wait for.
    asks: bool = False

    @property
    def name(self) -> str:
        """The command's name, as its handler's declaration gives it."""
        return REGISTRY.spec_of(self.handler).name

    @property
    def preview_name(self) -> str | None:
        return None if self.preview is None else REGISTRY.spec_of(self.preview).name


def by_name(*commands: ConsoleCommand) -> dict[str, ConsoleCommand]:
    """The console's commands by the names their handlers declare."""
    return {command.name: command for command in commands}


class ScopeSerializer(serializers.Serializer):
    """The ids a console form carries beside the command's own fields."""

    table_id = serializers.UUIDField(required=False)
    sector_id = serializers.UUIDField(required=False)
    group_id = serializers.UUIDField(required=False)
    request_id = serializers.UUIDField(required=False)
    jackpot_id = serializers.UUIDField(required=False)
    player = serializers.CharField(max_length=40, required=False)


def _draw_this_table(data: dict) -> dict:
    data["table_ids"] = [data.pop("table_id")]
    return data


def _banked_form(data: dict) -> dict:
    """The console's banked-hand form (``ante_eur.3``, ``play.3``, ``cards.3``
    ...) as the API's body: a box for each seat with an ante or a bet."""
    seats = sorted({*data.get("ante", {}), *data.get("bet", {})}, key=lambda k: (len(k), k))
    boxes = {}
    for seat in seats:
        box: dict[str, Any] = {}
        if seat in data.get("ante", {}):
            box["ante_cents"] = data["ante"][seat]
            box["call"] = data.get("play", {}).get(seat, "fold") == "call"
        if seat in data.get("bet", {}):
            box["bet_cents"] = data["bet"][seat]
        for name, key in (("insurance", "insurance_cents"), ("jackpot", "jackpot_cents")):
            if data.get(name, {}).get(seat):
                box[key] = data[name][seat]
        for name in ("cards", "high", "low", "first_five"):
            if data.get(name, {}).get(seat):
                box[name] = data[name][seat]
        if "first_five" in box:
            box["extra_card"] = True
        took = data.get("took_back", {}).get(seat, "none")
        if took != "none":
            box["took_back"] = [int(n) for n in took.split(",")]
        boxes[seat] = box
    bank = {
        name: data.pop(f"bank_{name}")
        for name in ("cards", "common", "high", "low")
        if data.get(f"bank_{name}")
    }
    prepared = {"table_id": data["table_id"], "boxes": boxes, "bank": bank}
    if data.get("jackpot_id"):
        prepared["jackpot_id"] = str(data["jackpot_id"])
    return prepared


def _signed(cents: int) -> str:
    return ("+" if cents > 0 else "") + format_euros(cents)


def banked_summary(result: dict) -> str:
    """A banked hand's settlement in words: each box, the bank, the house's
    commission and the jackpot [GA art. 6-16; PT-SD; PG]."""
    parts = [
        _("Box %(seat)s: %(amount)s") % {"seat": seat, "amount": _signed(box["net_cents"])}
        for seat, box in sorted(result["boxes"].items(), key=lambda kv: int(kv[0]))
    ]
    bank = result.get("bank", {})
    if bank.get("qualifies") is False:
        parts.append(_("the bank does not play (below ace-king)"))
    parts.append(_("bank %(amount)s") % {"amount": _signed(result["bank_cents"])})
    if result.get("commission_cents"):
        parts.append(
            _("commission %(amount)s") % {"amount": format_euros(result["commission_cents"])}
        )
    jackpot = result.get("jackpot") or {}
    if jackpot.get("won_cents"):
        parts.append(
            _("jackpot prizes %(amount)s") % {"amount": format_euros(jackpot["won_cents"])}
        )
    return "; ".join(parts) + "."


def settlement_digest(result: dict) -> str:
    """What the person confirms: the settlement as previewed (a changed form
    or floor gives another and is asked again)."""
    seen = {k: v for k, v in result.items() if k in ("boxes", "bank", "bank_cents", "jackpot")}
    body = json.dumps(seen, sort_keys=True, default=str)
    return str(int(hashlib.sha256(body.encode()).hexdigest()[:12], 16))


COMMANDS: dict[str, ConsoleCommand] = by_name(
    # players and the waiting lists
    ConsoleCommand(
        App.register_player, s.RegisterPlayerSerializer, gettext_lazy("The player is registered.")
    ),
    ConsoleCommand(
        App.join_waiting_list, s.GameSerializer, gettext_lazy("The player is on the list.")
    ),
    ConsoleCommand(
        App.leave_waiting_list, s.LeaveListSerializer, gettext_lazy("The player left the list.")
    ),
    ConsoleCommand(
        App.bar_player, s.BarPlayerSerializer, gettext_lazy("The player is barred."), ("player",)
    ),
    ConsoleCommand(
        App.lift_bar, s.CommandSerializer, gettext_lazy("The player may play again."), ("player",)
    ),
    ConsoleCommand(
        App.keep_apart,
        s.KeepApartSerializer,
        gettext_lazy("The two players are kept apart."),
        ("player",),
    ),
    ConsoleCommand(
        App.allow_together,
        s.AllowTogetherSerializer,
        gettext_lazy("The two players may sit together."),
        ("player",),
    ),
    ConsoleCommand(
        App.enter_tournament,
        s.CommandSerializer,
        gettext_lazy("The player is in the tournament."),
        ("player",),
    ),
    ConsoleCommand(
        App.leave_tournament,
        s.CommandSerializer,
        gettext_lazy("The player left the tournament."),
        ("player",),
    ),
    ConsoleCommand(
        App.set_dinner_break, s.DinnerBreakSerializer, gettext_lazy("The dinner break is set.")
    ),
    # the draw and the seats
    ConsoleCommand(
        App.draw_seats,
        s.CommandSerializer,
        gettext_lazy("The seats are drawn."),
        ("table_id",),
        prepare=_draw_this_table,
    ),
    ConsoleCommand(
        App.seat_player,
        s.SeatPlayerSerializer,
        gettext_lazy("The player is seated."),
        ("table_id",),
    ),
    ConsoleCommand(
        App.call_next, s.CallNextSerializer, gettext_lazy("The seat is offered."), ("table_id",)
    ),
    ConsoleCommand(
        App.request_seat_change,
        s.PlayerCommandSerializer,
        gettext_lazy("The request is noted."),
        ("table_id",),
    ),
    ConsoleCommand(
        App.withdraw_seat_change,
        s.PlayerCommandSerializer,
        gettext_lazy("The request is withdrawn."),
        ("table_id",),
    ),
    ConsoleCommand(
        App.request_table_change,
        s.PlayerCommandSerializer,
        gettext_lazy("The request is noted."),
        ("table_id",),
    ),
    ConsoleCommand(
        App.withdraw_table_change,
        s.PlayerCommandSerializer,
        gettext_lazy("The request is withdrawn."),
        ("table_id",),
    ),
    ConsoleCommand(
        App.grant_table_change,
        s.GrantTableChangeSerializer,
        gettext_lazy("The move is made."),
        ("table_id",),
    ),
    ConsoleCommand(
        App.change_seat, s.ChangeSeatSerializer, gettext_lazy("The player moved."), ("table_id",)
    ),
    ConsoleCommand(
        App.leave_table, s.LeaveTableSerializer, gettext_lazy("The player left."), ("table_id",)
    ),
    ConsoleCommand(
        App.buy_in, s.BuyInSerializer, gettext_lazy("The chips are bought."), ("table_id",)
    ),
    ConsoleCommand(
        App.start_rest, s.PlayerCommandSerializer, gettext_lazy("The player rests."), ("table_id",)
    ),
    ConsoleCommand(
        App.end_rest, s.PlayerCommandSerializer, gettext_lazy("The player is back."), ("table_id",)
    ),
    ConsoleCommand(
        App.start_absence,
        s.PlayerCommandSerializer,
        gettext_lazy("The absence clock runs."),
        ("table_id",),
    ),
    ConsoleCommand(
        App.end_absence,
        s.PlayerCommandSerializer,
        gettext_lazy("The player is back."),
        ("table_id",),
    ),
    # hands and clocks
    ConsoleCommand(
        App.start_hand,
        s.StartHandSerializer,
        gettext_lazy("The hand is dealt."),
        ("table_id",),
        lists=("dealt_in",),
    ),
    ConsoleCommand(
        App.end_hand,
        s.EndHandSerializer,
        gettext_lazy("The hand is reported."),
        ("table_id",),
        ("folded",),
    ),
    # "Calculate": what the hand end typed so far would pay, before confirming it.
    ConsoleCommand(
        App.preview_settlement, s.HandResultSerializer, "", ("table_id",), ("folded",), asks=True
    ),
    ConsoleCommand(
        App.settle_banked_hand,
        s.BankedHandFormSerializer,
        gettext_lazy("The banked hand is settled."),
        ("table_id",),
        prepare=_banked_form,
        preview=App.preview_banked_hand,
        summary=banked_summary,
    ),
    ConsoleCommand(
        App.start_action_clock,
        s.StartActionClockSerializer,
        gettext_lazy("The action clock runs."),
        ("table_id",),
    ),
    ConsoleCommand(
        App.stop_action_clock,
        s.SeatCommandSerializer,
        gettext_lazy("The clock is stopped."),
        ("table_id",),
    ),
    ConsoleCommand(
        App.close_table, s.CloseTableSerializer, gettext_lazy("The table is closed."), ("table_id",)
    ),
    ConsoleCommand(
        App.break_table, s.CommandSerializer, gettext_lazy("The table is broken."), ("table_id",)
    ),
    ConsoleCommand(
        App.announce_closing,
        s.AnnounceClosingSerializer,
        gettext_lazy("The closing time is announced."),
        ("sector_id",),
    ),
    # balancing
    ConsoleCommand(
        App.accept_move, s.AcceptMoveSerializer, gettext_lazy("The move is made."), ("group_id",)
    ),
    ConsoleCommand(
        App.override_move,
        s.OverrideMoveSerializer,
        gettext_lazy("The move is made."),
        ("group_id",),
    ),
    # money at the table and at the cage
    ConsoleCommand(
        App.request_tray_move,
        ls.TrayMoveSerializer,
        gettext_lazy("The cage is asked."),
        ("table_id",),
    ),
    ConsoleCommand(
        App.confirm_tray_move,
        s.CommandSerializer,
        gettext_lazy("The tray move is confirmed."),
        ("request_id",),
    ),
    ConsoleCommand(
        App.cancel_tray_move,
        ls.CancelTrayMoveSerializer,
        gettext_lazy("The request is cancelled."),
        ("request_id",),
    ),
    ConsoleCommand(
        App.sell_chips, ls.ChipsForPlayerSerializer, gettext_lazy("The chips are sold.")
    ),
    ConsoleCommand(App.buy_in_at_cage, ls.CageBuyInSerializer, gettext_lazy("The buy-in is paid.")),
    ConsoleCommand(App.cash_out, ls.CashOutSerializer, gettext_lazy("The chips are cashed out.")),
)


class FormError(ValueError):
    """A field the person typed that is not a number of euros."""

    def __init__(self, name: str, message: str, code: str = "invalid_input") -> None:
        super().__init__(message)
        self.name = name
        self.code = code


def read_euros(name: str, typed: str) -> Amount:
    """What the person typed in the euro field ``name``, read in their language
    (floor.amounts); a ``FormError`` names the field and says why not."""
    try:
        return parse_euros(typed)
    except AmountError as wrong:
        raise FormError(name, wrong.message, wrong.code) from None


def form_data(posted: Any, lists: tuple[str, ...], read: dict[str, Amount] | None = None) -> dict:
    """The API's body from a console form (see the module's docstring); what
    each euro field was read as goes into ``read``, by the field's name."""
    data: dict[str, Any] = {}
    for key in posted:
        if key in {"csrfmiddlewaretoken", CONFIRM_FIELD}:
            continue
        if key in lists:
            data[key] = [v for v in posted.getlist(key) if v != ""]
            continue
        value = posted.get(key, "")
        if value == "":
            continue
        name, _dot, inner = key.partition(".")
        if name.endswith("_eur"):
            amount = read_euros(key, value)
            if read is not None:
                read[key] = amount
            name, value = name[: -len("_eur")], amount.cents
            name = name if inner else f"{name}_cents"
        if inner:
            data.setdefault(name, {})[inner] = value
        else:
            data[name] = value
    return data


# The field a console re-posts with the cents the person confirmed.
CONFIRM_FIELD = "confirm_cents"
# The euro field a large amount is confirmed on (settings.FLOOR_CONFIRM_ABOVE_CENTS).
CONFIRMED_AMOUNT = "amount_eur"

# How the answer names each euro field it read (the bare ``amount_eur`` needs no name).
READ_LABELS = {
    "contributions_eur": gettext_lazy("seat %(key)s put in %(amount)s"),
    "winnings_eur": gettext_lazy("seat %(key)s won %(amount)s"),
    "ante_eur": gettext_lazy("box %(key)s ante %(amount)s"),
    "bet_eur": gettext_lazy("box %(key)s bet %(amount)s"),
    "insurance_eur": gettext_lazy("box %(key)s insurance %(amount)s"),
    "jackpot_eur": gettext_lazy("box %(key)s jackpot %(amount)s"),
    "rake_eur": gettext_lazy("rake %(amount)s"),
    "pot_eur": gettext_lazy("pot %(amount)s"),
}


def said_read(read: dict[str, Amount]) -> str:
    """ " Read: 1.000,00 EUR." for the answer, or "" when no euro was typed."""
    if not read:
        return ""
    parts = []
    for key, amount in read.items():
        name, _dot, inner = key.partition(".")
        label = READ_LABELS.get(name)
        parts.append(str(label) % {"key": inner, "amount": amount.text} if label else amount.text)
    return " " + _("Read: %(amounts)s.") % {"amounts": "; ".join(parts)}


def usual_most(name: str) -> int | None:
    """The most the form of command ``name`` usually sees, in cents, or None."""
    return settings.FLOOR_CONFIRM_ABOVE_CENTS.get(name)


def needs_confirmation(name: str, read: dict[str, Amount], posted: Any) -> dict | None:
    """The confirmation to ask for, or None: an amount above the usual for its
    form is booked only when the re-post confirms exactly the cents read now."""
    usual = usual_most(name)
    amount = read.get(CONFIRMED_AMOUNT)
    if usual is None or amount is None or amount.cents <= usual:
        return None
    if posted.get(CONFIRM_FIELD, "").strip() == str(amount.cents):
        return None
    return {
        "ok": False,
        "code": "amount_needs_confirmation",
        "message": _("%(amount)s is far above the usual here (%(usual)s). Check it and confirm it.")
        % {"amount": amount.text, "usual": format_euros(usual)},
        "confirm": {"field": CONFIRMED_AMOUNT, "cents": amount.cents, "text": amount.text},
        "button": _("Confirm %(amount)s") % {"amount": amount.text},
    }


def first_errors(errors: Any) -> dict[str, str]:
    """A serializer's errors as one message per field."""
    flat = {}
    for name, found in errors.items():
        while isinstance(found, list | dict):
            found = next(iter(found.values() if isinstance(found, dict) else found), "")
        flat[name] = str(found)
    return flat


def as_typed(fields: dict[str, str], read: dict[str, Amount], posted: Any) -> dict[str, str]:
    """A serializer's errors named as the form names its fields (``amount_cents``
    was typed as ``amount_eur``); an amount read as nothing is told the least
    it may be in euros, not the serializer's "at least 1" (cent)."""
    named = {}
    for key, message in fields.items():
        typed = f"{key[: -len('_cents')]}_eur" if key.endswith("_cents") else key
        if typed not in posted:
            named[key] = message
            continue
        amount = read.get(typed)
        if amount is not None and amount.cents == 0:
            message = _("At least %(minimum)s.") % {"minimum": format_euros(1)}
        named[typed] = message
    return named


def run_console_command(user: Any, name: str, posted: Any) -> tuple[int, dict]:
    """Runs the command ``name`` with the form ``posted``: the status and answer."""
    command = COMMANDS.get(name)
    if command is None:
        return 404, {"ok": False, "message": _("No such command.")}
    read: dict[str, Amount] = {}
    try:
        data = form_data(posted, command.lists, read)
    except FormError as wrong:
        return 400, {
            "ok": False,
            "code": wrong.code,
            "message": str(wrong),
            "fields": {wrong.name: str(wrong)},
        }
    scope = ScopeSerializer(data={k: data.pop(k) for k in command.scope if k in data})
    body = command.body(data=data)
    scope_ok, body_ok = scope.is_valid(), body.is_valid()
    missing = [k for k in command.scope if scope_ok and k not in scope.validated_data]
    if not (scope_ok and body_ok) or missing:
        fields = {**first_errors(scope.errors), **first_errors(body.errors)}
        fields.update({k: _("This field is required.") for k in missing})
        fields = as_typed(fields, read, posted)
        return 400, {"ok": False, "message": message_for("invalid_input"), "fields": fields}
    confirm = needs_confirmation(name, read, posted)
    if confirm is not None:
        return 428, confirm
    arguments = {k: str(v) for k, v in scope.validated_data.items()}
    arguments.update(body.validated_data)
    if command.asks:
        return _ask(user, name, arguments)
    command_id = arguments.pop("command_id")
    prepared = command.prepare(arguments)
    if command.preview is not None:
        previewed, outcome_or_answer = _run(command.preview_name, user, command_id, prepared, read)
        if not previewed:
            return outcome_or_answer
        said = command.summary(outcome_or_answer.result) if command.summary else ""
        digest = settlement_digest(outcome_or_answer.result)
        if posted.get(CONFIRM_FIELD, "").strip() != digest:
            return 428, {
                "ok": False,
                "code": "settlement_needs_confirmation",
                "message": _("Check the settlement and confirm it: %(settlement)s")
                % {"settlement": said},
                "confirm": {"field": "", "cents": digest, "text": said},
                "button": _("Confirm the settlement"),
            }
    ran, outcome_or_answer = _run(name, user, command_id, prepared, read)
    if not ran:
        return outcome_or_answer
    outcome = outcome_or_answer
    done = str(command.done) + said_read(read)
    if command.summary is not None:
        done += " " + command.summary(outcome.result)
    return (200 if outcome.replayed else 201), {"ok": True, "message": done}


def _run(name: str, user: Any, command_id: str, arguments: dict, read: dict) -> tuple[bool, Any]:
    """Runs the command: (True, its outcome), or (False, the status and answer
    to give instead)."""
    try:
        return True, perform(name, user, command_id, **arguments)
    except DomainError as refused:
        return False, (
            STATUS_BY_KIND[refused.kind],
            {"ok": False, "code": refused.code, "message": describe(refused)},
        )
    except ReadModelsBehind as behind:
        return False, (202, {"ok": True, "message": message_for(behind.code) + said_read(read)})
    except ServiceUnavailable as unavailable:
        return False, (503, {"ok": False, "message": message_for(unavailable.code)})


def _ask(user: Any, name: str, arguments: dict) -> tuple[int, dict]:
    """Runs a question (``ConsoleCommand.asks``): 200 with its answer in words."""
    try:
        answer = ask(name, user, **arguments)
    except DomainError as refused:
        return STATUS_BY_KIND[refused.kind], {
            "ok": False,
            "code": refused.code,
            "message": describe(refused),
        }
    except ServiceUnavailable as unavailable:
        return 503, {"ok": False, "message": message_for(unavailable.code)}
    return 200, {"ok": True, "preview": True, "message": said_settlement(answer), "answer": answer}


def said_settlement(answer: dict) -> str:
    """A hand's settlement in words: each pot, its seats, rake and winners; the
    chips returned; what each seat takes back."""
    parts = []
    for number, pot in enumerate(answer["pots"], start=1):
        text = _("Pot %(number)s: %(amount)s, seats %(eligible)s") % {
            "number": number,
            "amount": format_euros(pot["amount_cents"]),
            "eligible": ", ".join(map(str, pot["eligible"])),
        }
        if pot.get("rake_cents"):
            text += ", " + _("rake %(amount)s") % {"amount": format_euros(pot["rake_cents"])}
        if pot.get("winners"):
            text += ", " + _("won by %(seats)s") % {"seats": ", ".join(map(str, pot["winners"]))}
        parts.append(text)
    if answer.get("rake_cents") and not any(p.get("rake_cents") for p in answer["pots"]):
        parts.append(_("rake %(amount)s") % {"amount": format_euros(answer["rake_cents"])})
    if answer.get("folded"):
        parts.append(
            _("folded: seats %(seats)s") % {"seats": ", ".join(map(str, answer["folded"]))}
        )
    for seat, cents in answer["returned"].items():
        parts.append(
            _("returned to seat %(seat)s: %(amount)s")
            % {"seat": seat, "amount": format_euros(cents)}
        )
    takes = ", ".join(
        _("seat %(seat)s %(amount)s") % {"seat": seat, "amount": format_euros(cents)}
        for seat, cents in answer["payments"].items()
        if cents
    )
    if takes:
        parts.append(_("paid: %(payments)s") % {"payments": takes})
    return "; ".join(parts) + "."


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@require_POST
@login_required
def console_command(request: HttpRequest, name: str) -> HttpResponse:
    """POST /console/commands/<name>/: the answer as JSON for the console's
    script, or a message and a redirect back for a plain form."""
    status, answer = run_console_command(request.user, name, request.POST)
    if wants_json(request):
        return JsonResponse(answer, status=status)
    report = messages.success if answer["ok"] else messages.error
    report(request, answer["message"])
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "/"
    return redirect(back)


@require_GET
@login_required
def amount_preview(request: HttpRequest) -> HttpResponse:
    """GET /console/amount/?amount=<typed>&command=<name>: what a euro field
    reads as, by the same reader and thresholds as the command door, so the
    console's preview says what will be booked. 200 either way: the answer
    says whether it was read (``ok``) and whether it will ask to confirm."""
    try:
        amount = parse_euros(request.GET.get("amount", ""))
    except AmountError as wrong:
        return JsonResponse({"ok": False, "code": wrong.code, "message": wrong.message})
    read = _("Read: %(amounts)s.") % {"amounts": amount.text}
    usual = usual_most(request.GET.get("command", ""))
    confirm = usual is not None and amount.cents > usual
    if confirm:
        read += " " + _("Above the usual (%(usual)s): you will be asked to confirm it.") % {
            "usual": format_euros(usual)
        }
    answer = {"ok": True, "cents": amount.cents, "text": amount.text, "message": read}
    return JsonResponse({**answer, "confirm": confirm})
