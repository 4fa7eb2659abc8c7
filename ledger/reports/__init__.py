"""The books' reports: the cage's day and moves, and what the books add to the
floor's rake and history reports.

They answer on the floor's reports API (/api/reports/), alike: the same readers'
check, filters, pages and CSV, through floor.ports.report_reads, the ledger's
one door into the floor's reports (the floor imports nothing of the ledger).
The cage report is routed here (ledger.reports.urls, included by config.urls);
the rake and history reports stay the floor's, and the ledger declares its parts
of them when Django loads it (``declare``, from ledger.apps).
"""

from __future__ import annotations


def declare() -> None:
    """Declares the books' parts of the floor's reports (floor.reports.parts)."""
    from ledger.reports import history, players, rake

    rake.declare()
    history.declare()
    players.declare()
