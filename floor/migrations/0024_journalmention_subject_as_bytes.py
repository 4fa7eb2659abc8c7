"""The reports' mentions store an aggregate's id as its 16 bytes, not its 32
hex digits (issue 23, item 6): ids are most of the subjects, and the subject
most of a mention's bytes.

The subjects read back as the same text (floor.models.SubjectField,
``subject_bytes``/``subject_text``): an account's name is stored as its
UTF-8 after a NUL byte (two where that would make 16 bytes), so only an id
is 16 bytes long. The rows are converted, not rebuilt:

- SQLite: the table (WITHOUT ROWID, migration 0022) made again with the
  subject as ``BLOB`` (the SQL ``floor.kernel.web.shadow_db.create_table``
  gives, frozen here), the rows copied through the conversion registered on
  the migration's connection, in the key's order;
- PostgreSQL: ``ALTER COLUMN ... TYPE bytea USING`` the same rule in SQL.

The conversion is a copy of ``floor.models.subject_bytes``/``subject_text``
as they were, so that later edits there do not change what this did.

Unapplied, the subjects are text again (0022's table, ``varchar(120)``).
A subject longer than 120 characters, storable since, stops it with its
positions named rather than fail half-way (PostgreSQL) or leave a row its
old column did not admit (SQLite).
"""

from django.db import migrations

from floor.models import SubjectField

TABLE = "floor_journalmention"
OLD = "floor_journalmention_old"
LONGEST = 120  # 0022's varchar(120)

# 0022's table on SQLite, as create_table made it from that state's model.
AS_TEXT_SQLITE = (
    f'CREATE TABLE "{TABLE}" ("subject" varchar(120) NOT NULL, "position" bigint NOT NULL, '
    'PRIMARY KEY ("subject", "position")) WITHOUT ROWID'
)
# This migration's table on SQLite, as create_table makes it from its model.
AS_BYTES_SQLITE = (
    f'CREATE TABLE "{TABLE}" ("subject" BLOB NOT NULL, "position" bigint NOT NULL, '
    'PRIMARY KEY ("subject", "position")) WITHOUT ROWID'
)


def subject_bytes(subject: str) -> bytes:
    """floor.models.subject_bytes as this migration was written: an id (32
    lowercase hex digits) as its 16 bytes, other text as its UTF-8 after one
    NUL byte, two where that would make 16 bytes."""
    if len(subject) == 32:
        try:
            raw = bytes.fromhex(subject)
        except ValueError:
            raw = b""
        if len(raw) == 16 and raw.hex() == subject:
            return raw
    if "\x00" in subject:
        raise ValueError(f"a mention's subject holds a NUL: {subject!r}")
    name = subject.encode()
    return (b"\x00\x00" if len(name) == 15 else b"\x00") + name


def subject_text(stored) -> str:
    """``subject_bytes`` undone; text (a row SQLite holds as text) as it is."""
    if isinstance(stored, str):
        return stored
    stored = bytes(stored)
    if len(stored) == 16:
        return stored.hex()
    return stored.lstrip(b"\x00").decode()


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
    _copy_sqlite(schema_editor, lambda: schema_editor.execute(AS_BYTES_SQLITE), subject_bytes)


def _refuse_what_is_too_long(schema_editor) -> None:
    """Stops the reversal if a subject would not fit 0022's column: the
    candidates by their stored length (a name's bytes are at least its
    characters), then each one's text."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f'SELECT "subject", "position" FROM "{TABLE}" WHERE length("subject") > %s '
            'ORDER BY "position"',
            [LONGEST],
        )
        found = sorted(
            {
                position
                for stored, position in cursor.fetchall()
                if len(subject_text(stored)) > LONGEST
            }
        )
    if found:
        raise RuntimeError(
            f"mentions whose subjects are longer than {LONGEST} characters, at positions "
            f"{found[:20]} (the first 20): 0022's subject column cannot hold them; "
            "this migration cannot be unapplied while they are kept"
        )


def to_text(apps, schema_editor):
    _refuse_what_is_too_long(schema_editor)
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
