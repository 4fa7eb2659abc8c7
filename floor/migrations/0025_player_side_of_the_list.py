"""The player's side of the list (issue 24).

- The "player" group: a user in it is Role.PLAYER, a player signed in from
  their phone (floor.application.player_self), as 0002 made the staff's.
- The list entries' read model gains what the jefe sees of a remote entry
  (made from outside the room, callable once checked in, expiring at
  ``check_in_by`` if not) and of a called player's answer.
"""

from django.db import migrations, models


def create_player_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.get_or_create(name="player")


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0024_journalmention_subject_as_bytes"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(create_player_group, migrations.RunPython.noop),
        migrations.AddField(
            model_name="waitingentryview",
            name="answer",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
        migrations.AddField(
            model_name="waitingentryview",
            name="answered_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.AddField(
            model_name="waitingentryview",
            name="check_in_by",
            field=models.DateTimeField(null=True),
        ),
        migrations.AddField(
            model_name="waitingentryview",
            name="checked_in",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="waitingentryview",
            name="remote",
            field=models.BooleanField(default=False),
        ),
    ]
