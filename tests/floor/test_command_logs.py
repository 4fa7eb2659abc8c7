"""Every line logged while a command runs names it: command, command id, actor,
role, profile (issue 20, Observability; floor.logs; docs/operations.md, "Logs").
A line logged after it carries none of its fields, and FLOOR_LOG_FORMAT=json
makes each line a JSON object."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import subprocess
import sys

import pytest
from django.conf import settings

from floor.kernel.errors import DomainError
from floor.kernel.web.gateway import perform
from floor.logs import CommandFilter, JsonLineFormatter, TextFormatter
from tests.support.floor import new_id

pytestmark = pytest.mark.django_db

log = logging.getLogger("tests.command_logs")


@pytest.fixture
def lines():
    """The lines logged meanwhile, as the JSON handler of a deployment writes them."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(CommandFilter())
    handler.setFormatter(JsonLineFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    level = root.level
    root.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    root.removeHandler(handler)
    root.setLevel(level)


@pytest.fixture
def talkative(floor_app, monkeypatch):
    """The floor application's open_sector, logging a line as it decides."""
    original = floor_app.open_sector

    def open_sector(actor, command_id, **arguments):
        log.info("deciding %s", arguments["name"])
        return original(actor, command_id, **arguments)

    monkeypatch.setattr(floor_app, "open_sector", open_sector)
    return floor_app


def test_a_line_logged_during_a_command_names_it_and_none_after(talkative, make_user, lines):
    dora = make_user("dora", "director")
    command_id = new_id()
    log.info("before")
    perform("open_sector", dora, command_id, name="Sector L")
    log.info("after")

    before, during, after = (line for line in lines() if line["logger"] == log.name)
    assert during["message"] == "deciding Sector L"
    assert {k: during[k] for k in ("command", "command_id", "actor", "role", "profile")} == {
        "command": "open_sector",
        "command_id": command_id,
        "actor": "dora",
        "role": "director",
        "profile": talkative.profile.code,
    }
    assert (during["level"], during["time"][:2]) == ("INFO", "20")
    for line in (before, after):
        assert not {"command", "command_id", "actor", "role", "profile"} & set(line), line


def test_a_refused_command_logs_its_actor_without_a_role(talkative, make_user, lines):
    jaime = make_user("jaime", "jefe_sector")  # a jefe opens no sector
    command_id = new_id()
    with pytest.raises(DomainError):
        perform("open_sector", jaime, command_id, name="Sector M")
    (during,) = (line for line in lines() if line["logger"] == log.name)
    assert (during["command_id"], during["actor"], during["command"]) == (
        command_id,
        "jaime",
        "open_sector",
    )
    assert "role" not in during  # none of his roles may


def test_an_exception_logged_in_a_command_keeps_its_traceback_and_fields(lines):
    from floor.logs import command_logging

    with command_logging(command="end_hand", command_id="c-7", actor="cris", role=None):
        try:
            raise ValueError("bad pot")
        except ValueError:
            log.exception("hand not ended")
    (line,) = lines()
    assert (line["command_id"], line["actor"]) == ("c-7", "cris")
    assert "ValueError: bad pot" in line["exc_info"]


def test_the_text_format_shows_the_command_in_brackets():
    from floor.logs import command_logging

    record = logging.LogRecord("floor.x", logging.INFO, __file__, 1, "seated", (), None)
    with command_logging(command="seat_player", command_id="c-1", actor="jaime"):
        CommandFilter().filter(record)
    text = TextFormatter().format(record)
    assert text.endswith("INFO floor.x: seated [command=seat_player command_id=c-1 actor=jaime]")


def test_floor_log_format_json_makes_every_line_json():
    """The setting, as a deployment sets it: a process of the service logs JSON."""
    code = (
        "import logging\n"
        "from floor.logs import command_logging\n"
        "with command_logging(command='open_table', command_id='c-9', actor='jaime'):\n"
        "    logging.getLogger('floor.x').warning('opened')\n"
    )
    env = {**os.environ, "FLOOR_LOG_FORMAT": "json"}
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (line,) = [json.loads(x) for x in done.stderr.splitlines() if '"floor.x"' in x]
    assert (line["message"], line["command_id"], line["actor"], line["level"]) == (
        "opened",
        "c-9",
        "jaime",
        "WARNING",
    )


def test_a_request_names_its_lines_and_the_command_it_runs(talkative, api_as, lines):
    """The proxy's X-Request-ID (or one made here) is on the request's lines,
    the command's among them, and comes back on the answer."""
    director = api_as("dora", "director")
    command_id = new_id()
    response = director.post(
        "/api/sectors/",
        {"command_id": command_id, "name": "Sector R"},
        format="json",
        HTTP_X_REQUEST_ID="req-42.a",
    )
    assert response.status_code == 201, response.content
    assert response["X-Request-ID"] == "req-42.a"
    (during,) = (line for line in lines() if line["logger"] == log.name)
    assert (during["request_id"], during["command_id"], during["actor"]) == (
        "req-42.a",
        command_id,
        "dora",
    )
    log.info("after")
    assert "request_id" not in lines()[-1]


@pytest.mark.parametrize("given", ["", "has space", "x" * 101, "ñ", "a\nb"])
def test_a_request_id_a_client_garbled_is_replaced(given, client):
    response = client.get("/healthz", HTTP_X_REQUEST_ID=given)
    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])


def test_django_s_own_line_about_a_refused_request_names_it(api_as, lines):
    """django.request logs a 4xx after the middleware returned: still the request's."""
    response = api_as("dora", "director").post(
        "/api/sectors/", {"command_id": "not a uuid"}, format="json", HTTP_X_REQUEST_ID="req-400"
    )
    assert response.status_code == 400
    (line,) = (line for line in lines() if line["logger"] == "django.request")
    assert (line["level"], line["request_id"]) == ("WARNING", "req-400")
