"""Read models: what the consoles and the API show, rebuilt from the event log.

Nothing here is the truth; the event store is. Every row is written by a
projection (floor.projections) and can be dropped and rebuilt with
``manage.py rebuild_projections``.
"""

from django.db import models


class ProjectionPosition(models.Model):
    """How far a projector has applied the log: moved in the same transaction as
    the read models it updates, so each event is applied exactly once."""

    name = models.CharField(primary_key=True, max_length=100)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(null=True)

    def __str__(self) -> str:
        return f"{self.name} at {self.position}"


class SectorView(models.Model):
    id = models.UUIDField(primary_key=True)
    name = models.CharField(max_length=60, unique=True)
    table_count = models.PositiveSmallIntegerField(default=0)
    opened_at = models.DateTimeField()
    opened_by = models.CharField(max_length=150)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class TableView(models.Model):
    id = models.UUIDField(primary_key=True)
    sector = models.ForeignKey(SectorView, related_name="tables", on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=30)
    limit = models.CharField(max_length=20)
    minimum_cents = models.BigIntegerField()
    maximum_cents = models.BigIntegerField()
    seats = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20)
    opened_at = models.DateTimeField()
    opened_by = models.CharField(max_length=150)

    class Meta:
        ordering = ["sector__name", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sector", "number"], name="table_number_in_sector")
        ]

    def __str__(self) -> str:
        return f"{self.sector.name} #{self.number}"


class EventJournalEntry(models.Model):
    """One row per event: who did what, under which command and profile, when.

    The audit trail that inspectors read; the position is the event's place in
    the log, so a second application of one event cannot go unnoticed.
    """

    position = models.BigIntegerField(primary_key=True)
    topic = models.CharField(max_length=200)
    originator_id = models.UUIDField(db_index=True)
    originator_version = models.PositiveIntegerField()
    occurred_at = models.DateTimeField()
    actor = models.CharField(max_length=150)
    actor_role = models.CharField(max_length=30)
    command_id = models.CharField(max_length=100, db_index=True)
    rule_profile = models.CharField(max_length=20)
    data = models.JSONField(default=dict)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.position} {self.topic}"


class SchedulerHeartbeat(models.Model):
    """The last time a scheduled task ran: shows that beat and a worker live."""

    name = models.CharField(primary_key=True, max_length=100)
    last_run_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.last_run_at:%H:%M:%S}"
