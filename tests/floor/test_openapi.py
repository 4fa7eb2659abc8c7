"""The OpenAPI schema: committed, complete, valid, and the API keeps to it.

docs/openapi.yaml is what drf-spectacular generates, byte for byte (regenerate
it with `manage.py spectacular --file docs/openapi.yaml` after changing an
endpoint); every /api/ route is in it and every operation lists the errors a
client can meet. Then schemathesis sends each operation generated requests,
as each role in turn and without a token, and no answer may be a server error.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import schemathesis
import yaml
from django.conf import settings
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, note
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error

from floor.domain.roles import Role

COMMITTED = Path(settings.BASE_DIR) / "docs" / "openapi.yaml"
# People's roles (the clock is the service's own) and nobody logged in.
ROLES = [role.value for role in Role if role is not Role.CLOCK]


def generated(tmp_path: Path) -> str:
    out = tmp_path / "openapi.yaml"
    call_command("spectacular", "--file", str(out), "--validate", "--fail-on-warn")
    return out.read_text()


def test_the_committed_schema_is_the_generated_one(tmp_path):
    assert COMMITTED.read_text() == generated(tmp_path), (
        "docs/openapi.yaml is stale: run `manage.py spectacular --file docs/openapi.yaml`"
    )


def api_routes(patterns=None, prefix: str = "") -> set[str]:
    """Every route Django serves under /api/, as OpenAPI paths ({name} for <type:name>)."""
    routes = set()
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            routes |= api_routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and route.startswith("api/"):
            routes.add("/" + _openapi_path(route))
    return routes - {"/api/schema/", "/api/docs/"}  # the schema and its browser


def _openapi_path(route: str) -> str:
    parts = []
    for piece in route.split("<"):
        if ">" in piece:
            name, rest = piece.split(">", 1)
            parts.append("{" + name.split(":")[-1] + "}" + rest)
        else:
            parts.append(piece)
    return "".join(parts)


def test_every_api_route_is_in_the_schema():
    paths = set(yaml.safe_load(COMMITTED.read_text())["paths"])
    assert api_routes() - paths == set()
    assert "/api/tables/{table_id}/hands/end/" in paths  # the walk sees nested routes


def test_every_operation_lists_its_errors():
    schema = yaml.safe_load(COMMITTED.read_text())
    lacking = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            wanted = set()
            if any(operation.get("security") or []):
                wanted |= {"401", "403"}
            if "{" in path:
                wanted.add("404")
            if method in ("post", "put", "patch"):
                wanted.add("400")
            if wanted - codes:
                lacking.append(f"{method.upper()} {path}: {sorted(wanted - codes)}")
            for code in codes - {"200", "201", "204"}:
                body = operation["responses"][code].get("content", {}).get("application/json")
                if body is None:
                    lacking.append(f"{method.upper()} {path} {code}: no JSON error body")
    assert lacking == []


# --- schemathesis: generated requests, every role, no server error -----------


@pytest.fixture
def in_process_requests():
    """Like Django's test client: a request must not close the test's database
    connection at its end (the test runs in one transaction)."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def served_schema():
    """The schema as the app serves it; its requests go to the app in-process."""
    from config.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.fixture
def tokens(floor_app, make_user) -> dict[str, str | None]:
    """A token per role, on this test's own floor (a scratch event store)."""
    from floor.logins import issue_token

    found: dict[str, str | None] = {"nobody": None}
    for role in ROLES:
        found[role] = issue_token(make_user(f"fuzz-{role}", role))[1]
    return found


schema = served_schema()


@schema.parametrize()
@hypothesis_settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)
@pytest.mark.django_db
def test_no_request_makes_a_server_error(case, tokens, in_process_requests):
    for role, token in tokens.items():
        note(f"as {role}")  # shown with a failing example
        headers = {"Authorization": f"Token {token}"} if token else {}
        response = case.call(headers=headers)
        case.validate_response(response, checks=[not_a_server_error])
