"""The floor application: the one command service every command of the room runs on.

The floor's commands are functions of a unit of work, declared where they live
(floor.application.sectors, players, seating, clocks, house_clocks, balancing,
must_move, separation, staffing, dealers, corrections, player_lists): importing
them here declares them all, and the staff's scope (floor.application.staffing)
and the player's own reach (floor.application.player_self) as policies every
command passes. The cage,
banked hands' money and the books are the ledger's, plugged in when Django
loads it (ledger.apps): one event store and one application, so a hand and the
money it moves are saved together, and the floor imports none of the ledger.
"""

from __future__ import annotations

from floor.application import (  # noqa: F401  (their commands declare themselves)
    balancing,
    clocks,
    corrections,
    dealers,
    exclusions,
    house_clocks,
    must_move,
    player_lists,
    player_self,
    player_signin,
    players,
    seating,
    sectors,
    separation,
    staffing,
)
from floor.application.seat_support import SYSTEM_RANDOM
from floor.domain.balance_group import BalanceGroup
from floor.domain.dealer_roster import DealerRoster
from floor.domain.player import Player
from floor.domain.sector import Sector
from floor.domain.table import Table
from floor.domain.waiting_list import WaitingList
from floor.kernel.composition import ROOM
from floor.kernel.service import CommandService

# The floor's long-lived aggregates, snapshotted as they grow.
# The dealer roster is the room's one, every push an event (issue 26).
for _aggregate in (Sector, Table, Player, WaitingList, BalanceGroup, DealerRoster):
    ROOM.snapshot_every(_aggregate, 50)


class FloorApplication(CommandService):
    """The room's commands, run through the command service's pipeline."""

    # The draws' random source (floor.application.seat_support); a test sets a
    # seeded one on its application.
    random = SYSTEM_RANDOM
