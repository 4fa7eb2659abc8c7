"""The register of refused attempts at the doors (issue 25, item 2).

The exclusion lists' check refuses an excluded patron, or a possible match a
director has not resolved, at registration, on joining a list, at seating and
at the cage (floor.application.exclusion_gate). A refused command records
nothing in the event log (the team's rule: a refusal changes nothing), yet a
compliance officer must answer an inspector's question "did this excluded
patron try to get in, when, where, who was at the desk" [Ley 10/2010 art. 7.5;
the registers' rules of access: RGIAJ, Galicia's register of banned persons;
PT: Decreto-Lei 422/89 arts. 36-38].

So the refusal carries the attempt (``Attempt``), and the gateway, once the
command recorded nothing, hands it here (floor.hosting installs ``keep``):
one ExclusionRefusal row, in its own transaction, outside the log, as
django-axes keeps failed logins beside the authentication it refused. The row
holds the player's id, never a name or a document. A command retried under
the same id is one attempt: the row's constraint (actor, command id) keeps
the first.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.db import IntegrityError, transaction

from floor.application.exclusion_gate import Attempt
from floor.models import ExclusionRefusal


def keep(attempt: object, command: str) -> bool:
    """Writes the attempt's row; False when it was kept already (the same
    actor's command id) or is not an attempt of ours."""
    if not isinstance(attempt, Attempt):
        return False
    try:
        with transaction.atomic():
            ExclusionRefusal.objects.create(
                at=attempt.at,
                player_id=UUID(attempt.player_id),
                door=attempt.door,
                result=attempt.result,
                lists=list(attempt.matched),
                command=command,
                command_id=attempt.command_id,
                actor=attempt.actor,
                actor_role=attempt.actor_role,
            )
    except IntegrityError:
        return False
    return True


def refusals(
    *,
    start: datetime | None = None,
    end: datetime | None = None,
    player_id: UUID | str | None = None,
) -> list[ExclusionRefusal]:
    """The refused attempts in [start, end), of one patron if named, oldest first."""
    rows = ExclusionRefusal.objects.all()
    if start is not None:
        rows = rows.filter(at__gte=start)
    if end is not None:
        rows = rows.filter(at__lt=end)
    if player_id is not None:
        rows = rows.filter(player_id=UUID(str(player_id)))
    return list(rows.order_by("at", "id"))


def shown(row: ExclusionRefusal) -> dict:
    """A refused attempt as the report and the patron's export show it."""
    return {
        "at": row.at.isoformat(),
        "player_id": str(row.player_id),
        "door": row.door,
        "result": row.result,
        "lists": list(row.lists),
        "command": row.command,
        "command_id": row.command_id,
        "actor": row.actor,
        "actor_role": row.actor_role,
    }
