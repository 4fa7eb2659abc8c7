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
    connection = _connection(model)
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in columns)
    marks = ", ".join(["%s"] * len(columns))
    conflict = " ON CONFLICT DO NOTHING" if ignore_conflicts else ""
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({names}) VALUES ({marks}){conflict}"
    with connection.cursor() as cursor:
        cursor.executemany(sql, list(rows))


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
    fields = [
        field
        for field in model._meta.concrete_fields
        if not (field.primary_key and isinstance(field, models.AutoField))
    ]
    quote = connection.ops.quote_name
    names = ", ".join(quote(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({names}) VALUES ({marks})"
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
    with connection.cursor() as cursor:
        cursor.executemany(sql, values)


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
