"""Every refusal as ``{"code", "message"}`` with the right status, never a 500."""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from floor.kernel.web.gateway import ReadModelsBehind, ServiceUnavailable
from floor.messages import STATUS_BY_KIND, describe, message_for, said_params
from games.errors import RuleViolation


def error_body(code: str, message: str, **extra: object) -> dict[str, object]:
    """The API's one shape of refusal."""
    return {"code": code, "message": message, **extra}


def _plain(value: object) -> object:
    """A refusal's param as JSON: numbers, text and lists of them (sets sorted)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return [_plain(v) for v in sorted(value, key=str)]
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return str(value)


def refusal_body(exc: RuleViolation) -> dict[str, object]:
    """A domain refusal: its code, the message in the reader's language, and the
    figures it names (``details``: the pot, the seat, the limit ...), so a client
    can show them without parsing the prose. Only what the message itself says:
    never more than the reader was told (floor.messages.said_params)."""
    shown = said_params(exc.code, exc.params)
    extra = {"details": _plain(shown)} if shown else {}
    return error_body(exc.code, describe(exc), **extra)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """DRF's handler, answering domain refusals and outages in our shape."""
    if isinstance(exc, RuleViolation):
        kind = getattr(exc, "kind", None)
        return Response(refusal_body(exc), status=STATUS_BY_KIND.get(kind, 400))
    if isinstance(exc, ReadModelsBehind):
        # The command is recorded: say so, with its result, and that screens lag.
        body = error_body(exc.code, message_for(exc.code), result=exc.outcome.result)
        return Response(body, status=status.HTTP_202_ACCEPTED)
    if isinstance(exc, ServiceUnavailable):
        return Response(
            error_body(exc.code, message_for(exc.code)),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
    if isinstance(exc, Http404):
        return Response(error_body("not_found", message_for("not_found")), status=404)
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


# --- what Django answers before a view runs -------------------------------------------


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def not_found(request, exception=None):
    """Django's 404 (no route: an unknown path, or an id in the path that is not
    a UUID) as the API's JSON under /api/; the HTML page elsewhere."""
    if _is_api(request):
        return JsonResponse(error_body("not_found", message_for("not_found")), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """An unexpected failure as the API's JSON under /api/ (nothing of it
    leaks: the log has the traceback); the HTML page elsewhere."""
    if _is_api(request):
        return JsonResponse(error_body("server_error", message_for("server_error")), status=500)
    return defaults.server_error(request)


def bad_request(request, exception=None):
    """Django's 400 (a request it cannot read: a bad host, too many fields) as
    the API's JSON under /api/."""
    if _is_api(request):
        return JsonResponse(error_body("bad_request", message_for("bad_request")), status=400)
    return defaults.bad_request(request, exception)
