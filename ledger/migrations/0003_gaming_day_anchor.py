"""The audit chain's head at a gaming day's close, printed on its report."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0002_gaming_day_opened_position"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamingdayview",
            name="anchor",
            field=models.JSONField(null=True),
        ),
    ]
