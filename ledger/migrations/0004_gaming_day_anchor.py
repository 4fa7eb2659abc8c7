"""The audit chain's head at a gaming day's close, printed on its report."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0003_transaction_reason_code"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamingdayview",
            name="anchor",
            field=models.JSONField(null=True),
        ),
    ]
