"""Banked hands [GA art. 6-16; PT-SD; PG]: the boxes and the bank of a hand of sen
descarte, Trijoker or Pai Gow, as the API takes them and as the console's form
gives them.
"""

from __future__ import annotations

from rest_framework import serializers

from floor.api.serializers.common import (
    Cents,
)
from floor.kernel.web.serializers import CommandSerializer
from games.limits import MAX_AMOUNT_CENTS

CARDS_HELP = "Cards as text, rank then suit: 'As Kd Th 9c 2s' (the joker 'Jk')."


def _cards_field(help_text: str) -> serializers.CharField:
    return serializers.CharField(max_length=40, required=False, help_text=help_text)


class BankedBoxSerializer(serializers.Serializer):
    """One box (seat) of a banked hand; which fields apply depends on the
    table's game (floor.domain.banked_hand)."""

    ante_cents = Cents(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        required=False,
        help_text="Sen descarte: the ante.",
    )
    call = serializers.BooleanField(
        required=False,
        help_text="Sen descarte: true, the box went on with twice its ante; false, it passed.",
    )
    cards = _cards_field(
        "Sen descarte: the box's five cards (none for a box that passed); Trijoker: its three. "
        + CARDS_HELP
    )
    insurance_cents = Cents(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        required=False,
        help_text="Sen descarte: the insurance bet (GA art. 8a).",
    )
    jackpot_cents = Cents(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        required=False,
        help_text="Sen descarte: the progressive stake (GA art. 8b; PT-SD 8).",
    )
    extra_card = serializers.BooleanField(
        required=False, help_text="Sen descarte: the box bought a card for its ante (GA art. 8c)."
    )
    first_five = _cards_field("With a bought card: the five cards before it (GA art. 8b).")
    bet_cents = Cents(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        required=False,
        help_text="Trijoker: each of the three equal bets; Pai Gow: the bet.",
    )
    took_back = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2),
        max_length=2,
        required=False,
        help_text="Trijoker: the bets taken back, 1 and/or 2 (GA art. 15.2).",
    )
    high = _cards_field("Pai Gow: the five-card hand.")
    low = _cards_field("Pai Gow: the two-card hand.")


class BankedBankSerializer(serializers.Serializer):
    """The bank's hand: sen descarte its five cards; Trijoker the two common
    cards; Pai Gow its five- and two-card hands."""

    cards = _cards_field("Sen descarte: the bank's five cards.")
    common = _cards_field("Trijoker: the two common cards.")
    high = _cards_field("Pai Gow: the bank's five-card hand.")
    low = _cards_field("Pai Gow: the bank's two-card hand.")


class BankedHandSerializer(CommandSerializer):
    boxes = serializers.DictField(
        child=BankedBoxSerializer(), help_text="Seat -> the box's bets and cards."
    )
    bank = BankedBankSerializer()
    jackpot_id = serializers.UUIDField(
        required=False,
        allow_null=True,
        help_text="The progressive this table feeds, when a box staked on it.",
    )


class BankedHandFormSerializer(CommandSerializer):
    """The console's banked-hand form, field by field (``ante_eur.3``,
    ``cards.3``, ``bank_cards`` ...); floor.console.commands makes it the API's
    ``BankedHandSerializer`` shape."""

    ante = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS), required=False
    )
    play = serializers.DictField(child=serializers.ChoiceField(["call", "fold"]), required=False)
    cards = serializers.DictField(child=serializers.CharField(max_length=40), required=False)
    insurance = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS), required=False
    )
    jackpot = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS), required=False
    )
    first_five = serializers.DictField(child=serializers.CharField(max_length=40), required=False)
    bet = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS), required=False
    )
    took_back = serializers.DictField(
        child=serializers.ChoiceField(["none", "1", "2", "1,2"]), required=False
    )
    high = serializers.DictField(child=serializers.CharField(max_length=40), required=False)
    low = serializers.DictField(child=serializers.CharField(max_length=40), required=False)
    bank_cards = serializers.CharField(max_length=40, required=False)
    bank_common = serializers.CharField(max_length=40, required=False)
    bank_high = serializers.CharField(max_length=40, required=False)
    bank_low = serializers.CharField(max_length=40, required=False)
    jackpot_id = serializers.UUIDField(required=False)
