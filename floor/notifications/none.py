"""The embedded default: no channel configured, nothing sent.

A room without a mail relay or an SMS provider still runs the whole floor: a
message such a room would send is recorded in the outbox as not sent (state
"skipped", channel "none"), never as an error."""

from __future__ import annotations

import logging

from floor.notifications.base import Message

logger = logging.getLogger(__name__)


class NoBackend:
    """Sends nothing, successfully."""

    channel = "none"

    def deliver(self, address: str, message: Message) -> None:
        logger.debug("no notification channel configured: message not sent")
