"""The player's page's form to ask for a game no table plays (issue 24,
item 4): its variant, betting limit and stakes, the amounts typed as the
player's language writes them (floor.forms.EuroField). Whether the game is one
the profile allows is the command's to say (``join_waiting_list``: the same
checks as a table's stakes [GA art. 22; PT 20])."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from floor.domain.game import Game
from floor.forms import LIMIT_LABELS, VARIANT_LABELS, EuroField


class AskForGameForm(forms.Form):
    variant = forms.ChoiceField(
        label=_("Game"), choices=[(v.value, label) for v, label in VARIANT_LABELS.items()]
    )
    limit = forms.ChoiceField(
        label=_("Betting limit"), choices=[(b.value, label) for b, label in LIMIT_LABELS.items()]
    )
    minimum_cents = EuroField(label=_("Table minimum (big blind), EUR"))
    maximum_cents = EuroField(label=_("Table maximum, EUR"))

    def game(self) -> Game:
        """The game asked for (the form must be valid)."""
        data = self.cleaned_data
        return Game(data["variant"], data["limit"], data["minimum_cents"], data["maximum_cents"])
