"""A patron's identity and personal data over HTTP (issue 25, items 1 and 4).

The document is personal data kept outside the event log
(floor.compliance.identity): recording it runs the command ``record_identity``
(the kind of document and the country only) and writes the row; reading it
shows the document to the cage, the director and the inspector, and to the
jefe at the door only whether the patron is identified and with which kind of
document; the director exports a patron's data and erases the identity.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from floor.api import serializers as s
from floor.compliance import identity
from floor.kernel.web.endpoints import CommandView, result_answer
from floor.kernel.web.gateway import actor_for
from floor.kernel.web.responses import REFUSALS, command_response
from floor.kernel.web.serializers import ErrorSerializer
from floor.selectors import players

# The answer of each command: its result and the identity as the actor sees it.
RECORDED = result_answer("record_identity", "identity", s.ShownIdentitySerializer)
ERASED = result_answer("erase_identity", "identity", s.ShownIdentitySerializer)


class IdentityView(CommandView):
    # The command's name is the registry's (floor.api.commands gives it).
    body = s.IdentitySerializer
    reads = "identity"

    @extend_schema(
        responses={200: s.ShownIdentitySerializer, 404: ErrorSerializer},
        operation_id="patron_identity",
    )
    def get(self, request: Request, player_id: UUID) -> Response:
        """The patron's identity as the reader may see it: the document to the
        cage, the director and the inspector; to the jefe, whether the patron
        is identified and with which kind of document."""
        players.player(player_id)
        return Response(identity.shown_to(actor_for(request.user), player_id))

    @extend_schema(
        request=s.IdentitySerializer,
        responses={201: RECORDED, 200: RECORDED, **REFUSALS},
        operation_id="record_identity",
        summary="Record a patron's identity document (kept outside the log; issue 25)",
    )
    def post(self, request: Request, player_id: UUID) -> Response:
        """Ley 10/2010 art. 7.5: the cage, the jefe or the director records the
        patron's document; the log records its kind and country only."""
        checked = self.body(data=request.data)
        checked.is_valid(raise_exception=True)
        data: dict[str, Any] = dict(checked.validated_data)
        command_id = data.pop("command_id")
        outcome = identity.record_identity(request.user, command_id, player=str(player_id), **data)
        shown = identity.shown_to(actor_for(request.user), outcome.result["player_id"])
        return command_response(outcome, {"result": outcome.result, "identity": shown})


class PersonalDataView(APIView):
    reads = "personal_data"

    @extend_schema(responses={200: s.PersonalDataSerializer, 404: ErrorSerializer})
    def get(self, request: Request, player_id: UUID) -> Response:
        """Everything personal kept of a patron, as JSON (issue 25, item 4): the
        contact and the identity; the director's, who answers the patron."""
        players.player(player_id)
        return Response(identity.export_of(player_id))


class EraseIdentityView(CommandView):
    body = s.EraseIdentitySerializer

    @extend_schema(
        request=s.EraseIdentitySerializer,
        responses={201: ERASED, 200: ERASED, **REFUSALS},
        operation_id="erase_identity",
        summary="Erase a patron's identity document (the director's; the log keeps that it was)",
    )
    def post(self, request: Request, player_id: UUID) -> Response:
        """Deletes the identity row and records ``IdentityErased`` with the
        reason's code and no data: the audit chain stays whole (issue 25,
        item 4). Refused while the law still requires the document (Ley
        10/2010 art. 25; Lei 83/2017 art. 51), unless it was recorded in error."""
        checked = self.body(data=request.data)
        checked.is_valid(raise_exception=True)
        outcome = identity.erase_identity(
            request.user,
            checked.validated_data["command_id"],
            player=str(player_id),
            reason=checked.validated_data["reason"],
        )
        shown = identity.shown_to(actor_for(request.user), outcome.result["player_id"])
        return command_response(outcome, {"result": outcome.result, "identity": shown})
