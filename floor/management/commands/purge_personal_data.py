"""Erases the personal data past its retention (issue 25, item 4).

    manage.py purge_personal_data [--dry-run]

The profile's ``retention`` says how long (ES: Ley 10/2010 art. 25, ten
years; PT: Lei 83/2017 art. 51, seven; to be confirmed against the texts);
floor.compliance.retention says what is purged and why. Beat runs the same
purge daily (floor.tasks.purge_personal_data). ``--dry-run`` prints what
would go and erases nothing. Each line names a patron by id or a list by
its version, never a name or a document; the register of refused attempts
is counted.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from floor import runtime
from floor.compliance import retention
from floor.compliance.exclusions import label


class Command(BaseCommand):
    help = (
        "Erase identity documents, superseded exclusion-list rows and refused attempts "
        "past their retention."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="Print what would go; erase nothing."
        )

    def handle(self, *args, **options) -> None:
        dry = options["dry_run"]
        rule = runtime.floor_app().profile.retention
        years = "kept for good" if rule.years is None else f"{rule.years} years"
        self.stdout.write(f"Retention: {years} ({rule.source})")
        found = retention.purge(dry_run=dry)
        if found.lagging:
            self.stdout.write("The audit journal lags the log: nothing purged; run again.")
            return
        kept = set(found.kept_self_excluded)
        listed = dict(found.kept_listed)
        failed = dict(found.failed)
        for due in found.identities:
            if due.player_id in kept:
                what = "kept: self-excluded, in force"
            elif due.player_id in listed:
                what = f"kept: on an exclusion list ({', '.join(listed[due.player_id])})"
            elif due.player_id in failed:
                what = f"not erased: {failed[due.player_id]}"
            else:
                what = "would be erased" if dry else "erased"
            self.stdout.write(
                f"identity of player {due.player_id}: last activity "
                f"{due.last_activity.isoformat()}, kept until {due.kept_until.isoformat()}: {what}"
            )
        for superseded in found.versions:
            version = superseded.version
            what = "rows would be deleted" if dry else "rows deleted"
            self.stdout.write(
                f"list {label(version)}: superseded {superseded.superseded_at.isoformat()}, "
                f"kept until {superseded.kept_until.isoformat()}: {version.row_count} {what}"
            )
        if found.refusals:
            what = "would be deleted" if dry else "deleted"
            self.stdout.write(
                f"refused attempts at the doors before {found.refusals_before.isoformat()}: "
                f"{found.refusals} {what}"
            )
        if not found.identities and not found.versions and not found.refusals:
            self.stdout.write("Nothing past its retention.")
        elif not dry:
            self.stdout.write(
                f"{found.erased} identities erased, {found.rows_deleted} list rows deleted, "
                f"{found.refusals} refused attempts deleted."
            )
