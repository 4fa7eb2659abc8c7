"""Who may send a mutating request, checked before its body is read.

Every command endpoint names its command (``view.command``); the floor's rule of
who may issue which command is in floor.domain.roles. A user holding none of
those roles is answered 403 ``role_not_allowed`` whatever the body, so an
inspector learns nothing from a refusal and changes nothing. The command checks
it again when it runs, with the table or sector it acts on (a jefe's own sector,
a dealer's own table), for the console and any other door.
"""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission

from floor.gateway import actor_for


class MayRunTheCommand(BasePermission):
    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        command = getattr(view, "command", None)
        if command is None:
            return True  # not a floor command (the token endpoint)
        actor_for(request.user).role_for(command)  # a refusal becomes the 403
        return True
