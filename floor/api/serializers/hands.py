"""Hands of poker: the hand's view, starting and ending one, and the settlement
preview (what an end would pay, recorded nowhere).
"""

from __future__ import annotations

from rest_framework import serializers

from floor.api.serializers.common import (
    BuiltOnceModelSerializer,
    Cents,
)
from floor.kernel.web.serializers import CommandSerializer
from floor.models import (
    HandView,
)
from games.limits import MAX_AMOUNT_CENTS
from games.variants import Variant


class HandSerializer(BuiltOnceModelSerializer):
    class Meta:
        model = HandView
        fields = [
            "number",
            "variant",
            "button",
            "dealt_in",
            "blinds",
            "started_at",
            "ended_at",
            "pot_cents",
            "rake_cents",
            "contributions",
            "winnings",
            "dead",
        ]


class StartHandSerializer(CommandSerializer):
    dealt_in = serializers.ListField(child=serializers.IntegerField(), min_length=1)
    button = serializers.IntegerField(required=False, allow_null=True)
    blinds = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS),
        required=False,
        help_text="Seat -> blind posted, in cents.",
    )
    variant = serializers.ChoiceField(
        choices=[v.value for v in Variant], required=False, allow_null=True
    )


class HandResultSerializer(serializers.Serializer):
    """A hand's end: what each seat put in, and either the winnings typed (checked
    against the pots) or who won, from which the service settles the pots."""

    contributions = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS),
        help_text="Seat -> everything the seat put in the pot this hand, in cents: its "
        "blinds, any missed blinds posted dead (PT 90), its bets and any uncalled chips.",
    )
    winnings = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS),
        required=False,
        help_text="Seat -> everything the seat takes back, in cents: what it won from the "
        "pots plus its own uncalled chips. Or leave it out and say who won "
        "(pot_winners or shown): the service computes it.",
    )
    rake_cents = Cents(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        required=False,
        allow_null=True,
        help_text="With winnings: the rake taken (0 if left out), at most the limit on the "
        "called pots. Otherwise the service computes the table's announced rake; if given, "
        "at most that, and a lower one is taken from the main pot first.",
    )
    pot_winners = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=99), max_length=11
        ),
        required=False,
        max_length=11,
        help_text="Who won each pot, main pot first (see the settlement preview for the "
        "pots): seats sharing a pot split it by the profile's rule. A pot only one seat "
        "may win may be left out.",
    )
    shown = serializers.DictField(
        child=serializers.CharField(max_length=60),
        required=False,
        help_text='Seat -> the cards it showed, e.g. "As Kd"; the service ranks them with '
        "the board and awards each pot to its best hand.",
    )
    board = serializers.CharField(
        max_length=60, required=False, allow_blank=True, help_text='The common cards, "Ks 7d 2c".'
    )
    folded = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=99),
        required=False,
        max_length=11,
        help_text="Seats that gave up their hand though their bet matched (a hand mucked). "
        "A seat that put in less than the bet with chips behind folded anyway.",
    )


class EndHandSerializer(CommandSerializer, HandResultSerializer):
    pass


class HandEndFormSerializer(HandResultSerializer):
    """The console's end-hand form, the way a dealer thinks (issue 22): how
    each seat ended (``ended.3``: to the end, all in or folded), the bet those
    who stayed to the end put in (``called_eur``), each hand's place at the
    showdown (``place.3``: 1 won) and the rake (empty: the most allowed). What
    a seat put in may still be typed (``contributions_eur.3``), and so may the
    API's own result (winnings, pot winners, the hands shown).
    floor.console.actions makes it the API's ``HandResultSerializer`` shape."""

    contributions = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS), required=False
    )
    ended = serializers.DictField(
        child=serializers.ChoiceField(["called", "all_in", "folded"]), required=False
    )
    called_cents = Cents(min_value=0, max_value=MAX_AMOUNT_CENTS, required=False)
    place = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=9), required=False
    )


class EndHandFormSerializer(CommandSerializer, HandEndFormSerializer):
    """The console's end-hand form, as a command (it carries its id)."""


class SettlementPotSerializer(serializers.Serializer):
    amount_cents = serializers.IntegerField()
    eligible = serializers.ListField(child=serializers.IntegerField())
    rake_cents = serializers.IntegerField(required=False)
    winners = serializers.ListField(child=serializers.IntegerField(), required=False)
    paid = serializers.DictField(child=serializers.IntegerField(), required=False)


class SettlementSerializer(serializers.Serializer):
    """What a hand end would pay, recorded nowhere."""

    table_id = serializers.UUIDField()
    number = serializers.IntegerField(help_text="The hand's number.")
    pot_cents = serializers.IntegerField(
        help_text="The called pots: all put in but the chips returned."
    )
    rake_cents = serializers.IntegerField(
        help_text="The rake; asked with the contributions alone, the most the rules "
        "allow on the called pots (uncalled chips are never raked)."
    )
    pots = SettlementPotSerializer(many=True, help_text="Main pot first.")
    returned = serializers.DictField(
        child=serializers.IntegerField(), help_text="Seat -> its uncalled chips, handed back."
    )
    folded = serializers.ListField(child=serializers.IntegerField())
    payments = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Seat -> what it takes back: pot winnings plus returned chips.",
    )
    stacks = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Seat -> its stack after the hand; null when asked with the "
        "contributions alone (the pots, before anyone is named the winner).",
    )
