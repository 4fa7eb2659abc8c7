"""The books' part of the rake report: the gaming day each raking command's
money was booked in, so the report by gaming day agrees with the cage's books
[GA art. 18.3; PT 7]. The floor's rake report (floor.reports.rake) asks it
through floor.reports.parts."""

from __future__ import annotations

from collections.abc import Sequence

from floor.ports.report_reads import REPORT_PARTS, data_of_commands, known
from ledger.domain.transaction import Transaction

# The ledger's transaction of a raking command books its gaming day.
POSTED = Transaction.Posted
RAKED = ("hand", "time_charge")
IN_BATCH = 500  # ids a query's IN list holds (SQLite caps its variables)


def booked_days(command_ids: Sequence[str]) -> dict[str, str]:
    """The gaming day of each raking command of ``command_ids``: the day its
    transaction was booked in (a rake that moved no money has none)."""
    days = {}
    command_ids = list(command_ids)
    for first in range(0, len(command_ids), IN_BATCH):
        posted = data_of_commands(POSTED, command_ids[first : first + IN_BATCH])
        for command_id, data in posted:
            # A transaction whose stored event is unreadable refuses the
            # report: its day unknown, the rake would fall on another day.
            if known(data).get("kind") in RAKED:
                days[command_id] = data.get("gaming_day")
    return days


def declare() -> None:
    REPORT_PARTS.date_rake_by(booked_days)
