"""The journal's hash chain (floor.audit): two digests per row, and the chain
computed over the rows already written, so that a journal that predates it
verifies too (it attests those rows as they stand at migration time)."""

from django.db import migrations, models

from floor.audit import CONTENT_FIELDS, GENESIS, chain_digest

BATCH = 2000


def chain_existing_rows(apps, schema_editor) -> None:
    """Chains the rows in position order, a batch at a time (read a whole batch
    before writing it: SQLite does not isolate a cursor from its own updates)."""
    entry = apps.get_model("floor", "EventJournalEntry")
    previous, last = GENESIS, None
    while True:
        rows = entry.objects.order_by("position")
        if last is not None:
            rows = rows.filter(position__gt=last)
        batch = list(rows.values(*CONTENT_FIELDS)[:BATCH])
        if not batch:
            return
        chained = []
        for content in batch:
            digest = chain_digest(previous, content)
            chained.append(
                entry(position=content["position"], previous_digest=previous, digest=digest)
            )
            previous = digest
        entry.objects.bulk_update(chained, ["previous_digest", "digest"])
        last = batch[-1]["position"]


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0009_staffing"),
    ]

    operations = [
        migrations.AddField(
            model_name="eventjournalentry",
            name="previous_digest",
            field=models.CharField(default="", max_length=64),
        ),
        migrations.AddField(
            model_name="eventjournalentry",
            name="digest",
            field=models.CharField(default="", max_length=64),
        ),
        migrations.RunPython(chain_existing_rows, migrations.RunPython.noop),
    ]
