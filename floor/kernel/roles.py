"""Who may do what on the floor.

The roles are the casino's jobs. Which role may issue which command is a rule of
the floor (the director opens sectors, the jefe de sector runs the tables
[GA art. 19.1]): each command declares its roles with its handler
(floor.kernel.registry), never in a view; the refusal is said here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from floor.kernel.errors import forbidden


class Role(StrEnum):
    JEFE_SECTOR = "jefe_sector"
    CAJERO = "cajero"
    CRUPIER = "crupier"
    DIRECTOR = "director"
    INSPECTOR = "inspector"
    # The service's own clock: fires the deadlines the events recorded. No
    # person holds it; timers act under it (DESIGN.md, Time and timers).
    CLOCK = "clock"
    # A player signed in from their phone (issue 24): acts on their own
    # entries only (floor.application.player_self); a player user holds no
    # other group.
    PLAYER = "player"


# The roles that may issue a command, in order of preference, are declared with
# the command's handler (floor.kernel.registry); these are the usual sets.
JEFE = (Role.JEFE_SECTOR,)
# The dealer reports hands; in a small room the jefe does it [DESIGN.md].
TABLE_REPORTERS = (Role.CRUPIER, Role.JEFE_SECTOR)
JEFE_OR_DIRECTOR = (Role.JEFE_SECTOR, Role.DIRECTOR)
CAGE = (Role.CAJERO,)
# Deadlines firing [PT 24; CM-6, CM-18, CM-22, CM-24; GA art. 18.3b]: the clock only.
CLOCK_ONLY = (Role.CLOCK,)
# A player acting for themselves (issue 24): their own list entries only.
PLAYER = (Role.PLAYER,)


@dataclass(frozen=True)
class Actor:
    """A person issuing a command, with every floor role they hold."""

    username: str
    roles: frozenset[Role]

    def role_among(self, command: str, allowed: tuple[Role, ...]) -> Role:
        """The first of ``allowed`` (the roles that may issue ``command``) this
        actor holds, or the refusal naming them."""
        for role in allowed:
            if role in self.roles:
                return role
        raise forbidden("role_not_allowed", command=command, roles=[str(role) for role in allowed])


def runs_sector(username: str, jefes: list[str] | tuple[str, ...]) -> bool:
    """Whether a jefe runs a sector with these named jefes [GA art. 19.1]: one
    of them, or any jefe while the director has named none."""
    return not jefes or username in jefes
