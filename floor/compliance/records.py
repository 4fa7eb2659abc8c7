"""The stored identity documents (issue 25, item 1): the one read of a
patron's PatronIdentity row (personal data, outside the event log).

Its own module so that the exclusion lists (floor.compliance.exclusions) and
the retention (floor.compliance.retention) read a patron's document without
importing the desk's commands (floor.compliance.identity), which use both:
the import graph stays without cycles (tests/test_import_cycles.py).
"""

from __future__ import annotations

from uuid import UUID

from floor.models import PatronIdentity


def identity_of(player_id: UUID | str) -> PatronIdentity | None:
    """The patron's recorded document, or None."""
    return PatronIdentity.objects.filter(player_id=UUID(str(player_id))).first()
