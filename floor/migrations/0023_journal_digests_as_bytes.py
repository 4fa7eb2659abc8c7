"""The journal's two digests stored as their 32 bytes, not 64 hex digits
(issue 23, item 6): 64 bytes less a row, some 0.5 MB per 1,000 hands.

The chain is unchanged: each digest is the same SHA-256 (HMAC) value, read
back as the same hex string (floor.models.HexDigestField), so ``verify_log``,
the anchors and the close reports see what they saw. The rows are converted,
not rewritten: each value's hex decoded to its bytes (unapplied, encoded
again). A value that is not a digest in hex (an edited row) stops the
migration, with its positions named, rather than be lost in the conversion:
``verify_log`` says what happened to those rows.

- SQLite: the table is made again with the columns as ``BLOB`` and the rows
  copied into it once, each digest decoded on the way by a function
  registered on the migration's connection (SQLite 3.40 has no ``unhex``):
  new table, ``INSERT ... SELECT``, old table dropped, new one renamed (the
  order Django's own table remake keeps), its two indexes made again. The
  table's SQL is frozen here, as this migration made it, so that later
  changes to the models or to Django do not change what it does.
- PostgreSQL: ``ALTER COLUMN ... TYPE bytea USING decode(..., 'hex')``, one
  rewrite of the table (``encode`` back).
"""

from django.db import migrations

from floor.models import HexDigestField

TABLE = "floor_eventjournalentry"
NEW = "new__floor_eventjournalentry"
COLUMNS = ("digest", "previous_digest")
KEPT = (
    "position, topic, originator_id, originator_version, occurred_at, actor, actor_role, "
    "command_id, rule_profile, key_id"
)
TABLE_SQL = (
    'CREATE TABLE "{table}" ("position" bigint NOT NULL PRIMARY KEY, '
    '"topic" varchar(200) NOT NULL, "originator_id" char(32) NOT NULL, '
    '"originator_version" integer unsigned NOT NULL CHECK ("originator_version" >= 0), '
    '"occurred_at" datetime NOT NULL, "actor" varchar(150) NOT NULL, '
    '"actor_role" varchar(30) NOT NULL, "command_id" varchar(100) NOT NULL, '
    '"rule_profile" varchar(20) NOT NULL, "key_id" varchar(32) NOT NULL, '
    '"digest" {kind} NOT NULL, "previous_digest" {kind} NOT NULL)'
)
# The table's two db_index indexes, as Django named them (0001 and on).
INDEXES = (
    f'CREATE INDEX "floor_eventjournalentry_originator_id_2f857367" ON "{TABLE}" ("originator_id")',
    f'CREATE INDEX "floor_eventjournalentry_command_id_719f002b" ON "{TABLE}" ("command_id")',
)


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


def _copy_sqlite(schema_editor, kind: str, convert: str) -> None:
    """The table made again with digest columns of ``kind``, each row copied
    once with its digests through ``convert`` (an SQL function's name)."""
    execute = schema_editor.execute
    execute(TABLE_SQL.format(table=NEW, kind=kind))
    execute(
        f'INSERT INTO "{NEW}" ({KEPT}, digest, previous_digest) '
        f"SELECT {KEPT}, {convert}(digest), {convert}(previous_digest) "
        f'FROM "{TABLE}" ORDER BY position'
    )
    execute(f'DROP TABLE "{TABLE}"')
    execute(f'ALTER TABLE "{NEW}" RENAME TO "{TABLE}"')
    for statement in INDEXES:
        execute(statement)


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
    schema_editor.connection.ensure_connection()
    schema_editor.connection.connection.create_function(
        "floor_unhex", 1, bytes.fromhex, deterministic=True
    )
    _copy_sqlite(schema_editor, "BLOB", "floor_unhex")


def _hex(value):
    """A digest's bytes as hex; text (a row edited on SQLite, which does not
    enforce the column's type) stays as it is, for verify_log to find."""
    return value.hex() if isinstance(value, bytes) else value


def to_text(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        schema_editor.execute(
            f'ALTER TABLE "{TABLE}" '
            + ", ".join(
                f'ALTER COLUMN "{c}" TYPE varchar(64) USING encode("{c}", \'hex\')' for c in COLUMNS
            )
        )
        return
    schema_editor.connection.ensure_connection()
    schema_editor.connection.connection.create_function("floor_hex", 1, _hex, deterministic=True)
    _copy_sqlite(schema_editor, "varchar(64)", "floor_hex")


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
