"""Whether a patron is identified (issue 25, item 1): what the cage's
thresholds ask before an operation completes (floor.compliance, ledger).

The identity itself is a PatronIdentity row (personal data, outside the
event log); this module answers from it without showing any of it.
"""

from __future__ import annotations

from datetime import date
from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils import timezone

from floor import runtime
from floor.compliance import refusals
from floor.compliance.documents import Identity, clean_identity
from floor.compliance.exclusions import off_house_list, put_on_house_list
from floor.compliance.records import identity_of
from floor.compliance.retention import check_erasable
from floor.domain.player import ERASED_IN_ERROR, ERASED_RETENTION_ENDED, Player
from floor.kernel.errors import DomainError, conflict, invalid
from floor.kernel.roles import Actor, Role
from floor.kernel.service import Outcome
from floor.kernel.web.gateway import ReadModelsBehind, actor_for, perform
from floor.models import PatronIdentity, PlayerContact


def is_identified(player_id: UUID | str) -> bool:
    """Whether the patron's identity document was recorded."""
    return PatronIdentity.objects.filter(player_id=UUID(str(player_id))).exists()


# --- recording, reading, exporting and erasing (issue 25, items 1 and 4) ----------
# Each change runs its command through the gateway (the actor, role and command
# id on the event; a role that may not is refused before anything is written),
# then writes or deletes the row in the same request, as the contact does
# (floor.notifications.contacts.change_contact). The command carries the kind of
# document and the country only: not even a digest of the number, the name or
# the birth date reaches the log.

# The roles that see the document itself (number, name, birth date): the cage,
# which identifies for the thresholds, the director and the regulator's
# inspector. Anyone else who reads players (the jefe at the door) sees whether
# the patron is identified and with which kind of document.
SEES_DOCUMENT = frozenset({Role.CAJERO, Role.DIRECTOR, Role.INSPECTOR})


def _today() -> date:
    return timezone.localtime(runtime.floor_app().clock.now()).date()


def _keep(player_id: str, identity: Identity, by: str) -> PatronIdentity:
    """Writes the patron's row. Two desks recording one document for two
    patrons at the same instant both pass ``record_identity``'s check; the
    second write meets the row's constraint and is refused as the check
    would have (a 409, never a 500). Its event stays on record, as every
    event does; the patron has no identity row, so is not identified."""
    try:
        with transaction.atomic():
            return _write(player_id, identity, by)
    except IntegrityError:
        raise conflict("document_other_patron") from None


def _write(player_id: str, identity: Identity, by: str) -> PatronIdentity:
    row, _ = PatronIdentity.objects.update_or_create(
        player_id=UUID(player_id),
        defaults={
            "document_type": identity.document.document_type,
            "document_number": identity.document.number,
            "country": identity.document.country,
            "full_name": identity.full_name,
            "birth_date": identity.birth_date,
            "recorded_at": runtime.floor_app().clock.now(),
            "recorded_by": by,
        },
    )
    return row


def _player_id(player: object) -> UUID | None:
    """The id a reference names (an id or a card number), or None if it names none."""
    try:
        return UUID(str(player))
    except ValueError:
        try:
            return Player.create_id(str(player))
        except DomainError:
            return None


def record_identity(
    user: Any,
    command_id: str,
    *,
    player: str,
    document_type: object,
    document_number: object,
    country: object,
    full_name: object,
    birth_date: object,
) -> Outcome:
    """Records that ``player`` was identified (the command, as ``user``: its
    role decides whether they may) and keeps the document.

    Checked first: a refused input records nothing, and a document already
    kept for another patron is refused (``document_other_patron``: one
    document, one patron). Recorded again for the same patron, the row is
    replaced and a new event says so. A repeated command id changes nothing.

    A patron self-excluded at the room has their document put on the house
    list as soon as it is recorded (or replaced), whether the exclusion came
    before or after it: the same document, or name and birth date, under
    another card is refused from then on (issue 25: "self-exclusion ... goes
    on the house list at once"; floor.compliance.exclusions)."""
    identity = clean_identity(
        document_type, document_number, country, full_name, birth_date, _today()
    )
    document = identity.document
    holder = (
        PatronIdentity.objects.filter(
            country=document.country,
            document_type=document.document_type,
            document_number=document.number,
        )
        .exclude(player_id=_player_id(player))
        .exists()
    )
    if holder:
        raise conflict("document_other_patron")
    by = actor_for(user).username
    try:
        outcome = perform(
            "record_identity",
            user,
            command_id,
            player=player,
            document_type=document.document_type,
            country=document.country,
        )
    except ReadModelsBehind as behind:
        if not behind.outcome.replayed:
            _keep(behind.outcome.result["player_id"], identity, by)
            _house_list_if_self_excluded(behind.outcome.result["player_id"], by)
        raise
    if not outcome.replayed:
        _keep(outcome.result["player_id"], identity, by)
        _house_list_if_self_excluded(outcome.result["player_id"], by)
    return outcome


def _house_list_if_self_excluded(player_id: str, by: str) -> None:
    """Puts the patron's newly recorded document on the house list if they
    are self-excluded (see ``record_identity``)."""
    found = runtime.floor_app().repository.get(UUID(player_id))
    if getattr(found, "self_excluded", False):
        put_on_house_list(player_id, by)


# The reasons a director gives for an erasure (issue 25, item 4): none (the
# retention has ended, checked), or the document was recorded in error.
ERASE_REASONS = ("", ERASED_RETENTION_ENDED, ERASED_IN_ERROR)


def erase_identity(user: Any, command_id: str, *, player: str, reason: object = "") -> Outcome:
    """Deletes the patron's identity row and records that it was erased and
    why (the director's command): the log keeps that it happened, by whom,
    the reason's code and nothing of the data; the audit chain stays whole.

    The law decides when: without a reason (or ``retention_ended``) the
    erasure is refused while the document must be kept
    (floor.compliance.retention.check_erasable: the retention of Ley 10/2010
    art. 25 / Lei 83/2017 art. 51 running, naming the day it ends; a
    document an exclusion list still names; a self-exclusion in force, the
    command's ``patron_self_excluded``). A document recorded in error (the
    wrong patron's, a typo) is not a document of due diligence: with
    ``reason="recorded_in_error"`` it is erased at any time, the reason
    recorded in the event, and its entry on the house list, if the patron
    is self-excluded, goes with it (it names someone else, or no one). A
    refusal records nothing and keeps the row."""
    if reason not in ERASE_REASONS:
        raise invalid("erase_reason_invalid", allowed=list(ERASE_REASONS[1:]))
    wanted = str(reason) or ERASED_RETENTION_ENDED
    player_id = _player_id(player)
    row = identity_of(player_id) if player_id is not None else None
    if row is not None and wanted == ERASED_RETENTION_ENDED:
        check_erasable(row)
    try:
        outcome = perform("erase_identity", user, command_id, player=player, reason=wanted)
    except ReadModelsBehind as behind:
        if not behind.outcome.replayed:
            _erase(behind.outcome.result["player_id"], wanted)
        raise
    if not outcome.replayed:
        _erase(outcome.result["player_id"], wanted)
    return outcome


def _erase(player_id: str, reason: str) -> None:
    row = identity_of(player_id)
    if row is None:
        return
    if reason == ERASED_IN_ERROR:
        off_house_list(player_id, row.document_number)
    row.delete()


def shown_to(actor: Actor, player_id: UUID | str) -> dict:
    """The patron's identity as ``actor`` may see it: the document to the
    cage, the director and the inspector; to anyone else, whether the patron
    is identified and with which kind of document."""
    row = identity_of(player_id)
    shown: dict = {
        "player_id": str(player_id),
        "identified": row is not None,
        "document_type": row.document_type if row else None,
    }
    if actor.roles & SEES_DOCUMENT:
        shown["document"] = (
            {
                "document_number": row.document_number,
                "country": row.country,
                "full_name": row.full_name,
                "birth_date": row.birth_date.isoformat(),
                "recorded_at": row.recorded_at.isoformat(),
                "recorded_by": row.recorded_by,
            }
            if row
            else None
        )
    return shown


def export_of(player_id: UUID | str) -> dict:
    """Everything personal the service keeps of a patron (issue 25, item 4;
    GDPR art. 15 and 20): the contact, the identity and the attempts refused
    at the doors by the exclusion lists (floor.compliance.refusals), as JSON."""
    contact = PlayerContact.objects.filter(player_id=UUID(str(player_id))).first()
    row = identity_of(player_id)
    return {
        "player_id": str(player_id),
        "contact": (
            {
                "channel": contact.channel,
                "email": contact.email,
                "phone": contact.phone,
                "language": contact.language,
                "updated_at": contact.updated_at.isoformat(),
                "updated_by": contact.updated_by,
            }
            if contact
            else None
        ),
        "identity": (
            {
                "document_type": row.document_type,
                "document_number": row.document_number,
                "country": row.country,
                "full_name": row.full_name,
                "birth_date": row.birth_date.isoformat(),
                "recorded_at": row.recorded_at.isoformat(),
                "recorded_by": row.recorded_by,
            }
            if row
            else None
        ),
        "exclusion_refusals": [
            refusals.shown(x) for x in refusals.refusals(player_id=UUID(str(player_id)))
        ],
    }
