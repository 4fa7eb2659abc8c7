"""What the floor offers the ledger's reports: the ledger's door into them.

The cage's report and the books' parts of the rake and history reports are the
ledger's (ledger.reports), yet they answer on the floor's reports API, alike:
the same readers' check, filters, pages and CSV (floor.reports.base, .common).
They replay the event journal, which the floor keeps (floor.selectors.journal),
selecting its rows by declared event types; and they date a request not yet
booked by the floor's rule profile. Their parts of the floor's reports they
declare in REPORT_PARTS (floor.reports.parts). Nothing else of the floor's
reports is the ledger's to import.
"""

from __future__ import annotations

from datetime import date, datetime

from floor.kernel.web.filters import parameter
from floor.models import EventJournalEntry
from floor.reports.base import ReportView, by_parameter, json_or_csv, page_of
from floor.reports.common import (
    FILTER_PARAMETERS,
    REPORT_REFUSALS,
    ReportFilter,
    event_of,
    filters,
    iso,
    known,
    table_columns,
    table_labels,
)
from floor.reports.parts import REPORT_PARTS, HistorySubject, Subject
from floor.runtime import floor_app
from floor.selectors.journal import (
    data_of_commands,
    event_types_of,
    events_of_aggregates,
    first_event,
    hiding,
    mentioning,
)

__all__ = [
    "FILTER_PARAMETERS",
    "REPORT_PARTS",
    "REPORT_REFUSALS",
    "EventJournalEntry",
    "HistorySubject",
    "ReportFilter",
    "ReportView",
    "Subject",
    "by_parameter",
    "data_of_commands",
    "event_of",
    "event_types_of",
    "events_of_aggregates",
    "filters",
    "first_event",
    "gaming_day_of",
    "hiding",
    "iso",
    "json_or_csv",
    "known",
    "mentioning",
    "page_of",
    "parameter",
    "rule_profile",
    "table_columns",
    "table_labels",
]


def gaming_day_of(moment: datetime) -> date:
    """The gaming day ``moment`` falls in by the floor's rule profile (a fill
    asked for and not confirmed is dated so)."""
    return floor_app().profile.gaming_day.of(moment)


def rule_profile():
    """The floor's rule profile (the cage's identification threshold, issue 25)."""
    return floor_app().profile
