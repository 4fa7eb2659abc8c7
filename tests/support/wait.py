"""Waiting on a condition with a bound, for tests that watch another process.

Never a fixed sleep: the wait ends as soon as the condition holds, and fails
loudly when the bound passes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(
    condition: Callable[[], T], *, timeout: float, what: str, interval: float = 0.05
) -> T:
    """Returns the condition's first truthy value, or fails after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        pause.wait(interval)
