"""The OpenAPI schema's common answers, added to every operation.

Each view documents what it answers itself; what every endpoint answers alike
(no or a bad token, a role that may not, an unknown id in the path) is added here
once, so the committed schema (docs/openapi.yaml) lists every error response a
client can meet. drf-spectacular runs this as a postprocessing hook, and a
second one that keeps the schema the same whichever database generated it.
"""

from __future__ import annotations

from typing import Any

ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}

COMMON = {
    "401": "Not logged in: no token or session, or a token that is not valid",
    "403": "Logged in, but the role may not do this",
}
NOT_FOUND = "Nothing with that id"


def common_error_responses(result: dict[str, Any], **_kwargs: Any) -> dict[str, Any]:
    """Adds 401, 403 and (for a path with an id) 404 where a view left them out."""
    for path, operations in result.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            wanted = dict(COMMON)
            if "{" in path:
                wanted["404"] = NOT_FOUND
            if not any(operation.get("security") or []):
                continue  # open to anyone (the token endpoint): nothing to refuse
            for code, description in wanted.items():
                responses.setdefault(code, {"content": ERROR, "description": description})
    return result


# The integer bounds Django derives from the database in use (SQLite's 64 bits,
# PostgreSQL's 16, 32 or 64 by column): a schema carrying them would differ by
# backend. The serializers still refuse what the database cannot hold (400).
BACKEND_BOUNDS = {2**15 - 1, -(2**15), 2**31 - 1, -(2**31), 2**63 - 1, -(2**63)}


def backend_free_integers(result: dict[str, Any], **_kwargs: Any) -> dict[str, Any]:
    """Drops the database's integer bounds (and the int64 format they bring)."""
    _strip_bounds(result)
    return result


def _strip_bounds(node: Any) -> None:
    if isinstance(node, dict):
        if node.get("type") == "integer":
            stripped = False
            for bound in ("maximum", "minimum"):
                if node.get(bound) in BACKEND_BOUNDS:
                    del node[bound]
                    stripped = True
            if stripped and node.get("format") == "int64":
                del node["format"]
        for value in node.values():
            _strip_bounds(value)
    elif isinstance(node, list):
        for value in node:
            _strip_bounds(value)
