"""A gaming day in a URL: an ISO date (``2026-11-24``), nothing else.

A day that is not one is a 404 before any query runs: a NUL byte or other text
in the path would otherwise reach the database (PostgreSQL refuses a NUL in a
text parameter with a 500).
"""

from __future__ import annotations

from django.urls import register_converter


class GamingDayConverter:
    regex = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: object) -> str:
        return str(value)


register_converter(GamingDayConverter, "gaming_day")
