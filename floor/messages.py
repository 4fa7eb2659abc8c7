"""What people read when a command is refused, in their language.

The domain raises errors with a stable code and English prose; this catalogue
gives each code a translatable message, filled with the error's params.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from floor.domain.errors import ErrorKind
from floor.domain.roles import Role
from games.errors import RuleViolation

# The HTTP status of each kind of refusal (the API's status, the console's too).
STATUS_BY_KIND = {
    ErrorKind.INVALID: 400,
    ErrorKind.CONFLICT: 409,
    ErrorKind.FORBIDDEN: 403,
    ErrorKind.NOT_FOUND: 404,
}

MESSAGES = {
    "sector_full": _(
        "%(sector)s already has %(max_tables)s tables: a sector holds at most "
        "%(max_tables)s (GA art. 19)."
    ),
    "sector_exists": _("There is already a sector called %(sector)s."),
    "sector_name_required": _("A sector needs a name."),
    "sector_name_invalid": _("A sector name may not contain control characters."),
    "sector_name_too_long": _("A sector name has at most %(max_length)s characters."),
    "sector_not_found": _("That sector does not exist."),
    "unknown_variant": _("Unknown variant: %(variant)s."),
    "unknown_limit": _("Unknown betting limit: %(limit)s."),
    "not_an_integer": _("Amounts and seats must be whole numbers."),
    "stakes_minimum_not_positive": _("The table minimum must be a positive amount."),
    "stakes_minimum_odd": _(
        "The table minimum must be a whole number of cents that halves evenly: the "
        "small blind is half of it."
    ),
    "stakes_too_large": _("A table maximum is at most %(max_euros)s euros."),
    "stakes_maximum_below_minimum": _("The table maximum may not be below its minimum."),
    "stakes_out_of_band": _(
        "The table minimum must be between %(low_percent)s %% and "
        "%(high_percent)s %% of the maximum (GA art. 22.3a; PT 20)."
    ),
    "seats_out_of_range": _("This table must have between %(low)s and %(high)s seats."),
    "role_not_allowed": _("Your role may not do this: it needs the role %(roles)s."),
    "command_id_required": _("The request has no command id."),
    "command_id_invalid": _("A command id may not contain control characters."),
    "command_id_too_long": _("A command id has at most %(max_length)s characters."),
    "command_id_reused": _("This command id was already used for a different command."),
    "unknown_rule_profile": _("Unknown rule profile."),
    "invalid_input": _("Some fields are missing or wrong."),
    "not_found": _("Not found."),
    "store_unavailable": _(
        "The floor's records did not answer. Please try again: the same request "
        "is never recorded twice."
    ),
    "read_models_lagging": _(
        "The command was recorded but the screens are behind; reload in a moment."
    ),
    "concurrent_update": _(
        "The floor changed while your command was being decided; nothing was "
        "recorded. Please try again."
    ),
}


ROLE_LABELS = {
    Role.JEFE_SECTOR: _("floor supervisor (jefe de sector)"),
    Role.CAJERO: _("cashier"),
    Role.CRUPIER: _("dealer"),
    Role.DIRECTOR: _("director"),
    Role.INSPECTOR: _("inspector"),
}


def role_names(roles: object) -> str:
    """Role codes as people call them: "jefe_sector" -> "floor supervisor ..."."""
    codes = roles if isinstance(roles, (list, tuple)) else [roles]
    return str(_(" or ")).join(str(ROLE_LABELS.get(code, code)) for code in codes)


def message_for(code: str, fallback: str = "", **params: object) -> str:
    """The catalogued message for ``code`` in the active language."""
    template = MESSAGES.get(code)
    if template is None:
        return fallback
    if "roles" in params:
        params["roles"] = role_names(params["roles"])
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return fallback or str(template)


def describe(error: RuleViolation) -> str:
    """The refusal in the active language, or the domain's prose if uncatalogued."""
    return message_for(error.code, error.message, **error.params)
