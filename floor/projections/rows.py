"""Plain rows inserted in bulk, past the ORM's per-value work (issue 23).

``bulk_create`` prepares every value of every row through its field (a
``get_db_prep_save`` call each) and compiles one statement per chunk: for the
reports' mentions, tens of thousands of two-column rows a rebuild, that was
most of a batch's flush. Rows whose values need no conversion (text and
integers) go here instead, as one ``executemany`` on the connection the
router picks for the model, so a rebuild's shadow gets them like any ORM
write (floor.kernel.web.shadow_db).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connections, models, router


def insert_plain(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Sequence[tuple],
    *,
    ignore_conflicts: bool = False,
) -> None:
    """Inserts ``rows`` (tuples of text and integers, in ``columns``' order)
    into ``model``'s table; with ``ignore_conflicts``, a row a unique
    constraint already holds is skipped (``ON CONFLICT DO NOTHING``, which
    SQLite and PostgreSQL both take)."""
    if not rows:
        return
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in columns)
    marks = ", ".join(["%s"] * len(columns))
    conflict = " ON CONFLICT DO NOTHING" if ignore_conflicts else ""
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({names}) VALUES ({marks}){conflict}"
    with connection.cursor() as cursor:
        cursor.executemany(sql, list(rows))
