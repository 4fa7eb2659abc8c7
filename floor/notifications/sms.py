"""SMS through a provider's HTTP API: an adapter small enough to swap.

The shape is the common one (a JSON POST of the recipient, the sender's name
and the text, the API key as a bearer token): ``POST {FLOOR_SMS_URL}/messages``
with ``{"to": "+34...", "from": FLOOR_SMS_SENDER, "text": ...}`` and
``Authorization: Bearer FLOOR_SMS_API_KEY``; any 2xx answer is accepted. A
provider with another shape is another class with the same ``deliver``, named
by FLOOR_SMS_BACKEND. The standard library's HTTP client is enough: one POST,
bounded by FLOOR_SMS_TIMEOUT, so a provider that hangs holds no worker.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from django.conf import settings

from floor.notifications.base import DeliveryError, Message


class JsonHttpSms:
    channel = "sms"

    def __init__(
        self,
        url: str | None = None,
        api_key: str | None = None,
        sender: str | None = None,
        timeout: float | None = None,
    ) -> None:
        self.url = (url if url is not None else settings.FLOOR_SMS_URL).rstrip("/")
        self.api_key = api_key if api_key is not None else settings.FLOOR_SMS_API_KEY
        self.sender = sender if sender is not None else settings.FLOOR_SMS_SENDER
        self.timeout = timeout if timeout is not None else settings.FLOOR_SMS_TIMEOUT

    def deliver(self, address: str, message: Message) -> None:
        if not self.url:
            raise DeliveryError("sms: FLOOR_SMS_URL is not set")
        body = json.dumps({"to": address, "from": self.sender, "text": message.body})
        request = urllib.request.Request(
            f"{self.url}/messages",
            data=body.encode(),
            method="POST",
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {self.api_key}",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                status = answer.status
        except urllib.error.HTTPError as refused:  # the provider answered, not 2xx
            raise DeliveryError(f"sms: the provider answered {refused.code}") from refused
        except (urllib.error.URLError, OSError) as error:  # down, refused, timed out
            raise DeliveryError(f"sms: {type(error).__name__}") from error
        if not 200 <= status < 300:
            raise DeliveryError(f"sms: the provider answered {status}")
