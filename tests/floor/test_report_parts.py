"""The floor's reports take what the books add through parts the floor owns
(floor.reports.parts): the floor imports nothing of the ledger, the ledger
declares its parts when Django loads it (ledger.reports.declare)."""

from __future__ import annotations

from uuid import uuid4

from floor.reports import history
from floor.reports.parts import REPORT_PARTS, ReportParts
from ledger import reports as books_reports
from ledger.reports import history as books_history
from ledger.reports import rake as books_rake


def test_the_history_subjects_are_the_floors_then_the_books():
    """``report_subject_invalid`` lists the subjects given in this order,
    whichever module Django loaded first."""
    assert list(history.subjects()) == ["table", "player", "account"]


def test_the_ledger_has_declared_its_parts():
    assert REPORT_PARTS._booked_days is books_rake.booked_days
    assert books_history.tray_requests_of in REPORT_PARTS._table_concerns
    assert books_history.readable_money in REPORT_PARTS._narrowings


def test_declaring_the_books_parts_again_changes_nothing():
    table_id = uuid4()
    before = (
        list(history.subjects()),
        len(REPORT_PARTS.table_concerns(table_id)),
        len(REPORT_PARTS._narrowings),
    )
    books_reports.declare()
    after = (
        list(history.subjects()),
        len(REPORT_PARTS.table_concerns(table_id)),
        len(REPORT_PARTS._narrowings),
    )
    assert after == before == (["table", "player", "account"], 1, 1)


def test_without_the_books_the_floor_answers_alone():
    """No gaming day booked (the rake report falls back on the profile's), no
    more rows for a table, nothing hidden."""
    bare = ReportParts()
    assert bare.booked_days(["some-command"]) == {}
    assert bare.table_concerns(uuid4()) == []
    rows = object()
    assert bare.narrow_history(None, rows) is rows
    assert bare.history_subjects() == {}
