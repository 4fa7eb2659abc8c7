"""Reading a list's query filters: one reader for every list and report.

A filter the server cannot read is a 400 ``{"code", "message"}`` naming it,
never an empty answer: ``?gaming_day=2026-13-45`` answering "nothing that day"
would let a mistyped query pass for a quiet day. A filter given empty
(``?table=``) is not read as "no filter" either: the client meant something.

Each list builds a ``Filters`` on its query and asks for each filter by name
and kind; the same names and kinds declare the filters in the OpenAPI schema
(``parameter``), so the schema and the server cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any
from uuid import UUID

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from floor.kernel.errors import invalid
from floor.kernel.web.serializers import ErrorSerializer

FILTER_INVALID = "filter_invalid"


class Filters:
    """The query filters of one request; each getter answers None when the
    filter is absent and refuses (``code``) one that is given but unreadable."""

    def __init__(self, params: Mapping[str, Any], code: str = FILTER_INVALID) -> None:
        self.params = params
        self.code = code

    def refuse(self, name: str, expected: str, code: str | None = None) -> Exception:
        return invalid(code or self.code, field=name, expected=expected)

    def text(self, name: str, *, max_length: int = 200) -> str | None:
        """A string as given; given empty, or with control characters (no name
        has them, and PostgreSQL refuses a NUL in a query), it is refused."""
        value = self.params.get(name)
        if value is None:
            return None
        if not value or len(value) > max_length or not value.isprintable():
            raise self.refuse(name, f"a text of 1 to {max_length} printable characters")
        return value

    def uuid(self, name: str) -> UUID | None:
        value = self.text(name)
        if value is None:
            return None
        try:
            return UUID(value)
        except ValueError:
            raise self.refuse(name, "an id (a UUID)") from None

    def choice(self, name: str, choices: Iterable[str]) -> str | None:
        choices = list(choices)
        value = self.params.get(name)
        if value is None:
            return None
        if value not in choices:
            raise self.refuse(name, f"one of {', '.join(choices)}")
        return value

    def day(self, name: str) -> str | None:
        """A calendar date, YYYY-MM-DD (a gaming day)."""
        value = self.params.get(name)
        if value is None:
            return None
        try:
            if len(value) != 10:
                raise ValueError(value)
            return date.fromisoformat(value).isoformat()
        except ValueError:
            raise self.refuse(name, "a date, YYYY-MM-DD (2026-11-22)") from None

    def integer(
        self, name: str, *, minimum: int = 0, maximum: int = 2**63 - 1, code: str | None = None
    ) -> int | None:
        value = self.params.get(name)
        if value is None:
            return None
        try:
            number = int(value) if value.strip().lstrip("-").isdigit() else None
        except ValueError:  # more digits than Python converts
            number = None
        if number is None or not minimum <= number <= maximum:
            raise self.refuse(
                name, f"a whole number from {minimum} to {maximum}", code=code
            ) from None
        return number


def parameter(
    name: str,
    kind: str,
    description: str = "",
    *,
    choices: Iterable[str] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    pattern: str | None = None,
) -> OpenApiParameter:
    """A query filter as the schema declares it, of the kind ``Filters`` reads:
    text, uuid, choice, day or integer."""
    schema: dict[str, Any] = {"type": "string"}
    if kind == "uuid":
        schema["format"] = "uuid"
    elif kind == "day":
        schema["format"] = "date"
    elif kind == "choice":
        schema["enum"] = list(choices or [])
    elif kind == "integer":
        schema = {"type": "integer"}
        if minimum is not None:
            schema["minimum"] = minimum
        if maximum is not None:
            schema["maximum"] = maximum
    elif kind == "text":
        schema["minLength"] = 1
    if pattern:
        schema["pattern"] = pattern
    return OpenApiParameter(name, schema, OpenApiParameter.QUERY, description=description)


# What a list with filters answers besides its 200 (the schema's 400).
FILTER_REFUSALS = {
    400: OpenApiResponse(
        ErrorSerializer, description="A filter that cannot be read (code filter_invalid)"
    )
}
