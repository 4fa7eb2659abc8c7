"""Every refusal as ``{"code", "message"}`` with the right status, never a 500."""

from __future__ import annotations

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from floor.domain.errors import DomainError, ErrorKind
from floor.messages import describe, message_for
from floor.projections.runner import ProjectionLagging
from games.errors import RuleViolation

STATUS_BY_KIND = {
    ErrorKind.INVALID: status.HTTP_400_BAD_REQUEST,
    ErrorKind.CONFLICT: status.HTTP_409_CONFLICT,
    ErrorKind.FORBIDDEN: status.HTTP_403_FORBIDDEN,
    ErrorKind.NOT_FOUND: status.HTTP_404_NOT_FOUND,
}


def error_body(code: str, message: str, **extra: object) -> dict[str, object]:
    return {"code": code, "message": message, **extra}


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, DomainError):
        return Response(
            error_body(exc.code, describe(exc)),
            status=STATUS_BY_KIND.get(exc.kind, status.HTTP_409_CONFLICT),
        )
    if isinstance(exc, RuleViolation):
        return Response(error_body(exc.code, describe(exc)), status=400)
    if isinstance(exc, ProjectionLagging):
        return Response(
            error_body(
                "read_models_lagging",
                "The command was recorded but the read models are behind; reload in a moment.",
            ),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body(
            "invalid_input", message_for("invalid_input"), fields=response.data
        )
    elif isinstance(exc, exceptions.APIException):
        response.data = error_body(
            str(exc.default_code), str(response.data.get("detail", exc.detail))
        )
    return response
