"""Money and durations as people read them: integer cents shown as euros."""

from decimal import Decimal

from django import template
from django.utils.formats import number_format

from floor.amounts import figure, money
from floor.liveness import timers_stopped
from games.limits import small_blind_for

register = template.Library()


@register.filter
def euros(cents: int) -> str:
    """1250 -> "12,50 €", 10025050 -> "100.250,50 €" (thousands grouped, so the
    cage reads six-figure sums at a glance): the one money format of every
    page, the active language's (floor.amounts.money)."""
    return money(cents)


@register.filter
def typed_euros(cents: int) -> str:
    """1250 -> "12,50": an amount as a form's field holds it, typed the way
    the console reads it back (floor.amounts)."""
    return figure(cents)


@register.filter
def euros_abs(cents: int) -> str:
    """The amount without its sign (a receipt's "out" column)."""
    return euros(abs(cents))


@register.filter
def small_blind(minimum_cents: int) -> int:
    """The small blind of a table with this minimum."""
    return small_blind_for(minimum_cents)


@register.filter
def span(seconds: float | None) -> str:
    """A rule's duration as people read it: 1800 -> "30 min", 3 -> "3 s"
    (the accelerated test profiles read minutes as seconds)."""
    if seconds is None:
        return ""
    whole = round(seconds)
    if whole and whole % 3600 == 0:
        return f"{whole // 3600} h"
    if whole and whole % 60 == 0:
        return f"{whole // 60} min"
    return f"{number_format(Decimal(str(seconds)).normalize())} s"


@register.filter
def played(seconds: float | None) -> str:
    """A player's time at the tables (issue 26): 4500 -> "1:15 h", hours and
    minutes, the seconds dropped."""
    if seconds is None:
        return ""
    minutes = int(seconds) // 60
    return f"{minutes // 60}:{minutes % 60:02d} h"


@register.inclusion_tag("floor/_timers_banner.html", takes_context=True)
def timers_banner(context) -> dict:
    """A banner on every console page of the staff while the floor's clocks do
    not run (floor.liveness: no sweep for a while, or the worker restarting):
    no suspension closes, no call window ends until they are back (issue 20)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    show = bool(user is not None and user.is_authenticated and timers_stopped())
    return {"timers_stopped": show}
