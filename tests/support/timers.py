"""Firing the floor's due timers in a test, as beat's sweeper would, at the
injected clock's time; then the read models catch up."""

from __future__ import annotations

from floor import runtime
from floor.timers import sweep_timers


def fire_due(clock) -> int:
    """Fires every timer due by ``clock.now()``; returns how many fired."""
    fired = sweep_timers(clock.now())
    runtime.floor_projector().catch_up()
    return fired
