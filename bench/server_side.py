"""What the bench does inside the server's environment, as a short-lived process.

Run by bench/commands.py as ``python -m bench.server_side setup`` (after
migrate, before gunicorn starts: two users, their tokens, the event store's
tables) and ``python -m bench.server_side count`` (after the run: how many
events the store and the journal hold). Each prints one JSON line, which is how
the driver learns the answer without importing Django itself.
"""

from __future__ import annotations

import argparse
import json
import os

import django

# Role (a group made by the migrations) -> the bench user who holds it.
BENCH_USERS = {"director": "bench-director", "jefe_sector": "bench-jefe"}

PAGE = 1000  # events read per query when counting
MAX_PAGES = 10_000  # a bound on the count loop far above any bench run


def make_users() -> dict[str, str]:
    """Creates (or reuses) a user per role and returns role -> API token."""
    from django.contrib.auth.models import Group, User

    from floor.logins import issue_token

    tokens = {}
    for role, username in BENCH_USERS.items():
        user, _ = User.objects.get_or_create(username=username)
        user.groups.set([Group.objects.get(name=role)])
        tokens[role] = issue_token(user)[1]  # a new one each run; it lasts a shift
    return tokens


def create_event_store() -> int:
    """Builds the floor application once, which creates the event store's tables,
    as ``make run`` does through load_demo_floor before the web server starts;
    the gunicorn workers then find the tables there instead of racing to make
    them on their first request."""
    from floor.runtime import floor_app

    return floor_app().last_position()


def setup() -> dict[str, object]:
    """Everything the server needs before it takes its first request."""
    tokens = make_users()
    return {"tokens": tokens, "last_position": create_event_store()}


def count() -> dict[str, object]:
    """Events in the store and rows in the journal: positions can skip (a
    PostgreSQL sequence is not rolled back), so the events are counted, not
    subtracted. A lost or doubled event shows as a difference. The journal's
    rows are also counted per command id, with their topics, so that the driver
    can check each command it sent against what that command recorded."""
    from django.db.models import Count

    from floor.models import EventJournalEntry
    from floor.runtime import floor_app

    recorder = floor_app().recorder
    stored, start = 0, 0
    for _ in range(MAX_PAGES):
        page = recorder.select_notifications(start=start, limit=PAGE, inclusive_of_start=False)
        if not page:
            break
        stored += len(page)
        start = page[-1].id
    per_command = EventJournalEntry.objects.values("command_id").annotate(n=Count("position"))
    topics = EventJournalEntry.objects.values("command_id", "topic").annotate(n=Count("position"))
    by_topic: dict[str, dict[str, int]] = {}
    for row in topics:
        by_topic.setdefault(row["command_id"], {})[row["topic"]] = row["n"]
    return {
        "stored": stored,
        "journal": EventJournalEntry.objects.count(),
        "by_command": {row["command_id"]: row["n"] for row in per_command},
        "topics_by_command": by_topic,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("task", choices=("setup", "count"))
    task = parser.parse_args().task
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    django.setup()
    print(json.dumps(setup() if task == "setup" else count()))


if __name__ == "__main__":
    main()
