"""The cage's console actions: the money commands the consoles run, with the
form each is checked by (the cage API's serializers) and what the person reads
when it worked.

The consoles' door and their declaration of an action are the floor's
(floor.console.actions, ConsoleCommand); the ledger imports neither. It
declares a function that makes its actions with the class it is given
(floor.kernel.composition, ``add_console_actions``, in ledger.apps), and
names each command by its handler (floor.kernel.registry).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy

from floor.kernel.registry import COMMANDS
from ledger.api import serializers as ls


def cage_actions(action: Callable[..., Any]) -> list[Any]:
    """The cage's console actions, each made by ``action`` (the consoles'
    ConsoleCommand): a tray move asked and answered at the table, chips sold,
    bought in and cashed out at the cage."""
    return [
        action(
            COMMANDS.request_tray_move,
            ls.TrayMoveSerializer,
            gettext_lazy("The cage is asked."),
            ("table_id",),
        ),
        action(
            COMMANDS.confirm_tray_move,
            ls.CommandSerializer,
            gettext_lazy("The tray move is confirmed."),
            ("request_id",),
        ),
        action(
            COMMANDS.cancel_tray_move,
            ls.CancelTrayMoveSerializer,
            gettext_lazy("The request is cancelled."),
            ("request_id",),
        ),
        action(
            COMMANDS.sell_chips, ls.ChipsForPlayerSerializer, gettext_lazy("The chips are sold.")
        ),
        action(
            COMMANDS.buy_in_at_cage, ls.CageBuyInSerializer, gettext_lazy("The buy-in is paid.")
        ),
        action(COMMANDS.cash_out, ls.CashOutSerializer, gettext_lazy("The chips are cashed out.")),
    ]
