"""Skipping is for a developer's laptop only: under CI a missing piece fails."""

from __future__ import annotations

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def require(condition: bool, reason: str) -> None:
    """Fails (in CI) or skips (elsewhere) when ``condition`` does not hold."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"required under CI: {reason}")
    pytest.skip(reason)  # not CI: a developer without the service
