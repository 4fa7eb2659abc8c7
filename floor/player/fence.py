"""A player's sign-in reaches the player's page and nothing else (issue 24).

The staff's doors let no player sign in (floor.logins.DoorBackend); this
fence holds the other way round: a session a player signed in with goes to
the player's page, whatever URL it asks for. The consoles and the admin
answer with a redirect to the player's page, the API with its 403
``role_not_allowed``; the language switch and the static files stay open.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from floor.application.player_self import card_of
from floor.logins import is_player_user

# What a player's session may ask for besides the player's page. The API's
# token endpoint reads no session (it checks the user name and password it is
# sent, and lets no player in: floor.logins.DoorBackend), so it answers as to anyone.
OPEN_TO_PLAYERS = ("/jugador/", "/i18n/", "/static/", "/favicon.ico", "/api/auth/token/")


class PlayerFence:
    """Middleware, after Django's authentication: a player stays on their page."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(OPEN_TO_PLAYERS) and self._is_player(request):
            if request.path.startswith("/api/"):
                body = {"code": "role_not_allowed", "message": _("Players have no access here.")}
                return JsonResponse(body, status=403)
            return redirect("player:home")
        return self.get_response(request)

    @staticmethod
    def _is_player(request: HttpRequest) -> bool:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return False
        # A player's user name is "player-<card>": only such names cost a query.
        return card_of(user.get_username()) is not None and is_player_user(user)
