"""A command's HTTP shape, declared once, and the endpoint and route built from it.

Each context lists its commands' endpoints in one table (floor.api.commands,
ledger.api.commands): the route, the body's serializer, the summary, how the
answer is made, and the handler (the application's method, whose declaration
in floor.kernel.registry names the command and says who may run it). The
endpoint classes, their OpenAPI entries (operation id: the command's name) and
the URL patterns are generated from that table; a command whose endpoint also
reads, or answers its own way, names its hand-written view instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from floor.kernel.registry import COMMANDS
from floor.kernel.web.gateway import perform
from floor.kernel.web.responses import REFUSALS


@dataclass(frozen=True)
class CommandEndpoint:
    """One command's endpoint: ``answer`` is the base class whose ``post``
    runs it and answers (its ``answer_schema`` documents the answer), unless
    ``view`` is a hand-written one. ``named``: the operation id is the
    command's name (else drf-spectacular's, from the path)."""

    handler: Callable[..., Any]
    route: str
    url_name: str
    body: type[serializers.Serializer] | None = None
    summary: str | None = None
    answer: type[APIView] | None = None
    description: str | None = None
    named: bool = True
    view: type[APIView] | None = None

    @property
    def command(self) -> str:
        """The command's name, as its handler's declaration gives it."""
        return COMMANDS.spec_of(self.handler).name


class CommandView(APIView):
    """Validates the body with ``body``, runs ``command``, answers with the thing
    it changed."""

    # (That docstring is the OpenAPI description of every generated endpoint:
    # drf-spectacular reads the nearest one up the class chain. The answer
    # kinds below it have none, so keep it as it is.)

    command: str
    body: type[serializers.Serializer]

    def run(self, request: Request, **arguments: Any) -> tuple[Any, dict]:
        checked = self.body(data=request.data)
        checked.is_valid(raise_exception=True)
        data = dict(checked.validated_data)
        command_id = data.pop("command_id")
        outcome = perform(self.command, request.user, command_id, **arguments, **data)
        return outcome, outcome.result


def result_answer(command: str, key: str | None = None, shape: Any = None) -> Any:
    """A command's documented answer: its result and, under ``key``, the thing
    it changed."""
    fields: dict[str, Any] = {"result": serializers.DictField()}
    if key is not None:
        fields[key] = shape()
    return inline_serializer(name=f"{command}_answer", fields=fields)


def endpoint_view(endpoint: CommandEndpoint) -> type[APIView]:
    """The view class of ``endpoint``: its command, body and documented ``post``."""
    command = endpoint.command
    class_name = f"{command.title().replace('_', '')}View"
    if endpoint.view is not None:
        return type(endpoint.view.__name__, (endpoint.view,), {"command": command})
    base = endpoint.answer
    if base is None or endpoint.body is None:
        raise ValueError(f"the endpoint of {command} names neither its view nor its answer")

    def post(self, request: Request, **kwargs: Any) -> Response:
        return base.post(self, request, **kwargs)

    answered = base.answer_schema(command)
    post = extend_schema(
        request=endpoint.body,
        responses={201: answered, 200: answered, **REFUSALS},  # 200: a repeated command id
        summary=endpoint.summary,
        description=endpoint.description,
        operation_id=command if endpoint.named else None,
    )(post)
    return type(class_name, (base,), {"command": command, "body": endpoint.body, "post": post})


def url_patterns(endpoints: Iterable[CommandEndpoint]) -> list[URLPattern]:
    """A route for each endpoint, named as the table names it."""
    return [path(e.route, endpoint_view(e).as_view(), name=e.url_name) for e in endpoints]
