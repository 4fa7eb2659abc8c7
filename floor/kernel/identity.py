"""Deterministic aggregate ids, where a natural key must be unique.

An aggregate whose id derives from its natural key cannot be created twice: the
second creation conflicts in the event store itself, with no read model to race.
"""

from __future__ import annotations

from uuid import UUID, uuid5

# A fixed namespace for this service's name-based ids (never change it).
FLOOR_NAMESPACE = UUID("6f1c1c52-2f5e-4f0e-9a55-3c2b7f1f0a11")


def name_based_id(kind: str, key: str) -> UUID:
    """The id of the ``kind`` aggregate whose natural key is ``key``."""
    return uuid5(FLOOR_NAMESPACE, f"{kind}:{key}")
