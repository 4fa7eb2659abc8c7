"""A player's contact details: cleaned, and changed (issue 24, item 3).

The address and the number are personal data: they live in PlayerContact,
never in the event log, so they can be erased (issue 25). What the log keeps
is that the preference changed, to which channel, and who changed it (the
command ``change_contact_preference`` on the Player, with its actor):
``change_contact`` runs that command through the gateway, as the consoles and
the player page run theirs, then writes the row in the same request. The
command's fingerprint holds the player and the channel only, so not even a
digest of the address reaches the log.

Every input is hostile: an address Django's validator refuses, a number that
is not a valid E.164 number (Google's libphonenumber, ``phonenumbers``), a
channel without its address, a language the room does not speak: each is a
clear ``invalid`` refusal, and nothing is recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import phonenumbers
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from floor.domain.player import CONTACT_CHANNELS, CONTACT_EMAIL, CONTACT_SMS
from floor.kernel.errors import invalid
from floor.kernel.service import Outcome
from floor.kernel.web.gateway import ReadModelsBehind, actor_for, perform
from floor.models import PlayerContact
from floor.notifications.texts import LANGUAGES

MAX_EMAIL_LENGTH = 254  # RFC 5321's path limit
MAX_PHONE_INPUT = 32  # "+" and 15 digits, with room for spaces a person types
TYPED_NUMBER = re.compile(r"\+[0-9][0-9 ().-]*")


@dataclass(frozen=True)
class Contact:
    channel: str
    email: str
    phone: str
    language: str


def clean_email(value: object) -> str:
    """An e-mail address as Django validates it, or "" for none."""
    if value is None or value == "":
        return ""
    text = value.strip() if isinstance(value, str) else None
    if not text:
        raise invalid("email_invalid")
    if len(text) > MAX_EMAIL_LENGTH or not text.isprintable():
        raise invalid("email_invalid")
    try:
        validate_email(text)
    except ValidationError:
        raise invalid("email_invalid") from None
    return text


def clean_phone(value: object) -> str:
    """A mobile number in E.164 ("+34600123456"), or "" for none: the number
    must say its country (a leading "+") and be a valid number there."""
    if value is None or value == "":
        return ""
    text = value.strip() if isinstance(value, str) else None
    # Digits and the marks people type between them: no letters (the library
    # would read "ABC" as a keypad's 222).
    if not text or len(text) > MAX_PHONE_INPUT or not TYPED_NUMBER.fullmatch(text):
        raise invalid("phone_invalid", format="E.164")
    try:
        number = phonenumbers.parse(text, None)
    except phonenumbers.NumberParseException:
        raise invalid("phone_invalid", format="E.164") from None
    if not phonenumbers.is_valid_number(number):
        raise invalid("phone_invalid", format="E.164")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def clean_contact(channel: object, email: object, phone: object, language: object) -> Contact:
    """The whole of a contact, checked: the channel chosen needs its address."""
    if channel not in CONTACT_CHANNELS:
        raise invalid("contact_channel_invalid", allowed=list(CONTACT_CHANNELS))
    if language not in LANGUAGES:
        raise invalid("language_invalid", allowed=list(LANGUAGES))
    cleaned = Contact(str(channel), clean_email(email), clean_phone(phone), str(language))
    if cleaned.channel == CONTACT_EMAIL and not cleaned.email:
        raise invalid("email_required")
    if cleaned.channel == CONTACT_SMS and not cleaned.phone:
        raise invalid("phone_required")
    return cleaned


def keep(player_id: str, contact: Contact, by: str) -> PlayerContact:
    """Writes the player's contact row (the personal data the event left out)."""
    row, _ = PlayerContact.objects.update_or_create(
        player_id=UUID(player_id),
        defaults={
            "channel": contact.channel,
            "email": contact.email,
            "phone": contact.phone,
            "language": contact.language,
            "updated_at": timezone.now(),
            "updated_by": by,
        },
    )
    return row


def contact_of(player_id: Any) -> PlayerContact | None:
    """The contact kept for a player, or None: what their own page shows them."""
    return PlayerContact.objects.filter(player_id=UUID(str(player_id))).first()


def change_contact(
    user: Any,
    command_id: str,
    *,
    player: str,
    channel: object,
    email: object = "",
    phone: object = "",
    language: object = "es",
) -> Outcome:
    """Records that ``player``'s contact preference changed (the command, as
    ``user``: its role decides whether they may) and keeps the details.

    Cleaned first: a refused input records nothing. The row is written once
    the command is recorded (so a refused or forbidden command writes none),
    also when the read models lag (recorded is recorded); not when the command
    id is a repeat, which changes nothing more, the details included (they
    would change with no event saying so)."""
    contact = clean_contact(channel, email, phone, language)
    by = actor_for(user).username
    try:
        outcome = perform(
            "change_contact_preference", user, command_id, player=player, channel=contact.channel
        )
    except ReadModelsBehind as behind:
        if not behind.outcome.replayed:
            keep(behind.outcome.result["player_id"], contact, by)
        raise
    if not outcome.replayed:
        # A repeated command id changes nothing more: not the details either,
        # which would change with no event saying so.
        keep(outcome.result["player_id"], contact, by)
    return outcome
