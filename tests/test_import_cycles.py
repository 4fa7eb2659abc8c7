"""No new import cycle among games, floor, ledger and config (issue 21).

Cycles are found by tests/support/import_cycles.py (grimp; imports inside
functions and under TYPE_CHECKING count), between files, between subpackages
and between top-level packages. None is allowed between files. The cycles
below were there when this test was written and belong to other parts of
issue 21 (the shared kernel, the command registry); each may shrink or go, and
the test fails only on a cycle that is not inside a known one.

Run the script to see them: ``.venv/bin/python -m tests.support.import_cycles``.
"""

from __future__ import annotations

from tests.support.import_cycles import all_cycles, cycles

KNOWN = {
    "modules": [],
    "subpackages": [
        # floor_app builds one application with the cage's commands, which use
        # floor's command service (issue 21 item 2: a kernel both depend on).
        {"floor.application", "ledger.application"},
        # floor.forms reads amounts with floor.console.amounts; the sector
        # console uses the forms.
        {"floor.console", "floor.forms"},
    ],
    "packages": [
        # ledger's API reuses floor's API and gateway, floor's application
        # books through ledger's; config wires both (urls, celery) and
        # floor.health reads config.celery.
        {"config", "floor", "ledger"},
    ],
}


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
