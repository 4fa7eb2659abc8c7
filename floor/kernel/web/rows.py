"""Rows written in bulk with one prepared statement each (issue 23).

``bulk_create`` and ``bulk_update`` compile SQL per chunk of rows: the insert
spells a placeholder per value of every row and splits the rows to fit the
backend's limit on parameters, the update builds a ``CASE WHEN`` expression per
field over every row. For the read models a batch writes (thousands of hands,
transactions and mentions in a rebuild), that compiling was most of a batch's
writing. Here the statement is one row's, compiled once, and run over every
row with ``executemany``; each value is still prepared by its own field
(``pre_save``, ``get_db_prep_save``), so a row is stored exactly as the ORM
stores it. The connection is the one the router picks for the model, so a
rebuild's shadow (floor.kernel.web.shadow_db) gets them like any ORM write.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from itertools import chain
from typing import Any
from uuid import UUID

from django.db import connections, models, router


def _connection(model: type[models.Model]):
    return connections[router.db_for_write(model)]


# Fields whose ``get_db_prep_save`` gives back a value of these exact types
# (and None) as it is, on SQLite and PostgreSQL alike: text and integers. Only
# these classes, not their subclasses, which may prepare values their way.
_AS_IS: dict[type[models.Field], tuple[type, ...]] = {
    models.CharField: (str,),
    models.TextField: (str,),
    models.BooleanField: (bool,),
    models.IntegerField: (int,),
    models.BigIntegerField: (int,),
    models.SmallIntegerField: (int,),
    models.PositiveIntegerField: (int,),
    models.PositiveBigIntegerField: (int,),
    models.PositiveSmallIntegerField: (int,),
}


def _preparer(field: models.Field, connection) -> Callable[[Any], Any]:
    """``field.get_db_prep_save`` for one field, skipped for the values it
    would give back unchanged (most of a row's: the field's call per value
    was most of writing a batch's rows), and shortened for the common values
    of the fields a rebuild writes most (``_shortened``)."""
    prepare = field.get_db_prep_save
    short = _shortened(field, connection)
    if short is not None:
        return short
    plain = _AS_IS.get(type(field))
    if plain is None or field.choices:
        return lambda value: prepare(value, connection)
    kinds = frozenset((*plain, type(None)))
    return lambda value: value if type(value) in kinds else prepare(value, connection)


def _shortened(field: models.Field, connection) -> Callable[[Any], Any] | None:
    """What ``get_db_prep_save`` ends in, called at once, for the values whose
    way there changes nothing (issue 23, fourth pass: the hands' and
    transactions' JSON, moments and ids took 2 to 5 us each through the
    field's chain of calls); any other value takes the field's own way. Only
    these classes, not their subclasses. Django 5.2's chains:

    - ``JSONField`` (no encoder): a dict or list goes to
      ``ops.adapt_json_value`` unchanged (``get_prep_value`` only resolves a
      lazy string);
    - ``DateTimeField``: an aware ``datetime`` goes to
      ``ops.adapt_datetimefield_value`` unchanged (only a naive one is made
      aware, with a warning);
    - ``UUIDField``: a ``UUID`` is given as is where the backend has a UUID
      type, else as its hex;
    - ``ForeignKey``: a value that is neither None nor ``""`` is its target
      field's (an id's, above)."""
    kind = type(field)
    prepare = field.get_db_prep_save
    if kind is models.ForeignKey:
        target = _shortened(field.target_field, connection)
        if target is None:
            return None
        return lambda value: (
            prepare(value, connection) if value is None or value == "" else target(value)
        )
    if kind is models.JSONField and field.encoder is None:
        adapt_json = connection.ops.adapt_json_value
        return lambda value: (
            adapt_json(value, None) if type(value) in _JSON_AS_IS else prepare(value, connection)
        )
    if kind is models.DateTimeField:
        adapt_moment = connection.ops.adapt_datetimefield_value

        def moment(value: Any) -> Any:
            if type(value) is datetime and value.utcoffset() is not None:
                return adapt_moment(value)
            return prepare(value, connection)

        return moment
    if kind is models.UUIDField:
        if connection.features.has_native_uuid_field:
            return lambda value: value if type(value) is UUID else prepare(value, connection)
        return lambda value: value.hex if type(value) is UUID else prepare(value, connection)
    return None


_JSON_AS_IS = frozenset((dict, list))
_MISSING = object()


# Rows one INSERT statement carries at most: SQLite's smallest limits on a
# statement's parameters (999) and on the rows of a compound VALUES (500), so
# it holds on any SQLite build and on PostgreSQL (65,535 parameters).
MAX_PARAMETERS = 999
MAX_ROWS = 500


def _rows_per_statement(columns: int) -> int:
    return max(1, min(MAX_ROWS, MAX_PARAMETERS // max(columns, 1)))


def _insert(
    connection, table: str, columns: Sequence[str], rows: list[tuple], conflict: str = ""
) -> None:
    """Runs ``INSERT INTO table (columns) VALUES (...), (...), ...`` over
    ``rows``, as many a statement as it takes (issue 23, sixth pass): one
    statement a row through ``executemany`` cost SQLite a statement's
    execution each: the journal's mentions, 140,000 rows in a 40,000-event
    rebuild, took 0.80 s of CPU that way and 0.37 s by 500 rows a statement
    (0.51 by 100; throwaway script on the bench's room). Rows go in the
    order given, so automatic ids are those one row at a time gave."""
    if not rows:
        return
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in columns)
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    head = f"INSERT INTO {quote(table)} ({names}) VALUES "
    size = _rows_per_statement(len(columns))
    full = head + ", ".join([one] * size) + conflict
    with connection.cursor() as cursor:
        for at in range(0, len(rows), size):
            chunk = rows[at : at + size]
            sql = full if len(chunk) == size else head + ", ".join([one] * len(chunk)) + conflict
            cursor.execute(sql, list(chain.from_iterable(chunk)))


def insert_plain(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Sequence[tuple],
    *,
    ignore_conflicts: bool = False,
) -> None:
    """Inserts ``rows`` given as tuples of values that need no preparing
    (text and integers), in ``columns``' order; with ``ignore_conflicts``, a
    row a unique constraint already holds is skipped (``ON CONFLICT DO
    NOTHING``, which SQLite and PostgreSQL both take)."""
    if not rows:
        return
    conflict = " ON CONFLICT DO NOTHING" if ignore_conflicts else ""
    _insert(_connection(model), model._meta.db_table, columns, list(rows), conflict)


def _inserted_fields(model: type[models.Model]) -> list[models.Field]:
    """The fields an insert writes: all but an automatic id."""
    return [
        field
        for field in model._meta.concrete_fields
        if not (field.primary_key and isinstance(field, models.AutoField))
    ]


# Rows per statement of ``upsert_plain`` on PostgreSQL (well under its limit
# of 65,535 parameters for the few columns it writes).
UPSERT_CHUNK = 1_000


def upsert_plain(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Sequence[tuple],
    *,
    unique: Sequence[str],
    update: Sequence[str],
) -> None:
    """Inserts ``rows`` as ``insert_plain`` does, and where a row with the
    same ``unique`` columns is there already, writes ``update`` of it instead
    (``ON CONFLICT (...) DO UPDATE``, which SQLite and PostgreSQL both take):
    what ``bulk_create(update_conflicts=True)`` does, without building an
    instance per row and compiling its statement per batch (the consoles'
    marks, a hundred rows a batch where a game has many tables)."""
    if not rows:
        return
    connection = _connection(model)
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in columns)
    marks = ", ".join(["%s"] * len(columns))
    keys = ", ".join(quote(column) for column in unique)
    sets = ", ".join(f"{quote(column)} = EXCLUDED.{quote(column)}" for column in update)
    table = quote(model._meta.db_table)
    conflict = f" ON CONFLICT ({keys}) DO UPDATE SET {sets}"
    rows = list(rows)
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            # SQLite runs one prepared statement over the rows at C speed.
            cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks}){conflict}", rows)
            return
        # psycopg's executemany pipelines a statement per row, a round of
        # Python per row: one statement of many rows costs a tenth of it.
        for start in range(0, len(rows), UPSERT_CHUNK):
            chunk = rows[start : start + UPSERT_CHUNK]
            values = ", ".join([f"({marks})"] * len(chunk))
            sql = f"INSERT INTO {table} ({names}) VALUES {values}{conflict}"
            cursor.execute(sql, [value for row in chunk for value in row])


def insert_rows(model: type[models.Model], objs: Iterable[models.Model]) -> None:
    """Inserts ``objs`` (unsaved instances of ``model``) as ``bulk_create``
    would, but for setting the database's ids back on them: an automatic id
    is left to the database, in the order given."""
    objs = list(objs)
    if not objs:
        return
    connection = _connection(model)
    fields = _inserted_fields(model)
    # A field's ``pre_save`` (what bulk_create takes) is its attribute's value
    # unless it overrides it (a date set on saving): its attribute then.
    plain = [
        field.attname if type(field).pre_save is models.Field.pre_save else None for field in fields
    ]
    prepared = [
        (field, name, _preparer(field, connection))
        for field, name in zip(fields, plain, strict=True)
    ]
    values = [
        tuple(
            prepare(getattr(obj, name) if name else field.pre_save(obj, True))
            for field, name, prepare in prepared
        )
        for obj in objs
    ]
    _insert(connection, model._meta.db_table, [field.column for field in fields], values)


# The ``pre_save`` that gives a field's attribute back as it is, but for an
# ``auto_now`` or ``auto_now_add`` moment.
_PLAIN_PRE_SAVE = (models.Field.pre_save, models.DateField.pre_save, models.DateTimeField.pre_save)


def _set_on_saving(field: models.Field) -> bool:
    """Whether saving sets the field's value (``auto_now``), or may: a
    ``pre_save`` of its own."""
    if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
        return True
    return type(field).pre_save not in _PLAIN_PRE_SAVE


def _varying(field: models.Field) -> bool:
    """Whether the field's default is a call that may give another value each
    time (``uuid4``, ``timezone.now``): not an empty dict or list."""
    return callable(field.default) and field.default not in (dict, list)


def insert_dicts(model: type[models.Model], rows: Iterable[dict[str, Any]]) -> None:
    """Inserts ``rows``, each a dict of field values by attribute name
    (``table_id``, not ``table``), as ``insert_rows`` inserts the instances
    ``model(**row)`` would make, without making them (issue 23, sixth pass:
    the hands', transactions', steps' and seats' instances, 15,700 in a
    40,000-event rebuild, were 1.7 s of its 27 s under cProfile). A field
    a row leaves out takes its default, as the instance would; a model with
    a field that sets its value on saving (``auto_now``) is refused, since
    no instance is there to set it on."""
    rows = list(rows)
    if not rows:
        return
    connection = _connection(model)
    fields = _inserted_fields(model)
    unknown = {name for row in rows for name in row} - {field.attname for field in fields}
    if unknown or any(_set_on_saving(field) for field in fields):
        raise ValueError(f"insert_dicts cannot write {model.__name__} rows as given: {unknown}")
    # Each field's default (``get_default``: what the instance would hold),
    # prepared once: what a row that leaves the field out stores; a default
    # made by a call that may give another value each time (a uuid4, a
    # moment; not a new empty dict or list, which prepare alike) is made for
    # each row that leaves it out, as each instance would make its own.
    columns = [
        (field.attname, prepare, None, field)
        if _varying(field)
        else (field.attname, prepare, prepare(field.get_default()), None)
        for field in fields
        for prepare in (_preparer(field, connection),)
    ]
    values = [
        tuple(
            (prepare(varying.get_default()) if varying else default)
            if (value := row.get(name, _MISSING)) is _MISSING
            else prepare(value)
            for name, prepare, default, varying in columns
        )
        for row in rows
    ]
    _insert(connection, model._meta.db_table, [field.column for field in fields], values)


def update_rows(
    model: type[models.Model], objs: Iterable[models.Model], field_names: Sequence[str]
) -> None:
    """Writes ``field_names`` of ``objs`` onto their rows, found by primary
    key, as ``bulk_update`` would (a row that is not there is not made)."""
    objs = list(objs)
    if not objs:
        return
    connection = _connection(model)
    meta = model._meta
    fields = [meta.get_field(name) for name in field_names]
    prepared = [(field.attname, _preparer(field, connection)) for field in fields]
    quote = connection.ops.quote_name
    sets = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"
    values = [
        (
            *(prepare(getattr(obj, attname)) for attname, prepare in prepared),
            meta.pk.get_db_prep_value(obj.pk, connection),
        )
        for obj in objs
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, values)
