"""What the kernel's web machinery asks of the context that runs the application.

The gateway runs a command of the one application and waits for the read
models to show it; a console page checks its reader's role and says where the
read models stand. The application, its projector, the read rule, the logs and
the metrics are the floor's, and the kernel imports nothing of the floor
(pyproject.toml, [tool.importlinter]): the floor hands them over as a ``Host``
when Django loads it (floor.apps, floor.hosting). Each is asked for at the
moment it is needed, so a test's application or projector is the one used.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Host:
    """The running context, as the web machinery uses it."""

    # The one application (its commands, its clock, its rule profile).
    application: Callable[[], Any]
    # The read models at ``until`` within ``timeout`` seconds (waited for or
    # applied, floor.read_models), or raises.
    catch_up: Callable[..., None]
    # The reader of a resource for a user (user, resource), or the refusal.
    reader: Callable[[Any, str], Any]
    # A refusal said in the reader's language.
    describe: Callable[[Exception], str]
    # Where the read models stand for the scopes given (all of them with none),
    # as the consoles' live parts compare it (floor.kernel.web.live).
    log_position: Callable[..., str]
    # Names the command on every line logged meanwhile (fields) -> the dict in force.
    command_logging: Callable[..., AbstractContextManager[dict[str, str]]]
    # Counts a command by its outcome and times it (command, outcome, seconds).
    command_done: Callable[[str, str, float], None]
    # Keeps what a refused command's refusal carries (its ``attempt``, and the
    # command's name) outside the event log, after the command recorded
    # nothing (floor.compliance.refusals). By default nothing is kept.
    keep_attempt: Callable[[object, str], None] = lambda attempt, command: None


_installed: list[Host] = []


def install(host: Host) -> None:
    """Makes ``host`` the running context (installing again replaces it)."""
    _installed[:] = [host]


def host() -> Host:
    """The running context; none before the floor is loaded is a programming error."""
    if not _installed:
        raise RuntimeError("no host installed: the floor app is not loaded (floor.apps)")
    return _installed[0]
