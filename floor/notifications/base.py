"""What every notification backend is: one channel, one ``deliver``.

A backend delivers a composed message to an address or raises DeliveryError:
the outbox then tries again later (floor.notifications.delivery). It never
decides whether to send, nor to whom: ``sending.send`` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Message:
    """A message to one player: a subject (e-mail's) and a plain-text body."""

    subject: str
    body: str


class DeliveryError(Exception):
    """The message did not go out (a relay or a provider down, refused or slow):
    tried again later. Its text names the failure's kind, never the address."""


class Backend(Protocol):
    """A channel's sender: e-mail, SMS, or none."""

    channel: str

    def deliver(self, address: str, message: Message) -> None:
        """Sends ``message`` to ``address``; raises DeliveryError if it did not go."""
