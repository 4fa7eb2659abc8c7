"""The import contracts cover the whole tree (pyproject.toml, [tool.importlinter]).

A forbidden contract names modules one by one: a module added to floor/ later
would escape "the kernel imports nothing of floor" and "the ledger imports
nothing of the floor but its kernel" unless it is added to them. This test
says so as soon as it happens (issue 21: the cycle cannot return). Likewise the
kernel's modules but its web part are listed one by one as free of Django.
"""

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
    # The floor's ports are the ledger's door into it (floor/ports/__init__.py).
    assert ledger == children - {"floor.ports"}


def kernel_core() -> set[str]:
    """The kernel's modules but its web part (floor.kernel.web)."""
    kernel = ROOT / "floor" / "kernel"
    return {
        "floor.kernel." + path.stem for path in kernel.glob("*.py") if path.stem != "__init__"
    } | {
        "floor.kernel." + path.name
        for path in kernel.iterdir()
        if path.is_dir() and (path / "__init__.py").exists() and path.name != "web"
    }


def test_only_the_kernels_web_part_may_import_django():
    core = kernel_core()
    assert {"floor.kernel.registry", "floor.kernel.service"} <= core
    assert "floor.kernel.web" not in core
    free = set(contract("domain modules import no Django")["source_modules"])
    assert core <= free
    assert "floor.kernel.web" not in free and "floor.kernel" not in free
    layers = contract("floor layers point one way")["layers"]
    assert "floor.kernel.web" in layers
    assert {m.strip() for m in layers[-1].split(":")} == core
