"""The reports' mentions store an aggregate's id as its 16 bytes, not its 32
hex digits (issue 23, item 6): ids are most of the subjects, and the subject
most of a mention's bytes.

The subjects read back as the same text (floor.models.SubjectField,
``subject_bytes``/``subject_text``): an account's name is stored as its
UTF-8 after a NUL byte (two where that would make 16 bytes), so only an id
is 16 bytes long. The rows are converted, not rebuilt:

- SQLite: the table (WITHOUT ROWID, migration 0022) made again with the
  subject as ``BLOB`` (floor.kernel.web.shadow_db.create_table, as the shadow
  rebuild makes it), the rows copied through ``subject_bytes`` registered on
  the migration's connection, in the key's order;
- PostgreSQL: ``ALTER COLUMN ... TYPE bytea USING`` the same rule in SQL.

Unapplied, the subjects are text again (0022's table).
"""

from django.db import migrations

from floor.kernel.web.shadow_db import create_table
from floor.models import SubjectField, subject_bytes, subject_text

TABLE = "floor_journalmention"
OLD = "floor_journalmention_old"

# 0022's table on SQLite, as create_table made it from that state's model.
AS_TEXT_SQLITE = (
    f'CREATE TABLE "{TABLE}" ("subject" varchar(120) NOT NULL, "position" bigint NOT NULL, '
    'PRIMARY KEY ("subject", "position")) WITHOUT ROWID'
)

POSTGRES_TO_BYTES = f"""
ALTER TABLE "{TABLE}" ALTER COLUMN "subject" TYPE bytea USING CASE
    WHEN "subject" ~ '^[0-9a-f]{{32}}$' THEN decode("subject", 'hex')
    WHEN octet_length(convert_to("subject", 'UTF8')) = 15
        THEN '\\x0000'::bytea || convert_to("subject", 'UTF8')
    ELSE '\\x00'::bytea || convert_to("subject", 'UTF8')
END
"""
POSTGRES_TO_TEXT = f"""
ALTER TABLE "{TABLE}" ALTER COLUMN "subject" TYPE varchar(120) USING CASE
    WHEN octet_length("subject") = 16 THEN encode("subject", 'hex')
    WHEN octet_length("subject") >= 2 AND get_byte("subject", 1) = 0
        THEN convert_from(substring("subject" from 3), 'UTF8')
    ELSE convert_from(substring("subject" from 2), 'UTF8')
END
"""


def _copy_sqlite(schema_editor, create, convert) -> None:
    schema_editor.connection.ensure_connection()
    schema_editor.connection.connection.create_function(
        "floor_subject", 1, convert, deterministic=True
    )
    execute = schema_editor.execute
    execute(f'ALTER TABLE "{TABLE}" RENAME TO "{OLD}"')
    create()
    execute(
        f'INSERT INTO "{TABLE}" ("subject", "position") '
        f'SELECT floor_subject("subject"), "position" FROM "{OLD}" ORDER BY 1, 2'
    )
    execute(f'DROP TABLE "{OLD}"')


def to_bytes(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        schema_editor.execute(POSTGRES_TO_BYTES)
        return
    model = apps.get_model("floor", "JournalMention")
    _copy_sqlite(
        schema_editor, lambda: create_table(schema_editor, model, without_rowid=True), subject_bytes
    )


def to_text(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        schema_editor.execute(POSTGRES_TO_TEXT)
        return
    _copy_sqlite(schema_editor, lambda: schema_editor.execute(AS_TEXT_SQLITE), subject_text)


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0023_journal_digests_as_bytes"),
    ]

    operations = [
        # The new field in the migrations' state only; ``to_bytes`` changes
        # the database, making the table from that state's model.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="journalmention",
                    name="subject",
                    field=SubjectField(),
                ),
            ],
        ),
        migrations.RunPython(to_bytes, to_text, elidable=False),
    ]
