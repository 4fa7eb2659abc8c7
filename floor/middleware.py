"""Picks the interface language: Spanish unless the person chose another.

The consoles run on casino PCs whose browsers may ask for English; the floor's
language is Spanish by default, and the language menu (a cookie) changes it.
API clients may still ask for a language with Accept-Language.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.cache import patch_vary_headers


class LanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.supported = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request):
        language = self.chosen_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        response.headers.setdefault("Content-Language", language)
        return response

    def chosen_language(self, request) -> str:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if chosen in self.supported:
            return chosen
        if request.path.startswith("/api/"):
            return translation.get_language_from_request(request)
        return settings.LANGUAGE_CODE
