"""Fixtures the floor's console tests share (a module may still define its own)."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture
def jefe(make_user) -> Client:
    """The jefe de sector "jaime", signed in to the consoles."""
    make_user("jaime", "jefe_sector", password="pa55-word-ok")
    client = Client()
    assert client.login(username="jaime", password="pa55-word-ok")
    return client
