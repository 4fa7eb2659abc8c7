"""Import cycles among our packages (games, floor, ledger, config), found with
grimp, the graph library under import-linter (issue 21: "no import cycle
remains between packages or between files").

Run it from the repository's root; it prints every cycle and exits 1 if any:

    .venv/bin/python -m tests.support.import_cycles

grimp reads every import statement of a module, wherever it stands: at the top,
inside a function, or under ``if TYPE_CHECKING:`` (we build the graph with
``exclude_type_checking_imports=False``, its default), so a cycle hidden in a
function or behind TYPE_CHECKING counts.

A cycle is reported as a strongly connected component of the import graph at
three levels: between files (modules), between subpackages (``floor.domain``,
``ledger.application``: the first two parts of a module's name) and between
top-level packages. tests/test_import_cycles.py fails on any cycle but the
known ones it lists.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import grimp

PACKAGES = ("games", "floor", "ledger", "config")
ROOT = Path(__file__).resolve().parents[2]


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports directly."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=False, cache_dir=None)
    return {
        module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules
    }


def collapsed(graph: Mapping[str, set[str]], name: Callable[[str], str]) -> dict[str, set[str]]:
    """The graph between the groups ``name`` puts modules in (a group's own
    imports dropped)."""
    groups: dict[str, set[str]] = {name(module): set() for module in graph}
    for module, imported in graph.items():
        groups[name(module)].update(
            name(other) for other in imported if name(other) != name(module)
        )
    return groups


def cycles(graph: Mapping[str, Iterable[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one node (Tarjan's
    algorithm, iterative): each is a set of nodes that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(tuple(sorted(component)))
    return sorted(found)


def all_cycles() -> dict[str, list[tuple[str, ...]]]:
    """The cycles between files, between subpackages and between packages."""
    graph = import_graph()
    return {
        "modules": cycles(graph),
        "subpackages": cycles(collapsed(graph, lambda m: ".".join(m.split(".")[:2]))),
        "packages": cycles(collapsed(graph, lambda m: m.split(".")[0])),
    }


def main() -> int:
    found = all_cycles()
    for level, level_cycles in found.items():
        for cycle in level_cycles:
            print(f"{level}: {' <-> '.join(cycle)}")
    if not any(found.values()):
        print("no import cycle")
    return 1 if any(found.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
