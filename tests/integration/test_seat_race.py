"""Two jefes seat two players in the same seat at the same moment, on real
PostgreSQL (make test's second pass) and on SQLite (its first): one succeeds,
the other is refused ``seat_taken`` (409 through the API), and no event is lost.

Two applications with their own connections stand for two gunicorn workers;
a barrier holds both saves until both commands have decided on the same free
seat, so the race happens every run rather than by luck.
"""

from __future__ import annotations

import threading
import uuid

import pytest

from floor.domain.player import Player
from floor.domain.table import Table
from floor.kernel.errors import DomainError
from floor.messages import STATUS_BY_KIND
from games.profiles import PT
from tests.support.floor import DIRECTOR, JEFE, new_id

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

PT_HOLDEM = {
    "variant": "texas_holdem",
    "limit": "no_limit",
    "minimum_cents": 200,
    "maximum_cents": 1000,
    "seats": 10,
}


def running_table(app) -> tuple[str, int]:
    """A PT table running with four players drawn, nobody waiting, and one of
    its free seats (the draw decides which seats are taken)."""
    sector = app.open_sector(DIRECTOR, new_id(), name="Race").result["sector_id"]
    table = app.open_table(JEFE, new_id(), sector_id=sector, **PT_HOLDEM).result["table_id"]
    for n in range(1, 7):
        app.register_player(JEFE, new_id(), card_number=f"R{n}", display_name=f"Racer {n}")
    for n in range(1, 5):
        app.join_waiting_list(JEFE, new_id(), player=f"R{n}", table_id=table)
    app.draw_seats(JEFE, new_id(), table_ids=[table])
    return table, app.repository.get(uuid.UUID(table)).free_seats()[0]


def race(apps, table_id: str, seat: int) -> list[object]:
    """Both apps seat a different player in ``seat``; saves wait for each other."""
    barrier = threading.Barrier(len(apps))
    results: list[object] = [None] * len(apps)

    for app in apps:
        original = app.save

        def save(*objs, _app=app, _original=original, **kwargs):
            if not getattr(_app, "_raced", False):
                _app._raced = True
                barrier.wait(timeout=20)  # both decided on a free seat
            return _original(*objs, **kwargs)

        app.save = save

    def attempt(i: int, app, card: str) -> None:
        try:
            results[i] = app.seat_player(JEFE, new_id(), table_id=table_id, player=card, seat=seat)
        except DomainError as refused:
            results[i] = refused

    threads = [
        threading.Thread(target=attempt, args=(i, app, f"R{5 + i}")) for i, app in enumerate(apps)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_jefes_seating_the_same_seat_at_once_one_wins_one_is_refused(make_app):
    first, second = make_app("PT"), make_app("PT")
    table_id, seat = running_table(first)
    before = first.recorder.max_notification_id()

    results = race([first, second], table_id, seat=seat)

    refused = [r for r in results if isinstance(r, DomainError)]
    seated = [r for r in results if not isinstance(r, DomainError)]
    assert len(seated) == 1 and len(refused) == 1, results
    assert refused[0].code == "seat_taken"
    assert STATUS_BY_KIND[refused[0].kind] == 409

    # Nothing lost, nothing half-done: exactly the winner's events were added,
    # with no gap in the log, and the table and both players agree.
    winner_events = first.recorder.max_notification_id() - before
    notifications = first.recorder.select_notifications(start=before + 1, limit=100)
    assert [n.id for n in notifications] == list(range(before + 1, before + 1 + winner_events))
    assert {n.originator_id for n in notifications} >= {uuid.UUID(table_id)}
    table = second.repository.get(uuid.UUID(table_id))
    sitting = table.occupant(seat)["player_id"]
    assert uuid.UUID(seated[0].result["player_id"]).hex == sitting
    loser_card = "R6" if sitting == Player.create_id("R5").hex else "R5"
    loser = second.repository.get(Player.create_id(loser_card))
    assert loser.seated_at is None
    assert isinstance(table, Table) and table.player_count == 5


def test_a_taken_seat_is_a_409_with_its_code_through_the_api(api_as, floor_app):
    jefe = api_as("jaime", "jefe_sector")
    floor_app.profile = PT
    table_id, seat = running_table(floor_app)
    body = {"command_id": new_id(), "player": "R5", "seat": seat}
    seated = jefe.post(f"/api/tables/{table_id}/seat/", body, format="json")
    assert seated.status_code == 201, seated.json()
    before = floor_app.recorder.max_notification_id()
    body = {"command_id": new_id(), "player": "R6", "seat": seat}
    refused = jefe.post(f"/api/tables/{table_id}/seat/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "seat_taken"
    assert floor_app.recorder.max_notification_id() == before
