"""Console forms: parse what the jefe types (euros, choices) into command arguments."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from floor.amounts import MAX_TYPED, AmountError, format_euros, parse_euros
from floor.domain.sector import MAX_SECTOR_NAME_LENGTH
from floor.domain.table import TableStatus
from floor.kernel.command_record import MAX_COMMAND_ID_LENGTH
from games.limits import BettingLimit
from games.variants import Variant

VARIANT_LABELS = {
    Variant.TEXAS_HOLDEM: _("Texas Hold'em"),
    Variant.OMAHA: _("Omaha"),
    Variant.SINTETICO: _("Synthetic poker (sintético)"),
    Variant.SEVEN_STUD: _("Seven-card stud"),
    Variant.FIVE_STUD: _("Five-card stud"),
    Variant.FIVE_CARD_DRAW: _("Five-card draw"),
    Variant.SEN_DESCARTE: _("Banked: no-draw poker (sen descarte)"),
    Variant.TRIJOKER: _("Banked: Trijoker"),
    Variant.PAI_GOW: _("Banked: Pai Gow"),
}

LIMIT_LABELS = {
    BettingLimit.NO_LIMIT: _("No limit"),
    BettingLimit.POT_LIMIT: _("Pot limit"),
    BettingLimit.SPLIT_LIMIT: _("Split limit"),
}


STATUS_LABELS = {
    TableStatus.REGISTERING: pgettext_lazy("table status", "registering"),
    TableStatus.RUNNING: pgettext_lazy("table status", "running"),
    TableStatus.SUSPENDED: pgettext_lazy("table status", "suspended"),
    TableStatus.CLOSED: pgettext_lazy("table status", "closed"),
}


class CommandForm(forms.Form):
    """Carries a command id made when the form is shown, so a double submit is
    one command."""

    command_id = forms.CharField(widget=forms.HiddenInput, max_length=MAX_COMMAND_ID_LENGTH)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("command_id", str(uuid.uuid4()))

    def new_attempt(self) -> None:
        """A refused or invalid form comes back with a new command id: nothing
        was recorded, and the corrected form is another command (issue 18).
        After an outage the id stays, so a retry of the same form is answered
        with the first outcome if it was recorded after all."""
        if self.is_bound:
            self.data = self.data.copy()
            self.data["command_id"] = str(uuid.uuid4())


class EuroField(forms.CharField):
    """An amount in euros, with cents, returned as integer cents: typed as the
    person's language writes it, read by the consoles' one reader
    (floor.amounts), and at least one cent."""

    def __init__(self, **kwargs):
        super().__init__(max_length=MAX_TYPED, **kwargs)

    def widget_attrs(self, widget):
        return {**super().widget_attrs(widget), "inputmode": "decimal", "data-amount": ""}

    def clean(self, value):
        typed = super().clean(value)
        if typed in self.empty_values:
            return None
        try:
            cents = parse_euros(typed).cents
        except AmountError as wrong:
            raise forms.ValidationError(wrong.message, code=wrong.code) from None
        if cents < 1:
            least = {"minimum": format_euros(1)}
            raise forms.ValidationError(_("At least %(minimum)s.") % least, code="min_value")
        return cents


class OpenSectorForm(CommandForm):
    name = forms.CharField(label=_("Sector name"), max_length=MAX_SECTOR_NAME_LENGTH)


class OpenTableForm(CommandForm):
    variant = forms.ChoiceField(
        label=_("Game"), choices=[(v.value, label) for v, label in VARIANT_LABELS.items()]
    )
    limit = forms.ChoiceField(
        label=_("Betting limit"),
        choices=[(b.value, label) for b, label in LIMIT_LABELS.items()],
    )
    minimum_cents = EuroField(label=_("Table minimum (big blind), EUR"))
    maximum_cents = EuroField(label=_("Table maximum, EUR"))
    seats = forms.IntegerField(label=_("Seats"), min_value=1, max_value=20, initial=10)
