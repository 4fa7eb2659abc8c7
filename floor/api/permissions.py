"""Who may send a request, checked before its body is read.

Every command endpoint names its command (``view.command``); the floor's rule of
who may issue which command is declared with its handler
(floor.kernel.registry). A user holding none of
those roles is answered 403 ``role_not_allowed`` whatever the body, so an
inspector learns nothing from a refusal and changes nothing. The command checks
it again when it runs, with the table or sector it acts on (a jefe's own sector,
a dealer's own table), for the console and any other door.

Every read names the resource it reads (``view.reads``); who reads it, and how
far, is floor.domain.reads. A role that does not read it is answered 403
``role_not_allowed`` here; the view narrows its lists to the reader's scope and
refuses a sector or table outside it (floor.access). A read that names no
resource is refused: nothing is read by default.
"""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission

from floor.access import reader
from floor.application.catalogue import COMMANDS
from floor.kernel.errors import forbidden
from floor.kernel.web.gateway import actor_for


class MayRunTheCommand(BasePermission):
    def has_permission(self, request, view) -> bool:
        if request.method in ("GET", "HEAD"):
            return MayRead().has_permission(request, view)
        if request.method in SAFE_METHODS:
            return True  # OPTIONS: what the endpoint takes, nothing of the floor
        command = getattr(view, "command", None)
        if command is None:
            return True  # not a floor command (the token endpoint)
        COMMANDS.role_for(actor_for(request.user), command)  # a refusal becomes the 403
        return True


class MayRead(BasePermission):
    """A read answers the roles that read its resource (``view.reads``)."""

    def has_permission(self, request, view) -> bool:
        if not hasattr(view, "get"):
            return True  # a command's endpoint: 405, nothing read
        resource = getattr(view, "reads", None)
        if resource is None:
            raise forbidden("role_not_allowed", roles=[])
        request.reader = reader(request.user, resource)
        return True
