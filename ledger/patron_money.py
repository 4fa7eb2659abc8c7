"""What a patron brought into a gaming day besides the chips they bought at
the cage, as the books' read side shows it: the cash they paid at the
tables that day and the chips they held off the tables when it opened. A
certificate of winnings must not call either winnings (ledger.application.
aml, plugged in by ledger.apps).

Read only once the read models show every event recorded so far: a
projector behind (its own process by default) would hide a buy-in, and the
certificate would then count money brought in as won. Behind for longer
than a request waits for its own writes, the certificate is refused with
``books_catching_up`` (try again in a moment), never decided on a lagging
read.
"""

from __future__ import annotations

from floor.kernel.errors import conflict
from floor.kernel.web.gateway import read_your_writes_seconds
from floor.kernel.web.host import host
from floor.kernel.web.projector import ProjectionLagging
from ledger import selectors


def brought_in(player_id: str, gaming_day: str) -> tuple[int, int]:
    """(cash paid at the tables on ``gaming_day``, chips held at its open), cents."""
    try:
        host().catch_up(until=None, timeout=read_your_writes_seconds(), wait=True)
    except ProjectionLagging:
        raise conflict("books_catching_up") from None
    return (
        selectors.table_cash_buy_ins(player_id, gaming_day),
        selectors.chips_held_at_open(player_id, gaming_day),
    )
