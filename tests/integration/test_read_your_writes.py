"""Read-your-writes with the projector as its own process (issue 23, item 1).

A real gunicorn (FLOOR_READ_MODELS="projector", the default) and a real
``run_projector`` on this lane's stores (SQLite, or PostgreSQL, where the
projector wakes on the store's NOTIFY). A command answered over HTTP shows its
own effect on the next read. With the projector stopped a command still
answers, 202 read_models_lagging, and the read models do not move: the request
applied nothing itself, not even its own command. Started again, the
projector shows it.
"""

from __future__ import annotations

import json
import signal
import socket
import urllib.error
import urllib.request
import uuid

import pytest

from floor.logins import issue_token
from floor.models import ProjectionPosition, SchedulerHeartbeat
from tests.support.processes import BIN, manage, running, service_env
from tests.support.wait import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# The bounded wait of a request, short here so that the stopped projector shows soon.
READ_YOUR_WRITES_SECONDS = "1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call(base: str, token: str, method: str, path: str, body: dict | None = None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path,
        data=data,
        method=method,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def answering(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=5):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


def open_sector(base: str, token: str, name: str):
    return call(
        base, token, "POST", "/api/sectors/", {"command_id": str(uuid.uuid4()), "name": name}
    )


def sector_names(base: str, token: str) -> list[str]:
    return [s["name"] for s in call(base, token, "GET", "/api/sectors/")[1]]


def projector_up() -> bool:
    """Its heartbeat is written once it runs (floor.liveness)."""
    return SchedulerHeartbeat.objects.filter(name="projector").exists()


def position() -> int:
    row = ProjectionPosition.objects.filter(name="floor").first()
    return row.position if row else 0


def test_the_projector_process_shows_each_command_and_the_request_projects_nothing(
    floor_app, make_user, tmp_path
):
    token = issue_token(make_user("dora", "director"))[1]
    env = service_env(
        tmp_path / "events.sqlite3",
        FLOOR_READ_MODELS="projector",
        FLOOR_READ_YOUR_WRITES_SECONDS=READ_YOUR_WRITES_SECONDS,
    )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    web = [str(BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}"]
    web += ["--workers", "2", "--timeout", "60"]
    projector = manage("run_projector")

    with running(web, env, tmp_path / "web.log"):
        wait_until(lambda: answering(base), timeout=60, what="gunicorn to answer")
        with running(projector, env, tmp_path / "projector-1.log") as first:
            wait_until(projector_up, timeout=60, what="the projector to run")
            # Read-your-writes, command after command, each shown at once.
            for name in ("Sector A", "Sector B", "Sector C"):
                status, sector = call(
                    base,
                    token,
                    "POST",
                    "/api/sectors/",
                    {"command_id": str(uuid.uuid4()), "name": name},
                )
                assert status == 201, sector
                status, shown = call(base, token, "GET", f"/api/sectors/{sector['id']}/")
                assert (status, shown["name"]) == (200, name)
            first.send_signal(signal.SIGTERM)
            assert first.wait(timeout=30) == 0
        assert position() == floor_app.last_position()

        # The projector stopped: the command is recorded and answered 202, and
        # nothing was projected, its own command included.
        before = position()
        status, body = call(
            base,
            token,
            "POST",
            "/api/sectors/",
            {"command_id": str(uuid.uuid4()), "name": "Sector D"},
        )
        assert (status, body["code"]) == (202, "read_models_lagging"), body
        assert floor_app.last_position() > before
        assert position() == before
        assert "Sector D" not in sector_names(base, token)

        # Back: the projector shows it, without another command.
        with running(projector, env, tmp_path / "projector-2.log"):
            wait_until(
                lambda: (
                    "Sector D" in [s["name"] for s in call(base, token, "GET", "/api/sectors/")[1]]
                ),
                timeout=30,
                what="the restarted projector to show Sector D",
            )
        assert position() == floor_app.last_position()
