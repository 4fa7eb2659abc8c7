"""Each command declared once: its name, who may issue it, what it acts on, its handler.

A handler is a plain function decorated with ``@command(roles=..., scope=...)``,
taking the command's unit of work and its arguments and returning its decision
(floor.kernel.unit_of_work); the function's name is the command's name. From the
registry come the role map (who may issue what, DESIGN.md "Each command is
declared once"), the service's dispatch, and, in the interface layer, the API's
endpoints and the console's actions, which name a command by its handler
object, never by a repeated string.

The registry knows nothing of the floor (roles are whatever the context passes,
an actor is anything with ``roles`` and ``role_among``), so floor and ledger
share it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

F = TypeVar("F", bound=Callable[..., Any])

# The command whose handler is running (a handler may run another's).
_running: ContextVar[str | None] = ContextVar("running_command", default=None)


class UnknownCommand(KeyError):
    """No command of that name is registered."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no command {name!r} is registered")
        self.name = name


@dataclass(frozen=True)
class CommandSpec:
    """One command: its name, its handler, the roles that may issue it (in
    order of preference), and what it acts on (``scope``: the aggregate its
    actor's reach is checked against, e.g. "table" or "sector"; None: the room).
    A ``query`` records nothing (a preview) and is asked, not performed;
    one that is also a ``preview`` is decided as a command would be (its
    books, its scope) and performed like one, its outcome marked a preview.

    ``payload`` turns the arguments into what the command's fingerprint is
    taken of (a repeat is told from a reused command id by it); by default the
    arguments themselves, ids as text."""

    name: str
    handler: Callable[..., Any]
    roles: tuple[Any, ...]
    scope: str | None = None
    query: bool = False
    payload: Callable[..., dict[str, Any]] | None = None
    preview: bool = False

    def payload_of(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """What the command was asked, as its fingerprint and scope see it:
        an argument left out counts as its default, so the same request has
        one fingerprint whether or not the client spelled the default out."""
        if self.payload is not None:
            return self.payload(**arguments)
        return {k: _plain(v) for k, v in _with_defaults(self.handler, arguments).items()}

    def may(self, actor: Any) -> bool:
        """Whether ``actor`` holds a role that may issue this command."""
        return any(role in actor.roles for role in self.roles)

    def role_for(self, actor: Any) -> Any:
        """The role ``actor`` issues this command under, or the actor's refusal."""
        return actor.role_among(self.name, self.roles)


class CommandRegistry(Mapping[str, CommandSpec]):
    """The commands of one application, by name."""

    def __init__(self) -> None:
        self._specs: dict[str, CommandSpec] = {}

    def __getitem__(self, name: str) -> CommandSpec:
        try:
            return self._specs[name]
        except KeyError:
            raise UnknownCommand(name) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        """``COMMANDS.end_rest`` is the handler of end_rest: how an interface
        names the command it offers, checked when it is loaded."""
        specs = self.__dict__.get("_specs", {})
        if name in specs:
            return specs[name].handler
        raise AttributeError(f"no command {name!r} is registered")

    def command(
        self,
        *,
        roles: tuple[Any, ...],
        scope: str | None = None,
        query: bool = False,
        payload: Callable[..., dict[str, Any]] | None = None,
        preview: bool = False,
    ) -> Callable[[F], F]:
        """Declares the decorated function a command named as the function is.
        While it runs, ``current_command()`` names it."""

        def declare(function: F) -> F:
            name = function.__name__

            @functools.wraps(function)
            def handler(*args: Any, **kwargs: Any) -> Any:
                token = _running.set(name)
                try:
                    return function(*args, **kwargs)
                finally:
                    _running.reset(token)

            self.register(
                handler,
                roles=roles,
                scope=scope,
                query=query,
                payload=payload,
                preview=preview,
            )
            return handler  # type: ignore[return-value]

        return declare

    def register(
        self,
        handler: Callable[..., Any],
        *,
        roles: tuple[Any, ...],
        scope: str | None = None,
        query: bool = False,
        payload: Callable[..., dict[str, Any]] | None = None,
        preview: bool = False,
    ) -> CommandSpec:
        """Declares ``handler`` the command of its name. A name is declared once."""
        name = handler.__name__
        known = self._specs.get(name)
        if known is not None and known.handler is not handler:
            raise ValueError(f"command {name!r} is declared twice")
        spec = CommandSpec(name, handler, tuple(roles), scope, query, payload, preview)
        return self._add(spec)

    def _add(self, spec: CommandSpec) -> CommandSpec:
        if not spec.roles:
            raise ValueError(f"command {spec.name!r} names no role that may issue it")
        self._specs[spec.name] = spec
        return spec

    def spec_of(self, handler: Callable[..., Any]) -> CommandSpec:
        """The declaration of ``handler``, refused if it is not the declared one."""
        spec = self[getattr(handler, "__name__", "")]
        if spec.handler is not handler:
            raise UnknownCommand(getattr(handler, "__qualname__", repr(handler)))
        return spec

    def name_of(self, command: str | Callable[..., Any]) -> str:
        """The name of ``command``, given by name or by its handler."""
        return command if isinstance(command, str) else self.spec_of(command).name

    def bound(self, app: Any, name: str) -> Callable[..., Any]:
        """The handler of command ``name`` on ``app``, ready to call: an unknown
        command is refused here, by name. The application's own attribute of
        that name is what runs, so a subclass's override of a handler (or a
        test's stand-in for it) runs in its place."""
        return getattr(app, self[name].name)

    def roles(self) -> dict[str, tuple[Any, ...]]:
        """Command name -> the roles that may issue it: the role map."""
        return {name: spec.roles for name, spec in self._specs.items()}

    def may(self, actor: Any, command: str | Callable[..., Any]) -> bool:
        """Whether ``actor`` may issue ``command`` (an unknown one: no)."""
        spec = self._specs.get(self.name_of(command))
        return spec is not None and spec.may(actor)

    def role_for(self, actor: Any, command: str | Callable[..., Any]) -> Any:
        """The role ``actor`` issues ``command`` under, or the refusal; an
        unknown command is a LookupError (a programming error, not a refusal)."""
        return self[self.name_of(command)].role_for(actor)


# A handler's signature, read once.
_signature = functools.cache(inspect.signature)


def _with_defaults(handler: Callable[..., Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """``arguments`` with the handler's defaults for those left out (its
    ``**`` arguments spread out as given). Arguments the handler does not take
    are left as they are: calling it refuses them."""
    signature = _signature(handler)
    try:
        bound = signature.bind_partial(None, **arguments)  # None: the unit of work
    except TypeError:
        return dict(arguments)
    bound.apply_defaults()
    found: dict[str, Any] = {}
    for position, (name, value) in enumerate(bound.arguments.items()):
        if position == 0 and name not in arguments:
            continue  # the unit of work
        if signature.parameters[name].kind is inspect.Parameter.VAR_KEYWORD:
            found.update(value)
        else:
            found[name] = value
    return found


def _plain(value: Any) -> Any:
    """An argument as a fingerprint takes it: an id as its text."""
    return str(value) if isinstance(value, UUID) else value


def current_command() -> str:
    """The name of the command whose handler is running."""
    name = _running.get()
    if name is None:
        raise LookupError("no command handler is running")
    return name


# The one application's commands (floor and ledger share one event store and
# one application, so one registry).
COMMANDS = CommandRegistry()
command = COMMANDS.command
