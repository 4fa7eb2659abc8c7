"""What people read when a command is refused, in their language.

The domain raises errors with a stable code and English prose; this catalogue
gives each code a translatable message, filled with the error's params.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import RuleViolation

MESSAGES = {
    "sector_full": _(
        "%(sector)s already has %(max_tables)s tables: a sector holds at most "
        "%(max_tables)s (GA art. 19)."
    ),
    "sector_exists": _("There is already a sector called %(sector)s."),
    "sector_name_required": _("A sector needs a name."),
    "sector_name_too_long": _("A sector name has at most %(max_length)s characters."),
    "sector_not_found": _("That sector does not exist."),
    "unknown_variant": _("Unknown variant: %(variant)s."),
    "unknown_limit": _("Unknown betting limit: %(limit)s."),
    "not_an_integer": _("Amounts and seats must be whole numbers."),
    "stakes_invalid": _("Those stakes are not valid: %(detail)s"),
    "stakes_out_of_band": _(
        "The table minimum must be between %(low_percent)s %% and "
        "%(high_percent)s %% of the maximum (GA art. 22.3a; PT 20)."
    ),
    "seats_out_of_range": _("This table must have between %(low)s and %(high)s seats."),
    "role_not_allowed": _("Your role may not do this: it needs %(roles)s."),
    "command_id_required": _("The request has no command id."),
    "command_id_too_long": _("A command id has at most %(max_length)s characters."),
    "command_id_reused": _("This command id was already used for a different command."),
    "concurrent_update": _(
        "The floor changed while your command was being decided; nothing was "
        "recorded. Please try again."
    ),
}


def describe(error: RuleViolation) -> str:
    """The refusal in the active language, or the domain's prose if uncatalogued."""
    template = MESSAGES.get(error.code)
    if template is None:
        return error.message
    params = {"detail": error.message, **error.params}
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return error.message
