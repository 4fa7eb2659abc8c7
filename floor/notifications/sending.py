"""``send(player_id, message_kind, context)``: the one interface (issue 24,
item 3). It reads the player's contact row, picks the channel's backend,
composes the message in the player's language and delivers it.

Returns the channel the message went through, or "none" when nothing was sent
because nothing was to be (the player asked for none, has no contact row, was
erased, or the deployment has no backend for the channel: the embedded
default). Raises DeliveryError when a backend could not deliver: the caller
(the outbox, floor.notifications.delivery) tries again later."""

from __future__ import annotations

from uuid import UUID

from floor.models import PlayerContact
from floor.notifications.backends import backend_for
from floor.notifications.texts import compose

NOTHING = "none"


def send(player_id: UUID | str, message_kind: str, context: dict) -> str:
    contact = PlayerContact.objects.filter(player_id=UUID(str(player_id))).first()
    if contact is None or not contact.address:
        return NOTHING
    backend = backend_for(contact.channel)
    if backend.channel == NOTHING:
        return NOTHING
    backend.deliver(contact.address, compose(message_kind, context, contact.language))
    return backend.channel
