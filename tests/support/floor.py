"""Builders for tests: actors of each role and a ready-made sector payload."""

from __future__ import annotations

import uuid

from floor.kernel.roles import Actor, Role

DIRECTOR = Actor("dora", frozenset({Role.DIRECTOR}))
JEFE = Actor("jaime", frozenset({Role.JEFE_SECTOR}))
CRUPIER = Actor("cris", frozenset({Role.CRUPIER}))

HOLDEM = {
    "variant": "texas_holdem",
    "limit": "no_limit",
    "minimum_cents": 200,
    "maximum_cents": 1000,
    "seats": 10,
}


def new_id() -> str:
    return str(uuid.uuid4())


def open_sector(app, name: str = "Sector A") -> str:
    return app.open_sector(DIRECTOR, new_id(), name=name).result["sector_id"]


def open_tables(app, sector_id: str, count: int) -> list[dict]:
    return [
        app.open_table(JEFE, new_id(), sector_id=sector_id, **HOLDEM).result for _ in range(count)
    ]
