"""Domain errors: a broken rule or a refused command, as a code and its params.

The domain says what was refused (a stable ``code``) and the figures that
matter (``params``); it writes no prose. People read the refusal in their
language from one catalogue, floor.messages, which renders every code in es,
gl, pt and en (issue 21: one catalogue, no English said twice).
tests/floor/test_messages_catalogue.py checks that every code raised here
is catalogued and that no raise site passes prose.

The exception's own text (``str(error)``, ``error.message``) is for logs and
tracebacks only: the code and its params in a stable, plain form,
``seat_taken (seat=3)``.

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


def plain_text(code: str, params: dict[str, object]) -> str:
    """``seat_taken (seat=3)``: the code and its params, for logs. Text values
    are quoted (repr), so a typed name cannot break the log line."""
    if not params:
        return code
    shown = ", ".join(
        f"{name}={value!r}" if isinstance(value, str) else f"{name}={value}"
        for name, value in params.items()
    )
    return f"{code} ({shown})"


class DomainError(RuleViolation):
    """A command refused by the domain; nothing was recorded.

    Still a ``RuleViolation``: callers catch the games' refusals and the
    floor's alike."""

    kind = ErrorKind.CONFLICT
    # What a context keeps of this refusal outside the event log, once the
    # command recorded nothing (the exclusion lists' register of refused
    # attempts, floor.compliance.refusals): the gateway hands it to its host
    # (floor.kernel.web.gateway). None: nothing is kept, as for most refusals.
    attempt: object | None = None

    def __init__(self, code: str, *, kind: ErrorKind | None = None, **params: object) -> None:
        super().__init__(code, plain_text(code, params), **params)
        if kind is not None:
            self.kind = kind


def invalid(code: str, **params: object) -> DomainError:
    """A refusal because the request itself is wrong."""
    return DomainError(code, kind=ErrorKind.INVALID, **params)


def conflict(code: str, **params: object) -> DomainError:
    """A refusal because the state refuses the request."""
    return DomainError(code, kind=ErrorKind.CONFLICT, **params)


def forbidden(code: str, **params: object) -> DomainError:
    """A refusal because this actor may not do this."""
    return DomainError(code, kind=ErrorKind.FORBIDDEN, **params)


def not_found(code: str, **params: object) -> DomainError:
    """A refusal because it names something that does not exist."""
    return DomainError(code, kind=ErrorKind.NOT_FOUND, **params)
