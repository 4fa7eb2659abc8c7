"""Which backend sends a channel's messages, by the deployment's settings.

FLOOR_NOTIFY_CHANNELS names the channels this deployment has (config.settings);
a channel not named there, or "none", is the embedded default's NoBackend."""

from __future__ import annotations

from django.conf import settings
from django.utils.module_loading import import_string

from floor.notifications.base import Backend
from floor.notifications.mail import EmailBackend
from floor.notifications.none import NoBackend


def backend_for(channel: str) -> Backend:
    """The backend sending ``channel``'s messages (NoBackend: none here)."""
    if channel not in getattr(settings, "FLOOR_NOTIFY_CHANNELS", ()):
        return NoBackend()
    if channel == "email":
        return EmailBackend()
    if channel == "sms":
        return import_string(settings.FLOOR_SMS_BACKEND)()
    return NoBackend()
