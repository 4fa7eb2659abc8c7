"""Every line logged while a command runs names the command (issue 20, Observability).

The gateway (:func:`floor.kernel.web.gateway.perform_as`, the one door of the consoles, the
API, the demo loader and the timers' Celery tasks) runs each command inside
:func:`command_logging`, which puts the command's name, id, actor, role and rule
profile in a context variable. :class:`CommandFilter`, on the handler, copies
them onto every record logged meanwhile, whichever module logs it (the
eventsourcing library, the projector, ours); once the command ends the variable
is reset, so a line logged after it carries none of its fields.

Each web request's lines carry its ``request_id`` (:func:`request_started`),
a command's too.

Two formats, chosen by ``FLOOR_LOG_FORMAT`` (docs/operations.md, "Logs"):
``json``, one JSON object a line (python-json-logger) for a log collector, or
``text`` (the default, what ``make run`` prints), the same fields in brackets.
A context variable, not a thread-local: each thread and each asyncio task sees
its own command, and a thread started during a command (a timer's lease keeper)
does not inherit it.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Any

from django.core import signals as django_signals
from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

# The fields a request and a command put on their lines, in the order the text
# format shows them.
FIELDS = ("request_id", "command", "command_id", "actor", "role", "profile")
# A request id a client or proxy may choose (X-Request-ID); any other is replaced.
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,100}")

_current: ContextVar[dict[str, str] | None] = ContextVar("floor_log_command", default=None)


@contextmanager
def command_logging(**fields: object) -> Iterator[dict[str, str]]:
    """Names the command on every line logged while the block runs, with the
    fields already in force (the request's id); a field whose value is None is
    left out. The dict yielded is the one in force: a field added to it (the
    profile, once the application is known) shows from then on."""
    values = {**(_current.get() or {})}
    values.update((name, str(value)) for name, value in fields.items() if value is not None)
    token = _current.set(values)
    try:
        yield values
    finally:
        _current.reset(token)


def request_started(sender=None, environ=None, **_: object) -> None:
    """Django starts serving a request: its id is in force until it finishes,
    so Django's own lines about it (``django.request``'s 4xx and 5xx, logged
    after the middleware returned) carry it too. Its ``X-Request-ID`` when a
    proxy sent a sane one, else a new one."""
    given = (environ or {}).get("HTTP_X_REQUEST_ID", "")
    request_id = given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
    _request_token.set(_current.set({**(_current.get() or {}), "request_id": request_id}))


def request_finished(sender=None, **_: object) -> None:
    """The request's answer is sent: its id is no longer in force."""
    token = _request_token.get()
    _request_token.set(None)
    if token is not None:
        try:
            _current.reset(token)
        except ValueError:  # set in another context (not under WSGI): just clear
            _current.set(None)


_request_token: ContextVar[Token | None] = ContextVar("floor_log_request", default=None)
django_signals.request_started.connect(request_started, dispatch_uid="floor.logs.request_id")
django_signals.request_finished.connect(request_finished, dispatch_uid="floor.logs.request_id")


class RequestIdMiddleware:
    """Sends the request's id back on the answer (``X-Request-ID``), so a
    complaint about a request leads to its lines; names the request on them
    where no ``request_started`` did (a server that does not send it)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        request_id = current_fields().get("request_id")
        if request_id is not None:
            response = self.get_response(request)
        else:
            given = request.headers.get("X-Request-ID", "")
            request_id = given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
            with command_logging(request_id=request_id):
                response = self.get_response(request)
        response["X-Request-ID"] = request_id
        return response


def current_fields() -> dict[str, str]:
    """The fields of the command running in this context (empty: none)."""
    return dict(_current.get() or {})


class CommandFilter(logging.Filter):
    """Copies the running command's fields onto each record (never drops one).

    On the handler, not a logger, so that records propagated from any logger
    get them. ``command_context`` is the fields as one bracketed string for the
    text format, empty outside a command."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = _current.get() or {}
        for name, value in fields.items():
            if not hasattr(record, name):  # an ``extra=`` the caller passed wins
                setattr(record, name, value)
        shown = " ".join(f"{name}={fields[name]}" for name in FIELDS if name in fields)
        record.command_context = f" [{shown}]" if shown else ""
        return True


class TextFormatter(logging.Formatter):
    """Readable lines for a terminal: time, level, logger, message, and the
    command in brackets when one runs."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s%(command_context)s")

    def format(self, record: logging.LogRecord) -> str:
        if not hasattr(record, "command_context"):  # a handler without the filter
            record.command_context = ""
        return super().format(record)


class JsonLineFormatter(JsonFormatter):
    """One JSON object a line: ``time`` (ISO 8601, UTC), ``level``, ``logger``,
    ``message``, the command's fields when one runs, ``exc_info`` when there is
    a traceback, and any ``extra=`` the caller passed."""

    def __init__(self) -> None:
        super().__init__(
            "%(levelname)s %(name)s %(message)s",
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp="time",
            reserved_attrs=[*RESERVED_ATTRS, "command_context"],
        )

    def add_fields(
        self, log_record: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        super().add_fields(log_record, record, message_dict)
        log_record.setdefault("process", record.process)
