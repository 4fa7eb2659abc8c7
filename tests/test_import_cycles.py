"""No new import cycle among games, floor, ledger and config (issue 21).

Cycles are found by tests/support/import_cycles.py (grimp; imports inside
functions and under TYPE_CHECKING count), between files, between subpackages
and between top-level packages. None is allowed between files. The cycles
known below are none: since issue 21 the floor imports nothing of the ledger,
and the ledger reaches the floor only through its kernel and its ports (the
ledger plugs itself in, ledger.apps). The test fails on any cycle that is not
inside a known one.

Run the script to see them: ``.venv/bin/python -m tests.support.import_cycles``.
"""

from __future__ import annotations

from tests.support.import_cycles import all_cycles, cycles

KNOWN: dict[str, list[set[str]]] = {"modules": [], "subpackages": [], "packages": []}


def test_no_import_cycle_but_the_known_ones():
    found = all_cycles()
    new = {
        level: [
            cycle
            for cycle in level_cycles
            if not any(set(cycle) <= known for known in KNOWN[level])
        ]
        for level, level_cycles in found.items()
    }
    assert new == {level: [] for level in found}, new


def test_the_cycle_finder_finds_a_cycle_and_nothing_else():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [("a", "b", "c")]
    assert cycles({"a": {"b"}, "b": set()}) == []
