"""The raw store's append rate for the saves a run of commands made (issue 23:
HTTP commands >= 0.3x "the raw store's append rate for saves of the same events").

Run by bench/commands.py in the scratch stores of a backend, once its HTTP
rounds are done: reads every event the floor recorded there, groups them by
the command that saved them (each command's events, its idempotency record
among them, are one save), and appends each group, in the log's order and as
stored (the same topics and encoded states), with one ``insert_events`` of the
library's own recorder into a fresh store beside the floor's: on SQLite a new
file with the library's settings, on PostgreSQL a new schema of the scratch
database. No application, aggregate, projection or HTTP: the floor of what a
save costs on that backend, one writer at a time.

Prints one JSON object: ``saves``, ``events``, ``seconds``, ``saves_per_s``.

Usage (bench/commands.py runs it): DJANGO_SETTINGS_MODULE=bench.settings
    .venv/bin/python -m bench.raw_store SCRATCH_DIR
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import django

RAW_SCHEMA = "raw_store_bench"
PAGE = 1000


def recorded_saves() -> list[list[Any]]:
    """The floor's log as stored, cut into the saves that wrote it: the
    events a command saved share its command id (every event names it) and
    lie together in the log."""
    from eventsourcing.persistence import StoredEvent

    from floor.runtime import floor_app

    app = floor_app()
    saves: list[list[StoredEvent]] = []
    last_command = None
    start = 0
    while notifications := app.recorder.select_notifications(
        start=start, limit=PAGE, inclusive_of_start=False
    ):
        for notification in notifications:
            command = getattr(app.mapper.to_domain_event(notification), "command_id", None)
            stored = StoredEvent(
                originator_id=notification.originator_id,
                originator_version=notification.originator_version,
                topic=notification.topic,
                state=notification.state,
            )
            if command is None or command != last_command or not saves:
                saves.append([])
            saves[-1].append(stored)
            last_command = command
        start = notifications[-1].id
    return saves


def raw_recorder(scratch: Path):
    """The library's application recorder on a fresh store of the floor's
    backend, made with the floor's own library settings but for its place."""
    from django.db import connection
    from eventsourcing.persistence import InfrastructureFactory
    from eventsourcing.utils import Environment

    from floor.runtime import event_store_env

    env = event_store_env(create_tables=True)
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        env["SQLITE_DBNAME"] = str(scratch / "raw-events.sqlite3")
    else:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP SCHEMA IF EXISTS {RAW_SCHEMA} CASCADE")
            cursor.execute(f"CREATE SCHEMA {RAW_SCHEMA}")
        env["POSTGRES_SCHEMA"] = RAW_SCHEMA
    env["CREATE_TABLE"] = "yes"
    factory = InfrastructureFactory.construct(Environment(name="RawStoreBench", env=env))
    return factory, factory.application_recorder()


def measure(scratch: Path) -> dict[str, Any]:
    saves = recorded_saves()
    factory, recorder = raw_recorder(scratch)
    try:
        started = time.perf_counter()
        for save in saves:
            recorder.insert_events(save)
        seconds = time.perf_counter() - started
        written = recorder.max_notification_id() or 0
    finally:
        factory.close()
    events = sum(len(save) for save in saves)
    if written != events:
        raise SystemExit(f"the raw store holds {written} events of the {events} appended")
    return {
        "saves": len(saves),
        "events": events,
        "seconds": round(seconds, 3),
        "saves_per_s": round(len(saves) / seconds, 1) if seconds else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scratch", type=Path)
    scratch = parser.parse_args().scratch
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    django.setup()
    print(json.dumps(measure(scratch)))


if __name__ == "__main__":
    main()
