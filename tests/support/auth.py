"""How a test authenticates a user to the API over plain HTTP.

One place on purpose: the API's tokens change (knox tokens today), and a
test sending raw requests (schemathesis through the WSGI app) needs what to
send, not a test client. A Django session serves every role alike and depends
on no token model: the session cookie logs the user in, and the CSRF cookie
with its header lets DRF's SessionAuthentication accept the unsafe methods too.
"""

from __future__ import annotations

from django.conf import settings
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
from django.test import Client
from django.utils.crypto import get_random_string


def api_credentials(user) -> dict[str, dict[str, str]]:
    """The ``headers`` and ``cookies`` that authenticate ``user`` on every API
    request, POST included (keyword arguments of a request call)."""
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    csrf = get_random_string(CSRF_SECRET_LENGTH, CSRF_ALLOWED_CHARS)
    return {
        "headers": {"X-CSRFToken": csrf},
        "cookies": {settings.SESSION_COOKIE_NAME: session, settings.CSRF_COOKIE_NAME: csrf},
    }
