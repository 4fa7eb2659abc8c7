"""Imports a version of an exclusion list from its CSV file (issue 25, item 2).

    manage.py import_exclusion_list --source rgiaj --list-version 2026-11-01 \\
        --user director --file rgiaj.csv [--region GA] \\
        [--mapping "document=DNI;name=NOMBRE+APELLIDOS;birth_date=FNAC;\\
date_format=%d/%m/%Y;delimiter=semicolon"]

The mapping (which columns hold the document, the name and the birth date,
the date's format, the delimiter) defaults to FLOOR_EXCLUSION_MAPPING. The
import is the director's command, recorded with the list, its version and the
rows read and refused (never a row); rows that cannot be read are counted and
their first lines named, and the rest imported.
"""

from __future__ import annotations

from pathlib import Path
from uuid import uuid4

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from floor.compliance import exclusions
from floor.kernel.errors import RuleViolation


class Command(BaseCommand):
    help = "Import a version of an exclusion list (RGIAJ, regional, SRIJ, house) from a CSV file."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--source", required=True, help="rgiaj, regional, srij or house")
        parser.add_argument("--region", default="", help="A regional list's region (GA)")
        parser.add_argument("--list-version", required=True, help="YYYY-MM-DD")
        parser.add_argument("--file", required=True)
        parser.add_argument("--user", required=True, help="The director importing it")
        parser.add_argument("--mapping", default=None)
        parser.add_argument("--command-id", default=None)

    def handle(self, *args, **options) -> None:
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"No user {options['user']!r}.")
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"No file {path}.")
        try:
            mapping = exclusions.parse_mapping(options["mapping"]) if options["mapping"] else None
            outcome, read = exclusions.import_list(
                user,
                options["command_id"] or f"import-exclusions:{uuid4()}",
                source=options["source"],
                region=options["region"],
                version=options["list_version"],
                data=path.read_bytes(),
                mapping=mapping,
            )
        except RuleViolation as refused:
            raise CommandError(f"Refused: {refused}") from None
        result = outcome.result
        self.stdout.write(
            f"{result['source']} {result['region']} {result['version']}: "
            f"{result['rows']} rows imported, {result['bad_rows']} refused"
            + (f" (lines {', '.join(map(str, read.bad_lines or []))})" if read.bad_rows else "")
        )
