"""How a command answers over HTTP, and the refusals every command documents.

A new command answers 201; a repeat of a command id answers 200 with the first
outcome and ``Idempotent-Replayed: true``. Every command's OpenAPI entry lists
the same refusals (``REFUSALS``), in the refusal's one shape.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework import status
from rest_framework.response import Response

from floor.kernel.service import Outcome
from floor.kernel.web.serializers import ErrorSerializer

REFUSALS = {
    400: OpenApiResponse(ErrorSerializer, description="Bad input"),
    403: OpenApiResponse(ErrorSerializer, description="Role not allowed"),
    404: OpenApiResponse(ErrorSerializer, description="Not found"),
    409: OpenApiResponse(ErrorSerializer, description="Refused by the floor's state"),
    202: OpenApiResponse(
        ErrorSerializer,
        description="Recorded, but the read models lag (code read_models_lagging, "
        "with the command's result)",
    ),
    503: OpenApiResponse(
        ErrorSerializer,
        description="The stores did not answer; retry with the same command_id",
    ),
}


def command_response(outcome: Outcome, body: dict) -> Response:
    """201 for a new command; 200 and a header for a repeat of one."""
    if outcome.replayed:
        return Response(body, status=status.HTTP_200_OK, headers={"Idempotent-Replayed": "true"})
    return Response(body, status=status.HTTP_201_CREATED)
