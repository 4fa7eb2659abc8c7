"""What a console's live part compares and shows: where what it shows stands,
and the floor's time.

A console page is rendered once; htmx then asks its live part every second and
morphs the answer in (templates/floor/console/_script.html). The live part
answers 204 while what the console shows stands where the page saw it: each
console names its scopes (``sector_scope``, ``table_scope``, ``CAGE``), the
floor's projection marks every scope an event touches in the same transaction
(floor.projections.live_marks), and the position is the highest mark among the
console's scopes and ``ALL``: one small query, so an idle console costs next
to nothing however busy the rest of the room is. Every answer carries the
position and the floor's time in its headers (``stamp``).
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.http import HttpResponse

from floor.kernel.web.host import host

# The scope every console reads: an event that may show anywhere.
ALL = "all"
# The cage's console.
CAGE = "cage"
# The games players asked for that no table plays (issue 24, item 4): every
# jefe's console shows them, so a list of such a game marks this scope, not a
# sector's (floor.projections.live_marks).
WANTED = "wanted"


def sector_scope(sector_id: UUID | str) -> str:
    """The jefe's console of one sector."""
    return f"sector:{sector_id if isinstance(sector_id, UUID) else UUID(str(sector_id))}"


def table_scope(table_id: UUID | str) -> str:
    """The dealer's table view of one table."""
    return f"table:{table_id if isinstance(table_id, UUID) else UUID(str(table_id))}"


def log_position(*scopes: str) -> str:
    """Where what a console shows stands: the last event that touched one of
    ``scopes`` (or, with none, any event), and whether the timers stopped or
    started again (the live part's banner, floor.liveness), so an open console
    says so without a reload."""
    return host().log_position(*scopes)


def server_now() -> datetime:
    """The floor's time (the application's clock, injected in tests)."""
    return host().application().clock.now()


def stamp(response: HttpResponse, position: str) -> HttpResponse:
    """Tells the script where the read models stood and what time the floor has."""
    response["X-Floor-Position"] = position
    response["X-Server-Time"] = server_now().isoformat()
    response["Cache-Control"] = "no-store"
    return response
