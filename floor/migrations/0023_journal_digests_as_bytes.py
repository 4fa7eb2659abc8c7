"""The journal's two digests stored as their 32 bytes, not 64 hex digits
(issue 23, item 6): 64 bytes less a row, some 0.5 MB per 1,000 hands.

The chain is unchanged: each digest is the same SHA-256 (HMAC) value, read
back as the same hex string (floor.models.HexDigestField), so ``verify_log``,
the anchors and the close reports see what they saw. The rows are converted,
not rewritten: each value's hex decoded to its bytes (unapplied, encoded
again). A value that is not a digest in hex (an edited row) stops the
migration, with its positions named, rather than be lost in the conversion:
``verify_log`` says what happened to those rows.

- SQLite: the table is made again with the columns as ``BLOB`` (Django's own
  table remake, given both columns at once so the table is copied once), then
  each value decoded by a function registered on the migration's connection
  (SQLite 3.40 has no ``unhex``).
- PostgreSQL: ``ALTER COLUMN ... TYPE bytea USING decode(..., 'hex')``, one
  rewrite of the table (``encode`` back).
"""

from django.db import migrations, models

from floor.models import HexDigestField

TABLE = "floor_eventjournalentry"
COLUMNS = ("digest", "previous_digest")


def _fields(kind):
    fields = []
    for name in COLUMNS:
        field = kind()
        field.set_attributes_from_name(name)
        fields.append(field)
    return fields


def _as_text():
    return models.CharField(max_length=64, default="")


def _refuse_what_is_not_hex(schema_editor):
    """Stops the migration if a digest is not 64 lowercase hex digits (or empty)."""
    if schema_editor.connection.vendor == "sqlite":
        bad = " OR ".join(
            f'("{c}" GLOB \'*[^0-9a-f]*\' OR length("{c}") NOT IN (0, 64))' for c in COLUMNS
        )
    else:
        bad = " OR ".join(f"\"{c}\" !~ '^([0-9a-f]{{64}})?$'" for c in COLUMNS)
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f'SELECT "position" FROM "{TABLE}" WHERE {bad} ORDER BY "position" LIMIT 20')
        found = [row[0] for row in cursor.fetchall()]
    if found:
        raise RuntimeError(
            f"journal rows whose digests are not SHA-256 digests in hex, at positions {found} "
            "(the first 20): they were edited; run manage.py verify_log and keep its report "
            "before converting the journal"
        )


def to_bytes(apps, schema_editor):
    _refuse_what_is_not_hex(schema_editor)
    if schema_editor.connection.vendor != "sqlite":
        schema_editor.execute(
            f'ALTER TABLE "{TABLE}" '
            + ", ".join(
                f'ALTER COLUMN "{c}" TYPE bytea USING decode("{c}", \'hex\')' for c in COLUMNS
            )
        )
        return
    model = apps.get_model("floor", "EventJournalEntry")
    # Private, but Django's own way to alter SQLite columns (its alter_field
    # calls it one field at a time, making each other field as the model
    # state has it): both columns in one copy of the table.
    schema_editor._remake_table(
        model, alter_fields=list(zip(_fields(_as_text), _fields(HexDigestField), strict=True))
    )
    schema_editor.connection.ensure_connection()
    schema_editor.connection.connection.create_function(
        "floor_unhex", 1, bytes.fromhex, deterministic=True
    )
    schema_editor.execute(
        f'UPDATE "{TABLE}" SET ' + ", ".join(f'"{c}" = floor_unhex("{c}")' for c in COLUMNS)
    )


def to_text(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        schema_editor.execute(
            f'ALTER TABLE "{TABLE}" '
            + ", ".join(
                f'ALTER COLUMN "{c}" TYPE varchar(64) USING encode("{c}", \'hex\')' for c in COLUMNS
            )
        )
        return
    schema_editor.execute(
        f'UPDATE "{TABLE}" SET ' + ", ".join(f'"{c}" = lower(hex("{c}"))' for c in COLUMNS)
    )
    model = apps.get_model("floor", "EventJournalEntry")
    schema_editor._remake_table(
        model, alter_fields=list(zip(_fields(HexDigestField), _fields(_as_text), strict=True))
    )


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0022_journalmention_keyed_by_itself"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(to_bytes, to_text, elidable=False)],
            state_operations=[
                migrations.AlterField(
                    model_name="eventjournalentry",
                    name="digest",
                    field=HexDigestField(),
                ),
                migrations.AlterField(
                    model_name="eventjournalentry",
                    name="previous_digest",
                    field=HexDigestField(),
                ),
            ],
        ),
    ]
