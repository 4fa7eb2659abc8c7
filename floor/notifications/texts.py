"""The messages, in the player's language (es by default; gl, pt, en).

A call says the game, the table and seat, and by when to come [CM-6: 5 minutes
to appear]; an expired remote entry says so and that the player may join
again. Nothing of any other player: only the recipient's own game, table and
seat, read from the outbox row's context (its deadline the call's as it
stands when sent: floor.notifications.delivery.current_call) and the table's
read model.

The game's labels are the consoles' words (floor.forms, the same message ids,
so one translation), repeated here: the workers that send messages stand
below the console forms (pyproject.toml, the floor's layers).
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from floor.amounts import figure, money
from floor.domain.game import Game
from floor.models import TableView
from floor.notifications.base import Message
from games.limits import BettingLimit
from games.variants import Variant

CALLED, REMOTE_EXPIRED = "called", "remote_expired"
KINDS = (CALLED, REMOTE_EXPIRED)

LANGUAGES = ("es", "gl", "pt", "en")

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


def game_text(key: str) -> str:
    """``texas_holdem/no_limit/200/1000`` -> "Texas Hold'em, Sin límite, 2/10 €"."""
    try:
        game = Game.from_key(key)
    except ValueError:
        return key
    variant = VARIANT_LABELS.get(game.variant, game.variant)
    limit = LIMIT_LABELS.get(game.limit, game.limit)
    stakes = f"{figure(game.minimum_cents, whole=True)}/{money(game.maximum_cents, whole=True)}"
    return f"{variant}, {limit}, {stakes}"


def table_text(table_id: str | None) -> str:
    """The table as the consoles name it ("Mesa 3 · Sector A")."""
    try:
        table = TableView.objects.select_related("sector").filter(id=UUID(str(table_id))).first()
    except (TypeError, ValueError):
        table = None
    return table.label if table is not None else "?"


def clock_time(text: str) -> str:
    """An ISO moment as the room's clock shows it (settings.TIME_ZONE): "21:05"."""
    return timezone.localtime(datetime.fromisoformat(text)).strftime("%H:%M")


def compose(kind: str, context: dict, language: str = "es") -> Message:
    """The message of ``kind`` (called, remote_expired) in ``language``."""
    language = language if language in LANGUAGES else settings.LANGUAGE_CODE
    with translation.override(language):
        casino = settings.FLOOR_CASINO_NAME
        game = game_text(str(context.get("game", "")))
        if kind == CALLED:
            subject = gettext("%(casino)s: your seat is ready") % {"casino": casino}
            facts = {"game": game, "table": table_text(context.get("table_id")),
                     "seat": context.get("seat")}  # fmt: skip
            if context.get("ends_at"):
                body = gettext(
                    "You are called for %(game)s: %(table)s, seat %(seat)s. "
                    "Come to the table by %(deadline)s, or the seat goes to the next player."
                ) % {**facts, "deadline": clock_time(context["ends_at"])}
            else:
                body = (
                    gettext(
                        "You are called for %(game)s: %(table)s, seat %(seat)s. "
                        "Come to the table now."
                    )
                    % facts
                )
        elif kind == REMOTE_EXPIRED:
            subject = gettext("%(casino)s: your place on the list expired") % {"casino": casino}
            body = gettext(
                "Your entry on the list for %(game)s expired: you were not checked in "
                "at the desk in time. You may join the list again."
            ) % {"game": game}
        else:
            raise ValueError(f"no message of kind {kind!r}")
    return Message(subject=subject, body=body)
