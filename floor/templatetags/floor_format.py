"""Money as people read it: integer cents shown as euros."""

from decimal import Decimal

from django import template
from django.utils.formats import number_format

from games.limits import small_blind_for

register = template.Library()


@register.filter
def euros(cents: int) -> str:
    """1250 -> "12,50 €", 10025050 -> "100.250,50 €" (the active language's
    number format, thousands grouped: the cage reads six-figure sums at a glance)."""
    return f"{number_format(Decimal(cents) / 100, decimal_pos=2, force_grouping=True)} €"


@register.filter
def euros_abs(cents: int) -> str:
    """The amount without its sign (a receipt's "out" column)."""
    return euros(abs(cents))


@register.filter
def small_blind(minimum_cents: int) -> int:
    """The small blind of a table with this minimum."""
    return small_blind_for(minimum_cents)
