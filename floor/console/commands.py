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

The door is here; what it reads a form with is floor.console.reading, and the
table of the consoles' commands floor.console.actions (``COMMANDS``, named here
too for who asks the door which commands it runs).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from floor.amounts import Amount, AmountError, format_euros, parse_euros
from floor.console.actions import COMMANDS
from floor.console.reading import (
    CONFIRM_FIELD,
    FormError,
    ScopeSerializer,
    as_typed,
    first_errors,
    form_data,
    needs_confirmation,
    said_read,
    usual_most,
)
from floor.kernel.errors import DomainError
from floor.kernel.registry import COMMANDS as REGISTRY
from floor.kernel.web.gateway import (
    ReadModelsBehind,
    ServiceUnavailable,
    actor_for,
    ask,
    perform,
)
from floor.messages import STATUS_BY_KIND, describe, message_for

__all__ = ["COMMANDS", "amount_preview", "console_command", "run_console_command"]


def settlement_digest(result: dict) -> str:
    """What the person confirms: the settlement as previewed (a changed form
    or floor gives another and is asked again)."""
    seen = {k: v for k, v in result.items() if k in ("boxes", "bank", "bank_cents", "jackpot")}
    body = json.dumps(seen, sort_keys=True, default=str)
    return str(int(hashlib.sha256(body.encode()).hexdigest()[:12], 16))


def confirmation(said: str | None, posted: Any) -> dict | None:
    """The confirmation a command that moves money asks for (``ConsoleCommand.
    confirm``), or None: it runs only when the re-post confirms what the
    person was shown, the same words (the figures changed since: asked again)."""
    if not said:
        return None
    digest = str(int(hashlib.sha256(said.encode()).hexdigest()[:12], 16))
    if posted.get(CONFIRM_FIELD, "").strip() == digest:
        return None
    return {
        "ok": False,
        "code": "needs_confirmation",
        "message": said,
        "confirm": {"field": "", "cents": digest, "text": said},
        "button": _("Confirm"),
    }


def run_console_command(user: Any, name: str, posted: Any) -> tuple[int, dict]:
    """Runs the command ``name`` with the form ``posted``: the status and answer."""
    command = COMMANDS.get(name)
    if command is None:
        return 404, {"ok": False, "message": _("No such command.")}
    try:  # a role that may never run it is told so before any confirmation
        REGISTRY[name].role_for(actor_for(user))
    except DomainError as refused:
        return STATUS_BY_KIND[refused.kind], {
            "ok": False,
            "code": refused.code,
            "message": describe(refused),
        }
    read: dict[str, Amount] = {}
    try:
        data = form_data(posted, command.lists, read)
    except FormError as wrong:
        return 400, {
            "ok": False,
            "code": wrong.code,
            "message": said_once(wrong.fields.values()),
            "fields": wrong.fields,
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
        return _ask(user, name, command.prepare(arguments))
    command_id = arguments.pop("command_id")
    prepared = command.prepare(arguments)
    asked = confirmation(command.confirm(prepared) if command.confirm else None, posted)
    if asked is not None:
        return 428, asked
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
    ran, outcome_or_answer = _run(name, user, command_id, prepared, read, command.runs)
    if not ran:
        return outcome_or_answer
    outcome = outcome_or_answer
    done = str(command.done) + said_read(read, command.read_label)
    if command.summary is not None:
        done += " " + command.summary(outcome.result)
    return (200 if outcome.replayed else 201), {"ok": True, "message": done}


def said_once(reasons: Any) -> str:
    """Fields' reasons as one answer, each reason once: two amounts typed wrong
    the same way are one "Type an amount ...", not the same sentence twice."""
    return " ".join(dict.fromkeys(str(reason) for reason in reasons))


def _run(
    name: str, user: Any, command_id: str, arguments: dict, read: dict, runs: Any = None
) -> tuple[bool, Any]:
    """Runs the command (through ``runs`` if the console command names one):
    (True, its outcome), or (False, the status and answer to give instead)."""
    try:
        return True, (runs or perform)(name, user, command_id, **arguments)
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
