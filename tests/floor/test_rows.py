"""The values ``floor.kernel.web.rows`` writes are those the ORM writes: its
shortened preparing (``_shortened``, issue 23) against each field's own
``get_db_prep_save``, on whichever backend the lane runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID

import pytest
from django.db import connection

from floor.kernel.web.rows import (
    _preparer,
    _rows_per_statement,
    _shortened,
    insert_dicts,
    insert_plain,
)
from floor.models import HandView, JournalMention, subject_bytes
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


def a_transaction(number: int, **more) -> dict:
    """A transaction's fields by name, some left to their defaults."""
    return {
        "id": UUID(int=number),
        "position": number,
        "kind": "buy_in",
        "gaming_day": "2026-11-27",
        "table_id": AN_ID if number % 2 else None,
        "postings": {"cage": -100 * number, f"stack:{AN_ID.hex}": 100 * number},
        "amount_cents": 100 * number,
        "actor": "cajero",
        "actor_role": "cashier",
        "command_id": f"c{number}",
        "rule_profile": "es",
        "at": MOMENTS[number % 2],
        **more,
    }


def test_rows_given_as_fields_are_stored_as_their_instances_are():
    """``insert_dicts`` (the rebuild's hands, transactions, steps and seats,
    issue 23 sixth pass) against ``model(**fields).save()``: the same
    columns, a field left out taking its default; more rows than one
    statement carries."""
    count = _rows_per_statement(len(TransactionView._meta.concrete_fields)) + 7
    given = [
        a_transaction(n, reason_params={"n": n}) if n % 3 else a_transaction(n)
        for n in range(1, count + 1)
    ]
    insert_dicts(TransactionView, given)
    by_rows = list(TransactionView.objects.order_by("position").values())
    TransactionView.objects.all().delete()
    for fields in given:
        TransactionView(**fields).save(force_insert=True)
    assert list(TransactionView.objects.order_by("position").values()) == by_rows
    assert by_rows[2]["reason_params"] == {} and by_rows[2]["reference"] == ""


def test_a_default_made_by_a_call_is_made_for_each_row_that_leaves_it_out(monkeypatch):
    """As each instance makes its own (a uuid4, a moment): not one value
    prepared once and shared by every row."""
    field = TransactionView._meta.get_field("reference")
    made = iter(range(10))
    monkeypatch.setattr(field, "default", lambda: f"ref-{next(made)}")
    field.__dict__.pop("_get_default", None)  # Django caches the default's getter
    try:
        insert_dicts(TransactionView, [a_transaction(1), a_transaction(2, reference="given")])
        insert_dicts(TransactionView, [a_transaction(3)])
    finally:
        monkeypatch.undo()
        field.__dict__.pop("_get_default", None)
    references = TransactionView.objects.order_by("position").values_list("reference", flat=True)
    assert list(references) == ["ref-0", "given", "ref-1"]


def test_rows_given_as_fields_name_only_the_models_fields():
    with pytest.raises(ValueError, match="reason_text"):
        insert_dicts(TransactionView, [a_transaction(1, reason_text="typo")])


def test_plain_rows_all_go_in_and_a_conflict_is_skipped():
    """``insert_plain`` by several rows a statement: every row in, across
    statements, a row already there left alone (once: the mentions are keyed
    by the pair itself, no id to tell a second copy by)."""
    rows = [(f"{n:032x}", n) for n in range(1, 1_234)]
    plain = [(subject_bytes(subject), position) for subject, position in rows]  # as stored
    insert_plain(JournalMention, ("subject", "position"), plain[:10])
    insert_plain(JournalMention, ("subject", "position"), plain, ignore_conflicts=True)
    stored = list(JournalMention.objects.order_by("position").values_list("subject", "position"))
    assert stored == rows
