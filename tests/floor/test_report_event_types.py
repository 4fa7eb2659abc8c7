"""Reports select the journal's events by the event classes they declare, not
by module-path strings: every class a report names is one the library stores
under a topic it resolves back to that class, so moving a class cannot
silently empty a report (floor.selectors.journal)."""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from eventsourcing.domain import CanMutateAggregate
from eventsourcing.utils import get_topic, register_topic, resolve_topic

import floor.reports
import ledger.reports
from floor.selectors.journal import event_types_of, topics_of

# The reports: the floor's, and the books' (the cage's, their parts of the rake
# and history reports).
PACKAGES = (floor.reports, ledger.reports)


def _event_types(value: object) -> set[type]:
    """The event classes a report's constant names: itself, or those in a
    tuple, list, set or dict's keys."""
    if isinstance(value, type) and issubclass(value, CanMutateAggregate):
        return {value}
    if isinstance(value, dict):
        value = list(value)
    if isinstance(value, (tuple, list, set, frozenset)):
        return {t for item in value for t in _event_types(item)}
    return set()


def report_modules(name: str) -> list:
    """The report modules called ``name`` (the floor's, the books' part or both)."""
    return [
        importlib.import_module(f"{package.__name__}.{name}")
        for package in PACKAGES
        if name in {info.name for info in pkgutil.iter_modules(package.__path__)}
    ]


def named_by_reports() -> dict[str, set[type]]:
    """Report module -> the event classes its module-level names declare (a
    report split between the floor and the books: both parts' together)."""
    named: dict[str, set[type]] = {}
    for package in PACKAGES:
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            found = set()
            for name, value in vars(module).items():
                if not name.startswith("_") and name.isupper():
                    found |= _event_types(value)
            if found:
                named.setdefault(info.name, set()).update(found)
    return named


def test_reports_name_event_classes_not_topic_strings():
    named = named_by_reports()
    # Each report replaying the journal declares what it reads.
    assert {"tables", "rake", "occupancy", "clocks", "waiting", "cage_moves", "history"} <= set(
        named
    )
    for name in ("common", "history", "cage_moves", "rake", "table_at", "waiting"):
        modules = report_modules(name)
        assert modules, f"no report module {name}"
        for module in modules:
            with open(module.__file__, encoding="utf-8") as text:
                assert "_TOPIC" not in text.read(), f"{module.__name__} names a topic string"


@pytest.mark.parametrize(
    "event",
    sorted({t for found in named_by_reports().values() for t in found}, key=lambda t: get_topic(t)),
    ids=get_topic,
)
def test_every_event_a_report_names_resolves_back_from_its_topic(event):
    """The library stores an event under ``get_topic(cls)`` and reads it back
    with ``resolve_topic``: a report's class must survive the round trip."""
    assert resolve_topic(get_topic(event)) is event
    assert get_topic(event) in topics_of([event])


def test_a_moved_class_still_selects_the_events_stored_under_its_old_topic():
    """A class moved and its old topic registered (as the library asks):
    the selector asks for both topics."""

    class Moved:
        pass

    old = "floor.reports.somewhere_gone:Moved"
    register_topic(old, Moved)
    assert topics_of([Moved]) == [get_topic(Moved), old]


def test_all_events_of_an_aggregate_are_its_declared_event_classes():
    from floor.kernel.command_record import CommandRecord
    from ledger.domain.gaming_day import GamingDay

    assert CommandRecord.Recorded in event_types_of(CommandRecord)
    assert {GamingDay.Opened, GamingDay.Counted, GamingDay.ExceptionExplained} <= set(
        event_types_of(GamingDay)
    )
    assert all(resolve_topic(get_topic(t)) is t for t in event_types_of(GamingDay))
