"""What a console's live part compares and shows: where the read models stand
and the floor's time.

A console page is rendered once; its script then asks the live part every
second or so and swaps in the blocks that changed. The live part answers 204
while the read models stand where the page saw them (``log_position``), so an
idle floor costs one small query a second per open console; every answer
carries the position and the floor's time in its headers (``stamp``). The
jefe's, the dealer's and the cage's consoles all answer so.
"""

from __future__ import annotations

from datetime import datetime

from django.http import HttpResponse

from floor.kernel.web.host import host


def log_position() -> str:
    """Where the read models stand: changes whenever any projection applies an
    event, and when the timers stop or start again (the live part's banner,
    floor.liveness), so an open console says so without a reload."""
    return host().log_position()


def server_now() -> datetime:
    """The floor's time (the application's clock, injected in tests)."""
    return host().application().clock.now()


def stamp(response: HttpResponse, position: str) -> HttpResponse:
    """Tells the script where the read models stood and what time the floor has."""
    response["X-Floor-Position"] = position
    response["X-Server-Time"] = server_now().isoformat()
    response["Cache-Control"] = "no-store"
    return response
