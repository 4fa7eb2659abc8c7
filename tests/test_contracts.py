"""The import contracts cover the whole tree (pyproject.toml, [tool.importlinter]).

A forbidden contract names modules one by one: a module added to floor/ later
would escape "the kernel imports nothing of floor" and "the ledger imports
nothing of the floor but its kernel" unless it is added to them. This test
says so as soon as it happens (issue 21: the cycle cannot return)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def floor_children() -> set[str]:
    floor = ROOT / "floor"
    return {
        "floor." + (path.stem if path.suffix == ".py" else path.name)
        for path in floor.iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists())
    } - {"floor.kernel"}


def contract(name: str) -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    found = [c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == name]
    assert len(found) == 1, name
    return found[0]


def test_the_kernel_and_the_ledger_are_kept_from_every_module_of_the_floor():
    children = floor_children()
    assert {"floor.domain", "floor.selectors", "floor.api"} <= children
    kernel = set(
        contract("the kernel imports nothing of floor or ledger outside itself")[
            "forbidden_modules"
        ]
    )
    assert kernel == children | {"ledger"}
    ledger = set(
        contract("the ledger imports nothing of the floor but its kernel and its ports")[
            "forbidden_modules"
        ]
    )
    # The ledger's one door into the floor: its ports (floor.ports).
    assert ledger == children - {"floor.ports"}
