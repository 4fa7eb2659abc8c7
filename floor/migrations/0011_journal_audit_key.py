"""The journal's keyed chain (issue 18): each row names the audit key it was
chained with. Rows written before keep their plain sha256 links (no key id);
where they end is recorded once, outside the database, as an ``unkeyed_until``
line of the anchor file, so ``verify_log`` checks them as before and refuses
an unkeyed row past that position (a chain recomputed without the key)."""

from django.db import migrations, models


def record_unkeyed_end(apps, schema_editor) -> None:
    from floor.audit import UNKEYED
    from floor.audit_files import append_anchor

    entry = apps.get_model("floor", "EventJournalEntry")
    head = entry.objects.order_by("-position").values_list("position", "digest").first()
    if head is not None:
        append_anchor("unkeyed_until", head[0], head[1], UNKEYED)


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0010_journal_hash_chain"),
    ]

    operations = [
        migrations.AddField(
            model_name="eventjournalentry",
            name="key_id",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.RunPython(record_unkeyed_end, migrations.RunPython.noop),
    ]
