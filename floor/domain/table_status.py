"""A table's lifecycle states (floor.domain.table): ``registering`` (opened,
seats not drawn) -> ``running`` -> ``suspended`` (fewer than four players,
PT 24; GA art. 23) -> ``running`` ... -> ``closed``."""

from __future__ import annotations


class TableStatus:
    REGISTERING = "registering"
    RUNNING = "running"
    SUSPENDED = "suspended"
    CLOSED = "closed"
