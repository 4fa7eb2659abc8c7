"""One door for every button and short form of the consoles.

A console form posts to ``/console/commands/<name>/``. Its fields are checked
by the same serializer the API uses for that command (so the console cannot
accept what the API refuses), after ``form_data`` has turned what a person
types into the API's shapes: euros with a comma into cents, ``winnings_eur.3``
into ``{"winnings": {"3": cents}}``, ticked boxes into lists.

The console's script posts with ``Accept: application/json`` and shows the
answer inline beside the form; without the script the page reloads and the
answer is a message at its top. A refusal records nothing either way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from rest_framework import serializers

from floor.api import serializers as s
from floor.domain.errors import DomainError
from floor.gateway import ReadModelsBehind, ServiceUnavailable, perform
from floor.messages import STATUS_BY_KIND, describe, message_for
from games.limits import MAX_AMOUNT_CENTS
from ledger.api import serializers as ls


@dataclass(frozen=True)
class ConsoleCommand:
    """A floor command as the consoles run it."""

    body: type[serializers.Serializer]
    done: Any  # what the person reads when it worked (lazy, translated)
    scope: tuple[str, ...] = ()  # ids the form carries as hidden fields
    lists: tuple[str, ...] = ()  # fields whose several values form a list
    prepare: Callable[[dict], dict] = field(default=lambda data: data)


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


COMMANDS: dict[str, ConsoleCommand] = {
    # players and the waiting lists
    "register_player": ConsoleCommand(
        s.RegisterPlayerSerializer, gettext_lazy("The player is registered.")
    ),
    "join_waiting_list": ConsoleCommand(
        s.GameSerializer, gettext_lazy("The player is on the list.")
    ),
    "leave_waiting_list": ConsoleCommand(
        s.LeaveListSerializer, gettext_lazy("The player left the list.")
    ),
    "bar_player": ConsoleCommand(
        s.BarPlayerSerializer, gettext_lazy("The player is barred."), ("player",)
    ),
    "lift_bar": ConsoleCommand(
        s.CommandSerializer, gettext_lazy("The player may play again."), ("player",)
    ),
    "keep_apart": ConsoleCommand(
        s.KeepApartSerializer, gettext_lazy("The two players are kept apart."), ("player",)
    ),
    "allow_together": ConsoleCommand(
        s.AllowTogetherSerializer, gettext_lazy("The two players may sit together."), ("player",)
    ),
    "enter_tournament": ConsoleCommand(
        s.CommandSerializer, gettext_lazy("The player is in the tournament."), ("player",)
    ),
    "leave_tournament": ConsoleCommand(
        s.CommandSerializer, gettext_lazy("The player left the tournament."), ("player",)
    ),
    "set_dinner_break": ConsoleCommand(
        s.DinnerBreakSerializer, gettext_lazy("The dinner break is set.")
    ),
    # the draw and the seats
    "draw_seats": ConsoleCommand(
        s.CommandSerializer,
        gettext_lazy("The seats are drawn."),
        ("table_id",),
        prepare=_draw_this_table,
    ),
    "seat_player": ConsoleCommand(
        s.SeatPlayerSerializer, gettext_lazy("The player is seated."), ("table_id",)
    ),
    "call_next": ConsoleCommand(
        s.CallNextSerializer, gettext_lazy("The seat is offered."), ("table_id",)
    ),
    "request_seat_change": ConsoleCommand(
        s.PlayerCommandSerializer, gettext_lazy("The request is noted."), ("table_id",)
    ),
    "withdraw_seat_change": ConsoleCommand(
        s.PlayerCommandSerializer, gettext_lazy("The request is withdrawn."), ("table_id",)
    ),
    "request_table_change": ConsoleCommand(
        s.PlayerCommandSerializer, gettext_lazy("The request is noted."), ("table_id",)
    ),
    "withdraw_table_change": ConsoleCommand(
        s.PlayerCommandSerializer, gettext_lazy("The request is withdrawn."), ("table_id",)
    ),
    "grant_table_change": ConsoleCommand(
        s.GrantTableChangeSerializer, gettext_lazy("The move is made."), ("table_id",)
    ),
    "change_seat": ConsoleCommand(
        s.ChangeSeatSerializer, gettext_lazy("The player moved."), ("table_id",)
    ),
    "leave_table": ConsoleCommand(
        s.LeaveTableSerializer, gettext_lazy("The player left."), ("table_id",)
    ),
    "buy_in": ConsoleCommand(
        s.BuyInSerializer, gettext_lazy("The chips are bought."), ("table_id",)
    ),
    "start_rest": ConsoleCommand(
        s.PlayerCommandSerializer, gettext_lazy("The player rests."), ("table_id",)
    ),
    "end_rest": ConsoleCommand(
        s.PlayerCommandSerializer, gettext_lazy("The player is back."), ("table_id",)
    ),
    "start_absence": ConsoleCommand(
        s.PlayerCommandSerializer, gettext_lazy("The absence clock runs."), ("table_id",)
    ),
    "end_absence": ConsoleCommand(
        s.PlayerCommandSerializer, gettext_lazy("The player is back."), ("table_id",)
    ),
    # hands and clocks
    "start_hand": ConsoleCommand(
        s.StartHandSerializer,
        gettext_lazy("The hand is dealt."),
        ("table_id",),
        lists=("dealt_in",),
    ),
    "end_hand": ConsoleCommand(
        s.EndHandSerializer, gettext_lazy("The hand is reported."), ("table_id",)
    ),
    "start_action_clock": ConsoleCommand(
        s.StartActionClockSerializer, gettext_lazy("The action clock runs."), ("table_id",)
    ),
    "stop_action_clock": ConsoleCommand(
        s.SeatCommandSerializer, gettext_lazy("The clock is stopped."), ("table_id",)
    ),
    "close_table": ConsoleCommand(
        s.CloseTableSerializer, gettext_lazy("The table is closed."), ("table_id",)
    ),
    "break_table": ConsoleCommand(
        s.CommandSerializer, gettext_lazy("The table is broken."), ("table_id",)
    ),
    "announce_closing": ConsoleCommand(
        s.AnnounceClosingSerializer, gettext_lazy("The closing time is announced."), ("sector_id",)
    ),
    # balancing
    "accept_move": ConsoleCommand(
        s.AcceptMoveSerializer, gettext_lazy("The move is made."), ("group_id",)
    ),
    "override_move": ConsoleCommand(
        s.OverrideMoveSerializer, gettext_lazy("The move is made."), ("group_id",)
    ),
    # money at the table and at the cage
    "request_tray_move": ConsoleCommand(
        ls.TrayMoveSerializer, gettext_lazy("The cage is asked."), ("table_id",)
    ),
    "confirm_tray_move": ConsoleCommand(
        s.CommandSerializer, gettext_lazy("The tray move is confirmed."), ("request_id",)
    ),
    "cancel_tray_move": ConsoleCommand(
        ls.CancelTrayMoveSerializer, gettext_lazy("The request is cancelled."), ("request_id",)
    ),
    "sell_chips": ConsoleCommand(ls.ChipsForPlayerSerializer, gettext_lazy("The chips are sold.")),
    "buy_in_at_cage": ConsoleCommand(ls.CageBuyInSerializer, gettext_lazy("The buy-in is paid.")),
    "cash_out": ConsoleCommand(ls.CashOutSerializer, gettext_lazy("The chips are cashed out.")),
}


class FormError(ValueError):
    """A field the person typed that is not a number of euros."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


def euros_to_cents(name: str, typed: str) -> int:
    """``12,50`` or ``12.50`` or ``1.000,50`` euros as integer cents."""
    text = typed.strip().replace(" ", "").replace("€", "")
    if "," in text:
        text = text.replace(".", "").replace(",", ".")
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise FormError(name, _("Type an amount in euros, such as 12,50.")) from None
    if not amount.is_finite() or amount != amount.quantize(Decimal("0.01")) or amount < 0:
        raise FormError(name, _("Type an amount in euros, such as 12,50."))
    if amount * 100 > MAX_AMOUNT_CENTS:
        raise FormError(name, _("That amount is too large."))
    return int(amount * 100)


def form_data(posted: Any, lists: tuple[str, ...]) -> dict:
    """The API's body from a console form (see the module's docstring)."""
    data: dict[str, Any] = {}
    for key in posted:
        if key == "csrfmiddlewaretoken":
            continue
        if key in lists:
            data[key] = [v for v in posted.getlist(key) if v != ""]
            continue
        value = posted.get(key, "")
        if value == "":
            continue
        name, _dot, inner = key.partition(".")
        if name.endswith("_eur"):
            name, value = name[: -len("_eur")], euros_to_cents(key, value)
            name = name if inner else f"{name}_cents"
        if inner:
            data.setdefault(name, {})[inner] = value
        else:
            data[name] = value
    return data


def first_errors(errors: Any) -> dict[str, str]:
    """A serializer's errors as one message per field."""
    flat = {}
    for name, found in errors.items():
        while isinstance(found, list | dict):
            found = next(iter(found.values() if isinstance(found, dict) else found), "")
        flat[name] = str(found)
    return flat


def run_console_command(user: Any, name: str, posted: Any) -> tuple[int, dict]:
    """Runs the command ``name`` with the form ``posted``: the status and answer."""
    command = COMMANDS.get(name)
    if command is None:
        return 404, {"ok": False, "message": _("No such command.")}
    try:
        data = form_data(posted, command.lists)
    except FormError as wrong:
        return 400, {"ok": False, "message": str(wrong), "fields": {wrong.name: str(wrong)}}
    scope = ScopeSerializer(data={k: data.pop(k) for k in command.scope if k in data})
    body = command.body(data=data)
    scope_ok, body_ok = scope.is_valid(), body.is_valid()
    missing = [k for k in command.scope if scope_ok and k not in scope.validated_data]
    if not (scope_ok and body_ok) or missing:
        fields = {**first_errors(scope.errors), **first_errors(body.errors)}
        fields.update({k: _("This field is required.") for k in missing})
        return 400, {"ok": False, "message": message_for("invalid_input"), "fields": fields}
    arguments = {k: str(v) for k, v in scope.validated_data.items()}
    arguments.update(body.validated_data)
    command_id = arguments.pop("command_id")
    try:
        outcome = perform(name, user, command_id, **command.prepare(arguments))
    except DomainError as refused:
        return STATUS_BY_KIND[refused.kind], {
            "ok": False,
            "code": refused.code,
            "message": describe(refused),
        }
    except ReadModelsBehind as behind:
        return 202, {"ok": True, "message": message_for(behind.code)}
    except ServiceUnavailable as unavailable:
        return 503, {"ok": False, "message": message_for(unavailable.code)}
    done = str(command.done)
    return (200 if outcome.replayed else 201), {"ok": True, "message": done}


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
