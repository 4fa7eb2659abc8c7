"""deploy/'s systemd units start here and serve the console (issue 20, "What a
casino's IT deploys": checked in CI by at least starting them).

Each unit is read as systemd would read it (tests.support.units): its
Environment=, then the environment file (deploy/floor.env.example with this
test's database, broker, port and key), its ExecStart= with /opt/floor swapped
for this checkout. Then, on a PostgreSQL database of the test's own and Redis:
floor-migrate runs, and floor-web (two gunicorn workers), floor-worker@1 and @2,
floor-beat and floor-projector start; ``check --deploy`` is clean with that
environment, /healthz answers 200, a director logs in through the "proxy"
(X-Forwarded-Proto, an https:// Origin, Secure cookies) and the console serves,
plain HTTP is redirected, both workers answer a ping, and every unit stops
cleanly on SIGTERM, as systemd stops them.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.support.processes import ROOT
from tests.support.require import require
from tests.support.scratch_pg import scratch_database
from tests.support.units import exec_start, read_env_file, read_unit, relocated, unit_env
from tests.support.wait import wait_until

pytestmark = pytest.mark.integration

DEPLOY = ROOT / "deploy"
VENV_BIN = Path(sys.executable).parent
ENV_FILE = "/etc/floor/floor.env"
SERVICES = ["floor-web", "floor-worker@", "floor-beat", "floor-projector", "floor-migrate"]


def redis_url() -> str:
    """A Redis database for this test's broker (FLOOR_TEST_REDIS_URL)."""
    return os.environ.get("FLOOR_TEST_REDIS_URL", "redis://127.0.0.1:6379/11")


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def settings_read_by_the_service() -> set[str]:
    """Every environment variable config/ reads."""
    names: set[str] = set()
    for path in (ROOT / "config").glob("*.py"):
        names |= set(
            re.findall(r'"((?:FLOOR|DJANGO|POSTGRES|CELERY|DATABASE)_[A-Z_]+)"', path.read_text())
        )
    names.discard("DJANGO_SETTINGS_MODULE")
    names.discard("FLOOR_SQLITE_TEST_PATH")  # the test suite's, not a deployment's
    return names


def test_the_env_example_lists_every_setting_and_every_unit_reads_it():
    example = (DEPLOY / "floor.env.example").read_text()
    missing = sorted(name for name in settings_read_by_the_service() if name not in example)
    assert not missing, f"deploy/floor.env.example does not list {missing}"
    for name in SERVICES:
        unit = read_unit(DEPLOY / f"{name}.service")
        assert unit.values("Service", "EnvironmentFile") == [ENV_FILE], name
        assert unit.value("Service", "WorkingDirectory") == "/opt/floor", name
        if name != "floor-migrate":
            assert unit.value("Install", "WantedBy") == "floor.target", name
    # Every variable an ExecStart= names has a default in its unit.
    for path in DEPLOY.glob("*.service"):
        unit = read_unit(path)
        line = unit.value("Service", "ExecStart") or ""
        named = set(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", line)) - {"MAINPID"}
        defaults = " ".join(unit.values("Service", "Environment"))
        assert all(f"{var}=" in defaults for var in named), (path.name, named)


def get(url: str, data: bytes | None = None, **headers: str) -> tuple[int, str, dict[str, str]]:
    """Status, body and headers (Set-Cookie joined), without following a
    redirect; a POST when ``data`` is given."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, data=data, headers=headers)

    def headers_of(message) -> dict[str, str]:
        found = dict(message.items())
        found["Set-Cookie"] = "; ".join(message.get_all("Set-Cookie") or [])
        return found

    try:
        with opener.open(request, timeout=5) as answer:
            return answer.status, answer.read().decode(), headers_of(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), headers_of(error.headers)
    except OSError:
        return 0, "", {}


DIRECTOR_PASSWORD = "units-test-" + secrets.token_urlsafe(12)
CREATE_DIRECTOR = (
    "from django.contrib.auth.models import Group, User; "
    f"u = User.objects.create_user('director', password={DIRECTOR_PASSWORD!r}); "
    "u.groups.add(Group.objects.get_or_create(name='director')[0])"
)


def log_in(base: str, username: str, password: str) -> bool:
    """Logs in as a browser behind the TLS proxy would; True when the console
    then serves. Cookies are carried by hand: they are Secure, and this side of
    the proxy is plain HTTP."""
    origin = "https://" + base.removeprefix("http://")
    proxy = {"X-Forwarded-Proto": "https"}
    status, body, headers = get(f"{base}/accounts/login/", **proxy)
    assert status == 200
    assert "Secure" in headers.get("Set-Cookie", ""), headers.get("Set-Cookie")
    csrf = re.search(r"csrftoken=([^;]+)", headers["Set-Cookie"]).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    form = urllib.parse.urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": token}
    ).encode()
    status, _body, headers = get(
        f"{base}/accounts/login/",
        data=form,
        **proxy,
        Cookie=f"csrftoken={csrf}",
        Origin=origin,
        Referer=f"{origin}/accounts/login/",
    )
    if status != 302:
        return False
    session = re.search(r"sessionid=([^;]+)", headers.get("Set-Cookie", "")).group(1)
    status, body, _headers = get(f"{base}/", **proxy, Cookie=f"sessionid={session}")
    return status == 200 and "director" in body


def healthy(base: str) -> dict | None:
    status, body, _headers = get(f"{base}/healthz")
    if status != 200:
        return None
    answer = json.loads(body)
    return answer if answer.get("status") == "ok" else None


def test_the_units_start_serve_the_console_and_stop_cleanly(tmp_path):
    broker = redis_url()
    require(redis_answers(broker), f"no Redis at {broker}")
    with scratch_database("floor_units") as database_url, ExitStack() as stack:
        port = free_port()
        env_file = tmp_path / "floor.env"
        overrides = {
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": broker,
            "FLOOR_VAR_DIR": str(tmp_path / "var"),
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_CSRF_TRUSTED_ORIGINS": f"https://127.0.0.1:{port}",
            "FLOOR_AUDIT_KEY": secrets.token_urlsafe(32),
            "FLOOR_WEB_BIND": f"127.0.0.1:{port}",
            "FLOOR_WEB_WORKERS": "2",
            "FLOOR_WORKER_CONCURRENCY": "1",
            "FLOOR_SWEEP_SECONDS": "1",
        }
        example = read_env_file(DEPLOY / "floor.env.example")
        assert set(overrides) <= set(example) | {"FLOOR_SWEEP_SECONDS"}
        env_file.write_text("".join(f"{k}={v}\n" for k, v in {**example, **overrides}.items()))
        # What systemd gives a service, and nothing of this shell's.
        base_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}

        def prepared(name: str, instance: str = "") -> tuple[list[str], dict[str, str], Path]:
            unit = read_unit(DEPLOY / f"{name}.service")
            env = {**base_env, **unit_env(unit, env_file, instance)}
            command = exec_start(unit, env, ROOT, VENV_BIN, instance)
            cwd = Path(unit.value("Service", "WorkingDirectory").replace("/opt/floor", str(ROOT)))
            return command, env, cwd

        def start(name: str, instance: str = "") -> subprocess.Popen:
            command, env, cwd = prepared(name, instance)
            log = (tmp_path / f"{name}{instance}.log").open("wb")
            stack.callback(log.close)
            process = subprocess.Popen(
                command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT
            )
            stack.callback(stop, process)  # even when the test fails
            return process

        def logs() -> str:
            return "\n".join(
                f"--- {p.name}\n{p.read_text()[-3000:]}" for p in tmp_path.glob("*.log")
            )

        # floor-migrate: the oneshot an install or upgrade runs first.
        command, env, cwd = prepared("floor-migrate")
        done = subprocess.run(
            command, cwd=cwd, env=env, capture_output=True, text=True, timeout=240
        )
        assert done.returncode == 0, done.stdout + done.stderr
        # The same environment passes Django's deployment checklist...
        manage = [str(VENV_BIN / "python"), "manage.py"]
        done = subprocess.run(
            [*manage, "check", "--deploy", "--fail-level", "WARNING"],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "no issues" in done.stdout
        # ...and a director logs in with it (the console's first user).
        done = subprocess.run(
            [*manage, "shell", "-c", CREATE_DIRECTOR],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr

        units = {
            "web": start("floor-web"),
            "worker1": start("floor-worker@", "1"),
            "worker2": start("floor-worker@", "2"),
            "beat": start("floor-beat"),
            "projector": start("floor-projector"),
        }
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until(lambda: healthy(base), timeout=120, what="/healthz to answer 200 ok")
            # Through the TLS proxy (it sets X-Forwarded-Proto): the login page.
            status, body, _h = get(f"{base}/accounts/login/", **{"X-Forwarded-Proto": "https"})
            assert status == 200
            assert 'name="csrfmiddlewaretoken"' in body
            # Logging in through the proxy: CSRF checks the https:// origin
            # (DJANGO_CSRF_TRUSTED_ORIGINS), the cookies are Secure, the console serves.
            assert log_in(base, "director", DIRECTOR_PASSWORD), "the director's login failed"
            # Straight to gunicorn over plain HTTP: sent to HTTPS, but the monitors'
            # /healthz is answered.
            status, _body, headers = get(f"{base}/accounts/login/")
            assert status == 301
            assert headers["Location"].startswith("https://")
            # Both worker instances are up, by their unit's names.
            host = socket.gethostname()
            ping = [str(VENV_BIN / "celery"), "-A", "config", "inspect", "ping", "--timeout", "3"]
            ping += ["-d", f"worker1@{host},worker2@{host}"]
            _cmd, worker_env, _cwd = prepared("floor-worker@", "1")

            def both_answer() -> bool:
                done = subprocess.run(
                    ping, cwd=ROOT, env=worker_env, capture_output=True, text=True, timeout=60
                )
                return done.stdout.count("pong") == 2

            wait_until(both_answer, timeout=90, what="both workers to answer a ping", interval=1)
            # The web server runs two workers under its arbiter.
            children = subprocess.run(
                ["pgrep", "-P", str(units["web"].pid)], capture_output=True, text=True
            ).stdout.split()
            assert len(children) == 2
            for name, process in units.items():
                assert process.poll() is None, f"{name} exited early"
        except AssertionError as error:
            raise AssertionError(f"{error}\n{logs()}") from error

        # systemd's stop: SIGTERM to each; all exit by themselves, cleanly.
        for process in units.values():
            process.send_signal(signal.SIGTERM)
        for name, process in units.items():
            code = process.wait(timeout=60)
            assert code == 0, f"{name} exited with {code}\n{logs()}"


def stop(process: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL if it has not gone within 30 s."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


def test_systemd_finds_nothing_to_say_about_the_units(tmp_path):
    """systemd's own parser (systemd-analyze verify) on the units, relocated to
    this checkout: an unknown key or a bad value, which tests.support.units
    would let pass, is reported."""
    analyze = shutil.which("systemd-analyze")
    require(analyze is not None, "systemd-analyze is not installed")
    names = []
    for path in [*DEPLOY.glob("*.service"), DEPLOY / "floor.target"]:
        text = relocated(path.read_text(), ROOT, VENV_BIN).replace(
            ENV_FILE, str(DEPLOY / "floor.env.example")
        )
        (tmp_path / path.name).write_text(text)
        names.append(f"./{path.name}")
    done = subprocess.run(
        [analyze, "verify", "--man=no", *names],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout + done.stderr == ""


def test_the_example_as_shipped_refuses_to_start_without_a_secret_key(tmp_path):
    """A copy of the example not filled in does not serve with a known key."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        **read_env_file(DEPLOY / "floor.env.example"),
        "FLOOR_VAR_DIR": str(tmp_path / "var"),
    }
    done = subprocess.run(
        [str(VENV_BIN / "python"), "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY" in done.stderr
