"""Every command of the floor application, registered: import this (not the
registry alone) to see the floor's.

The handlers declare themselves with ``@command`` as their modules load;
importing FloorApplication loads the floor's, its own two (open_sector,
open_table) included. The cage's and the other money commands are the
ledger's, declared as the ledger plugs in (ledger.apps), so the role map
below reads the registry as it is when asked, not as it was at import.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from floor.application.floor_app import FloorApplication
from floor.kernel.registry import COMMANDS, CommandSpec, UnknownCommand
from floor.kernel.roles import Role


class _CommandRoles(Mapping[str, tuple[Role, ...]]):
    """Command name -> the roles that may issue it, in order of preference."""

    def __getitem__(self, name: str) -> tuple[Role, ...]:
        return COMMANDS[name].roles

    def __iter__(self) -> Iterator[str]:
        return iter(COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS)


# Derived from the registry, for who checks a role outside a command (the role matrix).
COMMAND_ROLES: Mapping[str, tuple[Role, ...]] = _CommandRoles()

__all__ = ["COMMANDS", "COMMAND_ROLES", "CommandSpec", "FloorApplication", "UnknownCommand"]
