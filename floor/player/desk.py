"""The desk gives a registered player a one-time sign-in code (issue 24).

The jefe or the cage (who register players: players.register_player) give
it, through the API (``POST /api/player-sign-in-codes/``) or their console
(``/players/sign-in-code/``, a form on the jefe's and the cage's consoles). The
code is shown once, in that answer; the floor records who gave it and until
when (Player.SignInCodeIssued), floor.player.signin keeps its hash.
"""

from __future__ import annotations

import uuid

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from floor.kernel.web.gateway import ServiceUnavailable
from floor.kernel.web.host import host
from floor.kernel.web.serializers import ErrorSerializer
from floor.messages import STATUS_BY_KIND
from floor.player import signin
from floor.player.views import NO_ANSWER
from games.errors import RuleViolation


class CodeRequestSerializer(serializers.Serializer):
    command_id = serializers.CharField(max_length=100)
    player = serializers.CharField(max_length=40, help_text="The player's card number.")


class CodeSerializer(serializers.Serializer):
    card_number = serializers.CharField()
    player_id = serializers.UUIDField()
    code = serializers.CharField(
        allow_null=True,
        help_text="Shown once: it is kept only as a hash. Null when the command id is a "
        "repeat: the code given then still opens, and is not shown again.",
    )
    expires_at = serializers.DateTimeField()


class SignInCodeView(APIView):
    """A one-time sign-in code for a registered player (the desk's)."""

    command = "issue_sign_in_code"

    @extend_schema(
        request=CodeRequestSerializer,
        responses={
            201: CodeSerializer,
            200: OpenApiResponse(
                CodeSerializer,
                description="a repeated command_id: nothing recorded again, no new code; "
                "the code the first answer showed still opens (code: null)",
            ),
            400: OpenApiResponse(ErrorSerializer, description="invalid input"),
            401: OpenApiResponse(ErrorSerializer, description="not logged in"),
            403: OpenApiResponse(ErrorSerializer, description="role_not_allowed"),
            404: OpenApiResponse(ErrorSerializer, description="player_not_found"),
            409: OpenApiResponse(ErrorSerializer, description="player_barred"),
        },
    )
    def post(self, request: Request) -> Response:
        """Records the code given (who, when, until when) and answers the code,
        once. Refused (no such player, barred, not the desk): nothing kept."""
        asked = CodeRequestSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        given = signin.issue_code(
            request.user, asked.validated_data["player"], asked.validated_data["command_id"]
        )
        answered = status.HTTP_200_OK if given["repeated"] else status.HTTP_201_CREATED
        return Response(CodeSerializer(given).data, status=answered)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def desk_code(request: HttpRequest) -> HttpResponse:
    """The consoles' form: a card number in, the code shown once on this page."""
    given, error, status_code = None, None, 200
    card = (request.POST.get("card") or "").strip()[:40]
    if request.method == "POST":
        command_id = request.POST.get("command_id") or str(uuid.uuid4())
        try:
            given = signin.issue_code(request.user, card, command_id)
        except RuleViolation as refused:
            error = host().describe(refused)
            status_code = STATUS_BY_KIND.get(getattr(refused, "kind", None), 400)
        except ServiceUnavailable:
            error, status_code = str(NO_ANSWER), 503
    answer = {"given": given, "error": error, "card": card, "command_id": str(uuid.uuid4())}
    return render(request, "player/desk_code.html", answer, status=status_code)


desk_code.reads = "player_codes"
