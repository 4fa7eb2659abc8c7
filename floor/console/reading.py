"""What a person typed into a console form, read into the API's shapes: euros
typed the way the person's language writes them into cents (floor.amounts),
``winnings_eur.3`` into ``{"winnings": {"3": cents}}``, ticked boxes into
lists; what each euro field was read as, said back; an amount above the usual
for its form (``settings.FLOOR_CONFIRM_ABOVE_CENTS``) to be confirmed; and a
serializer's errors named as the form names its fields. The door that runs the
command is floor.console.commands.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from floor.amounts import Amount, AmountError, format_euros, parse_euros


class ScopeSerializer(serializers.Serializer):
    """The ids a console form carries beside the command's own fields."""

    table_id = serializers.UUIDField(required=False)
    sector_id = serializers.UUIDField(required=False)
    group_id = serializers.UUIDField(required=False)
    request_id = serializers.UUIDField(required=False)
    jackpot_id = serializers.UUIDField(required=False)
    transaction_id = serializers.UUIDField(required=False)  # an entry the cage voids
    player = serializers.CharField(max_length=40, required=False)


class FormError(ValueError):
    """A field the person typed that is not a number of euros; ``fields``
    names every such field of the form with its own reason (the first one's
    is the error's message)."""

    def __init__(
        self,
        name: str,
        message: str,
        code: str = "invalid_input",
        fields: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.name = name
        self.code = code
        self.fields = fields or {name: message}


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
    wrong: list[FormError] = []
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
            try:
                amount = read_euros(key, value)
            except FormError as error:
                wrong.append(error)  # every wrong field is named, not only the first
                continue
            if read is not None:
                read[key] = amount
            name, value = name[: -len("_eur")], amount.cents
            name = name if inner else f"{name}_cents"
        if inner:
            data.setdefault(name, {})[inner] = value
        else:
            data[name] = value
    if wrong:
        first = wrong[0]
        raise FormError(first.name, str(first), first.code, {e.name: str(e) for e in wrong})
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
    "stakes_eur": gettext_lazy("seat %(key)s stakes %(amount)s"),
    "rake_eur": gettext_lazy("rake %(amount)s"),
    "called_eur": gettext_lazy("bet called %(amount)s"),
    "pot_eur": gettext_lazy("pot %(amount)s"),
    "cash_eur": gettext_lazy("cash %(amount)s"),
    "chips_eur": gettext_lazy("chips %(amount)s"),
}


def said_read(read: dict[str, Amount], label_of: Any = None) -> str:
    """ " Read: 1.000,00 EUR." for the answer, or "" when no euro was typed;
    ``label_of`` names a keyed field READ_LABELS does not (a counted account)."""
    if not read:
        return ""
    parts = []
    for key, amount in read.items():
        name, _dot, inner = key.partition(".")
        label = READ_LABELS.get(name)
        if label:
            parts.append(str(label) % {"key": inner, "amount": amount.text})
        elif inner and label_of is not None:
            parts.append(f"{label_of(inner)} {amount.text}")
        else:
            parts.append(amount.text)
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
