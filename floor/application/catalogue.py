"""Every command of the floor application, registered: import this (not the
registry alone) to see them all, the floor's and the cage's.

The handlers declare themselves with ``@command`` as their modules load;
importing FloorApplication (floor.application.floor_app) loads them all.
"""

from __future__ import annotations

from collections.abc import Mapping

from floor.application.floor_app import FloorApplication
from floor.kernel.registry import COMMANDS, CommandSpec, UnknownCommand
from floor.kernel.roles import Role

# Command name -> the roles that may issue it, in order of preference: derived
# from the registry, for who checks a role outside a command (the role matrix).
COMMAND_ROLES: Mapping[str, tuple[Role, ...]] = COMMANDS.roles()

__all__ = ["COMMANDS", "COMMAND_ROLES", "CommandSpec", "FloorApplication", "UnknownCommand"]
