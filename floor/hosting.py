"""What the floor hands the kernel's web machinery when Django loads it.

The gateway, the consoles' read check and their live parts live in the kernel
(floor.kernel.web), which both contexts share and which imports nothing of the
floor. What they need of the running floor, its application and projector, the
read rule, the messages, the logs and the metrics, is installed here as their
host (floor.kernel.web.host), from floor.apps at ready(). Each part is looked
up when it is asked for, so a test's application or projector is the one used.
"""

from __future__ import annotations

from floor import access, logs, messages, metrics, read_models, runtime
from floor.compliance import refusals
from floor.kernel.web.host import Host, install
from floor.liveness import timers_stopped
from floor.selectors import console


def log_position(*scopes: str) -> str:
    """Where what a console shows stands: the last event marked on one of its
    ``scopes`` (floor.projections.live_marks; with none, the last event any
    projection applied), and whether the timers stop or start again (the live
    part's banner, floor.liveness), so an open console says so without a reload."""
    top = console.live_position(scopes) if scopes else console.log_position()
    return str(top) + ("-timers-stopped" if timers_stopped() else "")


def catch_up(*, until: int | None, timeout: float, wait: bool = True) -> None:
    """The read models at ``until`` within ``timeout`` seconds: waited for behind
    the projector process (unless not ``wait``), or applied here under
    FLOOR_READ_MODELS="inline" (floor.read_models, issue 23)."""
    read_models.show(runtime.floor_projector(), until, timeout, wait=wait)


def install_host() -> None:
    """Installs the running floor as the kernel's web machinery's host."""
    install(
        Host(
            application=runtime.floor_app,
            catch_up=catch_up,
            reader=access.reader,
            describe=messages.describe,
            log_position=log_position,
            command_logging=logs.command_logging,
            command_done=metrics.command_done,
            # An excluded patron's refused attempt, kept outside the log (issue 25).
            keep_attempt=refusals.keep,
        )
    )
