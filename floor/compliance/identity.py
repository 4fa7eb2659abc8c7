"""Whether a patron is identified (issue 25, item 1): what the cage's
thresholds ask before an operation completes (floor.compliance, ledger).

The identity itself is a PatronIdentity row (personal data, outside the
event log); this module answers from it without showing any of it.
"""

from __future__ import annotations

from uuid import UUID

from floor.models import PatronIdentity


def is_identified(player_id: UUID | str) -> bool:
    """Whether the patron's identity document was recorded."""
    return PatronIdentity.objects.filter(player_id=UUID(str(player_id))).exists()
