"""E-mail through Django's e-mail backends (settings.EMAIL_BACKEND and the
EMAIL_* settings, from the environment: config.settings).

Any backend Django has or a package gives (SMTP, a provider's) sends it; a
failure of the relay is a DeliveryError, tried again later."""

from __future__ import annotations

import smtplib

from django.conf import settings
from django.core.mail import EmailMessage

from floor.notifications.base import DeliveryError, Message


class EmailBackend:
    channel = "email"

    def deliver(self, address: str, message: Message) -> None:
        email = EmailMessage(
            subject=message.subject,
            body=message.body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[address],
        )
        try:
            sent = email.send(fail_silently=False)
        except (smtplib.SMTPException, OSError) as error:  # OSError: refused, timed out
            raise DeliveryError(f"email: {type(error).__name__}") from error
        if sent != 1:
            raise DeliveryError("email: the backend sent nothing")
