"""Rotates the audit key: a new key chains the journal from its next row.

The new key is appended to the key file (the old ones stay: verify_log needs
every key a row names) and the rotation is recorded in the anchor file: the
head it takes over from, the old key id and the new one, signed with the new
key. Running processes take the new key at their next journal row.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError

from floor.audit import GENESIS
from floor.audit_files import anchor_head, append_anchor, rotate_key


class Command(BaseCommand):
    help = "Appends a new audit key to the key file and records the rotation as an anchor."

    def handle(self, *args, **options) -> None:
        try:
            old, new = rotate_key()
        except ImproperlyConfigured as refused:
            raise CommandError(str(refused)) from refused
        record = anchor_head("rotation", new_key_id=new) or append_anchor(
            "rotation", 0, GENESIS, old, new_key_id=new
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Audit key {new} chains the journal after position {record['position']} "
                f"(was {old}). Keep the key file's old lines: verify_log needs them."
            )
        )
