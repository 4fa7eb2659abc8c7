"""Money as people read it: integer cents shown as euros."""

from django import template
from django.utils.formats import number_format

from games.limits import small_blind_for

register = template.Library()


@register.filter
def euros(cents: int) -> str:
    """1250 -> "12,50 €" (in the active language's number format)."""
    return f"{number_format(cents / 100, decimal_pos=2)} €"


@register.filter
def euros_abs(cents: int) -> str:
    """The amount without its sign (a receipt's "out" column)."""
    return euros(abs(cents))


@register.filter
def small_blind(minimum_cents: int) -> int:
    """The small blind of a table with this minimum."""
    return small_blind_for(minimum_cents)
