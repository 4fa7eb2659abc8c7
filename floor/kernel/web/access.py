"""A console page's read check: logged in, its reader's role checked first.

The read rule itself (who reads what, and how far) is the floor's
(floor.domain.reads, floor.access); a page of either context declares the
resource it reads with ``console_read`` and finds its reader on the request.
A refusal is the same 403 page whichever console refuses it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from floor.kernel.errors import DomainError, ErrorKind
from floor.kernel.web.host import host


def refused_page(request: HttpRequest, refusal: DomainError) -> HttpResponse:
    """A console's 403: the refusal in the reader's language, with its code."""
    context = {"code": refusal.code, "message": host().describe(refusal)}
    return render(request, "403.html", context, status=403)


def console_read(resource: str) -> Callable:
    """A console page reading ``resource``: logged in, its role checked before
    the page is built; a refusal inside the page (a sector or table outside the
    scope) is the same 403 page."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                request.reader = host().reader(request.user, resource)
                return view(request, *args, **kwargs)
            except DomainError as refusal:
                if refusal.kind == ErrorKind.NOT_FOUND:
                    raise Http404(refusal.message) from refusal
                if refusal.kind != ErrorKind.FORBIDDEN:
                    raise
                return refused_page(request, refusal)

        page.reads = resource
        checked = login_required(page)
        checked.reads = resource
        return checked

    return decorate
