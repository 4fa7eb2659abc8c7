"""The values ``floor.kernel.web.rows`` writes are those the ORM writes: its
shortened preparing (``_shortened``, issue 23) against each field's own
``get_db_prep_save``, on whichever backend the lane runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID

import pytest
from django.db import connection

from floor.kernel.web.rows import _preparer, _shortened
from floor.models import HandView
from ledger.models import TransactionView

pytestmark = pytest.mark.django_db

AN_ID = UUID("0123abcd-4567-89ef-0123-456789abcdef")
MOMENTS = [
    datetime(2026, 11, 27, 5, 46, 1, 250, tzinfo=UTC),
    datetime(2026, 11, 27, 7, 46, tzinfo=timezone(timedelta(hours=2))),
    None,
]
IDS = [AN_ID, str(AN_ID), AN_ID.hex, None]
JSON = [{"1": 300, "2": [1, 2]}, [3, 4], [], {}, "text", 5, None]


def comparable(value):
    """A prepared value as it compares: PostgreSQL's JSON wrapper by what it wraps."""
    wrapped = getattr(value, "obj", None)
    return (type(value).__name__, wrapped) if wrapped is not None else value


@pytest.mark.parametrize(
    ("field", "values"),
    [
        (HandView._meta.get_field("table"), IDS),
        (HandView._meta.get_field("dealt_in"), JSON),
        (HandView._meta.get_field("contributions"), JSON),
        (HandView._meta.get_field("started_at"), MOMENTS),
        (HandView._meta.get_field("ended_at"), MOMENTS),
        (TransactionView._meta.get_field("id"), IDS),
        (TransactionView._meta.get_field("table_id"), IDS),
        (TransactionView._meta.get_field("postings"), JSON),
        (TransactionView._meta.get_field("at"), MOMENTS),
    ],
    ids=lambda value: getattr(value, "name", ""),
)
def test_a_shortened_field_prepares_each_value_as_the_field_does(field, values):
    assert _shortened(field, connection) is not None  # the fields a rebuild writes most
    prepare = _preparer(field, connection)
    for value in values:
        assert comparable(prepare(value)) == comparable(field.get_db_prep_save(value, connection))


def test_a_naive_moment_takes_the_fields_own_way_warning_included():
    field = HandView._meta.get_field("started_at")
    naive = datetime(2026, 11, 27, 5, 46)
    with pytest.warns(RuntimeWarning):
        expected = field.get_db_prep_save(naive, connection)
    with pytest.warns(RuntimeWarning):
        assert _preparer(field, connection)(naive) == expected
