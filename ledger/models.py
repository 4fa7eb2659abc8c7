"""The ledger's read models: balances, transactions and their postings, fills
and credits, jackpots and gaming days, as the cage console and the reports
show them. Written only by ledger.projections, from the log."""

from __future__ import annotations

from django.db import models


class AccountView(models.Model):
    """An account's balance, summed from every transaction posted to it."""

    name = models.CharField(primary_key=True, max_length=120)
    kind = models.CharField(max_length=20, db_index=True)
    table_id = models.UUIDField(null=True, db_index=True)
    player_id = models.UUIDField(null=True, db_index=True)
    holds_chips = models.BooleanField(default=False)
    balance_cents = models.BigIntegerField(default=0)
    total_in_cents = models.BigIntegerField(default=0)
    total_out_cents = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(null=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name}: {self.balance_cents}"


class TransactionView(models.Model):
    """One transaction: what moved, why, who, under which command."""

    id = models.UUIDField(primary_key=True)
    position = models.BigIntegerField(db_index=True)
    kind = models.CharField(max_length=20, db_index=True)
    reason = models.CharField(max_length=300, blank=True)
    # The reason as a code and params, read in each reader's language
    # (ledger.reasons); empty for transactions posted before the codes.
    reason_code = models.CharField(max_length=40, blank=True)
    reason_params = models.JSONField(default=dict, blank=True)
    gaming_day = models.CharField(max_length=10, db_index=True)
    table_id = models.UUIDField(null=True, db_index=True)
    player_id = models.UUIDField(null=True, db_index=True)
    reference = models.CharField(max_length=100, blank=True)
    postings = models.JSONField(default=dict)
    amount_cents = models.BigIntegerField()
    actor = models.CharField(max_length=150)
    actor_role = models.CharField(max_length=30)
    command_id = models.CharField(max_length=100)
    rule_profile = models.CharField(max_length=20)
    at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount_cents} ({self.id})"


class TrayRequestView(models.Model):
    """A fill or credit asked by the jefe and, once confirmed, by the cage."""

    id = models.UUIDField(primary_key=True)
    move = models.CharField(max_length=10)
    table_id = models.UUIDField(db_index=True)
    amount_cents = models.BigIntegerField()
    status = models.CharField(max_length=12, db_index=True)
    requested_by = models.CharField(max_length=150)
    # Indexed: the cage report selects the moves asked in its range (issue 23).
    requested_at = models.DateTimeField(db_index=True)
    confirmed_by = models.CharField(max_length=150, blank=True)
    confirmed_at = models.DateTimeField(null=True)
    transaction_id = models.UUIDField(null=True)

    class Meta:
        ordering = ["requested_at"]

    def __str__(self) -> str:
        return f"{self.move} {self.amount_cents} ({self.status})"


class JackpotView(models.Model):
    id = models.UUIDField(primary_key=True)
    name = models.CharField(max_length=100)
    scheme = models.CharField(max_length=10)
    stake_cents = models.BigIntegerField()
    seed_cents = models.BigIntegerField()
    table_ids = models.JSONField(default=list)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class GamingDayView(models.Model):
    """A gaming day of the cage: its opening, count, exceptions and report."""

    day = models.CharField(primary_key=True, max_length=10)
    status = models.CharField(max_length=10)
    opened_at = models.DateTimeField()
    opened_by = models.CharField(max_length=150)
    # The log position of the opening: the day's movements come after it.
    opened_position = models.BigIntegerField(null=True)
    opening = models.JSONField(default=dict)
    fills = models.JSONField(default=dict)
    credits = models.JSONField(default=dict)
    counts = models.JSONField(default=dict)
    expected = models.JSONField(default=dict)
    exceptions = models.JSONField(default=list)
    report = models.JSONField(null=True)
    # The certificates of winnings given that day (number, player_id, amount):
    # the compliance officer's record (issue 25; ledger.application.aml).
    certificates = models.JSONField(default=list)
    closed_at = models.DateTimeField(null=True)
    closed_by = models.CharField(max_length=150, blank=True)
    # The audit chain's head at the close (position, digest, key id, time), as
    # the anchor file has it: printed on the close report for the inspector.
    anchor = models.JSONField(null=True)

    class Meta:
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"{self.day} ({self.status})"
