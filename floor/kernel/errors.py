"""Domain errors: a broken rule or a refused command, with a stable code.

The kind says what went wrong, so each interface can answer in its own terms
(the API maps it to an HTTP status, the console to an inline message).
"""

from __future__ import annotations

from enum import StrEnum

from games.errors import RuleViolation


class ErrorKind(StrEnum):
    INVALID = "invalid"  # the request itself is wrong
    CONFLICT = "conflict"  # the request is fine, the state refuses it
    FORBIDDEN = "forbidden"  # this actor may not do this
    NOT_FOUND = "not_found"  # it names something that does not exist


class DomainError(RuleViolation):
    """A command refused by the domain; nothing was recorded."""

    kind = ErrorKind.CONFLICT

    def __init__(self, code: str, message: str, *, kind: ErrorKind | None = None, **params) -> None:
        super().__init__(code, message, **params)
        if kind is not None:
            self.kind = kind


def invalid(code: str, message: str, **params: object) -> DomainError:
    """A refusal because the request itself is wrong."""
    return DomainError(code, message, kind=ErrorKind.INVALID, **params)


def conflict(code: str, message: str, **params: object) -> DomainError:
    """A refusal because the state refuses the request."""
    return DomainError(code, message, kind=ErrorKind.CONFLICT, **params)


def forbidden(code: str, message: str, **params: object) -> DomainError:
    """A refusal because this actor may not do this."""
    return DomainError(code, message, kind=ErrorKind.FORBIDDEN, **params)


def not_found(code: str, message: str, **params: object) -> DomainError:
    """A refusal because it names something that does not exist."""
    return DomainError(code, message, kind=ErrorKind.NOT_FOUND, **params)
